// What the handlers share: JSON answers and the checks of a JSON request body. Every answer is JSON;
// failures use the service's shape (docs/service-contract.md, Errors) `{ success: false, message }`
// with our own fixed words, never upstream internals or a secret. The handlers themselves:
// token-handler.ts, callback-handler.ts, status-handler.ts; their two entries (Fetch and node:http): native.ts.
import { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES, TOO_LARGE_MESSAGE, failureBody, isJsonContentType, jsonHeaders, parseJsonObject } from '../../service/body.js';
import { Answer, type Incoming } from './handler-logic.js';
import type { JsonValue } from '../../service/signature.js';

export { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES };
export type { FetchHandler } from './handler-logic.js';

export function answer(status: number, body: Record<string, JsonValue>, headers: Record<string, string> = {}): Answer {
  return new Answer(status, jsonHeaders(headers), JSON.stringify(body));
}

export const failure = (status: number, message: string, headers?: Record<string, string>): Answer =>
  answer(status, failureBody(message), headers);

/** Method, size, content type and JSON checks shared by the POST handlers: a JSON object or an Answer. */
export async function readJsonObject(incoming: Incoming): Promise<Record<string, unknown> | Answer> {
  if (incoming.method !== 'POST') return failure(405, 'Method not allowed', { allow: 'POST' });
  if (!isJsonContentType(incoming.header('content-type'))) return failure(400, INVALID_JSON_MESSAGE);
  const bytes = await incoming.bytes();
  if (bytes === undefined) return failure(413, TOO_LARGE_MESSAGE);
  const parsed = parseJsonObject(bytes);
  return parsed.ok ? parsed.value : failure(400, INVALID_JSON_MESSAGE);
}
