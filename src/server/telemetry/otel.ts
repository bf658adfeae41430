// pay-form's spans and metrics through @opentelemetry/api, an optional peer dependency: loaded by a
// dynamic import once the application has registered something with it (looked for when a handler or
// client is made and at each request), so pay-form/server imports and runs without it, and the Fetch
// entry has no static dependency (docs/observability.md, How it is loaded). Until then, and without
// the package, every helper here is a plain call of the function it wraps.
import type * as OtelApi from '@opentelemetry/api';
import { clean, errorType, outcomeAttribute, type AttributeName, type Attributes, type Recorded } from './attributes.js';
import { isThenable, NO_STEP, type Step, type Thenable } from './step.js';

export { clean, type Recorded, type Step };

type Api = typeof OtelApi;
type Span = OtelApi.Span;

const NAME = 'pay-form';

let api: Api | undefined;
let loading: Promise<void> | undefined;
let loaded = false;

/** Where version 1 of the OpenTelemetry API keeps what the application registered (an SDK's
 *  providers, a context manager): nothing is there until something is registered. */
const REGISTERED = Symbol.for('opentelemetry.js.api.1');

/** Whether the application has registered anything with the API: until then every span and instrument
 *  would be a no-op, so the API is not even loaded (about 7 MiB of RSS in a process that has it
 *  installed and uses no SDK: docs/performance.md, Loading pay-form/server). */
const registered = (): boolean => (globalThis as Record<symbol, unknown>)[REGISTERED] !== undefined;

/**
 * Starts loading the API, once, when the application has registered something with it; resolves when
 * it is loaded or known absent. Until then undefined: asked again by the next handler, client or request.
 */
export function loadTelemetry(): Promise<void> | undefined {
  if (loading === undefined && !registered()) return undefined;
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

/** True when the API is loaded and the application registered an SDK, for traces or for metrics:
 *  otherwise callers skip even building attributes (the API's no-op providers would drop them). */
export const telemetryOn = (): boolean => api !== undefined && (tracerOf(api) !== undefined || !meters(api).noop);

/** undefined once the load settled, or while nothing is registered; during the load its promise, which
 *  a handler's first requests after the registration await so that even they are traced. */
export function telemetryReady(): Promise<void> | undefined {
  return loaded ? undefined : loadTelemetry();
}

/** The instruments, made again when the application registers another MeterProvider (the API's
 *  metrics have no proxy provider, unlike its traces). Counts are kept here and handed to the SDK when
 *  it collects (observable instruments): a synchronous counter's `add` costs the SDK an attribute hash and
 *  a look-up per request, a handler's largest telemetry cost after its span (docs/performance.md,
 *  Telemetry overhead); a count here is one addition. */
interface Instruments {
  provider: unknown;
  /** The API's no-op meter: no MeterProvider is registered, and nothing is recorded. */
  noop: boolean;
  serviceDuration: OtelApi.Histogram;
  waitDuration: OtelApi.Histogram;
  /** Since this provider was registered, by outcome. */
  callbacks: Map<string, number>;
  payouts: Map<string, number>;
}
let instruments: Instruments | undefined;

/** Status requests waiting now, in the whole process: counted always (one addition), so a provider
 *  registered while requests wait reads their true number. */
let openWaits = 0;

function meters(otel: Api): Instruments {
  const provider = otel.metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(NAME);
  const callbacks = new Map<string, number>();
  const payouts = new Map<string, number>();
  const observed = (counts: Map<string, number>, attribute: AttributeName) => (result: OtelApi.ObservableResult) => {
    for (const [outcome, count] of counts) result.observe(count, outcomeAttribute(attribute, outcome));
  };
  meter.createObservableCounter('pay_form.callbacks', { description: 'Callbacks received, by outcome.' }).addCallback(observed(callbacks, 'pay_form.callback.outcome'));
  meter.createObservableCounter('pay_form.payouts', { description: 'createPayout calls, by outcome.' }).addCallback(observed(payouts, 'pay_form.payout.outcome'));
  meter
    .createObservableUpDownCounter('pay_form.status.waits.open', { description: 'Status requests waiting for a verified status.' })
    .addCallback((result) => result.observe(openWaits));
  instruments = {
    provider,
    noop: meter === otel.createNoopMeter(),
    serviceDuration: meter.createHistogram('http.client.request.duration', {
      unit: 's',
      description: 'Duration of the service calls (obtain_token, payout), one per HTTP attempt.',
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
    }),
    waitDuration: meter.createHistogram('pay_form.status.wait.duration', { unit: 's', description: 'How long status requests waited, by outcome.' }),
    callbacks,
    payouts,
  };
  return instruments;
}

export type HistogramName = 'serviceDuration' | 'waitDuration';

/** Records into a histogram; nothing without the API or a MeterProvider. */
export function record(metric: HistogramName, value: number, attributes: Recorded): void {
  if (api === undefined) return;
  const live = meters(api);
  if (!live.noop) live[metric].record(value, attributes);
}

/** Counts one callback or payout by its outcome; nothing without the API or a MeterProvider. */
export function count(metric: 'callbacks' | 'payouts', outcome: string): void {
  if (api === undefined) return;
  const live = meters(api);
  if (!live.noop) live[metric].set(outcome, (live[metric].get(outcome) ?? 0) + 1);
}

/** A status request started (+1) or ended (-1) its wait. */
export function openWait(delta: 1 | -1): void {
  openWaits += delta;
}

/** A recording span as a Step: one object per span, no closures. */
class SpanStep implements Step {
  readonly recording = true;
  constructor(
    readonly span: Span,
    private readonly otel: Api,
  ) {}
  set(attributes: Attributes): void {
    this.span.setAttributes(clean(attributes));
  }
  event(name: string, attributes?: Attributes): void {
    this.span.addEvent(name, attributes === undefined ? undefined : clean(attributes));
  }
  fail(type: string): void {
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: this.otel.SpanStatusCode.ERROR, message: type });
  }
}

