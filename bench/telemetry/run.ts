// bench/telemetry: what tracing costs the token and callback handlers, in CPU per request.
//   npm run bench:telemetry [-- rounds seconds rate]   (default 5 5 1000)
// Four builds of pay-form/server, each bundled by esbuild the same way and served by bench/server's
// roles (one process each): `before`, the source before telemetry (the merge-base with main, from git);
// `no API`, today's source with @opentelemetry/api missing (its import resolves to nothing); `API, no
// SDK`, with the API installed and no SDK registered (no-op spans); and `SDK`, the API with the SDK
// registered (bench/telemetry/sdk.ts: batch processor, OTLP/HTTP to a receiver in this process). Each
// round runs every server at a fixed offered load, in an order rotated by one; CPU per request is read
// from the server's process. Ratios to `before` are taken within a round, then summarised.
import { execSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { machine, median, report, spread } from '../stats.js';
import { callbackRequest, children, measure, start, tokenRequest, type Child, type Subject } from '../server/subjects.js';
import { startServer } from '../../test/support/servers/loopback.js';

const [rounds = 5, seconds = 5, rate = 1000] = process.argv.slice(2).map(Number);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so the bundles' bare imports (@opentelemetry/api) resolve from its node_modules.
const WORK = `${ROOT}node_modules/.cache/bench-telemetry`;

/** Makes the API's import resolve to a package that does not exist: the "not installed" case. */
const withoutApi: Plugin = {
  name: 'without-otel-api',
  setup: (b) => b.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: 'pay-form-bench-no-otel-api', external: true })),
};

async function bundle(entry: string, out: string, plugins: Plugin[] = []): Promise<string> {
  await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['@opentelemetry/api', 'redis', 'ioredis'], plugins, logLevel: 'error' });
  return `file://${out}`;
}

await rm(WORK, { recursive: true, force: true });
await mkdir(`${WORK}/before`, { recursive: true });
const base = execSync('git merge-base HEAD main', { cwd: ROOT, encoding: 'utf8' }).trim();
execSync(`git archive ${base} src | tar -x -C ${WORK}/before`, { cwd: ROOT });
const builds = {
  before: await bundle(`${WORK}/before/src/server/index.ts`, `${WORK}/before.mjs`),
  'no API': await bundle(`${ROOT}src/server/index.ts`, `${WORK}/no-api.mjs`, [withoutApi]),
  'API, no SDK': await bundle(`${ROOT}src/server/index.ts`, `${WORK}/api.mjs`),
};

const spansReceived = { posts: 0, bytes: 0 };
const collector = await startServer((req, res) => {
  req.on('data', (c: Buffer) => (spansReceived.bytes += c.byteLength));
  req.once('end', () => {
    spansReceived.posts++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

try {
  const upstream = await start('upstream');
  const variants: Array<[string, Record<string, string>]> = [
    ['before', { PAY_FORM_BENCH_SERVER: builds.before }],
    ['no API', { PAY_FORM_BENCH_SERVER: builds['no API'] }],
    ['API, no SDK', { PAY_FORM_BENCH_SERVER: builds['API, no SDK'] }],
    ['SDK', { PAY_FORM_BENCH_SERVER: builds['API, no SDK'], PAY_FORM_BENCH_SDK: new URL('./sdk.ts', import.meta.url).href, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }],
  ];
  const subjects: Subject[] = [];
  for (const [variant, env] of variants) {
    const [token, callback]: Child[] = await Promise.all([start('token', upstream.url, env), start('callback', '', env)]);
    subjects.push({ name: `token handler, ${variant}`, child: token!, options: tokenRequest });
    subjects.push({ name: `callback handler, ${variant}`, child: callback!, options: callbackRequest });
  }
  for (const subject of subjects) await measure(subject, 1, rate, 10); // warm-up: JIT, connection pools
  const cpu = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = [...subjects.slice(round % subjects.length), ...subjects.slice(0, round % subjects.length)];
    for (const subject of order) cpu.get(subject.name)!.push((await measure(subject, seconds, rate, 10)).cpu);
    console.error(`round ${round + 1}/${rounds}`);
  }
  const ratio = (a: string, b: string) => cpu.get(a)!.map((x, i) => x / cpu.get(b)![i]!);
  const lines = [
    `bench/telemetry, ${machine()}.`,
    `${rounds} rounds in rotated order; per server and round ${seconds} s at a fixed ${rate} req/s; CPU of the server's process per 2xx answer; loopback. The SDK servers' spans reached the receiver in ${spansReceived.posts} OTLP/HTTP posts (${(spansReceived.bytes / 1024 / 1024).toFixed(1)} MiB).`,
    '',
    '| handler | build | CPU µs / request | ÷ before (per round, median (min–max)) | target |',
    '|---|---|---:|---:|---|',
    ...['token', 'callback'].flatMap((handler) =>
      variants.map(([variant]) => {
        const name = `${handler} handler, ${variant}`;
        const r = ratio(name, `${handler} handler, before`);
        const target = variant === 'before' ? '' : variant === 'SDK' ? '≤ 1.10' : '≤ 1.02';
        const met = target === '' ? '' : `${target}: ${median(r) <= (variant === 'SDK' ? 1.1 : 1.02) ? 'met' : '**missed**'}`;
        return `| ${handler} | ${variant} | ${spread(cpu.get(name)!)} | ${variant === 'before' ? '1' : spread(r, 3)} | ${met} |`;
      }),
    ),
  ];
  await report(lines.join('\n'));
} finally {
  for (const child of children) child.kill();
  await collector.close();
}
