// pay-form's spans and metrics as a merchant's SDK receives them (docs/observability.md): one paid
// checkout through two backends on one real redis-server, each request under the framework's SERVER
// span (toNodeHandler's fast path), then a duplicate callback, an extra payment, a refused wait and a payout whose outcome
// is unknown; and nothing forbidden (secret, signature, card number, shopper login, form key) anywhere.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { MetricData } from '@opentelemetry/sdk-metrics';
import {
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  RedisCallbackStore,
  sign,
  toNodeHandler,
  type FetchHandler,
  type PayFormEvent,
} from '../../../../src/server/index.js';
import { ATTRIBUTES } from '../../../../src/server/telemetry/attributes.js';
import { answerSigned, clientFor, MERCHANT, PAYOUT, SECRET, startServer, startService, TOKEN } from '../../../support/servers/service.js';
import { startRedis } from '../../../support/redis/redis-server.js';
import { connectedClient } from '../../../support/redis/redis.js';
import { framework, points, registerSdk, texts } from '../../../support/telemetry/otel-sdk.js';

const sdk = registerSdk();
const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
  await sdk.shutdown();
});

const events: PayFormEvent[] = [];
const observer = (event: PayFormEvent) => void events.push(event);
let backendA: string;
let backendB: string;
let serviceUrl: string;
const forbidden: string[] = [SECRET, PAYOUT.additional_fields.card_number, TOKEN.site_login];

/** One backend of the merchant: the three handlers behind a router, in the framework's span. */
async function backend(store: RedisCallbackStore): Promise<string> {
  const client = clientFor(serviceUrl, { observer });
  const routes: Record<string, FetchHandler> = {
    '/token': createTokenHandler({ client, store, observer, resolve: (_r, body) => ({ ...TOKEN, request_id: body.order_ref ?? '' }) }),
    '/callback': createCallbackHandler({ secret: SECRET, store, observer, onStatus: () => undefined }),
    '/status': createStatusHandler({ store, observer, authorize: () => true, waitMs: 5_000 }),
    '/status-full': createStatusHandler({ store, observer, authorize: () => true, maxWaiters: 0 }),
  };
  const nodeRoutes = Object.fromEntries(Object.entries(routes).map(([path, h]) => [path, toNodeHandler(h)]));
  const server = await startServer(framework((req, res) => nodeRoutes[new URL(req.url ?? '/', 'http://x').pathname]?.(req, res)));
  closers.push(() => server.close());
  return server.url;
}

