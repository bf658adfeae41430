// The two JSON endpoints beyond the service's Errors section: field refusals that name the fields,
// signature and merchant refusals, the answers' shapes and signatures, payouts and their callbacks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verify } from '../../../src/service/signature.js';
import { MAX_BODY_BYTES, type Sandbox } from '../../../src/sandbox/index.js';
import {
  callbackBody, MERCHANT, payoutFields, postJson, sandbox, SECRET, signedBody, sandboxWithReceiver, tokenFields,
} from './helpers.js';

const f = sandboxWithReceiver();

const TOKEN = '/api/jsapi/obtain_token/';
const PAYOUT = '/api/payout/';

async function refused(path: string, body: unknown, status: number, ...fragments: string[]) {
  const answer = await postJson(`${f.sb.url}${path}`, body);
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.success, false);
  for (const fragment of fragments) assert.match(String(answer.body.message), new RegExp(fragment));
  assert.equal(await verify(answer.body, SECRET), true, 'failures are signed too');
  return answer;
}

describe('field rules (the shared pay-form/server tables)', () => {
  test('a payout missing amount and with an unknown currency names both fields', async () => {
    const { amount: _a, ...fields } = payoutFields({ currency: 'GBP' });
    await refused(PAYOUT, await signedBody(fields), 400, 'amount: ', 'currency: ');
  });
  test('a card payout without card_number names additional_fields.card_number', async () => {
    await refused(PAYOUT, await signedBody(payoutFields({ additional_fields: {} })), 400, 'additional_fields\\.card_number');
  });
  test('a token request with a string amount and a javascript: success_url names both', async () => {
    const body = await signedBody(tokenFields({ amount: '12.34', success_url: 'javascript:alert(1)' }));
    await refused(TOKEN, body, 400, 'amount: ', 'success_url: ');
  });
  test('a success_url with a control or white space is refused with 400 and creates no invoice', async () => {
    for (const url of ['https://shop.example/ok\r\nSet-Cookie: pwn=1', '\u0000https://shop.example/', 'h\nttps://evil.example/']) {
      const before = f.sb.invoices().length;
      await refused(TOKEN, await signedBody(tokenFields({ success_url: url })), 400, 'success_url: ');
      assert.equal(f.sb.invoices().length, before, JSON.stringify(url));
    }
  });
  test('a request without a signature is refused, naming signature', async () => {
    await refused(TOKEN, tokenFields(), 400, 'signature: ');
  });
  test('a JSON array is not a request', async () => {
    await refused(TOKEN, [], 400, 'Invalid request');
  });
  test('a body over the limit is refused before it is parsed', async () => {
    const big = await signedBody(tokenFields({ site_login: 'x'.repeat(MAX_BODY_BYTES) }));
    await refused(TOKEN, big, 413, 'too large');
  });
});

describe('authentication', () => {
  test('a wrong signature is refused with 401 and creates nothing', async () => {
    const before = f.sb.invoices().length;
    await refused(TOKEN, await signedBody(tokenFields(), 'not-the-secret'), 401, '^Invalid signature$');
    await refused(PAYOUT, await signedBody(payoutFields(), 'not-the-secret'), 401, '^Invalid signature$');
    assert.equal(f.sb.invoices().length, before);
  });
  test('a body changed after signing is refused', async () => {
    const body = await signedBody(tokenFields());
    await refused(TOKEN, { ...body, amount: 1 }, 401, 'Invalid signature');
  });
  test('an unknown merchant_id is refused with 401', async () => {
    await refused(TOKEN, await signedBody(tokenFields({ merchant_id: 'someone-else' })), 401, '^Unknown merchant_id$');
  });
});

describe('routing', () => {
  test('GET on an API path is 405 with Allow: POST, in the failure shape', async () => {
    const response = await fetch(`${f.sb.url}${TOKEN}`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.success, false);
    assert.equal(await verify(body, SECRET), true);
  });
  test('GET and HEAD on the origin answer 200 (the element probes it to tell a service that is down)', async () => {
    const get = await fetch(`${f.sb.url}/`);
    assert.equal(get.status, 200);
    assert.match(await get.text(), /pay-form sandbox/);
    assert.equal((await fetch(`${f.sb.url}/`, { method: 'HEAD' })).status, 200);
    assert.equal((await fetch(`${f.sb.url}/`, { method: 'POST' })).status, 404, 'only GET and HEAD');
  });
  test('an unknown path is 404, signed', async () => {
    const answer = await postJson(`${f.sb.url}/api/payout`, await signedBody(payoutFields()));
    assert.equal(answer.status, 404);
    assert.equal(await verify(answer.body, SECRET), true);
  });
});

describe('obtain_token', () => {
  test('answers success, an unguessable key and a valid signature, nothing else', async () => {
    const answer = await postJson(`${f.sb.url}${TOKEN}`, await signedBody(tokenFields()));
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.body).sort(), ['key', 'signature', 'success']);
    assert.match(String(answer.body.key), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(await verify(answer.body, SECRET), true);
  });
  test('two requests get two different keys', async () => {
    const a = await postJson(`${f.sb.url}${TOKEN}`, await signedBody(tokenFields()));
    const b = await postJson(`${f.sb.url}${TOKEN}`, await signedBody(tokenFields()));
    assert.notEqual(a.body.key, b.body.key);
  });
  test('an unknown language is accepted (the service treats it as EN) and keeps its signature valid', async () => {
    const answer = await postJson(`${f.sb.url}${TOKEN}`, await signedBody(tokenFields({ language: 'XX' })));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const invoice = f.sb.invoices().find((i) => i.key === answer.body.key);
    assert.equal(invoice?.language, 'EN');
  });
});

describe('payout', () => {
  test('answers the invoice fields, signed, then sends a signed success callback', async () => {
    const fields = payoutFields();
    const answer = await postJson(`${f.sb.url}${PAYOUT}`, await signedBody(fields));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), [
      'amount', 'currency', 'invoice_id', 'request_id', 'signature', 'site_id', 'site_login', 'status', 'success',
    ]);
    assert.equal(answer.body.success, true);
    assert.equal(answer.body.status, 'pending');
    assert.equal(answer.body.request_id, fields.request_id);
    assert.equal(await verify(answer.body, SECRET), true);

    await f.receiver.received(1);
    const callback = callbackBody(f.receiver.bodies.find((b) => b.invoice_id === answer.body.invoice_id));
    assert.deepEqual(callback, {
      invoice_id: answer.body.invoice_id, request_id: fields.request_id, status: 'success', amount: 50000,
      currency: 'EUR', site_id: 7, site_login: 'bob', merchant_id: MERCHANT, signature: callback.signature,
    });
    assert.equal(await verify(callback, SECRET), true, 'the callback is signed with the default signature');
    assert.equal(f.sb.invoices().find((i) => i.invoice_id === answer.body.invoice_id)?.status, 'success');
  });
  test('a second payout with the same request_id is refused with 409 and pays nothing', async () => {
    const fields = payoutFields();
    const first = await postJson(`${f.sb.url}${PAYOUT}`, await signedBody(fields));
    assert.equal(first.status, 200);
    await refused(PAYOUT, await signedBody(fields), 409, 'Duplicate request_id');
    await f.sb.callbacksIdle();
    const payouts = f.sb.invoices().filter((i) => i.request_id === fields.request_id);
    assert.equal(payouts.length, 1);
    assert.equal(f.receiver.bodies.filter((b) => b.request_id === fields.request_id).length, 1);
  });
});
