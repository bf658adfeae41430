// The demo has no accounts: a shopper is a random id in an HttpOnly cookie, given on the first request
// to the shop's routes. Orders belong to the shopper who created them; their status and their
// callbacks are shown to that shopper only.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const SHOPPER_COOKIE = 'pay_form_demo_shopper';

/** The shopper named by a Cookie header, if any. */
export function shopperOf(cookie: string | null | undefined): string | undefined {
  for (const part of (cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SHOPPER_COOKIE && value) return value;
  }
  return undefined;
}

/**
 * The request's shopper: a request without one gets a new id, set as a cookie on the answer and added
 * to the request's own Cookie header, so every route sees a shopper as the browser's next request will.
 */
export function ensureShopper(req: IncomingMessage, res: ServerResponse): string {
  const known = shopperOf(req.headers.cookie);
  if (known !== undefined) return known;
  const shopper = crypto.randomUUID();
  req.headers.cookie = [req.headers.cookie, `${SHOPPER_COOKIE}=${shopper}`].filter(Boolean).join('; ');
  res.setHeader('set-cookie', `${SHOPPER_COOKIE}=${shopper}; Path=/; HttpOnly; SameSite=Lax`);
  return shopper;
}
