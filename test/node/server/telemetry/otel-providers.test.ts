// otel.ts with one signal registered at a time (docs/observability.md, Spans): an application that
// registers only a TracerProvider still gets the observer's events on pay-form's spans, and one that
// registers only a MeterProvider still gets the callbacks counter. Without either, pay-form builds
// nothing for telemetry: the API's no-op meter is not fed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createCallbackHandler, MemoryCallbackStore, sign } from '../../../../src/server/index.js';
import { TestReader } from '../../../support/telemetry/otel-sdk.js';

const manager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(manager);
after(() => {
  manager.disable();
  context.disable();
});

let n = 0;
/** One signed delivery to a new callback handler: its answer's status. */
async function deliver(): Promise<number> {
  const handler = createCallbackHandler({ secret: 's', store: new MemoryCallbackStore(), onStatus: () => undefined });
  const payload = { request_id: `order-${++n}`, invoice_id: `inv-${n}`, status: 'success', amount: 100, currency: 'USD' };
  const body = JSON.stringify({ ...payload, signature: await sign(payload, 's') });
  const answer = await handler(new Request('http://shop/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  await answer.arrayBuffer();
  return answer.status;
}

test('only a TracerProvider registered: the callback span carries its outcome event', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  try {
    assert.equal(await deliver(), 200);
    const span = exporter.getFinishedSpans().find((s) => s.name === 'pay_form.callback');
    assert.ok(span, 'the callback span was recorded');
    const event = span.events.find((e) => e.name === 'pay_form.callback');
    assert.equal(event?.attributes?.['pay_form.callback.outcome'], 'new');
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
