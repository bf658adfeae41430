// Runs a Fetch-API handler under node:http or Express. The raw request bytes are handed over as they
// arrived, so the handler applies its own content-type, size and strict UTF-8 JSON rules to what the
// sender sent (a body parser's object has lost them; the callback signature then covers the canonical
// JSON of the parsed body, docs/server.md). Mount it before any body parser, or behind express.raw().
// The request and response are typed by the members used (node-types.ts); the body is read in
// node-body.ts, the answer written in node-response.ts.
// pay-form's own handlers are run through their logic directly (handler-logic.ts): no Request is built unless
// the merchant's resolve or authorize asks for one, and their answer is written without a Response.
import { MAX_REQUEST_BYTES, TOO_LARGE_MESSAGE, failureBody } from '../../service/body.js';
import { requestWithBytes } from './known-bodies.js';
import { nativeLogic, replyWith, type Answer, type FetchHandler, type Incoming, type Reply } from './handler-logic.js';
import { BodyConsumedError, BodyTooLarge, collectBody } from './node-body.js';
import type { NodeHandler, NodeRequest, NodeResponse } from './node-types.js';
import { sendResponse, writeAnswer } from './node-response.js';

export { BodyConsumedError } from './node-body.js';
export type { NodeHandler, NodeRequest, NodeResponse } from './node-types.js';

function nodeUrl(req: NodeRequest): URL {
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  return new URL(req.url ?? '/', `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`);
}

/** A Request with the node:http request's method, URL and headers, and `body` unless it is undefined
 *  (or the method is GET or HEAD). */
function toRequest(req: NodeRequest, url: URL, body: Uint8Array | undefined, signal: AbortSignal | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  return requestWithBytes(url, method, headers, hasBody ? new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength) : undefined, signal);
}

/** What node:http already holds, as pay-form's handlers read it (handler-logic.ts), and where their answer
 *  goes; the same facts a Request built by toRequest would give (node:http has already trimmed and
 *  joined header values). A class, not an object of closures: one allocation per request, and all a
 *  status wait keeps of it (with the request and response node:http holds anyway). The URL and the
 *  Request are made only when a handler asks, once each, and not kept: a waiting request must not hold
 *  them. The callback handler needs neither, so it answers even a Host that makes no URL, where the
 *  Fetch path (which needs a URL for its Request) answers 500. */
class NodeIncoming implements Incoming, Reply {
  constructor(
    private readonly req: NodeRequest,
    private readonly res: NodeResponse,
    private readonly body: Uint8Array,
    private readonly next: ((error?: unknown) => void) | undefined,
  ) {}
  answered(answer: Answer): void {
    try {
      writeAnswer(answer, this.res);
    } catch (error) {
      this.failed(error);
    }
  }
  failed(error: unknown): void {
    crashed(error, this.res, this.next);
  }
  get method(): string {
    return this.req.method ?? 'GET';
  }
  header(name: string): string | null {
    const value = this.req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  async bytes(): Promise<Uint8Array | undefined> {
    const { body, req } = this;
    return body.byteLength > MAX_REQUEST_BYTES || Number(req.headers['content-length']) > MAX_REQUEST_BYTES ? undefined : body;
  }
  url(): URL {
    return nodeUrl(this.req);
  }
  /** A response destroyed before it finished: its client went away (node:http destroys it on close). */
  left(): boolean {
    return this.res.destroyed && !this.res.writableFinished;
  }
  /** For resolve and authorize: the handler has read the body already (they get it parsed), so the
   *  Request carries none, as on a Fetch runtime where reading it used it up (docs/server.md). Nor a
   *  signal: one following the client's would tie this Request to a status wait for all of its life. */
  request(): Request {
    return toRequest(this.req, this.url(), undefined, undefined);
  }
}

/** For GET and HEAD under any other handler, a Request signal that aborts when the client goes away
 *  before the answer. The POST handlers answer at once and do not need one, so they do not pay for it. */
function goneSignal(req: NodeRequest, res: NodeResponse): AbortSignal | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const gone = new AbortController();
  res.once('close', () => res.writableFinished || gone.abort());
  return gone.signal;
}

export interface NodeHandlerOptions {
  /** The answer to a body over the size cap (default: 413 `{ success: false, message }`); the
   *  connection is closed after it, rather than the rest read. */
  tooLarge?: () => Response | Promise<Response>;
}

const defaultTooLarge = () =>
  new Response(JSON.stringify(failureBody(TOO_LARGE_MESSAGE)), {
    status: 413,
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
  });

/** What a handler's failure answers: `next(error)` under Express, else 500 (the body says why only for a
 *  consumed body, a setup mistake the developer must see), or the connection dropped once headers went. */
function crashed(error: unknown, res: NodeResponse, next: ((error?: unknown) => void) | undefined): void {
  if (next) return next(error);
  if (!res.headersSent) {
    const message = error instanceof BodyConsumedError ? error.message : 'Internal error';
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(failureBody(message)));
  } else {
    res.destroy();
  }
}

/** Answers a body over the cap at once and closes the connection rather than read (or drain) the rest. */
async function refuseTooLarge(tooLarge: () => Response | Promise<Response>, res: NodeResponse): Promise<void> {
  res.shouldKeepAlive = false;
  await sendResponse(await tooLarge(), res);
}

/** `(req, res, next?)` for node:http (`http.createServer(toNodeHandler(h))`) and Express (`app.post(path, toNodeHandler(h))`). */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const tooLarge = options.tooLarge ?? defaultTooLarge;
  const logic = nativeLogic(handler);
  return (req, res, next) => {
    const fail = (error: unknown) => crashed(error, res, next);
    if (logic !== undefined) {
      // pay-form's own handler: its answer without a Request or a Response in between. A method a
      // Fetch Request cannot carry (TRACE; node:http itself refuses TRACK and hands CONNECT to
      // 'connect' listeners) gets its 405 here too. The answer goes to the request's own object (its
      // Reply): a status wait holds that object and its Waiting, and no frame, closure or promise.
      collectBody(req).then(
        (body) => {
          const incoming = new NodeIncoming(req, res, body, next);
          try {
            replyWith(logic(incoming), incoming);
          } catch (error) {
            incoming.failed(error);
          }
        },
        (error: unknown) => (error instanceof BodyTooLarge ? refuseTooLarge(tooLarge, res).catch(fail) : fail(error)),
      );
      return;
    }
    const run = async () => {
      let body: Uint8Array;
      try {
        body = await collectBody(req);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        await refuseTooLarge(tooLarge, res);
        return;
      }
      // Any other handler never gets TRACE (a Fetch Request refuses to carry it): not the handler's
      // mistake, nor a server error.
      if (req.method?.toUpperCase() === 'TRACE') {
        res.writeHead(501, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(failureBody('TRACE is not supported')));
        return;
      }
      await sendResponse(await handler(toRequest(req, nodeUrl(req), body, goneSignal(req, res))), res);
    };
    run().catch(fail);
  };
}
