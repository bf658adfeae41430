// `pay-form-sandbox doctor --shop <origin>`: checks a running shop the way the service and a shopper's
// browser will use it (docs/sandbox.md, Doctor). Each check says what it asked, what came back and, when
// it fails, the fix; a page it cannot find is skipped with the flag that names it.
import { ORDER_REF_PARAM, parseTokenAnswer } from '../service/checkout.js';
import { BODY_PARSER_HINT, answerHint, brief, saysBodyParser } from './trigger.js';
import { deliverCallback, madeUpOrder, signedCallback, tampered } from './testing.js';
import { cspAllowsFrame, minimalCsp } from './csp.js';

export interface DoctorOptions {
  /** The shop's origin, e.g. `http://localhost:3000`. */
  shop: string;
  /** The merchant's secret, to sign the callback probe. */
  secret: string;
  /** The service's base URL the pages frame; default the one the token endpoint answers, when it does. */
  baseUrl?: string;
  /** An order of the shop's whose token request should work: then the token check also reaches the service. */
  order?: string;
  tokenPath?: string;
  callbackPath?: string;
  statusPath?: string;
  checkoutPage?: string;
  returnPage?: string;
}

export const DOCTOR_DEFAULTS = {
  tokenPath: '/api/pay-token',
  callbackPath: '/api/pay-callback',
  statusPath: '/api/pay-status',
  checkoutPage: '/',
  returnPage: '/return.html',
} as const;

export type CheckState = 'ok' | 'fail' | 'skipped';

export interface Check {
  name: string;
  state: CheckState;
  /** What was asked and what came back. */
  detail: string;
  /** On a failure, what to change; on a skip, the flag to set. */
  fix?: string;
}

interface Fetched {
  status: number;
  type: string;
  body: string;
  headers: Headers;
}

async function ask(url: string, init: RequestInit = {}): Promise<Fetched | string> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000), ...init });
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text(), headers: response.headers };
  } catch (error) {
    return error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
  }
}

const isJson = (f: Fetched) => /^application\/json\b/i.test(f.type);

function json(f: Fetched): Record<string, unknown> {
  try {
    return Object(JSON.parse(f.body)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const unreachable = (name: string, url: string, error: string): Check => ({
  name,
  state: 'fail',
  detail: `${url}: ${error}`,
  fix: 'start the shop, or give its origin with --shop',
});

const noRoute = (name: string, url: string, f: Fetched, flag: string): Check => ({
  name,
  state: 'fail',
  detail: `${url} answered HTTP ${f.status} ${f.type || 'without a content type'}, not pay-form's JSON${f.body ? `: ${brief(f.body)}` : ''}`,
  fix: saysBodyParser(f.body) ? BODY_PARSER_HINT : `mount the handler at this path, or give its path with ${flag}`,
});

async function tokenCheck(o: Required<Pick<DoctorOptions, 'shop'>> & DoctorOptions, path: string): Promise<{ check: Check; baseUrl?: string }> {
  const name = 'token endpoint';
  const url = new URL(path, o.shop).href;
  const order = o.order ?? madeUpOrder();
  const f = await ask(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [ORDER_REF_PARAM]: order }) });
  if (typeof f === 'string') return { check: unreachable(name, url, f) };
  if (!isJson(f)) return { check: noRoute(name, url, f, '--token-path') };
  const body = json(f);
  const asked = `POST ${url} {"order_ref":"${order}"} answered HTTP ${f.status}`;
  const answer = parseTokenAnswer(body);
  const baseUrl = typeof body['base_url'] === 'string' ? body['base_url'] : undefined;
  if (f.status === 200 && answer) return { check: { name, state: 'ok', detail: `${asked} with a ${'redirect_url' in answer ? 'redirect_url' : 'key'}` }, ...(baseUrl ? { baseUrl } : {}) };
  const message = typeof body['message'] === 'string' ? body['message'] : '';
  if (o.order === undefined && (f.status === 404 || f.status === 409)) {
    return { check: { name, state: 'ok', detail: `${asked} (${message || 'a made-up order'}); give --order <a real order> to also reach the service` } };
  }
  const fix =
    f.status === 500
      ? `the shop's own setup: ${message || 'see its log'} (check PaymentClient's baseUrl, merchantId and secret: docs/troubleshooting.md)`
      : f.status === 502
        ? "the payment service failed or could not be reached from the shop: see the shop's log"
        : f.status === 404
          ? 'resolve() does not know this order: give --order an order of the shop that is unpaid'
          : f.status === 503
            ? "the shop's store failed (its Redis down?): it answers again by itself once the store is back; see the shop's log"
          : `see the shop's log (${message || 'no message'})`;
  return { check: { name, state: 'fail', detail: `${asked}: ${message || 'no message'}`, fix } };
}

