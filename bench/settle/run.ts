// `npm run bench:settle`: the delay from the service's callback reaching a merchant server to the
// page's waiting status request answering 200 (what the element turns into pay-form-settled), on one
// server and across two, with the memory store and with RedisCallbackStore on a real redis-server.
// Every server is its own process (test/support/servers/callback-worker.ts). For each sample a status request
// is already waiting on server B when the signed callback is POSTed to server A; the clock runs from
// that POST to B's answer. Several rounds, the setups in a rotated order each round; the spread is the
// range of the per-round medians.
import { startRedis } from '../../test/support/redis/redis-server.js';
import { signedBody, startWorker, type Worker } from '../../test/support/servers/callback-workers.js';
import { setTimeout as sleep } from 'node:timers/promises';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SAMPLES = Number(process.env.SAMPLES ?? 40);

interface Setup {
  name: string;
  samples: number;
  a: Worker;
  b: Worker;
}

let serial = 0;

async function sample(setup: Setup): Promise<number> {
  const id = `order-${++serial}`;
  const body = await signedBody({ invoice_id: `inv-${serial}`, request_id: id, status: 'success' });
  const waiting = fetch(`${setup.b.url}/status?order_ref=${id}`).then(async (response) => {
    const end = performance.now();
    if (response.status !== 200) throw new Error(`${setup.name}: status answered ${response.status}`);
    await response.arrayBuffer();
    return end;
  });
  await sleep(20); // the status request is waiting before the callback comes
  const start = performance.now();
  const posted = await fetch(setup.a.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (posted.status !== 200) throw new Error(`${setup.name}: callback answered ${posted.status}`);
  await posted.arrayBuffer();
  return (await waiting) - start;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

const redis = await startRedis();
const workers: Worker[] = [];
const start = async (env: Record<string, string>) => {
  const worker = await startWorker(env);
  workers.push(worker);
  return worker;
};
try {
  const memory = await start({});
  const redisOne = await start({ REDIS_URL: redis.url, PREFIX: 'one:' });
  const [redisA, redisB] = [await start({ REDIS_URL: redis.url, PREFIX: 'two:' }), await start({ REDIS_URL: redis.url, PREFIX: 'two:' })];
  const [deafA, deafB] = [
    await start({ REDIS_URL: redis.url, PREFIX: 'deaf:' }),
    await start({ REDIS_URL: redis.url, PREFIX: 'deaf:', NO_WATCH: '1' }),
  ];
  const setups: Setup[] = [
    { name: 'one server, memory store', samples: SAMPLES, a: memory, b: memory },
    { name: 'one server, Redis store', samples: SAMPLES, a: redisOne, b: redisOne },
    { name: 'two servers, Redis store, pub/sub', samples: SAMPLES, a: redisA, b: redisB },
    { name: 'two servers, Redis store, re-read only (pub/sub missed)', samples: Math.max(5, Math.round(SAMPLES / 4)), a: deafA, b: deafB },
  ];
  // Warm-up: connections, the subscriber, JIT.
  for (const setup of setups) for (let i = 0; i < 3; i++) await sample(setup);

  const all = new Map<string, number[]>(setups.map((s) => [s.name, []]));
  const medians = new Map<string, number[]>(setups.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = setups.map((_, i) => setups[(i + round) % setups.length] as Setup);
    for (const setup of order) {
      const delays: number[] = [];
      for (let i = 0; i < setup.samples; i++) delays.push(await sample(setup));
      delays.sort((x, y) => x - y);
      all.get(setup.name)!.push(...delays);
      medians.get(setup.name)!.push(quantile(delays, 0.5));
    }
  }

  const load = (await import('node:os')).loadavg()[0]?.toFixed(1);
  console.log(
    `callback → settled delay, ${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds (rotated order) of ${SAMPLES} samples per setup, Node ${process.version}, load average ${load}\n`,
  );
  console.log('| setup | samples | median | p95 | spread of round medians |');
  console.log('|---|---|---|---|---|');
  for (const setup of setups) {
    const delays = all.get(setup.name)!.sort((x, y) => x - y);
    const rounds = medians.get(setup.name)!;
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(
      `| ${setup.name} | ${delays.length} | ${ms(quantile(delays, 0.5))} | ${ms(quantile(delays, 0.95))} | ${ms(Math.min(...rounds))} – ${ms(Math.max(...rounds))} |`,
    );
  }
} finally {
  await Promise.all(workers.map((w) => w.kill('SIGTERM')));
  await redis.stop();
}
