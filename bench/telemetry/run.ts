// bench/telemetry: what tracing costs the token and callback handlers, in CPU per request.
//   npm run bench:telemetry [-- rounds seconds rate]   (default 5 5 500)
//   PAY_FORM_BENCH_COMPARE=<git ref> adds today's traced builds as they were at that ref, side by side.
// Builds of pay-form/server, each bundled by esbuild the same way and served by bench/server's roles
// (one process each): `no telemetry`, the source as it was on main just before telemetry was merged
// (no telemetry code path at all; from git); `no API`, today's source with @opentelemetry/api missing
// (its import resolves to nothing); `API, no SDK`, the API installed and no SDK registered (no-op
// spans); `SDK`, the API with the SDK registered (bench/telemetry/sdk.ts: batch processor, OTLP/HTTP to
// a receiver in this process). `app traced` runs every request in a server span as an app's HTTP
// instrumentation does, SDK registered, over `no telemetry` (what the app's own tracing costs) and
// over today's source (what pay-form adds to a traced app). Handlers: token (memory store), callback on
// the memory store and on a RedisCallbackStore (a local redis-server). Each round runs every server at
// a fixed offered load, in an order rotated by one; CPU per request is read from the server's process;
// each ratio is taken within a round, then summarised.
import { execSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { machine, median, report, spread } from '../stats.js';
import { callbackRequest, children, measure, start, tokenRequest, type Child, type Subject } from '../server/subjects.js';
import { startServer } from '../../test/support/servers/loopback.js';
import { startRedis } from '../../test/support/redis/redis-server.js';

const [rounds = 5, seconds = 5, rate = 500] = process.argv.slice(2).map(Number);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so the bundles' bare imports (@opentelemetry/api) resolve from its node_modules.
const WORK = `${ROOT}node_modules/.cache/bench-telemetry`;
const COMPARE = process.env['PAY_FORM_BENCH_COMPARE'];

/** Makes the API's import resolve to a package that does not exist: the "not installed" case. */
const withoutApi: Plugin = {
  name: 'without-otel-api',
  setup: (b) => b.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: 'pay-form-bench-no-otel-api', external: true })),
};

async function bundle(entry: string, out: string, plugins: Plugin[] = []): Promise<string> {
  await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['@opentelemetry/api', 'redis', 'ioredis'], plugins, logLevel: 'error' });
  return `file://${out}`;
}

/** src/ at a commit, bundled. */
async function bundleAt(commit: string, name: string): Promise<string> {
  await mkdir(`${WORK}/${name}`, { recursive: true });
  execSync(`git archive ${commit} src | tar -x -C ${WORK}/${name}`, { cwd: ROOT });
  return bundle(`${WORK}/${name}/src/server/index.ts`, `${WORK}/${name}.mjs`);
}

const git = (args: string) => execSync(`git ${args}`, { cwd: ROOT, encoding: 'utf8' }).trim();
await rm(WORK, { recursive: true, force: true });
// The first commit of HEAD's first-parent line (main's) that has telemetry; its first parent has none.
const merged = git('log --first-parent --diff-filter=A --format=%H HEAD -- src/server/telemetry/otel.ts').split('\n').at(-1)!;
const untraced = git(`rev-parse ${merged}^1`);
const builds = {
  untraced: await bundleAt(untraced, 'untraced'),
  noApi: await bundle(`${ROOT}src/server/index.ts`, `${WORK}/no-api.mjs`, [withoutApi]),
  today: await bundle(`${ROOT}src/server/index.ts`, `${WORK}/today.mjs`),
  compare: COMPARE === undefined ? '' : await bundleAt(git(`rev-parse ${COMPARE}`), 'compare'),
};

