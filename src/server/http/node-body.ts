// A node:http request's body for toNodeHandler: the raw bytes as they arrived (so the handler applies
// its own content-type, size and strict UTF-8 JSON rules), capped, and refused when a body parser has
// already read them.
import { MAX_REQUEST_BYTES, TOO_LARGE_MESSAGE } from '../../service/body.js';
import { PayFormError } from '../errors.js';
import type { NodeRequest } from './node-types.js';

/** Internal: a body past the cap, answered 413 here and never thrown past toNodeHandler. */
export class BodyTooLarge extends PayFormError {
  constructor() {
    super('body_too_large', TOO_LARGE_MESSAGE);
  }
}

const NO_BYTES = Buffer.alloc(0);

/**
 * Collects a node:http request body of at most `cap` bytes, rejecting with BodyTooLarge as soon as it
 * passes the cap; the rest is left unread (the caller answers and closes the connection).
 */
function readNodeBody(req: NodeRequest, cap: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > cap) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const onData = (chunk: Uint8Array) => {
      total += chunk.byteLength;
      if (total > cap) {
        req.off('data', onData);
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    // A GET's empty body is one shared Buffer, not a new one per waiting request. The listeners go
    // once it ended: left on the request, they would keep this scope for as long as a status wait lasts.
    req.once('end', () => {
      req.off('data', onData);
      req.off('error', reject);
      resolve(chunks.length === 0 ? NO_BYTES : Buffer.concat(chunks));
    });
    req.once('error', reject);
  });
}

/** The body stream was read before the handler ran: there are no bytes left to verify. */
export class BodyConsumedError extends PayFormError {
  constructor() {
    super(
      'body_consumed',
      'toNodeHandler: the request body was already read by a body parser; mount the handler before body ' +
        "parsers (Express), behind express.raw(), or in a Fastify scope whose content-type parser leaves the body unread",
    );
  }
}

/** The request body: Express's express.raw() Buffer when there is one, else read from the stream. */
export function collectBody(req: NodeRequest): Promise<Uint8Array> {
  const preParsed = (req as NodeRequest & { body?: unknown }).body;
  if (Buffer.isBuffer(preParsed)) {
    return preParsed.byteLength > MAX_REQUEST_BYTES ? Promise.reject(new BodyTooLarge()) : Promise.resolve(preParsed);
  }
  // Any framework's parser (Express's express.json(), Fastify's defaults) leaves the stream ended or
  // read from; listening for 'end' then would wait forever, so refuse at once instead.
  if (req.readableEnded || req.readableDidRead || req.destroyed) return Promise.reject(new BodyConsumedError());
  return readNodeBody(req, MAX_REQUEST_BYTES);
}
