// The OpenTelemetry SDK as a merchant's application registers it, for tests and benches: a tracer
// provider with the in-memory exporter (or any processor given, e.g. a batch processor over OTLP), a
// meter provider with a reader the test collects from, and AsyncLocalStorage context, all global.
// `framework()` plays the merchant's framework instrumentation: a SERVER span active around the
// request, as Express, Fastify or Hono instrumentations start one.
import { context, metrics, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import type { IncomingMessage, ServerResponse } from 'node:http';

export class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Sdk {
  spans(): ReadableSpan[];
  /** pay-form's spans only (its instrumentation scope). */
  ours(): ReadableSpan[];
  metrics(): Promise<MetricData[]>;
  reset(): void;
  shutdown(): Promise<void>;
}

export function registerSdk(processors: SpanProcessor[] = []): Sdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), ...processors] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    ours: () => exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === 'pay-form'),
    metrics: async () => (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics),
    reset: () => exporter.reset(),
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      manager.disable();
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}

/** A node:http listener that runs `handler` inside a SERVER span named `GET /route`, ended with the answer. */
export function framework(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const tracer = trace.getTracer('framework');
  return (req: IncomingMessage, res: ServerResponse) => {
    const route = `${req.method ?? 'GET'} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    tracer.startActiveSpan(route, { kind: SpanKind.SERVER }, (span) => {
      res.once('finish', () => {
        span.setAttribute('http.response.status_code', res.statusCode);
        span.end();
      });
      handler(req, res);
    });
  };
}

/** Every string a span or metric holds: names, attribute keys and values, event names and attributes, status messages. */
export function texts(spans: readonly ReadableSpan[], metricData: readonly MetricData[]): string[] {
  const out: string[] = [];
  const attrs = (a: Record<string, unknown> | undefined) => {
    for (const [k, v] of Object.entries(a ?? {})) out.push(k, String(v));
  };
  for (const s of spans) {
    out.push(s.name, s.status.message ?? '');
    attrs(s.attributes);
    for (const e of s.events) {
      out.push(e.name);
      attrs(e.attributes);
    }
  }
  for (const m of metricData) {
    out.push(m.descriptor.name, m.descriptor.description);
    for (const p of m.dataPoints as ReadonlyArray<{ attributes: Record<string, unknown> }>) attrs(p.attributes);
  }
  return out;
}

/** The points of one metric as [attributes, value] pairs (a histogram's value is its count). */
export function points(metricData: readonly MetricData[], name: string): Array<[Record<string, unknown>, number]> {
  const metric = metricData.find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => {
    const value = p.value as number | { count: number };
    return [p.attributes, typeof value === 'number' ? value : value.count];
  });
}
