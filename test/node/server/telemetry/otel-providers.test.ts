// otel.ts with one signal registered at a time (docs/observability.md, Spans): an application that
// registers only a TracerProvider still gets pay-form's spans and their outcomes, and one that
// registers only a MeterProvider still gets the callbacks counter. Without either, pay-form builds
// nothing for telemetry: the API's no-op meter is not fed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createCallbackHandler, createStatusHandler, MemoryCallbackStore, sign } from '../../../../src/server/index.js';
import { TestReader } from '../../../support/telemetry/otel-sdk.js';

const manager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(manager);
after(() => {
  manager.disable();
  context.disable();
});

let n = 0;
/** One signed delivery to a new callback handler: its answer's status. */
async function deliver(store = new MemoryCallbackStore(), attempt?: string): Promise<number> {
  const handler = createCallbackHandler({ secret: 's', store, onStatus: () => undefined });
  const payload = { request_id: `order-${++n}${attempt === undefined ? '' : `~${attempt}`}`, invoice_id: `inv-${n}`, status: 'success', amount: 100, currency: 'USD' };
  const body = JSON.stringify({ ...payload, signature: await sign(payload, 's') });
  const answer = await handler(new Request('http://shop/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  await answer.arrayBuffer();
  return answer.status;
}

/** A status request for the next order's attempt in `store`, under way (its wait started): its answer to come. */
async function waitingRequest(store: MemoryCallbackStore, attempt: string): Promise<{ answer: Promise<Response> }> {
  const order = `order-${n + 1}`;
  await store.startAttempt(order, { attempt, amount: '100', currency: 'USD', lifetimeMs: 60_000, obtainMs: 5_000 });
  const answer = createStatusHandler({ store, authorize: () => true })(new Request(`http://shop/status?order_ref=${order}&attempt=${attempt}`));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { answer };
}

test('only a TracerProvider registered: the callback span carries its outcome, and a wait it ends is told on its own span only', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  try {
    // The page's wait and the callback in one process, on one store: the callback's finish wakes the
    // wait inside the callback's span.
    const store = new MemoryCallbackStore();
    const attempt = 'a1b2c3d4e5f6';
    const waited = (await waitingRequest(store, attempt)).answer;
    assert.equal(await deliver(store, attempt), 200);
    assert.equal((await waited).status, 200);
    const spans = exporter.getFinishedSpans();
    const callback = spans.find((s) => s.name === 'pay_form.callback');
    assert.ok(callback, 'the callback span was recorded');
    assert.equal(callback.attributes['pay_form.callback.outcome'], 'new');
    assert.deepEqual(
      callback.events.map((e) => e.name),
      ['pay_form.callback.verified', 'pay_form.callback.claimed', 'pay_form.callback.finished'],
      'the callback span tells its own steps, not the wait it ended',
    );
    assert.equal(spans.find((s) => s.name === 'pay_form.status')?.attributes['pay_form.status.outcome'], 'answered');
  } finally {
    await provider.shutdown();
    trace.disable();
  }
});

test('only a MeterProvider registered: the callbacks counter counts the delivery by outcome, and no span is made', async () => {
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  try {
    assert.equal(await deliver(), 200);
    const collected = (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const callbacks = collected.find((m) => m.descriptor.name === 'pay_form.callbacks');
    assert.deepEqual(
      callbacks?.dataPoints.map((p) => [p.attributes['pay_form.callback.outcome'], p.value]),
      [['new', 1]],
    );
    assert.equal(trace.getActiveSpan(), undefined);
  } finally {
    await provider.shutdown();
    metrics.disable();
  }
});

test('a MeterProvider registered while a request waits counts that wait open, and closed once answered', async () => {
  const store = new MemoryCallbackStore();
  const attempt = 'f6e5d4c3b2a1';
  const waited = (await waitingRequest(store, attempt)).answer;
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  // The waits' sweep does not hold the process open (a server's sockets do): this test's timer does.
  const alive = setInterval(() => undefined, 1_000);
  const open = async () =>
    (await reader.collect()).resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'pay_form.status.waits.open')
      ?.dataPoints.map((p) => p.value);
  try {
    assert.equal(await deliver(store, attempt), 200);
    assert.equal((await waited).status, 200);
    assert.deepEqual(await open(), [0], 'the wait opened before the provider, closed after it: none open, not -1');
    const brief = createStatusHandler({ store, authorize: () => true, waitMs: 1_500 });
    const again = brief(new Request(`http://shop/status?order_ref=order-none&attempt=${attempt}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await open(), [1]);
    assert.equal((await again).status, 204);
    assert.deepEqual(await open(), [0]);
  } finally {
    clearInterval(alive);
    await provider.shutdown();
    metrics.disable();
  }
});
