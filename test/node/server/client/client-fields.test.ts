// Every field rule of both field tables in docs/service-contract.md, through PaymentClient against a real loopback service:
// an accepted body reaches the wire unchanged and signed; a refused one never leaves (zero requests)
// and the ValidationError names each bad field. The expectations are written out from docs/service-contract.md here,
// not read from the shared tables, so a wrong table fails these tests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError, type FieldIssue, type PayoutParams, type TokenParams } from '../../../../src/server/index.js';
import { clientFor, happyService, MERCHANT, PAYOUT, startService, TOKEN, wireSignatureOk, type Service } from '../../../support/servers/service.js';

let service: Service;
before(async () => (service = await startService(happyService)));
after(() => service.close());

/** Sends and returns what the service received; fails if nothing or more than one request arrived. */
async function sentPayout(params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const before = service.requests.length;
  await clientFor(service.url).createPayout(params as unknown as PayoutParams);
  assert.equal(service.requests.length, before + 1);
  const json = service.requests.at(-1)!.json!;
  assert.ok(wireSignatureOk(json), 'signed with the default HMAC');
  return json;
}

async function sentToken(params: Record<string, unknown>, onWarning?: (w: FieldIssue) => void) {
  const before = service.requests.length;
  await clientFor(service.url, onWarning ? { onWarning } : {}).obtainToken(params as unknown as TokenParams);
  assert.equal(service.requests.length, before + 1);
  const json = service.requests.at(-1)!.json!;
  assert.ok(wireSignatureOk(json));
  return json;
}

/** Expects a ValidationError with exactly these paths and nothing on the wire. */
async function refused(call: () => Promise<unknown>, paths: string[]): Promise<void> {
  const before = service.requests.length;
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof ValidationError, String(error));
    assert.deepEqual(error.issues.map((i) => i.path).sort(), [...paths].sort());
    for (const issue of error.issues) assert.ok(issue.message.length > 0);
    return true;
  });
  assert.equal(service.requests.length, before, 'nothing reached the wire');
}

const payout = (over: Record<string, unknown>) => ({ ...PAYOUT, ...over });
const token = (over: Record<string, unknown>) => ({ ...TOKEN, ...over });

// docs/service-contract.md: "additional_fields by method (payout)", written out by hand.
const PAYOUT_REQUIRED: Record<string, string[]> = {
  card: ['card_number'],
  sbp: ['bank_name', 'phone_holder', 'phone_number'],
  wallet_a: ['phone_number'],
  localbanks: ['account_number'],
  exchange: [],
  cash: ['address', 'username', 'messenger', 'verification_code'],
  operator_a: ['phone_number'],
  OPERATOR_A: ['phone_number'],
  sbp_qr: [],
  wallet_b: ['phone_number'],
  phone_topup: ['bank_name', 'phone_number'],
  havale: ['account_number', 'bank_name', 'account_holder'],
  ewallet_a: ['ewallet_a_account', 'ewallet_a_holder'],
  transfer_a: ['transfer_a_tag', 'transfer_a_holder'],
  ewallet_b: ['ewallet_b_account', 'ewallet_b_holder', 'phone_number'],
  instant_transfer: ['phone_number', 'account_holder', 'instant_transfer_key'],
  qr_transfer: ['bank_name', 'phone_holder', 'phone_number'],
};
const PAYOUT_OPTIONAL: Record<string, string[]> = {
  card: ['bank_name', 'card_holder', 'bank_option', 'expiry date'],
  localbanks: ['bank_name', 'account_holder', 'alias'],
  phone_topup: ['phone_holder'],
  cash: ['asap', 'time'],
};
const fill = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, `${k} value`]));

