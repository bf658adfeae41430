// The demo with OTEL_EXPORTER_OTLP_ENDPOINT (demo/telemetry.ts, docs/observability.md, In the demo):
// a paid order through the demo backend on a real sandbox sends its spans to /v1/traces and pay-form's
// metrics to /v1/metrics of a local OTLP/HTTP receiver (a loopback server playing the collector), with
// no secret, signature or form key in the bytes on the wire.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { demoTelemetry } from '../../../demo/telemetry.js';
import { startDemoShop } from '../../support/servers/demo-shop.js';
import { SECRET } from '../../support/constants.js';
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
const shop = await startDemoShop(telemetry);
after(async () => {
  await shop.close();
  await collector.close();
});

interface Named {
  name: string;
}
interface OtlpMetric extends Named {
  sum?: { dataPoints: Array<{ asInt?: number; asDouble?: number; attributes: Array<{ key: string; value: { stringValue?: string } }> }> };
}

test('a paid order sends its spans and pay-form\'s metrics to the collector over OTLP/HTTP', async () => {
  const order = await shop.newOrder();
  const { key, attempt } = await order.token();
  assert.equal((await order.pay(key, attempt)).status, 200);
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
