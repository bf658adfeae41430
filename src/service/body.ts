// Reading bodies with a hard cap, the JSON content-type test, JSON object parsing, the service's
// failure shape and the headers of a JSON answer, shared by the client (answers from the service), the
// handlers (requests from the browser and the service), the sandbox (requests from the client) and the
// demo shop. Plain functions over web-platform globals, as this room imports nothing. Reading the stream
// ourselves means a huge body is cut off at the cap instead of being buffered whole.

/** Request bodies larger than this answer 413, in the handlers, toNodeHandler and the sandbox
 *  (docs/service-contract.md, Limits: the service shows none, so pay-form chose one). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** The 413's words, the same from a handler and from toNodeHandler's default. */
export const TOO_LARGE_MESSAGE = 'Request body too large';

/** The service's message for a wrong content type or malformed JSON (docs/service-contract.md, Errors). */
export const INVALID_JSON_MESSAGE = 'Invalid ContentType or json format';

/** The headers of every JSON answer pay-form writes (the handlers, the sandbox, the demo shop):
 *  never cached, since each carries one request's outcome. Extra headers follow them. */
export function jsonHeaders(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra };
}

/** A JSON answer as a Fetch Response, with jsonHeaders. */
export function jsonResponse(status: number, body: unknown, extra?: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers: jsonHeaders(extra) });
}

/** The service's failure shape, before it is signed: `{ success: false, message }`. */
export function failureBody(message: string): { success: false; message: string } {
  return { success: false, message };
}

/** `application/json`, or any `+json` type, with or without parameters such as charset. */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  // The service's and the element's own header, as sent: no need to split and lower-case it.
  if (header === 'application/json' || header === 'application/json; charset=utf-8') return true;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

export type CappedBody = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-large' };

/**
 * Reads a whole body of at most `cap` bytes. A declared Content-Length over the cap is refused before
 * reading; a stream that grows past it is cancelled at that point. Stream errors (an abort, a cut
 * connection) propagate to the caller.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
  declaredLength: string | null,
): Promise<CappedBody> {
  if (declaredLength !== null && Number(declaredLength) > cap) {
    await body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'too-large' };
  }
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: 'too-large' };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

export type ParsedObject =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; reason: 'not-json' | 'not-object' };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Deepest nesting of arrays and objects parseJsonObject accepts. The service's own bodies nest two
 *  levels; the bound keeps recursive code after the parse (canonical JSON for the signature) from
 *  running out of stack on a body of thousands of brackets (docs/service-contract.md, Limits). */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests deeper than `max`; brackets inside strings do not count. */
function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Strict UTF-8 and JSON nested at most MAX_JSON_DEPTH deep; only a JSON object (not an array, not
 *  a scalar) is accepted. */
export function parseJsonObject(bytes: Uint8Array): ParsedObject {
  let value: unknown;
  try {
    const text = strictUtf8.decode(bytes);
    if (nestsDeeper(text, MAX_JSON_DEPTH)) return { ok: false, reason: 'not-json' };
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'not-object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
