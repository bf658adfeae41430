// Bodies known without reading a stream. toNodeHandler already holds a request's raw bytes, and the
// handlers already hold the JSON text of the answers they build; handing those over directly spares
// a web-stream round trip per request (a reader, several promise hops, a 'close' race), the largest
// per-request cost under node:http (docs/performance.md). Only objects the other side made are in
// these maps: any other Request or Response (a wrapper's clone, a Fetch runtime's own) is read as a stream.

const requestBytes = new WeakMap<Request, Uint8Array>();
const responseTexts = new WeakMap<Response, string>();

/** A Request carrying `body`, with the same bytes remembered for knownRequestBytes. */
export function requestWithBytes(
  url: URL,
  method: string,
  headers: Headers,
  body: Uint8Array<ArrayBuffer> | undefined,
  signal?: AbortSignal,
): Request {
  const request = new Request(url, { method, headers, signal, ...(body === undefined ? {} : { body }) });
  if (body !== undefined) requestBytes.set(request, body);
  return request;
}

/** The raw bytes of a Request built by requestWithBytes whose body nobody has read; else undefined. */
export function knownRequestBytes(request: Request): Uint8Array | undefined {
  const bytes = requestBytes.get(request);
  return bytes !== undefined && !request.bodyUsed ? bytes : undefined;
}

/** A Response whose body is `text`, remembered for knownResponseText. */
export function responseWithText(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  responseTexts.set(response, text);
  return response;
}

/** The body text of a Response built by responseWithText whose body nobody has read; else undefined. */
export function knownResponseText(response: Response): string | undefined {
  const text = responseTexts.get(response);
  return text !== undefined && !response.bodyUsed ? text : undefined;
}
