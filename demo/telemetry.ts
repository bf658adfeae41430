// The demo's OpenTelemetry SDK (docs/observability.md): pay-form's spans through an in-process exporter
// that prints each order's attempt as a timeline (token, service call, form shown, paid, callback,
// settled, with their durations) in the terminal of `npm start`; and, when OTEL_EXPORTER_OTLP_ENDPOINT
// is set, the same spans to that collector (Jaeger, Tempo) through a batch processor, and pay-form's
// metrics read periodically. `request()` plays the web framework's instrumentation: Vite's middleware
// has none, so the demo starts the SERVER span itself.
import { context, metrics, SpanKind, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** pay-form's span names as the timeline calls them. */
const STEPS: Readonly<Record<string, string>> = {
  'pay_form.token': 'token',
  'pay_form.obtain_token': 'service call',
  // Reported by the demo page (demo/page-steps.ts).
  'demo.page.form_shown': 'form shown',
  'demo.page.paid': 'paid',
  'pay_form.callback': 'callback',
  'pay_form.status': 'settled',
};
/** How long a settled attempt's line waits for the page's report that it paid (it may come after the
 *  callback; a redirect or a closed tab never sends it). */
const PAGE_GRACE_MS = 3_000;

interface Step {
  name: string;
  at: number;
  ms: number;
}

const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

/** Collects the steps of each order's attempt and prints the timeline once the page has its status. */
class Timelines implements SpanProcessor {
  readonly #orders = new Map<string, Step[]>();
  /** Settled attempts whose line waits for the page's "paid". */
  readonly #waiting = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #printed = new Set<string>();
  constructor(readonly print: (line: string) => void) {}

  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    const step = STEPS[span.name];
    const order = span.attributes['pay_form.order_ref'];
    const attempt = span.attributes['pay_form.attempt'];
    if (step === undefined || typeof order !== 'string') return;
    // A status request that found nothing yet is no step of the timeline.
    if (step === 'settled' && span.attributes['pay_form.status.outcome'] !== 'answered') return;
    const key = `${order} attempt ${String(attempt ?? '?')}`;
    const steps = this.#orders.get(key) ?? [];
    steps.push({ name: step, at: ms(span.startTime), ms: ms(span.duration) });
    this.#orders.set(key, steps);
    // Bounded: the demo keeps the last 100 attempts.
    if (this.#orders.size > 100) this.#orders.delete(this.#orders.keys().next().value as string);
    const settled = steps.some((s) => s.name === 'settled');
    if (settled && steps.some((s) => s.name === 'paid')) this.#printNow(key, steps);
    else if (step === 'settled') {
      const timer = setTimeout(() => this.#printNow(key, steps), PAGE_GRACE_MS);
      timer.unref?.();
      this.#waiting.set(key, timer);
    }
  }
  #printNow(key: string, steps: Step[]): void {
    clearTimeout(this.#waiting.get(key));
    this.#waiting.delete(key);
    // Once per attempt: a later status request for it prints nothing again.
    if (this.#printed.has(key)) return;
    this.#printed.add(key);
    if (this.#printed.size > 100) this.#printed.delete(this.#printed.values().next().value as string);
    this.print(this.#line(key, steps));
  }
  #line(key: string, steps: Step[]): string {
    const first = Math.min(...steps.map((s) => s.at));
    // In the checkout's order (the page's status request starts before the callback, and ends after it).
    const order = Object.values(STEPS);
    const parts = steps.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name)).map((s) => `${s.name} +${(s.at - first).toFixed(0)} ms (${s.ms.toFixed(1)} ms)`);
    return `  order ${key}: ${parts.join(' → ')}`;
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    for (const timer of this.#waiting.values()) clearTimeout(timer);
    return Promise.resolve();
  }
}

export interface DemoTelemetry {
  /** Runs the shop's route inside a SERVER span, ended when the answer is sent. */
  request(req: IncomingMessage, res: ServerResponse, route: () => void): void;
  close(): Promise<void>;
}

/** pay-form's metrics to the collector: read every OTEL_METRIC_EXPORT_INTERVAL ms (default 10 s), and at close. */
function otlpMetrics(endpoint: string, env: Readonly<Record<string, string | undefined>>): MeterProvider {
  const interval = Number(env['OTEL_METRIC_EXPORT_INTERVAL']);
  const exporter = new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` });
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: interval > 0 ? interval : 10_000 });
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  return provider;
}

export function demoTelemetry(env: Readonly<Record<string, string | undefined>>, print: (line: string) => void): DemoTelemetry {
  const processors: SpanProcessor[] = [new Timelines(print)];
  // The collector's base address (OTLP/HTTP): traces to /v1/traces, metrics to /v1/metrics.
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.replace(/\/+$/, '');
  if (endpoint) processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` })));
  const provider = new BasicTracerProvider({ spanProcessors: processors });
  const meters = endpoint ? otlpMetrics(endpoint, env) : undefined;
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(provider);
  const tracer = trace.getTracer('pay-form-demo');
  return {
    request(req, res, route) {
      const path = new URL(req.url ?? '/', 'http://shop').pathname;
      tracer.startActiveSpan(`${req.method ?? 'GET'} ${path}`, { kind: SpanKind.SERVER }, (span: Span) => {
        res.once('close', () => span.end());
        route();
      });
    },
    close: async () => {
      await Promise.all([provider.shutdown(), meters?.shutdown()]);
    },
  };
}