async function callbackCheck(o: DoctorOptions, path: string): Promise<Check[]> {
  const name = 'callback endpoint';
  const url = new URL(path, o.shop).href;
  // A status no shop acts on: onStatus sees a probe for a made-up order, never a payment.
  const probe = await signedCallback('probe', { secret: o.secret, order: `pay-form-doctor-${madeUpOrder()}` });
  const signed = await deliverCallback(url, probe);
  if (signed.status === 0) return [unreachable(name, url, signed.error ?? 'no answer')];
  const said = `POST ${url} a signed probe: HTTP ${signed.status}`;
  const checks: Check[] = [];
  if (signed.status === 404 || (signed.status === 405 && !signed.body.startsWith('{'))) {
    return [{ name, state: 'fail', detail: `${said}, no callback route`, fix: 'mount createCallbackHandler at this path, or give its path with --callback-path' }];
  }
  checks.push(
    signed.outcome === 'taken'
      ? { name, state: 'ok', detail: `${said}: taken` }
      : { name, state: 'fail', detail: `${said} ${brief(signed.body)}`, fix: answerHint({ ...signed, expected: 'taken' }) },
  );
  if (signed.outcome !== 'taken' && signed.status !== 401) {
    checks.push({ name: 'callback signature', state: 'skipped', detail: 'not tried: the signed probe was not taken', fix: 'fix the line above first' });
    return checks;
  }
  const forged = await deliverCallback(url, tampered(await signedCallback('probe', { secret: o.secret, order: `pay-form-doctor-${madeUpOrder()}` })));
  const forgedSaid = `POST ${url} the probe changed after signing: HTTP ${forged.status}`;
  checks.push(
    forged.outcome === 'refused'
      ? { name: 'callback signature', state: 'ok', detail: `${forgedSaid}: refused` }
      : { name: 'callback signature', state: 'fail', detail: `${forgedSaid} ${brief(forged.body)}`, fix: answerHint({ ...forged, expected: 'refused' }) },
  );
  return checks;
}

async function statusCheck(o: DoctorOptions, path: string): Promise<Check> {
  const name = 'status endpoint';
  const url = new URL(path, o.shop);
  url.searchParams.set(ORDER_REF_PARAM, o.order ?? madeUpOrder());
  // HEAD answers at once: a GET for a known order without a status waits (the long poll).
  const f = await ask(url.href, { method: 'HEAD' });
  if (typeof f === 'string') return unreachable(name, url.href, f);
  if (f.status >= 500) return { name, state: 'fail', detail: `HEAD ${url.href}: HTTP ${f.status}`, fix: "the shop's store failed (its Redis down?): see the shop's log" };
  if (f.status !== 204 && !isJson(f)) return noRoute(name, url.href, f, '--status-path');
  return { name, state: 'ok', detail: `HEAD ${url.href}: HTTP ${f.status}${f.status === 204 ? ' (no status yet)' : ' (JSON)'}` };
}