const spansReceived = { posts: 0, bytes: 0 };
const collector = await startServer((req, res) => {
  req.on('data', (c: Buffer) => (spansReceived.bytes += c.byteLength));
  req.once('end', () => {
    spansReceived.posts++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
const redis = await startRedis();

interface Variant {
  name: string;
  env: Record<string, string>;
  /** The variant its ratio is to, and the issue's target for that ratio. */
  base: string;
  target?: number;
}

try {
  const sdk = { PAY_FORM_BENCH_SDK: new URL('./sdk.ts', import.meta.url).href, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
  const appTraced = { ...sdk, PAY_FORM_BENCH_REQUEST_SPAN: '1' };
  const ours = (build: string, suffix = ''): Variant[] => [
    { name: `API, no SDK${suffix}`, env: { PAY_FORM_BENCH_SERVER: build }, base: 'no telemetry', target: 1.02 },
    { name: `SDK${suffix}`, env: { PAY_FORM_BENCH_SERVER: build, ...sdk }, base: 'no telemetry', target: 1.1 },
    { name: `SDK, app traced${suffix}`, env: { PAY_FORM_BENCH_SERVER: build, ...appTraced }, base: 'no telemetry, app traced', target: 1.1 },
  ];
  const variants: Variant[] = [
    { name: 'no telemetry', env: { PAY_FORM_BENCH_SERVER: builds.untraced }, base: 'no telemetry' },
    { name: 'no telemetry, app traced', env: { PAY_FORM_BENCH_SERVER: builds.untraced, ...appTraced }, base: 'no telemetry' },
    { name: 'no API', env: { PAY_FORM_BENCH_SERVER: builds.noApi }, base: 'no telemetry', target: 1.02 },
    ...ours(builds.today),
    ...(COMPARE === undefined ? [] : ours(builds.compare, ` @ ${COMPARE}`)),
  ];
  const handlers = [
    { handler: 'token', role: 'token', options: tokenRequest },
    { handler: 'callback, memory', role: 'callback', options: callbackRequest },
    { handler: 'callback, Redis', role: 'callback-redis', options: callbackRequest },
  ];
  const upstream = await start('upstream', '', { PAY_FORM_BENCH_SERVER: builds.untraced });
  const subjects: Subject[] = [];
  for (const { name, env } of variants) {
    for (const { handler, role, options } of handlers) {
      const child: Child = await start(role, role === 'token' ? upstream.url : '', { ...env, REDIS_URL: redis.url });
      subjects.push({ name: `${handler} | ${name}`, child, options });
    }
  }
  for (const subject of subjects) await measure(subject, 1, rate, 10, false); // warm-up: JIT, connection pools
  const cpu = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  const served = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = [...subjects.slice(round % subjects.length), ...subjects.slice(0, round % subjects.length)];
    for (const subject of order) {
      const sample = await measure(subject, seconds, rate, 10, false);
      cpu.get(subject.name)!.push(sample.cpu);
      served.get(subject.name)!.push(sample.served);
    }
    console.error(`round ${round + 1}/${rounds}`);
  }
  const ratio = (a: string, b: string) => cpu.get(a)!.map((x, i) => x / cpu.get(b)![i]!);
  const lines = [
    `bench/telemetry, ${machine()}.`,
    `${rounds} rounds in rotated order; per server and round ${seconds} s at a fixed ${rate} req/s (10 connections); CPU of the server's process per 2xx answer; loopback; redis-server on loopback. No telemetry: ${untraced.slice(0, 7)}${COMPARE === undefined ? '' : `; @ ${COMPARE}: ${git(`rev-parse --short ${COMPARE}`)}`}; today: ${git('rev-parse --short HEAD')}${git('status --porcelain src') === '' ? '' : ' with uncommitted changes'}. The SDK servers' spans reached the receiver in ${spansReceived.posts} OTLP/HTTP posts (${(spansReceived.bytes / 1024 / 1024).toFixed(1)} MiB).`,
    '',
    '| handler | build | CPU µs / request | served req/s | ÷ its base (per round, median (min–max)) | target |',
    '|---|---|---:|---:|---:|---|',
    ...handlers.flatMap(({ handler }) =>
      variants.map(({ name, base, target }) => {
        const key = `${handler} | ${name}`;
        const r = ratio(key, `${handler} | ${base}`);
        const met = target === undefined ? '' : `≤ ${target.toFixed(2)} of ${base}: ${median(r) <= target ? 'met' : '**missed**'}`;
        return `| ${handler} | ${name} | ${spread(cpu.get(key)!)} | ${spread(served.get(key)!)} | ${name === base ? '1' : spread(r, 3)} | ${met} |`;
      }),
    ),
  ];
  await report(lines.join('\n'));
} finally {
  for (const child of children) child.kill();
  await collector.close();
  await redis.stop();
}
