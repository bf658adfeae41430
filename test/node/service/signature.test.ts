import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, hmacSigner, hmacVerifier, sign, signed, timingSafeEqual, verify, webCryptoSign } from '../../../src/service/signature.js';
import { PayFormError } from '../../../src/service/errors.js';

// Expected values come from node:crypto over hand-written canonical strings, never from sign() itself.
const hmac = (secret: string, message: string) => createHmac('sha256', secret).update(message, 'utf8').digest('hex');

test('canonical JSON sorts keys at every depth, drops the top-level signature and has no whitespace', () => {
  const payload = { b: 1, a: { d: [3, { z: true, y: null }], c: 'x' }, signature: 'old' };
  assert.equal(canonicalJson(payload), '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
});

test('a nested signature field is part of the message; only the top-level one is left out', () => {
  assert.equal(canonicalJson({ inner: { signature: 's' } }), '{"inner":{"signature":"s"}}');
});

test('fixed vectors: lowercase hex HMAC-SHA256 keyed by the UTF-8 secret', async () => {
  const vectors: Array<[Record<string, unknown>, string, string]> = [
    [{}, 'secret', '{}'],
    [
      { success: true, key: 'abc', signature: 'ignored' },
      'merchant-secret',
      '{"key":"abc","success":true}',
    ],
    [
      { merchant_id: 'm1', amount: 1050, additional_fields: { 'expiry date': '12/29', card_number: '4111' }, site_id: 7 },
      'ключ-секрет',
      '{"additional_fields":{"card_number":"4111","expiry date":"12/29"},"amount":1050,"merchant_id":"m1","site_id":7}',
    ],
    [{ text: 'Zoë "quoted" \n line' }, 's', '{"text":"Zoë \\"quoted\\" \\n line"}'],
  ];
  for (const [payload, secret, message] of vectors) {
    assert.equal(canonicalJson(payload), message);
    const got = await sign(payload, secret);
    assert.match(got, /^[0-9a-f]{64}$/);
    assert.equal(got, hmac(secret, message));
  }
  // Literals (also given by `openssl dgst -sha256 -hmac`), so a change of algorithm cannot hide behind a
  // matching change in the helper above.
  assert.equal(await sign({ a: 1 }, 'k'), 'c3a92ff9e274cdcce27a58c15a78ec6dcbbdbd0038a87e7a11baef2028fd8bff');
  assert.equal(
    await sign({ merchant_id: 'm-1', currency: 'USD', amount: 1050, signature: 'x' }, 'merchant-secret'),
    '40c7272fcf76c8919b5f9998a87720531dcab93dba78e9606e06720752ae5862',
  );
});

test('verify accepts the right signature and refuses a tampered payload, a wrong secret or a missing signature', async () => {
  const payload = { invoice_id: 'inv_1', status: 'success', amount: 100 };
  const good = await signed(payload, hmacSigner('s3cret'));
  assert.equal(await verify(good, 's3cret'), true);
  assert.equal(await verify({ ...good, amount: 101 }, 's3cret'), false);
  assert.equal(await verify(good, 'other'), false);
  assert.equal(await verify(payload, 's3cret'), false);
  assert.equal(await verify({ ...payload, signature: 42 }, 's3cret'), false);
  assert.equal(await hmacVerifier('s3cret')(payload, good.signature), true);
  assert.equal(await hmacVerifier('s3cret')(payload, good.signature.slice(0, -1)), false);
});

test('non-finite numbers cannot be signed', async () => {
  await assert.rejects(sign({ amount: Number.NaN }, 'k'), (error: unknown) => error instanceof PayFormError && error.code === 'unsignable');
});

test('timingSafeEqual compares whole strings', () => {
  assert.equal(timingSafeEqual('abc', 'abc'), true);
  assert.equal(timingSafeEqual('abc', 'abd'), false);
  assert.equal(timingSafeEqual('abc', 'ab'), false);
  assert.equal(timingSafeEqual('', ''), true);
});

test('property: the signature ignores key order and the old signature; the message round-trips', async () => {
  const shuffle = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(shuffle)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, shuffle(x)]))
        : v;
  await fc.assert(
    fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), fc.string({ minLength: 1 }), async (obj, secret) => {
      const payload = JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
      const { signature: _s, ...rest } = payload;
      const message = canonicalJson(payload);
      assert.deepEqual(JSON.parse(message), rest);
      const expected = hmac(secret, message);
      assert.equal(await sign(payload, secret), expected);
      assert.equal(await sign({ ...(shuffle(payload) as object), signature: 'other' }, secret), expected);
    }),
    { numRuns: 300 },
  );
});

test('property: the Web Crypto path (runtimes without node:crypto) signs exactly as the node:crypto path', async () => {
  const text = fc.string({ unit: 'binary' });
  await fc.assert(
    fc.asyncProperty(fc.dictionary(text, fc.jsonValue()), fc.string({ unit: 'binary', minLength: 1 }), async (obj, secret) => {
      const payload = JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
      const expected = hmac(secret, canonicalJson(payload));
      assert.equal(await webCryptoSign(payload, secret), expected);
      assert.equal(await sign(payload, secret), expected);
    }),
    { numRuns: 300 },
  );
});
