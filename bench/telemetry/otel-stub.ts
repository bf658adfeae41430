// src/server/telemetry/otel.ts with OpenTelemetry taken out, for bench/telemetry/in-process.ts's
// "today, OTel stubbed" build: the same exports, each the plain call its no-API path makes, and no
// import of @opentelemetry/api. Set beside today's build, it shows what the OTel integration itself
// costs with no SDK, apart from everything else that changed since the build before telemetry.
// clean() and NO_STEP live in modules that touch no API: the stub hands out the real ones.
export { clean } from '../../src/server/telemetry/attributes.js';
import type * as Real from '../../src/server/telemetry/otel.js';
import { NO_STEP, type Thenable } from '../../src/server/telemetry/step.js';

export const loadTelemetry = (): Promise<void> => Promise.resolve();
export const telemetryOn = (): boolean => false;
export const telemetryReady = (): Promise<void> | undefined => undefined;
export const record = (_metric: Real.HistogramName, _value: number, _attributes: Real.Recorded): void => undefined;
export const count = (_metric: 'callbacks' | 'payouts', _outcome: string): void => undefined;
export const openWait = (_delta: 1 | -1): void => undefined;
export const recordingSpan = (): undefined => undefined;

export const traced = <T>(_name: string, _attributes: unknown, fn: (step: Real.Step) => Promise<T> | T): Promise<T> | T => fn(NO_STEP);

export const instrumented =
  <I, R>(_name: string, logic: (input: I, step: Real.Step) => Thenable<R>): ((input: I) => Thenable<R>) =>
  (input) =>
    logic(input, NO_STEP);
