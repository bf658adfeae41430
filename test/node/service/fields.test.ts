import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePayoutRequest, validateTokenRequest, type FieldIssue } from '../../../src/service/fields.js';

// The service's "additional_fields by method (payout)" table (docs/service-contract.md), transcribed here by hand rather than read from
// src/service/fields.ts, so that a wrong row there fails these tests.
const contractPayoutFields: Record<string, { required: string[]; optional: string[] }> = {
  card: { required: ['card_number'], optional: ['bank_name', 'card_holder', 'bank_option', 'expiry date'] },
  localbanks: { required: ['account_number'], optional: ['bank_name', 'account_holder', 'alias'] },
  sbp: { required: ['bank_name', 'phone_holder', 'phone_number'], optional: [] },
  phone_topup: { required: ['bank_name', 'phone_number'], optional: ['phone_holder'] },
  operator_a: { required: ['phone_number'], optional: [] },
  OPERATOR_A: { required: ['phone_number'], optional: [] },
  wallet_a: { required: ['phone_number'], optional: [] },
  wallet_b: { required: ['phone_number'], optional: [] },
  cash: { required: ['address', 'username', 'messenger', 'verification_code'], optional: ['asap', 'time'] },
  havale: { required: ['account_number', 'bank_name', 'account_holder'], optional: [] },
  ewallet_a: { required: ['ewallet_a_account', 'ewallet_a_holder'], optional: [] },
  transfer_a: { required: ['transfer_a_tag', 'transfer_a_holder'], optional: [] },
  ewallet_b: { required: ['ewallet_b_account', 'ewallet_b_holder', 'phone_number'], optional: [] },
  instant_transfer: { required: ['phone_number', 'account_holder', 'instant_transfer_key'], optional: [] },
  qr_transfer: { required: ['bank_name', 'phone_holder', 'phone_number'], optional: [] },
  exchange: { required: [], optional: [] },
  sbp_qr: { required: [], optional: [] },
};

/** The fields both requests share, valid. */
const token = (over: Record<string, unknown> = {}) => ({
  merchant_id: 'm-1',
  site_login: 'alice',
  site_id: 7,
  request_id: 'order-1',
  amount: 1050,
  currency: 'USD',
  ...over,
});

const payout = (over: Record<string, unknown> = {}) =>
  token({ method: 'card', additional_fields: { card_number: '4111111111111111' }, ...over });

const paths = (issues: FieldIssue[]) => issues.map((i) => i.path).sort();
function refused(result: ReturnType<typeof validatePayoutRequest> | ReturnType<typeof validateTokenRequest>) {
  assert.equal(result.ok, false, 'expected a refusal');
  return result.ok ? [] : result.issues;
}

test('payout: every method accepts its required and optional keys, and each required key is enforced', () => {
  for (const [method, { required, optional }] of Object.entries(contractPayoutFields)) {
    const all = Object.fromEntries([...required, ...optional].map((k) => [k, `${k} value`]));
    const ok = validatePayoutRequest(payout({ method, additional_fields: all }));
    assert.ok(ok.ok, `${method} with all its keys: ${JSON.stringify(ok)}`);
    assert.deepEqual(ok.value.additional_fields, all);
    assert.equal(ok.value.method, method, 'the method is sent as given');
    for (const key of required) {
      const { [key]: _gone, ...rest } = all;
      assert.deepEqual(paths(refused(validatePayoutRequest(payout({ method, additional_fields: rest })))), [
        `additional_fields.${key}`,
      ]);
    }
    const extra = refused(validatePayoutRequest(payout({ method, additional_fields: { ...all, surprise: 'x' } })));
    assert.deepEqual(paths(extra), ['additional_fields.surprise'], `${method} refuses unknown keys`);
  }
});

test('payout: additional_fields values are strings, required ones non-empty', () => {
  const issues = refused(
    validatePayoutRequest(payout({ additional_fields: { card_number: 4111, 'expiry date': 12, bank_name: '' } })),
  );
  assert.deepEqual(paths(issues), ['additional_fields.card_number', 'additional_fields.expiry date']);
  assert.deepEqual(paths(refused(validatePayoutRequest(payout({ additional_fields: { card_number: ' ' } })))), [
    'additional_fields.card_number',
  ]);
  assert.ok(validatePayoutRequest(payout({ additional_fields: { card_number: '4111', 'expiry date': '12/29' } })).ok);
});

test('payout: the currency list and the method list are the service\'s', () => {
  for (const currency of ['USD', 'EUR', 'RUB', 'UAH', 'USDT', 'IDR', 'AZN', 'VND']) {
    assert.ok(validatePayoutRequest(payout({ currency })).ok, currency);
  }
  for (const currency of ['usd', 'GBP', 'BTC', '', 840]) {
    assert.deepEqual(paths(refused(validatePayoutRequest(payout({ currency })))), ['currency'], String(currency));
  }
  for (const method of ['Card', 'operator_a_pay', 'cis_transfer', 'wallet_c', 'OPERATOR_a']) {
    assert.deepEqual(paths(refused(validatePayoutRequest(payout({ method })))), ['method'], method);
  }
});

