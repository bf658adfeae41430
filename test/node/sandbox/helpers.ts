// What the sandbox tests share: a real merchant callback receiver on loopback, signed requests, and
// the sandbox started with quick retries.
import { after, before } from 'node:test';
import { sign } from '../../../src/service/signature.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { MERCHANT, SECRET } from '../../support/constants.js';
import { startReceiver, type Receiver } from '../../support/servers/receiver.js';

export { MERCHANT, SECRET } from '../../support/constants.js';
export { callbackBody, startReceiver } from '../../support/servers/receiver.js';

export function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({
    merchantId: MERCHANT,
    secret: SECRET,
    callbackRetry: { initialDelayMs: 20, maxDelayMs: 80, maxAttempts: 5, timeoutMs: 2000 },
    ...options,
  });
}

export async function signedBody(fields: Record<string, unknown>, secret = SECRET): Promise<Record<string, unknown>> {
  return { ...fields, signature: await sign(fields, secret) };
}

export function tokenFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchant_id: MERCHANT,
    site_login: 'alice',
    site_id: 7,
    request_id: `order-${crypto.randomUUID()}`,
    amount: 1234,
    currency: 'USD',
    method: 'card',
    language: 'EN',
    success_url: 'http://localhost:9/return?status=success',
    fail_url: 'http://localhost:9/return?status=fail',
    ...overrides,
  };
}

export function payoutFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchant_id: MERCHANT,
    site_login: 'bob',
    site_id: 7,
    request_id: `payout-${crypto.randomUUID()}`,
    amount: 50000,
    currency: 'EUR',
    method: 'card',
    additional_fields: { card_number: '4111111111111111' },
    ...overrides,
  };
}

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function postJson(url: string, body: unknown, contentType = 'application/json'): Promise<JsonAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Obtains a key the way a merchant backend would. */
export async function obtainKey(sb: Sandbox, overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await postJson(`${sb.url}/api/jsapi/obtain_token/`, await signedBody(tokenFields(overrides)));
  if (answer.status !== 200 || typeof answer.body.key !== 'string') {
    throw new Error(`obtain_token failed: ${JSON.stringify(answer)}`);
  }
  return answer.body.key;
}

/** Presses a button of the form as the browser would: a form POST from the sandbox's own page. */
export function press(sb: Sandbox, key: string, action: 'pay' | 'decline', origin = sb.url): Promise<Response> {
  return fetch(`${sb.url}/api/jsapi/open/${encodeURIComponent(key)}/${action}`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
}

/** One sandbox whose callbacks go to one real receiver, for a whole test file (set in its `before`). */
export function sandboxWithReceiver(): { sb: Sandbox; receiver: Receiver } {
  const fixture = {} as { sb: Sandbox; receiver: Receiver };
  before(async () => {
    fixture.receiver = await startReceiver();
    fixture.sb = await sandbox({ callbackUrl: fixture.receiver.url });
  });
  after(async () => {
    await fixture.sb?.close();
    await fixture.receiver?.close();
  });
  return fixture;
}
