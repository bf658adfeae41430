// Two ways into pay-form's own handlers, one logic behind both. Each handler is written once over an
// Incoming (method, headers, body bytes, URL, and a Request only for the merchant's own callbacks) and
// returns an Answer (status, headers, text). The public Fetch shape `(request) => Promise<Response>` wraps
// that logic for every runtime; under node:http, toNodeHandler finds the same logic under a private
// symbol and calls it with what node:http already holds, so no Request or Response is built for a
// request the handler answers by itself: on Node those two objects were most of a handler's cost.
// The symbol is not exported from the package: it is no public API, and any wrapper of a handler (a
// plain function around it) simply takes the Fetch path.
import { MAX_REQUEST_BYTES, readCapped } from '../../service/body.js';
import { knownRequestBytes, responseWithText } from './known-bodies.js';
import type { Thenable } from '../telemetry/step.js';

export type FetchHandler = (request: Request) => Promise<Response>;

/** What a handler answers, before it is a Response; `text` null for an answer without a body. */
export class Answer {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly text: string | null,
  ) {}
}

/** One request, as the handlers read it. */
export interface Incoming {
  readonly method: string;
  /** As Headers.get: the value, or null when absent. */
  header(name: string): string | null;
  /** The body within MAX_REQUEST_BYTES, or undefined when it is larger (declared or sent). */
  bytes(): Promise<Uint8Array | undefined>;
  url(): URL;
  /** A Request for the merchant's callbacks (resolve, authorize): built on first use under node:http, and
   *  then without its body, which the handler has read (they get it parsed). */
  request(): Request;
  /** Whether the client went away before the answer (under toNodeHandler, the response destroyed;
   *  otherwise the Request's signal aborted): read by the status waits' sweep, so a waiting request
   *  needs no listener of its own. */
  left(): boolean;
}

/** What a handler's logic hands back: a promise of its Answer, or a status wait's own record
 *  (status-handler.ts), a thenable of one `then`, so a waiting request holds no promise. Read with one
 *  `then(answered, failed)`, `await`, or (a Deferred) `replyTo`. */
export type Answering = Thenable<Answer> | Deferred;

/** Where one request's answer goes, or its handler's failure: toNodeHandler's own request object. */
export interface Reply {
  answered(answer: Answer): void;
  failed(error: unknown): void;
}

/** An answer to come that also takes its Reply as an object (a status wait): under toNodeHandler the
 *  request's own object takes it, so a waiting request holds no closure of the adapter's either. */
export interface Deferred extends Thenable<Answer> {
  replyTo(reply: Reply): void;
}

/** Hands `answering` its reply: as the object itself to a Deferred, else through `then`. */
export function replyWith(answering: Answering, reply: Reply): void {
  if ('replyTo' in answering) answering.replyTo(reply);
  else answering.then((answer) => reply.answered(answer), (error: unknown) => reply.failed(error));
}

export type HandlerLogic = (incoming: Incoming) => Answering;

/** An Answering handed back from a promise's callback: the promise adopts any thenable (calling its `then`
 *  with its own resolve and reject, and reading nothing of what it returns), which PromiseLike's type
 *  does not say. */
export const adopted = (answering: Answering): PromiseLike<Answer> => answering as PromiseLike<Answer>;

const nativeEntry = Symbol('pay-form.native');

type WithNative = FetchHandler & { [nativeEntry]?: HandlerLogic };

/** An Incoming over a Fetch Request: the body from toNodeHandler's kept bytes, else read (capped). A
 *  class, not an object of closures: one allocation per request, and a waiting request keeps only it. */
class FetchIncoming implements Incoming {
  constructor(private readonly incoming: Request) {}
  get method(): string {
    return this.incoming.method;
  }
  header(name: string): string | null {
    return this.incoming.headers.get(name);
  }
  async bytes(): Promise<Uint8Array | undefined> {
    const request = this.incoming;
    const declared = request.headers.get('content-length');
    const known = knownRequestBytes(request);
    if (known !== undefined && known.byteLength <= MAX_REQUEST_BYTES && !(Number(declared) > MAX_REQUEST_BYTES)) return known;
    const read = await readCapped(request.body, MAX_REQUEST_BYTES, declared);
    return read.ok ? read.bytes : undefined;
  }
  url(): URL {
    return new URL(this.incoming.url);
  }
  request(): Request {
    return this.incoming;
  }
  left(): boolean {
    return this.incoming.signal.aborted;
  }
}

function toResponse(answer: Answer): Response {
  const init = { status: answer.status, headers: answer.headers };
  return answer.text === null ? new Response(null, init) : responseWithText(answer.text, init);
}

/** The public Fetch-API handler for `logic`, carrying `logic` itself for toNodeHandler. */
export function fetchHandler(logic: HandlerLogic): FetchHandler {
  const handler: WithNative = async (request) => toResponse(await logic(new FetchIncoming(request)));
  handler[nativeEntry] = logic;
  return handler;
}

/** The logic behind one of pay-form's own handlers, or undefined for any other function. */
export function nativeLogic(handler: FetchHandler): HandlerLogic | undefined {
  return (handler as WithNative)[nativeEntry];
}
