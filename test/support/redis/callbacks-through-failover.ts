// The callback half of the failover tests (test/node/redis-topologies/): three merchant servers
// (callback-worker.ts processes) on one Redis topology through one client library; 500 signed
// callbacks (250 orders, each a success and a fail), each delivered twice at random to the servers, as
// the service delivers (the same body again after a 5xx, until a 2xx); and for each order a page's
// status request, asked as the element asks status-url (again after a 204, after a 5xx or a failed
// connection once the Retry-After has passed), so every pay-form-settled the pages would fire is
// counted. The deliveries start over time, as callbacks come in; once a third of them have ended,
// `failover` runs, and a third start only after its promotion. Each order's attempt is started first,
// as its token request would (docs/service-contract.md, Attempts): a callback for no attempt never
// settles an order.
import { callsOf, deliver, signedBody, startWorker, type Callback, type Worker } from '../servers/callback-workers.js';
import { connectRedis, type RedisSpec } from './redis-clients.js';
import { RedisCallbackStore } from '../../../src/server/index.js';
import { ask } from '../contracts/attempt-contract.js';
import { setTimeout as sleep } from 'node:timers/promises';

export interface CallbacksRun<F> {
  /** Every status each delivery got, in order, one list per delivery. */
  answers: number[][];
  /** The onStatus calls, as `[invoice_id, status]` JSON, from every server. */
  calls: string[];
  /** Each order's first verified status its page was answered (undefined: its page never settled). */
  settled: Map<string, { status: string; invoice_id: string } | undefined>;
  /** The status requests answered 503 (a read that failed, a failover under way) and asked again. */
  statusRetries: number;
  failover: F;
  /** How many deliveries had ended when the failover began, when the new primary said ROLE master,
   *  and when the failover had ended. */
  deliveredAt: { start: number; promoted: number; end: number };
  orders: string[];
}

const shuffle = <T>(items: T[]): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
};
const pickFrom = <T>(items: readonly T[]) => () => items[Math.floor(Math.random() * items.length)] as T;

/** One attempt per order at 1500 USD (what signedBody pays), started through the store as the token handler starts it: the attempts' ids. */
async function startAttempts(redis: RedisSpec, prefix: string, orders: string[]): Promise<string[]> {
  const connected = await connectRedis(redis);
  try {
    const store = new RedisCallbackStore(connected.client, { prefix });
    return await Promise.all(orders.map(async (order) => {
      const start = await store.startAttempt(order, ask(1500));
      if (start.state !== 'started') throw new Error(`${order}: ${start.state}`);
      return start.attempt;
    }));
  } finally {
    await connected.close();
  }
}

/** The element's status-url loop for one order: the first 200's body, or undefined at `deadline`. */
async function settle(url: () => string, order: string, deadline: number, retried: () => void) {
  while (Date.now() < deadline) {
    // The server holds a status request WAIT_MS at most: one that never ends is a failed request.
    const response = await fetch(`${url()}/status?order_ref=${order}`, { signal: AbortSignal.timeout(20_000) }).catch(() => undefined);
    const status = response?.status ?? 0;
    if (status === 200) return (await response!.json()) as { status: string; invoice_id: string };
    await response?.arrayBuffer();
    if (status === 204) continue;
    retried();
    // The element waits out Retry-After (capped), else a second.
    await sleep(Math.min(Number(response?.headers.get('retry-after') ?? 1) || 1, 5) * 1000);
  }
  return undefined;
}

export async function callbacksThroughFailover<F>(
  redis: RedisSpec,
  prefix: string,
  failover: (onPromoted: () => void) => Promise<F>,
): Promise<CallbacksRun<F>> {
  const env = { REDIS_SPEC: JSON.stringify(redis), PREFIX: prefix, WAIT_MS: '5000' };
  const servers: Worker[] = await Promise.all([1, 2, 3].map(() => startWorker(env)));
  try {
    const orders = Array.from({ length: 250 }, (_, i) => `order-${i}`);
    const attempts = await startAttempts(redis, prefix, orders);
    const callbacks: Callback[] = orders.flatMap((order, i) => [
      { invoice_id: `inv-${i}`, request_id: `${order}~${attempts[i]}`, status: 'success' },
      { invoice_id: `inv-${i}`, request_id: `${order}~${attempts[i]}`, status: 'fail' },
    ]);
    const bodies = await Promise.all(callbacks.map(signedBody));
    const url = pickFrom(servers.map((s) => s.url));
    let statusRetries = 0;
    const deadline = Date.now() + 90_000;
    const pages = orders.map((order) => settle(url, order, deadline, () => statusRetries++).then((answer) => [order, answer] as const));

    let delivered = 0;
    let promoted!: () => void;
    const promotion = new Promise<void>((resolve) => (promoted = resolve));
    const all = shuffle([...bodies, ...bodies]);
    // Two thirds start over 6 s; the last third waits for the new primary, then starts over 3 s: some
    // deliveries always come after the promotion, however long a busy machine takes to fail over.
    const deliveries = all.map(async (body, i) => {
      if (i < (all.length * 2) / 3) await sleep(Math.random() * 6_000);
      else await promotion.then(() => sleep(Math.random() * 3_000));
      // A failover can refuse deliveries for several seconds: the service keeps trying for much longer.
      return deliver(url, body, { pauseMs: 100, attempts: 600 }).finally(() => delivered++);
    });
    while (delivered < deliveries.length / 3) await sleep(5);
    const deliveredAt = { start: delivered, promoted: 0, end: 0 };
    const done = await failover(() => {
      deliveredAt.promoted = delivered;
      promoted();
    }).finally(() => {
      deliveredAt.end = delivered;
      promoted();
    });
    const answers = await Promise.all(deliveries);
    return {
      answers,
      calls: await callsOf(servers),
      settled: new Map(await Promise.all(pages)),
      statusRetries,
      failover: done,
      deliveredAt,
      orders,
    };
  } finally {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
  }
}
