// @opentelemetry/api is an optional peer dependency (docs/observability.md, How it is loaded): the
// packed package, installed in an app of its own outside the repository, runs its handlers without the
// API installed, and with the API and an SDK installed the same app gets pay-form's spans, also when the
// app's API is an older minor version of the peer range. The package ships no copy of the API: the
// built code names it in one dynamic import of the bare name, and the declarations never name it, so a
// project without it type-checks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { distFile, root } from './dist.js';
import { packedTarball } from '../../support/apps/consumers.js';

test('the package names @opentelemetry/api in one dynamic import of the bare name, and ships no copy of it', async () => {
  const dir = distFile('');
  const naming: string[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    if (!/\.(js|d\.ts)$/.test(name)) continue;
    const text = await readFile(new URL(name, dir), 'utf8');
    if (!text.includes('@opentelemetry')) continue;
    naming.push(name);
    assert.deepEqual(text.match(/[^\s]*@opentelemetry[^\s]*/g), ['import("@opentelemetry/api").then((module)'], name);
  }
  assert.equal(naming.length, 1, `one file names it: ${naming.join(', ')}`);
  assert.match(naming[0]!, /^server\/[\w-]+\.js$/);
  const packed = execFileSync('tar', ['-tzf', await packedTarball()], { encoding: 'utf8' }).split('\n');
  assert.deepEqual(packed.filter((file) => file.includes('node_modules/')), []);
});

// The app: a checkout through the three handlers (a token, its callback, the status); it prints the
// answers' statuses, whether @opentelemetry/api was loaded by then, and the names of the spans pay-form
// made and the metrics' points once an SDK is registered: before the handlers (sdk), after a first
// checkout and before a second (later), or never.
const APP = `
import { createRequire } from 'node:module';
import { createTokenHandler, createCallbackHandler, createStatusHandler, MemoryCallbackStore, sign } from 'pay-form/server';
const mode = process.argv[2];
let exporter;
let reader;
let metricsApi;
async function register() {
  const { metrics, trace } = await import('@opentelemetry/api');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } = await import('@opentelemetry/sdk-metrics');
  exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  reader = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: reader, exportIntervalMillis: 60_000 })] }));
  metricsApi = metrics;
}
if (mode === 'sdk') await register();
const store = new MemoryCallbackStore();
const client = { obtainToken: async () => ({ success: true, key: 'k', signature: '' }) };
const post = (body) => new Request('http://shop.test/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const token = createTokenHandler({ client, store, resolve: (request, body) => ({ request_id: body.order_ref, amount: 1, currency: 'USD', site_id: 1, site_login: 'x' }) });
const callback = createCallbackHandler({ secret: 's', store, onStatus: () => undefined });
const status = createStatusHandler({ store, authorize: () => true });
async function checkout(order) {
  const tokenAnswer = await token(post({ order_ref: order }));
  const { attempt } = await tokenAnswer.json();
  const payload = { request_id: order + '~' + attempt, invoice_id: 'i-' + order, status: 'success', amount: 1, currency: 'USD' };
  const callbackAnswer = await callback(post({ ...payload, signature: await sign(payload, 's') }));
  const statusAnswer = await status(new Request('http://shop.test/?order_ref=' + order + '&attempt=' + attempt));
  return [tokenAnswer.status, callbackAnswer.status, statusAnswer.status];
}
let statuses = await checkout('o-1');
// Node loads the API's CommonJS build, which lands in the CommonJS module cache.
const apiLoaded = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/@opentelemetry/api/'));
if (mode === 'later') {
  await register();
  statuses = await checkout('o-2');
}
const spans = exporter ? exporter.getFinishedSpans().map((s) => s.name).sort() : [];
// Each metric's points as [attributes, value] (a histogram's value: its count).
const points = {};
if (reader) {
  await metricsApi.getMeterProvider().forceFlush();
  for (const m of reader.getMetrics().at(-1)?.scopeMetrics.flatMap((s) => s.metrics) ?? []) {
    points[m.descriptor.name] = m.dataPoints.map((p) => [p.attributes, typeof p.value === 'number' ? p.value : p.value.count]);
  }
}
console.log(JSON.stringify({ statuses, apiLoaded, spans, points }));
`;

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/**
 * An app in a temporary folder with the packed pay-form and, when asked, the repository's OpenTelemetry
 * packages: `api-1.8` gives the app @opentelemetry/api 1.8.0 (the devDependency otel-api-1-8) and the
 * repository's SDK beside it, which keeps its own newer API. The app registers its SDK through its own
 * API, so that registration is made by 1.8.0.
 */
