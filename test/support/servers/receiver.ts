// A merchant's callback receiver on loopback: records every callback it gets and answers the status
// a test chooses for each.
import { startServer } from './loopback.js';

export interface Receiver {
  url: string;
  /** Every callback body, in arrival order, parsed. */
  bodies: Record<string, unknown>[];
  /** The status to answer for the n-th callback (0-based); 200 when it returns undefined. */
  answer: (n: number) => number | undefined;
  /** Resolves once `count` callbacks have arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const bodies: Record<string, unknown>[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver = { bodies, answer } as Receiver;
  const server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = bodies.length;
      bodies.push({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), '(content-type)': req.headers['content-type'] });
      res.writeHead(receiver.answer(n) ?? 200).end();
      for (const w of waiters.filter((w) => bodies.length >= w.count)) w.resolve();
    });
  });
  receiver.url = `${server.url}/callback`;
  receiver.received = (count) =>
    bodies.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }));
  receiver.close = server.close;
  return receiver;
}

/** The callback as the merchant got it, without the receiver's bookkeeping field. */
export function callbackBody(body: Record<string, unknown> | undefined): Record<string, unknown> {
  const { '(content-type)': _ignored, ...rest } = body ?? {};
  return rest;
}

