// What the Fetch-API handlers share, `(request: Request) => Promise<Response>`: JSON answers and the
// checks of a JSON request body. Every answer is JSON; failures use the service's shape
// (docs/service-contract.md, Errors) `{ success: false, message }` with our own fixed words, never
// upstream internals or a secret. The handlers themselves: token-handler.ts, callback-handler.ts,
// status-handler.ts.
import { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES, failureBody, isJsonContentType, parseJsonObject, readCapped } from '../service/body.js';
import { knownRequestBytes, responseWithText } from './known-bodies.js';
import { ConfigError } from './errors.js';
import type { FieldIssue } from '../service/fields.js';
import type { JsonValue } from '../service/signature.js';

export { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES };

export type FetchHandler = (request: Request) => Promise<Response>;

export function answer(status: number, body: Record<string, JsonValue>, headers: Record<string, string> = {}): Response {
  return responseWithText(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export const failure = (status: number, message: string, headers?: Record<string, string>): Response =>
  answer(status, failureBody(message), headers);

/** Method, size, content type and JSON checks shared by the POST handlers: a JSON object or a Response. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown> | Response> {
  if (request.method !== 'POST') return failure(405, 'Method not allowed', { allow: 'POST' });
  if (!isJsonContentType(request.headers.get('content-type'))) return failure(400, INVALID_JSON_MESSAGE);
  const declared = request.headers.get('content-length');
  // toNodeHandler's raw bytes when it built this Request; the stream (capped) for anyone else's.
  const known = knownRequestBytes(request);
  let bytes: Uint8Array;
  if (known !== undefined && known.byteLength <= MAX_REQUEST_BYTES && !(Number(declared) > MAX_REQUEST_BYTES)) {
    bytes = known;
  } else {
    const read = await readCapped(request.body, MAX_REQUEST_BYTES, declared);
    if (!read.ok) return failure(413, 'Request body too large');
    bytes = read.bytes;
  }
  const parsed = parseJsonObject(bytes);
  return parsed.ok ? parsed.value : failure(400, INVALID_JSON_MESSAGE);
}

export function requireOptions(issues: FieldIssue[]): void {
  if (issues.length > 0) throw new ConfigError(issues);
}