before(async () => {
  const service = await startService(async (request, res) => {
    if (request.path === '/api/jsapi/obtain_token/') {
      const key = `form-key-${String(request.json?.['request_id'])}`;
      forbidden.push(key);
      await answerSigned(res, 200, { success: true, key });
    } else {
      res.destroy(); // the payout reached the service and no answer came back: its outcome is unknown
    }
  });
  closers.push(() => service.close());
  serviceUrl = service.url;
  const redis = await startRedis();
  closers.push(() => redis.stop());
  const store = async () => {
    const client = await connectedClient(redis.url, { disableOfflineQueue: true });
    const s = new RedisCallbackStore(client, { prefix: 'otel:' });
    closers.push(async () => {
      await s.close();
      client.destroy();
    });
    return s;
  };
  backendA = await backend(await store());
  backendB = await backend(await store());
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The framework's span for `route`, and pay-form's spans of its trace. */
function request(spans: readonly ReadableSpan[], route: string): { server: ReadableSpan; ours: ReadableSpan[] } {
  const servers = spans.filter((s) => s.name === route);
  assert.equal(servers.length, 1, `one framework span for ${route}`);
  const server = servers[0] as ReadableSpan;
  assert.equal(server.parentSpanContext, undefined, 'the framework span is the root: one trace per request');
  const traceId = server.spanContext().traceId;
  return { server, ours: spans.filter((s) => s !== server && s.spanContext().traceId === traceId) };
}

const named = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.find((s) => s.name === name);
  assert.ok(found, `a span ${name} among ${spans.map((s) => s.name).join(', ')}`);
  return found;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const outcomeEvent = (span: ReadableSpan, name: string) => span.events.find((e) => e.name === name)?.attributes;

let metricData: MetricData[] = [];
let attempt = '';
let signature = '';

test('a paid checkout: token on A, the wait on B, the callback on A; each request one trace under the framework span', async () => {
  const token = await post(`${backendA}/token`, { order_ref: 'order-42' });
  assert.equal(token.status, 200);
  attempt = ((await token.json()) as { attempt: string }).attempt;

  const waiting = fetch(`${backendB}/status?order_ref=order-42&attempt=${attempt}`);
  // The wait has started on B before the callback lands on A (the open-waits counter says so).
  for (let i = 0; i < 500 && points(await sdk.metrics(), 'pay_form.status.waits.open')[0]?.[1] !== 1; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const payload = { merchant_id: MERCHANT, site_login: TOKEN.site_login, request_id: `order-42~${attempt}`, invoice_id: 'inv-9', status: 'success', amount: 1500, currency: 'USD' };
  signature = await sign(payload, SECRET);
  forbidden.push(signature);
  assert.equal((await post(`${backendA}/callback`, { ...payload, signature })).status, 200);
  const answered = await waiting;
  assert.equal(answered.status, 200);
  assert.equal(((await answered.json()) as { status: string }).status, 'success');

  const spans = sdk.spans();
  const tokenRequest = request(spans, 'POST /token');
  const tokenSpan = named(tokenRequest.ours, 'pay_form.token');
  assert.equal(parentOf(tokenSpan), tokenRequest.server.spanContext().spanId, 'pay_form.token is a child of the framework span');
  assert.equal(tokenSpan.attributes['pay_form.order_ref'], 'order-42');
  assert.equal(tokenSpan.attributes['pay_form.attempt'], attempt);
  assert.equal(parentOf(named(tokenRequest.ours, 'pay_form.token.resolve')), tokenSpan.spanContext().spanId);
  assert.deepEqual(outcomeEvent(tokenSpan, 'pay_form.attempt'), { 'pay_form.order_ref': 'order-42', 'pay_form.attempt': attempt });
  const obtain = named(tokenRequest.ours, 'pay_form.obtain_token');
  assert.equal(parentOf(obtain), tokenSpan.spanContext().spanId);
  const http = named(tokenRequest.ours, 'POST /api/jsapi/obtain_token/');
  assert.equal(parentOf(http), obtain.spanContext().spanId);
  assert.equal(http.kind, 2 /* SpanKind.CLIENT */);
  const serviceHost = new URL(serviceUrl);
  assert.deepEqual(
    [http.attributes['http.request.method'], http.attributes['server.address'], http.attributes['server.port'], http.attributes['http.response.status_code']],
    ['POST', serviceHost.hostname, Number(serviceHost.port), 200],
  );

  const callbackRequest = request(spans, 'POST /callback');
  const callback = named(callbackRequest.ours, 'pay_form.callback');
  assert.equal(parentOf(callback), callbackRequest.server.spanContext().spanId);
  // verify, claim and finish are events on the callback's span, in that order; onStatus has its own span.
  assert.deepEqual(
    callback.events.map((e) => e.name).filter((n) => /^pay_form\.callback\.(verified|claimed|finished)$/.test(n)),
    ['pay_form.callback.verified', 'pay_form.callback.claimed', 'pay_form.callback.finished'],
  );
  assert.equal(parentOf(named(callbackRequest.ours, 'pay_form.callback.on_status')), callback.spanContext().spanId);
  assert.deepEqual(callbackRequest.ours.map((s) => s.name).sort(), ['pay_form.callback', 'pay_form.callback.on_status']);
  assert.equal(callback.attributes['pay_form.callback.outcome'], 'new');
  assert.equal(callback.attributes['pay_form.order_ref'], 'order-42');
  assert.equal(callback.attributes['pay_form.attempt'], attempt);

  const statusRequest = request(spans, 'GET /status');
  const status = named(statusRequest.ours, 'pay_form.status');
  assert.equal(parentOf(status), statusRequest.server.spanContext().spanId);
  assert.equal(status.attributes['pay_form.status.outcome'], 'answered');
  assert.ok(status.events.some((e) => e.name === 'pay_form.status.wait_started'));

  metricData = await sdk.metrics();
  assert.deepEqual(points(metricData, 'pay_form.callbacks'), [[{ 'pay_form.callback.outcome': 'new' }, 1]]);
  assert.deepEqual(points(metricData, 'pay_form.status.waits.open'), [[{}, 0]]);
  assert.deepEqual(points(metricData, 'pay_form.status.wait.duration'), [[{ 'pay_form.status.outcome': 'answered' }, 1]]);
  const durations = points(metricData, 'http.client.request.duration');
  assert.equal(durations.length, 1);
  assert.equal(durations[0]?.[0]['http.response.status_code'], 200);
  assert.equal(durations[0]?.[0]['pay_form.operation'], 'obtain_token');
});

test('a duplicate callback (on B), an extra payment (on A), a refused wait and a payout with an unknown outcome show in spans and metrics', async () => {
  const earlier = sdk.spans().length;
  const payload = { merchant_id: MERCHANT, site_login: TOKEN.site_login, request_id: `order-42~${attempt}`, invoice_id: 'inv-9', status: 'success', amount: 1500, currency: 'USD' };
  assert.equal((await post(`${backendB}/callback`, { ...payload, signature })).status, 200);
  // Another invoice paying the same, already paid order: an extra payment to refund.
  const extra = { ...payload, invoice_id: 'inv-10' };
  assert.equal((await post(`${backendA}/callback`, { ...extra, signature: await sign(extra, SECRET) })).status, 200);
  assert.equal((await fetch(`${backendB}/status-full?order_ref=order-43`)).status, 503);
  await assert.rejects(clientFor(serviceUrl, { observer }).createPayout(PAYOUT), (e: { outcomeUnknown?: boolean }) => e.outcomeUnknown === true);

  const spans = sdk.spans().slice(earlier);
  const callbacks = spans.filter((s) => s.name === 'pay_form.callback').map((s) => [s.attributes['pay_form.invoice_id'], s.attributes['pay_form.callback.outcome']]);
  assert.deepEqual(callbacks, [['inv-9', 'duplicate'], ['inv-10', 'extra_payment']]);
  assert.equal(named(request(spans, 'GET /status-full').ours, 'pay_form.status').attributes['pay_form.status.outcome'], 'refused');
  const payout = named(spans, 'pay_form.payout');
  assert.equal(payout.attributes['pay_form.payout.request_id'], PAYOUT.request_id);
  assert.equal(outcomeEvent(payout, 'pay_form.payout')?.['pay_form.payout.outcome'], 'outcome_unknown');
  assert.equal(payout.status.code, 2 /* ERROR */);
  assert.equal(parentOf(named(spans, 'pay_form.payout.claim')), payout.spanContext().spanId);
  const http = named(spans, 'POST /api/payout/');
  assert.equal(parentOf(http), payout.spanContext().spanId);
  // The connection's system code: ECONNRESET from node:http, UND_ERR_SOCKET from fetch (undici).
  assert.match(String(http.attributes['error.type']), /^(ECONNRESET|UND_ERR_SOCKET)$/);

  metricData = await sdk.metrics();
  assert.deepEqual(
    points(metricData, 'pay_form.callbacks').sort(([a], [b]) => String(a['pay_form.callback.outcome']).localeCompare(String(b['pay_form.callback.outcome']))),
    [[{ 'pay_form.callback.outcome': 'duplicate' }, 1], [{ 'pay_form.callback.outcome': 'extra_payment' }, 1], [{ 'pay_form.callback.outcome': 'new' }, 1]],
  );
  assert.deepEqual(points(metricData, 'pay_form.payouts'), [[{ 'pay_form.payout.outcome': 'outcome_unknown' }, 1]]);
  assert.ok(events.some((e) => e.type === 'status' && e.outcome === 'refused'), 'the observer heard the refused wait too');
  assert.ok(events.some((e) => e.type === 'payout' && e.outcome === 'outcome_unknown'), 'and the payout');
});

test('no span or metric holds a secret, a signature, a card number, the shopper login or the form key; every attribute is documented', () => {
  const all = texts(sdk.ours(), metricData);
  assert.ok(all.includes('order-42') && all.includes(attempt), 'the scan sees what the spans hold');
  for (const value of forbidden) {
    assert.ok(!all.some((text) => text.includes(value)), `found ${value}`);
  }
  const keys = new Set(sdk.ours().flatMap((s) => [...Object.keys(s.attributes), ...s.events.flatMap((e) => Object.keys(e.attributes ?? {}))]));
  for (const m of metricData) for (const p of m.dataPoints) for (const k of Object.keys(p.attributes)) keys.add(k);
  assert.deepEqual([...keys].filter((k) => !(k in ATTRIBUTES)), []);
});
