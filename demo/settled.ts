// The demo's words for a verified outcome (pay-form-settled), shared by the checkout page and the
// redirect's return page so both say the same thing.

/** "Payment confirmed by the shop" for success; otherwise the status the shop recorded. */
export function settledText(status: unknown): string {
  return status === 'success' ? 'Payment confirmed by the shop' : `The shop recorded the payment as ${String(status)}`;
}
