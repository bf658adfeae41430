// The demo's words for a verified outcome (pay-form-settled), shared by the checkout page and the
// redirect's return page so both say the same thing.

/** What the person reads for each verified status; any other the service may send is named as it is. */
const TEXTS: Record<string, string> = {
  success: 'Payment confirmed by the shop',
  fail: 'The shop recorded the payment as declined',
};

export function settledText(status: unknown): string {
  return TEXTS[String(status)] ?? `The shop recorded the payment as ${String(status)}`;
}
