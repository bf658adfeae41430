// pay-form/sandbox: a local payment service faithful to the seed, for development, tests and the demo.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INVALID_JSON_MESSAGE } from '../server/handlers.js';
import { BodyTooLarge, readNodeBody } from '../server/node-adapter.js';
import { API_ENDPOINTS, failure, parseJsonBody, signedAnswer, type ApiAnswer, type ApiContext } from './api.js';
import { CallbackQueue, type CallbackDelivery } from './callbacks.js';
import { matchOpenPath, openForm, settle, type HtmlAnswer } from './form.js';
import { InvoiceBook, type Invoice } from './invoices.js';
import { resolveOptions, type SandboxOptions } from './options.js';

export { INVALID_JSON_MESSAGE } from '../server/handlers.js';
export type { CallbackAttempt, CallbackDelivery, CallbackPayload, DeliveryState } from './callbacks.js';
export { TRANSITIONS, type Invoice, type InvoiceKind, type InvoiceStatus } from './invoices.js';
export { SandboxOptionsError, type CallbackRetryOptions, type SandboxOptions } from './options.js';

/** Bodies above this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface ReceivedRequest {
  method: string;
  path: string;
  status: number;
}

export interface Sandbox {
  /** The base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly merchantId: string;
  /** Every invoice so far (copies), payments and payouts. */
  invoices(): Invoice[];
  /** Every callback and each attempt to deliver it (copies). */
  callbacks(): CallbackDelivery[];
  /** Every request the sandbox answered, in order. */
  requests(): ReceivedRequest[];
  /** Resolves when no callback is waiting to be delivered. */
  callbacksIdle(): Promise<void>;
  /** Stops the server, every retry timer and every open connection. */
  close(): Promise<void>;
}

const API_ALLOW = 'POST';

async function answerApi(ctx: ApiContext, req: http.IncomingMessage, pathname: string): Promise<ApiAnswer | undefined> {
  const endpoint = API_ENDPOINTS[pathname];
  if (!endpoint) return undefined;
  if (req.method !== 'POST') return failure(405, `Method not allowed: use ${API_ALLOW}`);
  let raw: string;
  try {
    // Drained after an overflow, so the client's keep-alive connection stays usable for the 413.
    raw = (await readNodeBody(req, MAX_BODY_BYTES, { drain: true })).toString('utf8');
  } catch (error) {
    if (error instanceof BodyTooLarge) return failure(413, `Request body too large (over ${MAX_BODY_BYTES} bytes)`);
    throw error;
  }
  const parsed = parseJsonBody(req.headers['content-type'], raw);
  if (!parsed.ok) return failure(400, INVALID_JSON_MESSAGE);
  return endpoint(ctx, parsed.value);
}

async function answerForm(ctx: ApiContext, req: http.IncomingMessage, pathname: string): Promise<HtmlAnswer | undefined> {
  const match = matchOpenPath(pathname);
  if (!match) return undefined;
  if (match.action === undefined) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodRefusal('GET, HEAD');
    return openForm(ctx, match.key);
  }
  if (req.method !== 'POST') return methodRefusal('POST');
  req.resume();
  return settle(ctx, match.key, match.action, req.headers.origin, `http://${req.headers.host ?? ''}`);
}

function methodRefusal(allow: string): HtmlAnswer {
  return {
    status: 405,
    body: `Method not allowed: use ${allow}\n`,
    headers: { allow, 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const book = new InvoiceBook();
  const callbacks = new CallbackQueue(resolved.callbackUrl, resolved.secret, resolved.callbackRetry, resolved.log);
  const received: ReceivedRequest[] = [];
  const ctx: { -readonly [K in keyof ApiContext]: ApiContext[K] } = { options: resolved, book, callbacks, url: '' };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const pathname = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
    const record = (status: number) => {
      received.push({ method: req.method ?? '', path: pathname, status });
      resolved.log(`${req.method} ${pathname} ${status}`);
    };
    const api = await answerApi(ctx, req, pathname);
    if (api) {
      const answer = await signedAnswer(ctx, api);
      const extra: Record<string, string> = answer.status === 405 ? { allow: API_ALLOW } : {};
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra });
      res.end(JSON.stringify(answer.body));
      record(answer.status);
      await answer.after?.();
      return;
    }
    const page = await answerForm(ctx, req, pathname);
    if (page) {
      res.writeHead(page.status, page.headers);
      res.end(req.method === 'HEAD' ? undefined : page.body);
      record(page.status);
      return;
    }
    req.resume();
    const notFound = await signedAnswer(ctx, failure(404, `Not found: ${pathname}`));
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(notFound.body));
    record(404);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      resolved.log(`sandbox error: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal sandbox error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ctx.url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: ctx.url,
    merchantId: resolved.merchantId,
    invoices: () => structuredClone(book.list()),
    callbacks: () => structuredClone([...callbacks.deliveries()]),
    requests: () => structuredClone(received),
    callbacksIdle: () => callbacks.idle(),
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await callbacks.close();
        await stopped;
      })();
      return closing;
    },
  };
}
