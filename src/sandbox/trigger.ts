// `pay-form-sandbox trigger <event>`: the callbacks the service sends in one situation, delivered to a
// running shop, and whether each answer is what the service expects (docs/sandbox.md, Trigger). Each
// event is data: the deliveries in order, those of one step sent at the same moment.
import { newAttemptId } from '../service/checkout.js';
import {
  deliverCallback,
  madeUpOrder,
  signedCallback,
  tampered,
  type CallbackAnswer,
  type CallbackOutcome,
  type CallbackTarget,
  type SignedCallback,
} from './testing.js';

export const TRIGGER_EVENTS = ['success', 'fail', 'duplicate', 'late', 'out-of-order', 'bad-signature', 'extra-payment'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

export function isTriggerEvent(value: unknown): value is TriggerEvent {
  return (TRIGGER_EVENTS as readonly unknown[]).includes(value);
}

interface Delivery {
  /** What this callback is, in the printed line. */
  what: string;
  callback: SignedCallback;
  expect: CallbackOutcome;
}

export interface TriggerOptions {
  /** The shop's callback URL, or its handler. */
  to: CallbackTarget;
  secret: string;
  /** The order the callbacks are for; default a made-up reference. */
  order?: string;
  /** Minor units; default 1000. */
  amount?: number;
  merchantId?: string;
}

/** What each event means to the shop, printed under its answers. */
export const TRIGGER_MEANING: Readonly<Record<TriggerEvent, string>> = {
  success: 'the order is paid',
  fail: 'the payment was declined; the order stays unpaid',
  duplicate: 'the service delivered the same callback again (its first answer was lost): handle it once',
  late: "an earlier attempt's fail arrived after a later attempt paid: the order stays paid",
  'out-of-order': "one attempt's fail and a later attempt's success at the same moment: the order ends paid",
  'bad-signature': 'a callback changed after signing (a forger): it must be refused, nothing marked paid',
  'extra-payment': 'a second attempt of a paid order paid too: two payments for one order, refund one',
};

/** The steps of an event: each step's deliveries go at the same moment, the steps one after another. */
async function stepsOf(event: TriggerEvent, options: TriggerOptions, order: string): Promise<Delivery[][]> {
  const base = { secret: options.secret, order, amount: options.amount ?? 1000, ...(options.merchantId ? { merchantId: options.merchantId } : {}) };
  const first = { ...base, attempt: newAttemptId() };
  const second = { ...base, attempt: newAttemptId() };
  const taken = (what: string, callback: SignedCallback): Delivery => ({ what, callback, expect: 'taken' });
  switch (event) {
    case 'success':
    case 'fail':
      return [[taken(event, await signedCallback(event, first))]];
    case 'duplicate': {
      const paid = await signedCallback('success', first);
      return [[taken('success', paid)], [taken('the same success again', paid)]];
    }
    case 'late':
      return [[taken('success of attempt 2', await signedCallback('success', second))], [taken('fail of attempt 1', await signedCallback('fail', first))]];
    case 'out-of-order':
      return [[taken('success of attempt 2', await signedCallback('success', second)), taken('fail of attempt 1', await signedCallback('fail', first))]];
    case 'bad-signature':
      return [[{ what: 'success, amount changed after signing', callback: tampered(await signedCallback('success', first)), expect: 'refused' }]];
    case 'extra-payment':
      return [[taken('success of attempt 1', await signedCallback('success', first))], [taken('success of attempt 2', await signedCallback('success', second))]];
  }
}

export interface TriggerLine extends CallbackAnswer {
  what: string;
  invoiceId: string;
  expected: CallbackOutcome;
  ok: boolean;
}

export interface TriggerResult {
  event: TriggerEvent;
  order: string;
  lines: TriggerLine[];
  /** Every answer is what the service expects. */
  ok: boolean;
}

/** Sends an event's callbacks and tells each answer's meaning to the service. */
export async function trigger(event: TriggerEvent, options: TriggerOptions): Promise<TriggerResult> {
  const order = options.order ?? madeUpOrder();
  const lines: TriggerLine[] = [];
  for (const step of await stepsOf(event, options, order)) {
    const answers = await Promise.all(step.map((d) => deliverCallback(options.to, d.callback)));
    step.forEach((d, i) => {
      const answer = answers[i] as CallbackAnswer;
      lines.push({ ...answer, what: d.what, invoiceId: d.callback.invoice_id, expected: d.expect, ok: answer.outcome === d.expect });
    });
  }
  return { event, order, lines, ok: lines.every((line) => line.ok) };
}

/** What the shop should change when an answer is not the expected one. */
export function answerHint(line: Pick<TriggerLine, 'status' | 'body' | 'expected' | 'error'>): string {
  if (line.status === 0) return `nothing answered (${line.error ?? 'no answer'}): is the shop running at this address?`;
  if (line.expected === 'refused') return 'the shop took a callback whose signature is wrong: anyone could mark orders paid. Verify it (createCallbackHandler does, with the secret)';
  if (saysBodyParser(line.body)) return BODY_PARSER_HINT;
  if (line.status === 401) return "the signature did not verify: the shop's secret (PAY_SECRET) is not the one these callbacks were signed with (--secret, PAY_FORM_SANDBOX_SECRET)";
  if (line.status === 404 || line.status === 405) return 'no callback route answers POST at this URL: check the path (docs/server.md, Callback endpoint)';
  if (line.status >= 500) return "the shop failed (onStatus threw, or its store is down): the service delivers again; see the shop's log";
  return "a 4xx says the callback is wrong: it is never taken, however often it comes; see the shop's log";
}

/** An answer's body on one short line: tags and runs of white space gone (a framework's HTML error page). */
export function brief(body: string, max = 160): string {
  const text = body.replace(/<(script|style)[\s\S]*?<\/\1>|<[^>]*>/gi, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A body parser in front of the route: toNodeHandler's BodyConsumedError, in JSON or a framework's error page. */
export const BODY_PARSER_HINT = 'a body parser read the body before the handler: mount the route before any body parser (docs/recipes.md)';
export const saysBodyParser = (body: string): boolean => /already read by a body parser/.test(body);

const SAYS: Readonly<Record<CallbackOutcome, string>> = {
  taken: 'taken',
  refused: 'refused (a 4xx: never taken)',
  retried: 'not taken (the service delivers again)',
};

/** The report, a line per delivery. */
export function formatTrigger(result: TriggerResult, to: string): string[] {
  const out = [`trigger ${result.event}: ${TRIGGER_MEANING[result.event]}`, `  to ${to}, order ${result.order}`];
  for (const line of result.lines) {
    const answered = line.status === 0 ? 'no answer' : `HTTP ${line.status}${line.body ? ` ${brief(line.body)}` : ''}`;
    const verdict = line.ok ? `ok: ${SAYS[line.outcome]}, as the service expects` : `WRONG: ${SAYS[line.outcome]}, the service expects ${line.expected}. Fix: ${answerHint(line)}`;
    out.push(`  ${line.what} (invoice ${line.invoiceId}): ${answered}`, `    ${verdict}`);
  }
  out.push(result.ok ? 'every answer is what the service expects' : 'some answers are not what the service expects');
  return out;
}