describe('payout: methods and their additional_fields', () => {
  for (const [method, required] of Object.entries(PAYOUT_REQUIRED)) {
    test(`${method}: accepted with its required keys${PAYOUT_OPTIONAL[method] ? ' and every optional key' : ''}`, async () => {
      const additional_fields = fill([...required, ...(PAYOUT_OPTIONAL[method] ?? [])]);
      const wire = await sentPayout(payout({ method, additional_fields }));
      assert.deepEqual(wire['additional_fields'], additional_fields);
      assert.equal(wire['method'], method, 'sent as given');
    });
    test(`${method}: refused ${required.length ? 'without each required key' : 'with a key it does not take'}`, async () => {
      if (required.length === 0) {
        await refused(() => clientFor(service.url).createPayout(payout({ method, additional_fields: { card_number: '1' } }) as never), [
          'additional_fields.card_number',
        ]);
        return;
      }
      await refused(() => clientFor(service.url).createPayout(payout({ method, additional_fields: {} }) as never),
        required.map((k) => `additional_fields.${k}`));
    });
  }

  test('the key `expiry date` has a space; `expiry_date` is refused as unknown', async () => {
    const wire = await sentPayout(payout({ additional_fields: { card_number: '4111', 'expiry date': '12/29' } }));
    assert.deepEqual(wire['additional_fields'], { card_number: '4111', 'expiry date': '12/29' });
    await refused(() => clientFor(service.url).createPayout(payout({ additional_fields: { card_number: '4111', expiry_date: '12/29' } }) as never),
      ['additional_fields.expiry_date']);
  });

  test('values must be strings; unknown keys refused; every bad field listed at once', async () => {
    await refused(
      () => clientFor(service.url).createPayout(payout({ method: 'sbp', additional_fields: { bank_name: 1, phone_number: '+1', nickname: 'x' } }) as never),
      ['additional_fields.bank_name', 'additional_fields.phone_holder', 'additional_fields.nickname'],
    );
  });

  test("methods outside the service's lists are refused, in any case but OPERATOR_A", async () => {
    await refused(() => clientFor(service.url).createPayout(payout({ method: 'CARD' }) as never), ['method']);
    await refused(() => clientFor(service.url).createPayout(payout({ method: 'Operator_A', additional_fields: { phone_number: '1' } }) as never), ['method']);
  });
});

describe('payout: required fields, types and currencies', () => {
  for (const currency of ['USD', 'EUR', 'RUB', 'UAH', 'USDT', 'IDR', 'AZN', 'VND']) {
    test(`currency ${currency} is accepted`, async () => {
      assert.equal((await sentPayout(payout({ currency })))['currency'], currency);
    });
  }
  test('a currency outside the list is refused (GBP, usd)', async () => {
    await refused(() => clientFor(service.url).createPayout(payout({ currency: 'GBP' }) as never), ['currency']);
    await refused(() => clientFor(service.url).createPayout(payout({ currency: 'usd' }) as never), ['currency']);
  });
  test('every required field missing is listed at once', async () => {
    await refused(() => clientFor(service.url).createPayout({} as never), [
      'site_login', 'site_id', 'request_id', 'amount', 'currency', 'method', 'additional_fields',
    ]);
  });
  test('types: integers for site_id and amount, strings for the rest', async () => {
    await refused(
      () => clientFor(service.url).createPayout(payout({ site_id: '12', amount: 10.5, site_login: 5, request_id: '' }) as never),
      ['site_id', 'amount', 'site_login', 'request_id'],
    );
  });
  test('merchant_id is added by the client, signature by signing; passing either is refused', async () => {
    const wire = await sentPayout(payout({}));
    assert.equal(wire['merchant_id'], MERCHANT);
    await refused(() => clientFor(service.url).createPayout(payout({ merchant_id: 'other' }) as never), ['merchant_id']);
    await refused(() => clientFor(service.url).createPayout(payout({ signature: 'x' }) as never), ['signature']);
  });
  test('a field of neither table is refused', async () => {
    await refused(() => clientFor(service.url).createPayout(payout({ language: 'EN' }) as never), ['language']);
  });
});

// docs/service-contract.md: "Allowed form method values", written out by hand.
const FORM_METHODS = [
  'sbp', 'card', 'wallet_c', 'cash', 'mobile', 'exchange', 'operator_a_pay', 'wallet_a', 'wallet_b', 'transfer_a',
  'ewallet_a', 'cis_transfer', 'cis_transfer_card', 'localbanks', 'ewallet_b', 'bank_card_a', 'instant_transfer', 'phone_topup',
];
const BANK_APP_METHODS = new Set(['cis_transfer', 'cis_transfer_card']);

