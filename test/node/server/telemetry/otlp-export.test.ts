// pay-form's spans leave the process over OTLP/HTTP, as they reach Jaeger or Tempo (docs/observability.md,
// Sending to a collector): the SDK's batch processor and OTLP exporter post them to a local receiver (a
// loopback HTTP server playing the collector), under the framework's span, with nothing forbidden in the
// bytes on the wire.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { createTokenHandler, MemoryCallbackStore, toNodeHandler } from '../../../../src/server/index.js';
import { clientFor, happyService, SECRET, servicesForFile, startServer, TOKEN } from '../../../support/servers/service.js';
import { readText } from '../../../support/servers/loopback.js';
import { framework, registerSdk } from '../../../support/telemetry/otel-sdk.js';

const posts: Array<{ path: string; type: string; text: string }> = [];
const collector = await startServer((req, res) => {
  void readText(req).then((text) => {
    posts.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', text });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
const batch = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }));
const sdk = registerSdk([batch]);
const serviceFor = servicesForFile();
after(async () => {
  await sdk.shutdown();
  await collector.close();
});

interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

test('a token request under the framework span reaches the collector as one trace, its secret nowhere in it', async () => {
  const service = await serviceFor(happyService);
  const handler = createTokenHandler({ client: clientFor(service.url), store: new MemoryCallbackStore(), resolve: () => ({ ...TOKEN, request_id: 'order-5' }) });
  const shop = await startServer(framework(toNodeHandler(handler)));
  const answer = await fetch(`${shop.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(answer.status, 200);
  await shop.close();
  await batch.forceFlush();

  assert.ok(posts.length > 0, 'the exporter posted to the collector');
  assert.ok(posts.every((p) => p.path === '/v1/traces' && p.type.startsWith('application/json')));
  const spans = posts.flatMap((p) => {
    const body = JSON.parse(p.text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
    return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  });
  const server = spans.find((s) => s.name === 'POST /token');
  const token = spans.find((s) => s.name === 'pay_form.token');
  assert.ok(server && token, spans.map((s) => s.name).join(', '));
  assert.equal(token.parentSpanId, server.spanId);
  for (const name of ['pay_form.token.resolve', 'pay_form.obtain_token', 'POST /api/jsapi/obtain_token/']) {
    assert.equal(spans.find((s) => s.name === name)?.traceId, server.traceId, name);
  }
  const wire = posts.map((p) => p.text).join('\n');
  for (const value of [SECRET, TOKEN.site_login, 'key-order-5']) assert.ok(!wire.includes(value), `found ${value} on the wire`);
});
