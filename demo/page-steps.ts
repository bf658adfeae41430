// The page's side of each order's timeline (docs/observability.md, In the demo): the demo page tells
// the shop when the form was shown (pay-form-open to pay-form-ready) and when the shopper paid in it
// (pay-form-ready to pay-form-success), and the shop records each as a span of its own tracer with the
// order and the attempt the token handler handed out, so demo/telemetry.ts finds them beside pay-form's
// spans. Demo code only: the element sends nothing of the kind.
import { trace } from '@opentelemetry/api';
import { failureBody, isJsonContentType, jsonResponse as json } from '../src/service/body.js';
import type { Order } from './catalogue.js';

/** What the page may report, and the span each becomes. */
export const PAGE_STEPS: Readonly<Record<string, string>> = { form_shown: 'demo.page.form_shown', paid: 'demo.page.paid' };
/** A step longer than this is no step of a checkout the demo believes. */
const MAX_MS = 3_600_000;

const bad = (message: string) => json(400, failureBody(message));

/**
 * POST page-steps `{ order_ref, step, ms }`: 204 once recorded; 400 for anything else than a known
 * step and a duration in milliseconds; 404 for an order that is not this shopper's or has no attempt yet.
 */
export async function recordPageStep(request: Request, orderOf: (orderRef: unknown) => Order | undefined): Promise<Response> {
  let input: Record<string, unknown>;
  try {
    if (!isJsonContentType(request.headers.get('content-type'))) return bad('Expected JSON');
    input = (await request.json()) as Record<string, unknown>;
  } catch {
    return bad('Expected JSON');
  }
  const step = input?.['step'];
  const name = typeof step === 'string' && Object.hasOwn(PAGE_STEPS, step) ? PAGE_STEPS[step] : undefined;
  const ms = input?.['ms'];
  if (name === undefined) return bad('step must be form_shown or paid');
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_MS) return bad(`ms must be a duration from 0 to ${MAX_MS}`);
  const order = orderOf(input['order_ref']);
  if (order?.attempt === undefined) return json(404, failureBody('Order not found'));
  const now = Date.now();
  const attributes = { 'pay_form.order_ref': order.request_ref, 'pay_form.attempt': order.attempt };
  trace.getTracer('pay-form-demo').startSpan(name, { startTime: now - ms, attributes }).end(now);
  return new Response(null, { status: 204 });
}
