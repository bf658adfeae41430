// Writing an answer under node:http: pay-form's own Answer in one write, or any handler's Response
// (streamed with backpressure, stopped when the client goes away).
import { knownResponseText } from './known-bodies.js';
import type { Answer } from './handler-logic.js';
import type { NodeResponse } from './node-types.js';

/** An Answer as sendResponse writes the Response it stands for: headers in Headers' sorted order,
 *  then content-length, in one write. */
export function writeAnswer(answer: Answer, res: NodeResponse): void {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(answer.headers).sort()) headers[name] = answer.headers[name]!;
  if (answer.text === null) {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  headers['content-length'] = String(Buffer.byteLength(answer.text));
  res.writeHead(answer.status, headers);
  res.end(answer.text);
}

export async function sendResponse(response: Response, res: NodeResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const text = knownResponseText(response);
  if (text !== undefined) {
    // A known length: one plain write of head and body, not chunked framing in several writes.
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // Stop reading when the client goes away; respect backpressure while it is there.
  const closed = new Promise<'closed'>((resolve) => res.once('close', () => resolve('closed')));
  for (;;) {
    const next = await Promise.race([reader.read(), closed]);
    if (next === 'closed') {
      await reader.cancel().catch(() => undefined);
      return;
    }
    if (next.done) break;
    if (!res.write(next.value)) {
      const drained = await Promise.race([new Promise<'drain'>((r) => res.once('drain', () => r('drain'))), closed]);
      if (drained === 'closed') {
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
  }
  res.end();
}