/** The page, or a skip naming its flag when the shop has none there. */
async function page(name: string, o: DoctorOptions, path: string, flag: string): Promise<{ page: Fetched; url: string } | Check> {
  const url = new URL(path, o.shop).href;
  const f = await ask(url);
  if (typeof f === 'string') return unreachable(name, url, f);
  if (f.status !== 200) return { name, state: 'skipped', detail: `GET ${url}: HTTP ${f.status}`, fix: `give the page's path with ${flag}` };
  return { page: f, url };
}

/** The return page holds, or loads from its own origin, the return script (it posts `pay-form:result`). */
async function returnPageCheck(o: DoctorOptions, path: string): Promise<Check> {
  const name = 'return page';
  const found = await page(name, o, path, '--return-page');
  if ('state' in found) return found;
  const texts = [found.page.body];
  for (const [, src] of found.page.body.matchAll(/<script[^>]*\ssrc=["']([^"']+)["']/gi)) {
    const script = await ask(new URL(src as string, found.url).href);
    if (typeof script !== 'string' && script.status === 200) texts.push(src as string, script.body);
  }
  const loads = texts.some((text) => /pay-form-return|pay-form\/return|pay-form:result/.test(text));
  return loads
    ? { name, state: 'ok', detail: `GET ${found.url} loads the return script` }
    : {
        name,
        state: 'fail',
        detail: `GET ${found.url}: no return script in the page or its scripts`,
        fix: 'add <script type="module" src="…/pay-form-return.min.js"></script> (or import pay-form/return): docs/element.md#the-return-page',
      };
}

async function checkoutCspCheck(o: DoctorOptions, path: string, baseUrl: string | undefined): Promise<Check> {
  const name = 'checkout page CSP';
  const found = await page(name, o, path, '--checkout-page');
  if ('state' in found) return found;
  if (baseUrl === undefined) return { name, state: 'skipped', detail: `GET ${found.url}: the service's address is unknown`, fix: 'give it with --base-url' };
  const policies = [
    ...(found.page.headers.get('content-security-policy') ?? '').split(','),
    ...[...found.page.body.matchAll(/<meta[^>]+http-equiv=["']content-security-policy["'][^>]*content=["']([^"']*)["']/gi)].map((m) => m[1] as string),
  ].filter((p) => p.trim() !== '');
  const origin = new URL(baseUrl).origin;
  const blocking = policies.find((policy) => !cspAllowsFrame(policy, origin, new URL(found.url).origin));
  if (blocking === undefined) return { name, state: 'ok', detail: `GET ${found.url}: ${policies.length ? 'its CSP allows' : 'no CSP, so nothing blocks'} a frame from ${origin}` };
  return { name, state: 'fail', detail: `GET ${found.url}: its CSP "${blocking.trim()}" blocks a frame from ${origin}`, fix: `add ${origin} to frame-src; the least a page needs: ${minimalCsp(baseUrl)}` };
}

/** Every check, in the order a checkout meets them. */
export async function doctor(options: DoctorOptions): Promise<Check[]> {
  const o = { ...DOCTOR_DEFAULTS, ...options };
  const token = await tokenCheck(o, o.tokenPath);
  return [
    token.check,
    ...(await callbackCheck(o, o.callbackPath)),
    await statusCheck(o, o.statusPath),
    await returnPageCheck(o, o.returnPage),
    await checkoutCspCheck(o, o.checkoutPage, o.baseUrl ?? token.baseUrl),
  ];
}

const MARK: Readonly<Record<CheckState, string>> = { ok: 'ok     ', fail: 'FAIL   ', skipped: 'skipped' };

export function formatChecks(checks: readonly Check[]): string[] {
  return checks.flatMap((c) => [`${MARK[c.state]} ${c.name}: ${c.detail}`, ...(c.fix ? [`        ${c.state === 'fail' ? 'fix' : 'to check it'}: ${c.fix}`] : [])]);
}
