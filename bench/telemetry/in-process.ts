// bench/telemetry/in-process.ts: the callback and token handlers' CPU per request with telemetry and
// without, in ONE process, so that load from elsewhere on a shared machine falls on every build alike.
//   node --import tsx bench/telemetry/in-process.ts [rounds batch] [sdk]   (default 20 500)
// Builds as in run.ts (`no telemetry`: main before telemetry was merged; `today`; with
// PAY_FORM_BENCH_COMPARE=<ref> that ref too) and `today, OTel stubbed` (today's source with
// telemetry/otel.ts swapped for otel-stub.ts: what the OTel integration costs, apart from the attempts
// and everything else added since), each bundled by esbuild, their Fetch handlers on a
// MemoryCallbackStore called directly (no HTTP): the callback handler, and the token handler whose
// PaymentClient's `fetch` is answered in the process with a signed key (the service's part is then
// the same small cost for every build). Each round calls every build's handler `batch` times, in an
// order rotated by one; CPU per call is process.cpuUsage over the batch. With `sdk`, the SDK of
// bench/telemetry/sdk.ts is registered first and every call runs in a SERVER span, as an app's HTTP
// instrumentation runs it: its context manager is then active for every build alike, and the ratio is
// what pay-form adds to a traced app. With `sdk` there is one more row, the floor of any library that
// gives its handler a span: the untraced build's handler in one span of its own (two attributes).
import { execSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { canonicalJson } from '../../src/service/signature.js';
import { MERCHANT, TOKEN_PARAMS } from '../server/shared.js';
import { machine, median, report, spread } from '../stats.js';

const args = process.argv.slice(2);
const withSdk = args.includes('sdk');
const [rounds = 20, batch = 500] = args.filter((a) => a !== 'sdk').map(Number);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK = `${ROOT}node_modules/.cache/bench-telemetry-in-process`;
const git = (a: string) => execSync(`git ${a}`, { cwd: ROOT, encoding: 'utf8' }).trim();

/** Resolves src/server/telemetry/otel.js to otel-stub.ts: today's source with OpenTelemetry taken out. */
const stubOtel: Plugin = {
  name: 'stub-otel',
  setup(b) {
    b.onResolve({ filter: /telemetry\/otel\.js$|^\.\/otel\.js$/ }, (args) =>
      args.importer.includes('/src/server/') ? { path: fileURLToPath(new URL('./otel-stub.ts', import.meta.url)) } : undefined,
    );
  },
};

async function bundle(src: string, name: string, plugins: Plugin[] = []): Promise<string> {
  const out = `${WORK}/${name}.mjs`;
  await build({ entryPoints: [`${src}/server/index.ts`], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', external: ['@opentelemetry/api', 'redis', 'ioredis'], logLevel: 'error', plugins });
  return `file://${out}`;
}
async function bundleAt(commit: string, name: string): Promise<string> {
  await mkdir(`${WORK}/${name}`, { recursive: true });
  execSync(`git archive ${commit} src | tar -x -C ${WORK}/${name}`, { cwd: ROOT });
  return bundle(`${WORK}/${name}/src`, name);
}

await rm(WORK, { recursive: true, force: true });
await mkdir(WORK, { recursive: true });
const merged = git('log --first-parent --diff-filter=A --format=%H HEAD -- src/server/telemetry/otel.ts').split('\n').at(-1)!;
const COMPARE = process.env['PAY_FORM_BENCH_COMPARE'];
const STUBBED = 'today, OTel stubbed';
const FLOOR = 'no telemetry, in one span of its own';
const builds: Array<[string, string]> = [
  ['no telemetry', await bundleAt(`${merged}^1`, 'untraced')],
  ...(COMPARE === undefined ? [] : [[`@ ${COMPARE}`, await bundleAt(COMPARE, 'compare')] as [string, string]]),
  [STUBBED, await bundle(`${ROOT}src`, 'stubbed', [stubOtel])],
  ['today', await bundle(`${ROOT}src`, 'today')],
];

type Handler = (request: Request) => Promise<Response>;
let wrap = (f: () => Promise<Response>) => f();
/** With `sdk`: the untraced build's handler in one span of its own, with the order reference and the
 *  attempt id as attributes and nothing else, the least a library that gives its handler a span adds. */
let oneSpan: ((handler: Handler) => Handler) | undefined;
if (withSdk) {
  process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] ??= 'http://127.0.0.1:9'; // nothing listens: exports fail, as cheaply for every build
  await import('./sdk.js');
  const { trace, SpanKind } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('bench-http');
  const floor = trace.getTracer('bench-floor');
  oneSpan = (handler) => (request) =>
    floor.startActiveSpan('pay-form.handler', { attributes: { 'pay_form.order_ref': `order-${n}`, 'pay_form.attempt_id': 'a' } }, async (span) => {
      try {
        return await handler(request);
      } finally {
        span.end();
      }
    });
  wrap = (f) => tracer.startActiveSpan('POST /callback', { kind: SpanKind.SERVER }, async (span) => {
    try {
      return await f();
    } finally {
      span.end();
    }
  });
}

const SECRET = 'bench-secret';
let n = 0;
function delivery(): Request {
  const i = n++;
  const payload = { invoice_id: `inv-${i}`, request_id: `order-${i}`, status: 'success', amount: 1500, currency: 'USD' };
  const body = JSON.stringify({ ...payload, signature: createHmac('sha256', SECRET).update(canonicalJson(payload), 'utf8').digest('hex') });
  return new Request('http://shop/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

const hmac = (payload: Record<string, unknown>) => createHmac('sha256', SECRET).update(canonicalJson(payload), 'utf8').digest('hex');
/** The service's answer to obtain_token, signed, without a network: what each build's client reads. */
const service: typeof globalThis.fetch = async () => {
  const payload = { success: true, key: `key-${n}` };
  return new Response(JSON.stringify({ ...payload, signature: hmac(payload) }), { headers: { 'content-type': 'application/json' } });
};
function tokenRequest(): Request {
  return new Request('http://shop/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_ref: `order-${n++}` }) });
}

type Kind = 'callback' | 'token';
const handlers: Record<Kind, Array<[string, Handler]>> = { callback: [], token: [] };
for (const [name, url] of builds) {
  const server = (await import(url)) as typeof import('../../src/server/index.js');
  handlers.callback.push([name, server.createCallbackHandler({ secret: SECRET, store: new server.MemoryCallbackStore({ maxEntries: 2000 }), onStatus: () => undefined })]);
  const client = new server.PaymentClient({ baseUrl: 'http://127.0.0.1:9', merchantId: MERCHANT, secret: SECRET, fetch: service });
  const store = new server.MemoryCallbackStore({ maxEntries: 2000 });
  handlers.token.push([name, server.createTokenHandler({ client, store, resolve: (_request, body) => ({ ...TOKEN_PARAMS, request_id: body.order_ref ?? 'o' }) })]);
}
if (oneSpan) for (const kind of ['callback', 'token'] as const) handlers[kind].splice(1, 0, [FLOOR, oneSpan(handlers[kind][0]![1])]);
const requests: Record<Kind, () => Request> = { callback: delivery, token: tokenRequest };

async function run(kind: Kind, handler: Handler, times: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) {
    const answer = await wrap(() => handler(requests[kind]()));
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / times;
}

const tables: string[] = [];
const medians: string[] = [];
for (const kind of ['callback', 'token'] as const) {
  const built = handlers[kind];
  for (const [, handler] of built) await run(kind, handler, batch * 2); // warm-up: JIT
  const cpu = new Map<string, number[]>(built.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = [...built.slice(round % built.length), ...built.slice(0, round % built.length)];
    for (const [name, handler] of order) cpu.get(name)!.push(await run(kind, handler, batch));
  }
  const ratio = (name: string, base = 'no telemetry') => cpu.get(name)!.map((x, i) => x / cpu.get(base)![i]!);
  tables.push(
    '',
    `| ${kind} handler (memory store), build | CPU µs / request | ÷ no telemetry (per round) | ÷ today, OTel stubbed (per round) |`,
    '|---|---:|---:|---:|',
    ...built.map(([name]) => `| ${name} | ${spread(cpu.get(name)!, 1)} | ${name === 'no telemetry' ? '1' : `${spread(ratio(name), 3)}`} | ${name === 'today' ? spread(ratio(name, STUBBED), 3) : ''} |`),
  );
  medians.push(...built.filter(([name]) => name !== 'no telemetry').map(([name]) => `${kind} ${name} ${median(ratio(name)).toFixed(3)}`));
  medians.push(`${kind} today ÷ stubbed ${median(ratio('today', STUBBED)).toFixed(3)}`);
}
await report([
  `bench/telemetry/in-process.ts${withSdk ? ' sdk' : ''}, ${machine()}.`,
  `${rounds} rounds of ${batch} requests per build and handler in rotated order, one process; ${withSdk ? 'SDK registered (batch processor, OTLP/HTTP) and each call in a SERVER span' : 'no SDK registered (@opentelemetry/api installed)'}. No telemetry: ${git(`rev-parse --short ${merged}^1`)}; today: ${git('rev-parse --short HEAD')}${git('status --porcelain src') === '' ? '' : ' with uncommitted changes'}.`,
  ...tables,
].join('\n'));
console.error(`median ratios: ${medians.join(', ')}`);
process.exit(0);