export type SpanKindName = 'internal' | 'client';

/** The tracer, kept while the registered provider is the same one (tests and apps may register another). */
let tracer: { provider: unknown; tracer: OtelApi.Tracer } | undefined;
/** undefined while no SDK is registered: the API's proxy provider has no delegate yet, and every span
 *  would be a non-recording one, so none is asked for. */
function tracerOf(otel: Api): OtelApi.Tracer | undefined {
  const provider = otel.trace.getTracerProvider();
  if (tracer?.provider === provider) return tracer.tracer;
  if (provider instanceof otel.ProxyTracerProvider && provider.getDelegateTracer(NAME) === undefined) return undefined;
  tracer = { provider, tracer: provider.getTracer(NAME) };
  return tracer.tracer;
}

/**
 * Runs `fn` in a new span, child of the active one (the framework's request span, or the handler's
 * own span for its steps); a throw marks the span with error.type and is thrown on. `attributes` is a
 * function, called only when the span records. A span that does not record (no SDK) is not made the
 * active one: `fn` runs as a plain call, its answer handed back as it is (a synchronous one is not
 * wrapped in a promise), so the code costs what it did before telemetry.
 */
export function traced<T>(name: string, attributes: (() => Attributes) | undefined, fn: (step: Step) => Promise<T>, kind?: SpanKindName): Promise<T>;
export function traced<T>(name: string, attributes: (() => Attributes) | undefined, fn: (step: Step) => Thenable<T>, kind?: SpanKindName): Thenable<T>;
export function traced<T>(name: string, attributes: (() => Attributes) | undefined, fn: (step: Step) => Promise<T> | T, kind?: SpanKindName): Promise<T> | T;
export function traced<T>(name: string, attributes: (() => Attributes) | undefined, fn: (step: Step) => Thenable<T> | T, kind: SpanKindName = 'internal'): Thenable<T> | T {
  const otel = api;
  // A client's call (no handler's request waits for the load): the load starts once something is
  // registered, and its later calls are traced.
  if (otel === undefined) {
    if (!loaded) void loadTelemetry();
    return fn(NO_STEP);
  }
  const spans = tracerOf(otel);
  if (spans === undefined) return fn(NO_STEP);
  const span = spans.startSpan(name, kind === 'client' ? { kind: otel.SpanKind.CLIENT } : undefined);
  return span.isRecording() ? inSpan(otel, span, attributes, fn) : fn(NO_STEP);
}

/** The span made active around `fn`, and ended when its answer settles. Not an async function: under an
 *  SDK's context manager every promise costs a hook call, so a span adds one promise (the `then` that
 *  ends it), or none for a synchronous answer. */
function inSpan<T>(otel: Api, span: Span, attributes: (() => Attributes) | undefined, fn: (step: Step) => Thenable<T> | T): Thenable<T> | T {
  const step = new SpanStep(span, otel);
  if (attributes !== undefined) step.set(attributes());
  let answer: Thenable<T> | T;
  try {
    answer = otel.context.with(otel.trace.setSpan(otel.context.active(), span), fn, undefined, step);
  } catch (error) {
    step.fail(errorType(error));
    span.end();
    throw error;
  }
  if (!isThenable(answer)) {
    span.end();
    return answer;
  }
  const ended = (value: T): T => (span.end(), value);
  const failed = (error: unknown): never => {
    step.fail(errorType(error));
    span.end();
    throw error;
  };
  // A status wait's answer is a Thenable that is no promise: adopted by one, which ends the span.
  return answer instanceof Promise ? (answer as Promise<T>).then(ended, failed) : new Promise<T>((resolve, reject) => answer.then(resolve, reject)).then(ended, failed);
}

/** The active span when it records (pay-form's own, or the framework's when called outside one). */
export function recordingSpan(): { addEvent(name: string, attributes: Recorded): unknown } | undefined {
  const span = api?.trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}

/**
 * A handler's logic in its own span, child of the framework's request span when there is one (on the
 * Node fast path too: toNodeHandler calls the logic inside the framework's async context). The first
 * requests after the application registered something with the API wait for it to load, so none is
 * missed.
 */
export function instrumented<I, R>(name: string, logic: (input: I, step: Step) => Thenable<R>): (input: I) => Thenable<R> {
  void loadTelemetry();
  const run = (input: I): Thenable<R> => traced<R>(name, undefined, (step: Step): Thenable<R> => logic(input, step));
  return (input) => {
    const ready = telemetryReady();
    return ready === undefined ? run(input) : ready.then(() => new Promise<R>((resolve, reject) => run(input).then(resolve, reject)));
  };
}