describe('obtain_token: form methods, bank_app, language, customer_type', () => {
  for (const method of FORM_METHODS) {
    const needsBankApp = BANK_APP_METHODS.has(method);
    test(`${method}: accepted${needsBankApp ? ' with bank_app' : ''}`, async () => {
      const extra = needsBankApp ? { additional_fields: { bank_app: 'bank_b' } } : {};
      const wire = await sentToken(token({ method, ...extra }));
      assert.equal(wire['method'], method);
      if (needsBankApp) assert.deepEqual(wire['additional_fields'], { bank_app: 'bank_b' });
    });
    test(`${method}: refused ${needsBankApp ? 'without bank_app' : 'with a bank_app'}`, async () => {
      const extra = needsBankApp ? {} : { additional_fields: { bank_app: 'bank_a' } };
      await refused(() => clientFor(service.url).obtainToken(token({ method, ...extra }) as never),
        [needsBankApp ? 'additional_fields' : 'additional_fields.bank_app']);
    });
  }

  test('bank_app: bank_a, bank_b, bank_c accepted; another value refused', async () => {
    for (const bank_app of ['bank_a', 'bank_b', 'bank_c']) {
      await sentToken(token({ method: 'cis_transfer_card', additional_fields: { bank_app } }));
    }
    await refused(() => clientFor(service.url).obtainToken(token({ method: 'cis_transfer', additional_fields: { bank_app: 'bank_d' } }) as never),
      ['additional_fields.bank_app']);
  });

  test('an unknown form method is refused (a payout-only method included)', async () => {
    await refused(() => clientFor(service.url).obtainToken(token({ method: 'havale' }) as never), ['method']);
  });

  for (const language of ['EN', 'DE', 'UA', 'RU', 'KZ', 'AZ', 'IN', 'ID']) {
    test(`language ${language} is sent as given, with no warning`, async () => {
      const warnings: FieldIssue[] = [];
      assert.equal((await sentToken(token({ language }), (w) => warnings.push(w)))['language'], language);
      assert.deepEqual(warnings, []);
    });
  }

  test('an unknown language is sent as EN and reported to onWarning', async () => {
    const warnings: FieldIssue[] = [];
    const wire = await sentToken(token({ language: 'FR' }), (w) => warnings.push(w));
    assert.equal(wire['language'], 'EN');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.path, 'language');
    assert.match(warnings[0]!.message, /FR/);
    assert.equal((warnings[0] as FieldIssue & { operation: string }).operation, 'obtain_token');
  });

  test('customer_type: trust and regular as given; anything else sent as regular with a warning', async () => {
    assert.equal((await sentToken(token({ customer_type: 'trust' })))['customer_type'], 'trust');
    assert.equal((await sentToken(token({ customer_type: 'regular' })))['customer_type'], 'regular');
    const warnings: FieldIssue[] = [];
    assert.equal((await sentToken(token({ customer_type: 'vip' }), (w) => warnings.push(w)))['customer_type'], 'regular');
    assert.deepEqual(warnings.map((w) => w.path), ['customer_type']);
    await refused(() => clientFor(service.url).obtainToken(token({ customer_type: 1 }) as never), ['customer_type']);
  });

  test('required fields and types; no currency list but a code shape; success/fail URLs absolute', async () => {
    await refused(() => clientFor(service.url).obtainToken({} as never), ['site_login', 'site_id', 'request_id', 'amount', 'currency']);
    assert.equal((await sentToken(token({ currency: 'GBP' })))['currency'], 'GBP');
    await refused(() => clientFor(service.url).obtainToken(token({ currency: 'US D', amount: '1' }) as never), ['currency', 'amount']);
    const urls = { success_url: 'https://shop.example/ok', fail_url: 'http://localhost:5173/fail' };
    const wire = await sentToken(token(urls));
    assert.equal(wire['success_url'], urls.success_url);
    assert.equal(wire['fail_url'], urls.fail_url);
    await refused(() => clientFor(service.url).obtainToken(token({ success_url: 'javascript:alert(1)', fail_url: '/fail' }) as never),
      ['success_url', 'fail_url']);
  });

  test('an accepted token body reaches the wire exactly as given, plus merchant_id and signature', async () => {
    const params = token({ method: 'card', language: 'DE', customer_type: 'trust', success_url: 'https://a.example/s' });
    const wire = await sentToken(params);
    const { signature, ...rest } = wire;
    assert.match(String(signature), /^[0-9a-f]{64}$/);
    assert.deepEqual(rest, { ...params, merchant_id: MERCHANT });
    const sent = service.requests.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.path, '/api/jsapi/obtain_token/');
    assert.match(String(sent.headers['content-type']), /^application\/json/);
  });
});
