// pay-form/sandbox: a local payment service faithful to docs/service-contract.md, for development, tests and the demo.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, type FetchHandler } from '../server/index.js';
import { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES, isJsonContentType, jsonResponse as json, parseJsonObject, readCapped } from '../service/body.js';
import { API_ENDPOINTS, failure, signedAnswer, type ApiAnswer, type ApiContext, type ApiEndpoint } from './api.js';
import { CallbackQueue, type CallbackDelivery } from './callbacks.js';
import { matchOpenPath, openForm, settle, type HtmlAnswer } from './form.js';
import { InvoiceBook, type Invoice } from './invoices.js';
import { OPEN_FORM_PATH } from '../service/paths.js';
import { resolveOptions, type SandboxOptions } from './options.js';

export { INVALID_JSON_MESSAGE } from '../service/body.js';
export type { CallbackAttempt, CallbackDelivery, CallbackPayload, DeliveryState } from './callbacks.js';
export { TRANSITIONS, type Invoice, type InvoiceKind, type InvoiceStatus } from './invoices.js';
export { SECRET_ENV, SandboxOptionsError, type CallbackRetryOptions, type SandboxOptions } from './options.js';

/** Bodies above this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = MAX_REQUEST_BYTES;

export interface ReceivedRequest {
  method: string;
  path: string;
  status: number;
}

export interface Sandbox {
  /** The base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly merchantId: string;
  /** The invoices kept (copies, the latest `maxInvoices`), payments and payouts. */
  invoices(): Invoice[];
  /** The callbacks kept and each attempt to deliver them (copies; see `maxRecords`). */
  callbacks(): CallbackDelivery[];
  /** The requests the sandbox answered, in order (the latest `maxRecords`), form keys shown as `{key}`. */
  requests(): ReceivedRequest[];
  /** Resolves when no callback is waiting to be delivered. */
  callbacksIdle(): Promise<void>;
  /** Stops the server, every retry timer and every open connection. */
  close(): Promise<void>;
}

const API_ALLOW = 'POST';

async function answerApi(ctx: ApiContext, request: Request, endpoint: ApiEndpoint): Promise<ApiAnswer> {
  if (request.method !== 'POST') return failure(405, `Method not allowed: use ${API_ALLOW}`);
  // toNodeHandler has already refused a body over MAX_REQUEST_BYTES (with tooLargeAnswer below).
  const read = await readCapped(request.body, MAX_BODY_BYTES, request.headers.get('content-length'));
  if (!read.ok) return failure(413, TOO_LARGE);
  const parsed = isJsonContentType(request.headers.get('content-type')) ? parseJsonObject(read.bytes) : undefined;
  if (parsed === undefined || (!parsed.ok && parsed.reason === 'not-json')) return failure(400, INVALID_JSON_MESSAGE);
  // Valid JSON that is not an object is a request with no fields: the field rules refuse it by name.
  return endpoint(ctx, parsed.ok ? parsed.value : null);
}

async function answerForm(ctx: ApiContext, request: Request, pathname: string): Promise<HtmlAnswer | undefined> {
  const match = matchOpenPath(pathname);
  if (!match) return undefined;
  if (match.action === undefined) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodRefusal('GET, HEAD');
    return openForm(ctx, match.key);
  }
  if (request.method !== 'POST') return methodRefusal('POST');
  return settle(ctx, match.key, match.action, request.headers.get('origin') ?? undefined, new URL(request.url).origin);
}

function methodRefusal(allow: string): HtmlAnswer {
  return {
    status: 405,
    body: `Method not allowed: use ${allow}\n`,
    headers: { allow, 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  };
}

/** `/api/jsapi/open/{key}/…` with the key replaced by `{key}`; any other path as it is. */
function redactKey(pathname: string): string {
  if (!pathname.startsWith(OPEN_FORM_PATH)) return pathname;
  const tail = pathname.slice(OPEN_FORM_PATH.length);
  const slash = tail.indexOf('/');
  return `${OPEN_FORM_PATH}{key}${slash < 0 ? '' : tail.slice(slash)}`;
}

const ROOT_TEXT = 'pay-form sandbox: a local payment service for development (docs/sandbox.md)\n';
const ROOT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

const TOO_LARGE = `Request body too large (over ${MAX_BODY_BYTES} bytes)`;

/**
 * The sandbox as one Fetch handler, served through pay-form/server's toNodeHandler like a merchant's
 * own. `after` work (a payout's callback) starts once the answer has been written: toNodeHandler writes
 * it in the same turn the handler resolves, and setImmediate runs after that turn.
 */
function sandboxHandler(ctx: ApiContext, record: (request: Request, status: number) => void): FetchHandler {
  return async (request) => {
    const pathname = new URL(request.url).pathname;
    const endpoint = API_ENDPOINTS[pathname];
    if (endpoint) {
      const answer = await signedAnswer(ctx, await answerApi(ctx, request, endpoint));
      record(request, answer.status);
      if (answer.after) ctx.callbacks.later(answer.after);
      return json(answer.status, answer.body, answer.status === 405 ? { allow: API_ALLOW } : {});
    }
    const page = await answerForm(ctx, request, pathname);
    if (page) {
      record(request, page.status);
      return new Response(page.body, { status: page.status, headers: page.headers });
    }
    if (pathname === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      // The element's reachability probe (a no-cors HEAD to the service's origin) and a person
      // checking the address both get a plain 200.
      record(request, 200);
      return new Response(request.method === 'HEAD' ? null : ROOT_TEXT, { status: 200, headers: ROOT_HEADERS });
    }
    const notFound = await signedAnswer(ctx, failure(404, `Not found: ${pathname}`));
    record(request, 404);
    return json(404, notFound.body);
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const book = new InvoiceBook(Date.now, resolved.maxInvoices);
  const callbacks = new CallbackQueue(resolved.callbackUrl, resolved.secret, resolved.callbackRetry, resolved.log, resolved.maxRecords);
  const received: ReceivedRequest[] = [];
  const ctx: { -readonly [K in keyof ApiContext]: ApiContext[K] } = { options: resolved, book, callbacks, url: '' };

  const record = (request: Request, status: number) => {
    // A form key opens the form: it is a bearer secret, so neither the log nor requests() keeps it.
    const path = redactKey(new URL(request.url).pathname);
    received.push({ method: request.method, path, status });
    if (received.length > resolved.maxRecords) received.splice(0, received.length - resolved.maxRecords);
    resolved.log(`${request.method} ${path} ${status}`);
  };
  const handler = sandboxHandler(ctx, record);
  const tooLarge = async () => json(413, (await signedAnswer(ctx, failure(413, TOO_LARGE))).body, { connection: 'close' });
  const server = http.createServer(
    toNodeHandler(
      async (request) => {
        try {
          return await handler(request);
        } catch (error) {
          resolved.log(`sandbox error: ${error instanceof Error ? error.stack : String(error)}`);
          return new Response('Internal sandbox error\n', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
        }
      },
      { tooLarge },
    ),
  );
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
