// otel.ts with a sampler that keeps nothing (docs/observability.md, Spans): a sampled-out request is
// answered as any other, records nothing, and pay-form makes none of its spans the active one, so the
// merchant's onStatus runs in the request's own (sampled-out) span.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createCallbackHandler, MemoryCallbackStore, sign } from '../../../../src/server/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
const manager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(manager);
trace.setGlobalTracerProvider(provider);
after(async () => {
  await provider.shutdown();
  manager.disable();
  trace.disable();
  context.disable();
});

test('a sampled-out callback is answered 200, records no span, and onStatus runs in the request span', async () => {
  const seen: Array<Span | undefined> = [];
  const handler = createCallbackHandler({ secret: 's', store: new MemoryCallbackStore(), onStatus: () => void seen.push(trace.getActiveSpan()) });
  const payload = { request_id: 'order-7', invoice_id: 'inv-7', status: 'success', amount: 100, currency: 'USD' };
  const body = JSON.stringify({ ...payload, signature: await sign(payload, 's') });
  const tracer = trace.getTracer('framework');
  const { answer, request } = await tracer.startActiveSpan('POST /callback', { kind: SpanKind.SERVER }, async (span) => {
    const result = await handler(new Request('http://shop/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    span.end();
    return { answer: result, request: span };
  });
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { success: true });
  assert.equal(request.isRecording(), false);
  assert.deepEqual(seen, [request], "onStatus saw the request's span, not one of pay-form's");
  assert.deepEqual(exporter.getFinishedSpans(), []);
});
