// Property tests through PaymentClient against a real loopback service: whatever validation accepts
// reaches the wire unchanged (apart from the documented normalisations) and correctly signed; whatever
// it refuses never reaches the wire; nothing valid is refused. The long run is test/node/fuzz/server.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PaymentClient, ValidationError, type PayoutParams, type TokenParams } from '../../../../src/server/index.js';
import { brokenPayout, brokenToken, expectedToken, validPayout, validToken, wildPayout, wildToken } from './arbitraries.js';
import { clientFor, happyService, MERCHANT, startService, wireSignatureOk, type Service } from '../../../support/servers/service.js';

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
// A fresh client (and so a fresh payout ledger) per payout, as in test/node/fuzz/server.test.ts:
// fast-check repeats request_ids, and a repeat is answered from the ledger without a request.
const payout: Call = (p) => clientFor(service.url).createPayout(p as unknown as PayoutParams);
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

const SUITES = [
  { name: 'payout', call: payout, valid: validPayout, broken: brokenPayout, wild: wildPayout,
    expected: (p: Record<string, unknown>) => asJson({ ...p, merchant_id: MERCHANT }) },
  { name: 'obtain_token', call: token, valid: validToken, broken: brokenToken, wild: wildToken,
    // language and customer_type are normalised as documented
    expected: (p: Record<string, unknown>) => asJson(expectedToken(p, MERCHANT)) },
];

for (const { name, call, valid, broken, wild, expected } of SUITES) {
  describe(`${name} properties`, () => {
    test('valid requests are accepted and reach the wire as documented, plus merchant_id, signed', LIMIT, async () => {
      await fc.assert(fc.asyncProperty(valid, async (params) => assert.deepEqual(await send(call, params), expected(params))), RUNS);
    });
    test('broken requests never reach the wire', LIMIT, async () => {
      await fc.assert(fc.asyncProperty(broken, async (params) => assert.equal(await send(call, params), undefined)), RUNS);
    });
    test('anything: accepted means sent as documented and signed, refused means not sent', LIMIT, async () => {
      await fc.assert(
        fc.asyncProperty(wild, async (params) => {
          const wire = await send(call, params);
          if (wire) assert.deepEqual(wire, expected(params));
        }),
        RUNS,
      );
    });
  });
}
