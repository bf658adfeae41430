// The span a step of pay-form's own is in, as its callers see it, and the step of a span that does not
// record. Apart from otel.ts, which touches the API, so bench/telemetry/otel-stub.ts hands out the same
// no-op step as the no-API path does.
import type { Attributes } from './attributes.js';

/** Every method is a no-op without the API or when the span is not recording (no SDK registered, or
 *  sampled out), so callers build nothing for it. */
export interface Step {
  /** False when nothing is recorded: callers skip building what they would set. */
  readonly recording: boolean;
  set(attributes: Attributes): void;
  event(name: string, attributes?: Attributes): void;
  /** Marks the span failed with error.type; the span's status message is the type, never the error's text. */
  fail(type: string): void;
}

export const NO_STEP: Step = { recording: false, set: () => undefined, event: () => undefined, fail: () => undefined };

/** What `await` and a promise's adoption need of an answer to come: a promise is one, and so is an object
 *  that calls one of the two once (status-handler.ts's wait), for a result that must not cost a promise. */
export interface Thenable<T> {
  then(fulfilled: (value: T) => unknown, rejected: (error: unknown) => unknown): unknown;
}

/** Whether a value (a merchant's callback's answer, a step's) is a promise or any thenable, rather than the answer itself. */
export function isThenable<T>(value: T | Thenable<T>): value is Thenable<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
