// A real HTTP server on 127.0.0.1 (port 0) playing the payment service: it records every request it
// receives (so tests can count what reached the wire) and answers through a per-test function.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac } from 'node:crypto';
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, sign } from '../../../src/service/signature.js';
import { PaymentClient, type PaymentClientOptions } from '../../../src/server/index.js';
import { SECRET, MERCHANT } from '../constants.js';
import { readText, startServer } from './loopback.js';

export { SECRET, MERCHANT } from '../constants.js';
export { refusedUrl, startServer } from './loopback.js';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  text: string;
  json: Record<string, unknown> | undefined;
}

export type Responder = (request: Recorded, res: ServerResponse) => void | Promise<void>;

export interface Service {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startService(respond: Responder): Promise<Service> {
  const requests: Recorded[] = [];
  const { url, close } = await startServer((req, res) => {
    void readText(req).then((text) => {
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, text, json };
      requests.push(recorded);
      return respond(recorded, res);
    }).catch(() => res.destroy());
  });
  return { url, requests, close };
}

/** Writes a JSON answer signed with the shared sign() (or with `signature` given to tamper). */
export async function answerSigned(
  res: ServerResponse,
  status: number,
  payload: Record<string, unknown>,
  secret = SECRET,
): Promise<void> {
  const body = { ...payload, signature: await sign(payload, secret) };
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The service's happy path: token → a key; payout → the invoice, echoing the request. */
export const happyService: Responder = async (request, res) => {
  const body = request.json ?? {};
  if (request.path === '/api/jsapi/obtain_token/') {
    await answerSigned(res, 200, { success: true, key: `key-${String(body['request_id'])}` });
  } else {
    await answerSigned(res, 200, {
      success: true,
      status: 'created',
      invoice_id: 'inv-1',
      request_id: body['request_id'],
      amount: body['amount'],
      currency: body['currency'],
      site_login: body['site_login'],
      site_id: body['site_id'],
    });
  }
};

/** The default signature computed independently: node:crypto over the canonical message. */
export const hmacHex = (message: string, secret = SECRET) => createHmac('sha256', secret).update(message, 'utf8').digest('hex');

/** Checks what reached the wire was signed correctly (the canonical string from the shared code). */
export function wireSignatureOk(json: Record<string, unknown>, secret = SECRET): boolean {
  return json['signature'] === hmacHex(canonicalJson(json), secret);
}

/** PAY_FORM_TRANSPORT=fetch sends the tests' clients through fetch instead of the Node transport
 *  (`npm run test:node:fetch`), so every client test proves both. */
export const TRANSPORT: Partial<PaymentClientOptions> = process.env['PAY_FORM_TRANSPORT'] === 'fetch' ? { fetch: globalThis.fetch } : {};

export function clientFor(url: string, extra: Partial<PaymentClientOptions> = {}): PaymentClient {
  return new PaymentClient({
    baseUrl: url,
    merchantId: MERCHANT,
    secret: SECRET,
    retryBaseMs: 1,
    retryMaxMs: 20,
    ...TRANSPORT,
    ...extra,
  } as PaymentClientOptions);
}

export const TOKEN = { site_login: 'alice', site_id: 12, request_id: 'order-1', amount: 1500, currency: 'USD' } as const;

export const PAYOUT = {
  site_login: 'alice',
  site_id: 12,
  request_id: 'payout-1',
  amount: 2500,
  currency: 'EUR',
  method: 'card',
  additional_fields: { card_number: '4111111111111111' },
} as const;

/** For a test file: starts a service per call and closes them all after the file. */
export function servicesForFile(): (respond: Responder) => Promise<Service> {
  const open: Service[] = [];
  after(() => Promise.all(open.map((s) => s.close())));
  return async (respond) => {
    const s = await startService(respond);
    open.push(s);
    return s;
  };
}

/** Runs the call, expects `type`, and returns the error for further checks. */
export async function fails<E extends Error>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${type.name}, got success`);
}
