// Property tests through PaymentClient against a real loopback service: whatever validation accepts
// reaches the wire unchanged (apart from the documented normalisations) and correctly signed; whatever
// it refuses never reaches the wire; nothing valid is refused. The long run is bench/fuzz-server.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PaymentClient, ValidationError, type PayoutParams, type TokenParams } from '../../../src/server/index.js';
import { brokenPayout, brokenToken, expectedToken, validPayout, validToken, wildPayout, wildToken } from './arbitraries.js';
import { clientFor, happyService, MERCHANT, startService, wireSignatureOk, type Service } from './service.js';

const RUNS = { numRuns: 300 };
const LIMIT = { timeout: 120_000 };
let service: Service;
let client: PaymentClient;
before(async () => {
  service = await startService(happyService);
  client = clientFor(service.url);
});
after(() => service.close());

/** The wire is JSON: compare as JSON (fast-check may build null-prototype objects). */
const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

type Call = (params: Record<string, unknown>) => Promise<unknown>;
const payout: Call = (p) => client.createPayout(p as unknown as PayoutParams);
const token: Call = (p) => client.obtainToken(p as unknown as TokenParams);

/** Sends; returns what the wire saw (undefined when refused), checking the refused/sent invariant. */
async function send(call: Call, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const before = service.requests.length;
  try {
    await call(params);
  } catch (error) {
    assert.ok(error instanceof ValidationError, `only a ValidationError is expected here, got ${String(error)}`);
    assert.ok(error.issues.length > 0);
    assert.equal(service.requests.length, before, 'a refused request reached the wire');
    return undefined;
  }
  assert.equal(service.requests.length, before + 1);
  const wire = service.requests.at(-1)!.json!;
  assert.ok(wireSignatureOk(wire), 'wrongly signed');
  const { signature: _s, ...unsigned } = wire;
  return unsigned;
}

describe('payout properties', () => {
  test('valid payouts are accepted and reach the wire unchanged, plus merchant_id, signed', LIMIT, async () => {
    await fc.assert(
      fc.asyncProperty(validPayout, async (params) => {
        assert.deepEqual(await send(payout, params), asJson({ ...params, merchant_id: MERCHANT }));
      }),
      RUNS,
    );
  });
  test('broken payouts never reach the wire', LIMIT, async () => {
    await fc.assert(fc.asyncProperty(brokenPayout, async (params) => assert.equal(await send(payout, params), undefined)), RUNS);
  });
  test('anything: accepted means sent unchanged and signed, refused means not sent', LIMIT, async () => {
    await fc.assert(
      fc.asyncProperty(wildPayout, async (params) => {
        const wire = await send(payout, params);
        if (wire) assert.deepEqual(wire, asJson({ ...params, merchant_id: MERCHANT }));
      }),
      RUNS,
    );
  });
});

describe('obtain_token properties', () => {
  test('valid token requests are accepted and sent as documented (language/customer_type normalised), signed', LIMIT, async () => {
    await fc.assert(
      fc.asyncProperty(validToken, async (params) => {
        assert.deepEqual(await send(token, params), asJson(expectedToken(params, MERCHANT)));
      }),
      RUNS,
    );
  });
  test('broken token requests never reach the wire', LIMIT, async () => {
    await fc.assert(fc.asyncProperty(brokenToken, async (params) => assert.equal(await send(token, params), undefined)), RUNS);
  });
  test('anything: accepted means sent as documented and signed, refused means not sent', LIMIT, async () => {
    await fc.assert(
      fc.asyncProperty(wildToken, async (params) => {
        const wire = await send(token, params);
        if (wire) assert.deepEqual(wire, asJson(expectedToken(params, MERCHANT)));
      }),
      RUNS,
    );
  });
});
