// Signature vectors on the wire: fixed inputs, the expected hex computed here with node:crypto over a
// hand-written canonical string (never by calling sign()).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createCallbackHandler, type PayoutParams, type TokenParams } from '../../../../src/server/index.js';
import { happyService, clientFor, startService } from '../../../support/servers/service.js';

const SECRET = 'vector-secret';
const hmac = (message: string) => createHmac('sha256', SECRET).update(message, 'utf8').digest('hex');

test('a payout request carries the HMAC of its sorted, whitespace-free JSON', async () => {
  const s = await startService(happyService);
  try {
    const client = clientFor(s.url, { secret: SECRET, merchantId: 'm-1' });
    await client.createPayout({
      site_login: 'zoë',
      site_id: 3,
      request_id: 'r-1',
      amount: 100,
      currency: 'USD',
      method: 'card',
      additional_fields: { 'expiry date': '01/30', card_number: '4111' },
    } as PayoutParams).catch(() => undefined); // the answer is signed with another secret: only the request matters
    const message =
      '{"additional_fields":{"card_number":"4111","expiry date":"01/30"},"amount":100,"currency":"USD",' +
      '"merchant_id":"m-1","method":"card","request_id":"r-1","site_id":3,"site_login":"zoë"}';
    const sent = s.requests[0]!.json!;
    assert.equal(sent['signature'], hmac(message));
    // The same value from `openssl dgst -sha256 -hmac vector-secret`, so the vector cannot drift.
    assert.equal(sent['signature'], 'e4813b2f8f3b882dcb0b68ddd6431029ecc89f15bafe4c0bf0f34f5ffaa44460');
  } finally {
    await s.close();
  }
});

test('a token request: optional fields sorted in, the answer verified with the same scheme', async () => {
  const s = await startService(async (_req, res) => {
    // The service's answer, signed by hand over its canonical string.
    const signature = hmac('{"key":"abc","success":true}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, key: 'abc', signature }));
  });
  try {
    const client = clientFor(s.url, { secret: SECRET, merchantId: 'm-1' });
    const answer = await client.obtainToken({
      site_login: 'a', site_id: 1, request_id: 'r', amount: 5, currency: 'EUR', language: 'DE',
    } as TokenParams);
    assert.equal(answer.key, 'abc');
    assert.equal(
      s.requests[0]!.json!['signature'],
      hmac('{"amount":5,"currency":"EUR","language":"DE","merchant_id":"m-1","request_id":"r","site_id":1,"site_login":"a"}'),
    );
  } finally {
    await s.close();
  }
});

test('the callback handler accepts a hand-signed callback and refuses one changed after signing', async () => {
  const calls: unknown[] = [];
  const handler = createCallbackHandler({ secret: SECRET, onStatus: (p) => void calls.push(p) });
  const message = '{"amount":100,"invoice_id":"inv-9","request_id":"r-9","status":"paid"}';
  const body = { status: 'paid', invoice_id: 'inv-9', request_id: 'r-9', amount: 100, signature: hmac(message) };
  const post = (b: unknown) =>
    handler(new Request('http://merchant.test/cb', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) }));
  assert.equal((await post({ ...body, amount: 1 })).status, 401);
  assert.equal((await post(body)).status, 200);
  assert.deepEqual(calls, [{ status: 'paid', invoice_id: 'inv-9', request_id: 'r-9', amount: 100 }]);
});