test('payout: every bad field is listed at once, required fields included', () => {
  const issues = refused(
    validatePayoutRequest({ site_login: '', site_id: '7', amount: 10.5, currency: 'XXX', method: 'card', typo: 1 }),
  );
  assert.deepEqual(paths(issues), [
    'additional_fields', 'amount', 'currency', 'merchant_id', 'request_id', 'site_id', 'site_login', 'typo',
  ]);
  assert.ok(issues.every((i) => i.message.length > 0));
});

test('amount and site_id are positive safe integers (our choice where the service is silent)', () => {
  for (const amount of [0, -1, 1.5, 2 ** 53, '100', null]) {
    assert.deepEqual(paths(refused(validatePayoutRequest(payout({ amount })))), ['amount'], String(amount));
  }
  assert.deepEqual(paths(refused(validateTokenRequest(token({ site_id: 0 })))), ['site_id']);
});

test('the signature: refused from a caller (the client signs), required on a signed wire body', () => {
  assert.deepEqual(paths(refused(validatePayoutRequest(payout({ signature: 'abc' })))), ['signature']);
  assert.deepEqual(paths(refused(validateTokenRequest(token(), { signed: true }))), ['signature']);
  const ok = validateTokenRequest(token({ signature: 'abc' }), { signed: true });
  assert.ok(ok.ok);
});

test('not an object at all', () => {
  for (const input of [null, [], 'x', 3]) {
    assert.deepEqual(paths(refused(validatePayoutRequest(input))), ['']);
  }
});

test('token: optional fields, form methods and unknown fields', () => {
  const all = token({
    method: 'card',
    customer_type: 'trust',
    language: 'DE',
    success_url: 'https://shop.example/ok',
    fail_url: 'http://localhost:5173/demo/return.html?status=fail',
  });
  const ok = validateTokenRequest(all);
  assert.ok(ok.ok);
  assert.deepEqual(ok.value, all);
  assert.deepEqual(ok.warnings, []);
  const formMethods = ['sbp', 'card', 'wallet_c', 'cash', 'mobile', 'exchange', 'operator_a_pay', 'wallet_a',
    'wallet_b', 'transfer_a', 'ewallet_a', 'localbanks', 'ewallet_b', 'bank_card_a', 'instant_transfer', 'phone_topup'];
  for (const method of formMethods) assert.ok(validateTokenRequest(token({ method })).ok, method);
  for (const method of ['havale', 'sbp_qr', 'qr_transfer', 'CARD']) {
    assert.deepEqual(paths(refused(validateTokenRequest(token({ method })))), ['method'], method);
  }
  assert.deepEqual(paths(refused(validateTokenRequest(token({ ammount: 5 })))), ['ammount']);
  assert.ok(validateTokenRequest(token({ currency: 'USDT' })).ok);
  assert.deepEqual(paths(refused(validateTokenRequest(token({ currency: 'U$' })))), ['currency']);
});

test('token: an unknown language is sent as EN and a non-trust customer_type as regular, with warnings', () => {
  for (const language of ['EN', 'DE', 'UA', 'RU', 'KZ', 'AZ', 'IN', 'ID']) {
    const r = validateTokenRequest(token({ language }));
    assert.ok(r.ok && r.value.language === language && r.warnings.length === 0, language);
  }
  const r = validateTokenRequest(token({ language: 'FR', customer_type: 'vip' }));
  assert.ok(r.ok);
  assert.equal(r.value.language, 'EN');
  assert.equal(r.value.customer_type, 'regular');
  assert.deepEqual(paths(r.warnings), ['customer_type', 'language']);
  assert.deepEqual(paths(refused(validateTokenRequest(token({ language: 5 })))), ['language']);
});

test('token: bank_app only for cis_transfer and cis_transfer_card, from the service\'s list', () => {
  for (const method of ['cis_transfer', 'cis_transfer_card']) {
    for (const bank_app of ['bank_a', 'bank_b', 'bank_c']) {
      assert.ok(validateTokenRequest(token({ method, additional_fields: { bank_app } })).ok, `${method} ${bank_app}`);
    }
    assert.deepEqual(paths(refused(validateTokenRequest(token({ method })))), ['additional_fields']);
    assert.deepEqual(paths(refused(validateTokenRequest(token({ method, additional_fields: {} })))), [
      'additional_fields.bank_app',
    ]);
    assert.deepEqual(
      paths(refused(validateTokenRequest(token({ method, additional_fields: { bank_app: 'bank_z' } })))),
      ['additional_fields.bank_app'],
    );
  }
  assert.deepEqual(
    paths(refused(validateTokenRequest(token({ method: 'card', additional_fields: { bank_app: 'bank_a' } })))),
    ['additional_fields.bank_app'],
  );
  assert.ok(validateTokenRequest(token({ method: 'card', additional_fields: {} })).ok);
});

test('token: success_url and fail_url are absolute https URLs, plain http only on loopback', () => {
  for (const url of ['https://shop.example/ok', 'http://127.0.0.1:8080/r', 'http://[::1]/r', 'http://localhost/r']) {
    assert.ok(validateTokenRequest(token({ success_url: url })).ok, url);
  }
  for (const url of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'http://shop.example/ok', 'ftp://x/y', '']) {
    assert.deepEqual(paths(refused(validateTokenRequest(token({ fail_url: url })))), ['fail_url'], url);
  }
});
