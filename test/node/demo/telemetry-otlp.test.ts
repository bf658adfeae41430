// The demo with OTEL_EXPORTER_OTLP_ENDPOINT (demo/telemetry.ts, docs/observability.md, In the demo):
// a paid order through the demo backend on a real sandbox sends its spans to /v1/traces and pay-form's
// metrics to /v1/metrics of a local OTLP/HTTP receiver (a loopback server playing the collector), with
// no secret, signature or form key in the bytes on the wire.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DemoBackend } from '../../../demo/backend.js';
import { demoTelemetry } from '../../../demo/telemetry.js';
import { MERCHANT, press, sandbox, SECRET } from '../sandbox/helpers.js';
import { readText, startServer } from '../../support/servers/loopback.js';

const posts: Array<{ path: string; type: string; text: string }> = [];
const collector = await startServer((req, res) => {
  void readText(req).then((text) => {
    posts.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', text });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
// A trailing slash, as people write it: the paths are still /v1/traces and /v1/metrics.
const telemetry = demoTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`, OTEL_METRIC_EXPORT_INTERVAL: '60000' }, () => undefined);
let backend: DemoBackend | undefined;
const server = await startServer((req, res) => telemetry.request(req, res, () => backend?.middleware(req, res, () => res.writeHead(418).end())));
const sb = await sandbox({ callbackUrl: `${server.url}/api/checkout/callback` });
backend = new DemoBackend({ baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: server.url });
after(async () => {
  backend?.close();
  await sb.close();
  await server.close();
  await collector.close();
});

interface Named {
  name: string;
}
interface OtlpMetric extends Named {
  sum?: { dataPoints: Array<{ asInt?: number; asDouble?: number; attributes: Array<{ key: string; value: { stringValue?: string } }> }> };
}

test('a paid order sends its spans and pay-form\'s metrics to the collector over OTLP/HTTP', async () => {
  const choices = { product: 'grinder', currency: 'VND', method: 'sbp', language: 'KZ', redirect_mode: false };
  const first = await fetch(`${server.url}/api/checkout/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(choices) });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { order_ref } = (await first.json()) as { order_ref: string };
  const token = await fetch(`${server.url}/api/checkout/token`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ order_ref }) });
  const { key, attempt } = (await token.json()) as { key: string; attempt: string };
  assert.equal((await press(sb, key, 'pay')).status, 303);
  await sb.callbacksIdle();
  assert.equal((await fetch(`${server.url}/api/checkout/status?order_ref=${order_ref}&attempt=${attempt}`, { headers: { cookie } })).status, 200);
  // Closing flushes both: the batch of spans and a last read of the metrics.
  await telemetry.close();

  assert.ok(posts.every((p) => p.type.startsWith('application/json')), posts.map((p) => p.type).join(', '));
  const spans = posts.filter((p) => p.path === '/v1/traces').flatMap((p) => {
    const body = JSON.parse(p.text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Named[] }> }> };
    return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)));
  });
  for (const name of ['pay_form.token', 'pay_form.obtain_token', 'pay_form.callback', 'pay_form.status']) assert.ok(spans.includes(name), `${name} in ${spans.join(', ')}`);
  const metrics = posts.filter((p) => p.path === '/v1/metrics').flatMap((p) => {
    const body = JSON.parse(p.text) as { resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: OtlpMetric[] }> }> };
    return body.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  });
  const callbacks = metrics.find((m) => m.name === 'pay_form.callbacks');
  assert.deepEqual(
    callbacks?.sum?.dataPoints.map((p) => [p.attributes.map((a) => `${a.key}=${a.value.stringValue}`), p.asInt ?? p.asDouble]),
    [[['pay_form.callback.outcome=new'], 1]],
  );
  assert.ok(metrics.some((m) => m.name === 'http.client.request.duration'), metrics.map((m) => m.name).join(', '));
  const wire = posts.map((p) => p.text).join('\n');
  for (const value of [SECRET, key, 'demo-customer']) assert.ok(!wire.includes(value), `found ${value} on the wire`);
});