async function app(otel: 'none' | 'repo' | 'api-1.8'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-otel-'));
  dirs.push(dir);
  const target = path.join(dir, 'node_modules/pay-form');
  await mkdir(target, { recursive: true });
  execFileSync('tar', ['-xzf', await packedTarball(), '-C', target, '--strip-components=1']);
  const repo = path.join(root.pathname, 'node_modules/@opentelemetry');
  if (otel === 'repo') await symlink(repo, path.join(dir, 'node_modules/@opentelemetry'));
  if (otel === 'api-1.8') {
    await mkdir(path.join(dir, 'node_modules/@opentelemetry'));
    for (const name of await readdir(repo)) {
      const from = name === 'api' ? path.join(root.pathname, 'node_modules/otel-api-1-8') : path.join(repo, name);
      await symlink(from, path.join(dir, 'node_modules/@opentelemetry', name));
    }
  }
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  await writeFile(path.join(dir, 'app.mjs'), APP);
  return dir;
}

const run = (dir: string, ...args: string[]) =>
  JSON.parse(execFileSync(process.execPath, ['app.mjs', ...args], { cwd: dir, encoding: 'utf8' })) as {
    statuses: number[];
    apiLoaded: boolean;
    spans: string[];
    points: Record<string, Array<[Record<string, unknown>, number]>>;
  };

test('the packed package runs its handlers in an app without @opentelemetry/api', async () => {
  const dir = await app('none');
  assert.deepEqual(run(dir), { statuses: [200, 200, 200], apiLoaded: false, spans: [], points: {} });
});

test('with @opentelemetry/api installed and nothing registered with it, pay-form does not even load it', async () => {
  const dir = await app('repo');
  assert.deepEqual(run(dir), { statuses: [200, 200, 200], apiLoaded: false, spans: [], points: {} });
});

test('an SDK registered after the handlers were made and had served: the next checkout has its spans and metrics', async () => {
  const dir = await app('repo');
  const { statuses, apiLoaded, spans, points } = run(dir, 'later');
  assert.deepEqual(statuses, [200, 200, 200]);
  assert.equal(apiLoaded, false, 'not loaded before the registration');
  for (const name of ['pay_form.token', 'pay_form.token.resolve', 'pay_form.callback', 'pay_form.callback.on_status', 'pay_form.status']) {
    assert.equal(spans.filter((span) => span === name).length, 1, `one ${name} in ${spans.join(', ')}`);
  }
  assert.deepEqual(points['pay_form.callbacks'], [[{ 'pay_form.callback.outcome': 'new' }, 1]]);
});

for (const otel of ['repo', 'api-1.8'] as const) {
  const api = otel === 'repo' ? '@opentelemetry/api' : '@opentelemetry/api 1.8.0 (an older minor of the peer range)';
  test(`with ${api} and an SDK in the app, the same handlers make their spans and metrics`, async () => {
    const dir = await app(otel);
    const { statuses, spans, points } = run(dir, 'sdk');
    assert.deepEqual(statuses, [200, 200, 200]);
    for (const name of ['pay_form.token', 'pay_form.token.resolve', 'pay_form.callback', 'pay_form.callback.on_status', 'pay_form.status']) {
      assert.ok(spans.includes(name), `${name} in ${spans.join(', ')}`);
    }
    assert.deepEqual(points['pay_form.callbacks'], [[{ 'pay_form.callback.outcome': 'new' }, 1]]);
    assert.deepEqual(points['pay_form.status.waits.open'], [[{}, 0]]);
  });
}
