// pay-form's spans and metrics through @opentelemetry/api, an optional peer dependency: loaded by a
// dynamic import the first time a handler or client is made, so pay-form/server imports and runs
// without it, and the Fetch entry has no static dependency (docs/observability.md, How it is loaded).
// Until the application registers an SDK the API hands out no-op spans and instruments; without the
// package every helper here is a plain call of the function it wraps.
import type * as OtelApi from '@opentelemetry/api';
import type { Attributes } from './attributes.js';
import { errorType } from './attributes.js';

type Api = typeof OtelApi;
type Span = OtelApi.Span;

const NAME = 'pay-form';

let api: Api | undefined;
let loading: Promise<void> | undefined;
let loaded = false;

/** Starts loading the API, once; resolves when it is loaded or known absent. */
export function loadTelemetry(): Promise<void> {
  loading ??= import('@opentelemetry/api')
    .then(
      (module: unknown) => {
        // The ESM build has named exports; a CommonJS-only resolution puts them under default.
        const found = module as Partial<Api> & { default?: Api };
        api = found.trace !== undefined ? (found as Api) : found.default;
      },
      () => undefined,
    )
    .finally(() => (loaded = true));
  return loading;
}

/** True when the API is loaded: without it, callers skip even building attributes. */
export const telemetryOn = (): boolean => api !== undefined;

/** undefined once the load settled; until then its promise, which a handler's first requests await so
 *  that even they are traced. */
export function telemetryReady(): Promise<void> | undefined {
  return loaded ? undefined : loadTelemetry();
}

/** The instruments, made again when the application registers another MeterProvider (the API's
 *  metrics have no proxy provider, unlike its traces). */
interface Instruments {
  provider: unknown;
  serviceDuration: OtelApi.Histogram;
  callbacks: OtelApi.Counter;
  payouts: OtelApi.Counter;
  openWaits: OtelApi.UpDownCounter;
  waitDuration: OtelApi.Histogram;
}
let instruments: Instruments | undefined;

function meters(otel: Api): Instruments {
  const provider = otel.metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(NAME);
  instruments = {
    provider,
    serviceDuration: meter.createHistogram('http.client.request.duration', {
      unit: 's',
      description: 'Duration of the service calls (obtain_token, payout), one per HTTP attempt.',
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
    }),
    callbacks: meter.createCounter('pay_form.callbacks', { description: 'Callbacks received, by outcome.' }),
    payouts: meter.createCounter('pay_form.payouts', { description: 'createPayout calls, by outcome.' }),
    openWaits: meter.createUpDownCounter('pay_form.status.waits.open', { description: 'Status requests waiting for a verified status.' }),
    waitDuration: meter.createHistogram('pay_form.status.wait.duration', { unit: 's', description: 'How long status requests waited, by outcome.' }),
  };
  return instruments;
}

export type MetricName = 'serviceDuration' | 'callbacks' | 'payouts' | 'openWaits' | 'waitDuration';

/** Adds to a counter or records into a histogram; nothing without the API. */
export function record(metric: MetricName, value: number, attributes: Attributes): void {
  if (api === undefined) return;
  const instrument = meters(api)[metric];
  if ('record' in instrument) instrument.record(value, clean(attributes));
  else instrument.add(value, clean(attributes));
}

function clean(attributes: Attributes): OtelApi.Attributes {
  const out: OtelApi.Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/** The span a step of pay-form's own is in; every method is a no-op without the API. */
export interface Step {
  set(attributes: Attributes): void;
  event(name: string, attributes?: Attributes): void;
  /** Marks the span failed with error.type; the span's status message is the type, never the error's text. */
  fail(type: string): void;
}

const NO_STEP: Step = { set: () => undefined, event: () => undefined, fail: () => undefined };

function stepOf(span: Span, otel: Api): Step {
  return {
    set: (attributes) => span.setAttributes(clean(attributes)),
    event: (name, attributes = {}) => span.addEvent(name, clean(attributes)),
    fail: (type) => {
      span.setAttribute('error.type', type);
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: type });
    },
  };
}

export type SpanKindName = 'internal' | 'client';

/**
 * Runs `fn` in a new span, child of the active one (the framework's request span, or the handler's
 * own span for its steps); a throw marks the span with error.type and is thrown on.
 */
export async function traced<T>(name: string, attributes: Attributes, fn: (step: Step) => Promise<T> | T, kind: SpanKindName = 'internal'): Promise<T> {
  const otel = api;
  if (otel === undefined) return fn(NO_STEP);
  const options = { kind: kind === 'client' ? otel.SpanKind.CLIENT : otel.SpanKind.INTERNAL, attributes: clean(attributes) };
  return otel.trace.getTracer(NAME).startActiveSpan(name, options, async (span) => {
    const step = stepOf(span, otel);
    try {
      return await fn(step);
    } catch (error) {
      step.fail(errorType(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/** An event on the active span (pay-form's own, or the framework's when called outside one). */
export function activeEvent(name: string, attributes: Attributes = {}): void {
  api?.trace.getActiveSpan()?.addEvent(name, clean(attributes));
}

/**
 * A handler's logic in its own span, child of the framework's request span when there is one (on the
 * Node fast path too: toNodeHandler calls the logic inside the framework's async context). The first
 * requests wait for the API to load, so none is missed.
 */
export function instrumented<I, R>(name: string, logic: (input: I, step: Step) => Promise<R>): (input: I) => Promise<R> {
  void loadTelemetry();
  return async (input) => {
    const ready = telemetryReady();
    if (ready !== undefined) await ready;
    return traced(name, {}, (step) => logic(input, step));
  };
}
