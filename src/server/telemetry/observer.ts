// One hook for what pay-form/server does: every handler and the PaymentClient take `observer`, a
// function told each event (docs/observability.md, The observer). The same events feed pay-form's
// metrics and the active span's events, so a merchant's logs, traces and metrics tell one story. The
// older onError / onWarning options are still called, deprecated: they hear the error and warning
// events only.
import type { FieldIssue } from '../../service/fields.js';
import type { Operation } from '../../service/paths.js';
import { errorType, orderAttributes, outcomeAttribute, type Attributes, type CallbackOutcome, type PayoutOutcomeName, type StatusOutcome } from './attributes.js';
import { clean, count, record, recordingSpan, telemetryOn } from './otel.js';

export type { CallbackOutcome, PayoutOutcomeName, StatusOutcome };

/** A warning about a request that was sent after a documented normalisation. */
export interface ClientWarning extends FieldIssue {
  operation: Operation;
}

/** Which part of pay-form/server an event comes from. */
export type EventSource = 'token' | 'callback' | 'status' | 'client';

/** What the observer is told. Order references and attempt ids, never secrets or payment details. */
export type PayFormEvent =
  | { type: 'error'; source: EventSource; error: unknown }
  | { type: 'warning'; source: 'client'; warning: ClientWarning }
  /** The token handler made an attempt the order's current one (`reused`: the order's open attempt was handed out again). */
  | { type: 'attempt'; source: 'token'; outcome: 'started' | 'reused'; orderRef: string; attempt: string }
  /** A callback was answered; `new` is the one delivery that ran onStatus. */
  | { type: 'callback'; source: 'callback'; outcome: CallbackOutcome; orderRef: string | undefined; attempt: string | undefined }
  /** createPayout ended. `outcome_unknown`: reconcile, never resend (docs/payouts.md). */
  | { type: 'payout'; source: 'client'; outcome: PayoutOutcomeName; requestId: string }
  /** A status request was answered; `waitedMs` when it waited for news. */
  | { type: 'status'; source: 'status'; outcome: StatusOutcome; orderRef: string | undefined; attempt: string | undefined; waitedMs?: number };

export type PayFormObserver = (event: PayFormEvent) => void;

/** The hooks an options object may carry. */
export interface ObserverOptions {
  /** Told every event of this handler or client (docs/observability.md). Must not throw; a throw is ignored. */
  observer?: PayFormObserver;
  /** @deprecated Use `observer` and its `error` events; still called with each error. */
  onError?: (error: unknown) => void;
}

/** Sends one event to telemetry, the observer and the deprecated hooks. */
export type Emit = (event: PayFormEvent) => void;

/** A span event's attributes, for the events that are not already their handler span's attributes. */
function attributesOf(event: Exclude<PayFormEvent, { type: 'callback' | 'status' }>): Attributes {
  switch (event.type) {
    case 'error':
      return { 'error.type': errorType(event.error) };
    case 'warning':
      return { 'pay_form.operation': event.warning.operation };
    case 'attempt':
      return orderAttributes(event.orderRef, event.attempt);
    case 'payout':
      return { 'pay_form.payout.request_id': event.requestId, 'pay_form.payout.outcome': event.outcome };
  }
}

/** Metrics carry outcomes only: an order reference per point would make every order its own series. */
function measure(event: PayFormEvent): void {
  if (event.type === 'callback') count('callbacks', event.outcome);
  else if (event.type === 'payout') count('payouts', event.outcome);
  else if (event.type === 'status' && event.waitedMs !== undefined) record('waitDuration', event.waitedMs / 1000, outcomeAttribute('pay_form.status.outcome', event.outcome));
}

function safely<A>(hook: ((arg: A) => void) | undefined, arg: A): void {
  try {
    hook?.(arg);
  } catch {
    // An observer that throws must not change a payment's answer.
  }
}

/** The one emit of a handler or client; `onWarning` is the client's deprecated hook. */
export function emitter(options: ObserverOptions & { onWarning?: (warning: ClientWarning) => void }): Emit {
  const { observer, onError, onWarning } = options ?? {};
  return (event) => {
    if (telemetryOn()) {
      measure(event);
      // The event's attributes are built only for a span that records them. A callback's or status
      // request's outcome is already on its handler's span as attributes, and a wait ends in whatever
      // context woke it (another request's span): those two are not span events.
      if (event.type !== 'callback' && event.type !== 'status') recordingSpan()?.addEvent(`pay_form.${event.type}`, clean(attributesOf(event)));
    }
    safely(observer, event);
    if (event.type === 'error') safely(onError, event.error);
    else if (event.type === 'warning') safely(onWarning, event.warning);
  };
}
