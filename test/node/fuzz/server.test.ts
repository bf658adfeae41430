// Property tests of the server validators: PAY_FORM_FUZZ_RUNS cases per validator and kind (a few
// hundred in `npm test`, 10,000 with `npm run bench:fuzz`), through PaymentClient with an injected fetch
// that records what would reach the wire.
// Invariants: nothing valid is refused; nothing invalid reaches the wire; whatever is accepted is sent
// unchanged (apart from the documented language/customer_type normalisations) and correctly signed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, sign } from '../../../src/service/signature.js';
import { PaymentClient, ValidationError, type PayoutParams, type TokenParams } from '../../../src/server/index.js';
import { fuzzRuns, Tally } from '../../support/fuzz.js';
import {
  brokenPayout,
  brokenToken,
  expectedToken,
  validPayout,
  validToken,
  wildPayout,
  wildToken,
} from '../server/client/arbitraries.js';

const SECRET = 'fuzz-secret';
const MERCHANT = 'fuzz-merchant';
const numRuns = fuzzRuns();

const wire: Array<Record<string, unknown>> = [];
const makeClient = () => new PaymentClient({
  baseUrl: 'http://127.0.0.1:9',
  merchantId: MERCHANT,
  secret: SECRET,
  fetch: async (_url, init) => {
    const sent = JSON.parse(String(init?.body)) as Record<string, unknown>;
    wire.push(sent);
    // A payout answer echoes its request (the client checks it); the token answer ignores the extras.
    const { request_id, amount, currency, site_id, site_login } = sent;
    const answer = { success: true, key: 'k', invoice_id: 'i', request_id, amount, currency, site_id, site_login };
    return new Response(JSON.stringify({ ...answer, signature: await sign(answer, SECRET) }), {
      headers: { 'content-type': 'application/json' },
    });
  },
});
const client = makeClient();

const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
type Call = (p: Record<string, unknown>) => Promise<unknown>;

async function send(call: Call, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const before = wire.length;
  try {
    await call(params);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    assert.equal(wire.length, before, 'a refused request reached the wire');
    return undefined;
  }
  assert.equal(wire.length, before + 1);
  const sent = wire.at(-1)!;
  const expected = createHmac('sha256', SECRET).update(canonicalJson(sent), 'utf8').digest('hex');
  assert.equal(sent['signature'], expected, 'wrongly signed');
  const { signature: _s, ...rest } = sent;
  return rest;
}

// A fresh client (and so a fresh payout ledger) per payout: fast-check repeats request_ids, and a
// repeat is answered from the ledger without a request, which is not what this fuzz checks.
const payout: Call = (p) => makeClient().createPayout(p as unknown as PayoutParams);
const token: Call = (p) => client.obtainToken(p as unknown as TokenParams);
const expectPayout = (p: Record<string, unknown>) => asJson({ ...p, merchant_id: MERCHANT });
const expectToken = (p: Record<string, unknown>) => asJson(expectedToken(p, MERCHANT));

const runs: Array<[string, fc.Arbitrary<Record<string, unknown>>, Call, 'valid' | 'broken' | 'wild', (p: Record<string, unknown>) => unknown]> = [
  ['payout  valid ', validPayout, payout, 'valid', expectPayout],
  ['payout  broken', brokenPayout, payout, 'broken', expectPayout],
  ['payout  wild  ', wildPayout, payout, 'wild', expectPayout],
  ['token   valid ', validToken, token, 'valid', expectToken],
  ['token   broken', brokenToken, token, 'broken', expectToken],
  ['token   wild  ', wildToken, token, 'wild', expectToken],
];

const LIMIT = { timeout: 600_000 };
for (const [name, arbitrary, call, kind, expected] of runs) {
  const label = name.replace(/\s+/g, ' ').trim();
  test(`${label}: nothing valid refused, nothing invalid sent, the rest sent as given (${numRuns} cases)`, LIMIT, async (t) => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(arbitrary, async (params) => {
        const sent = await send(call, params);
        tally.add(sent !== undefined);
        if (sent === undefined) {
          assert.notEqual(kind, 'valid', 'a valid request was refused');
        } else {
          assert.notEqual(kind, 'broken', 'a broken request was accepted');
          assert.deepEqual(sent, expected(params));
        }
      }),
      { numRuns },
    );
    t.diagnostic(`${label}: ${String(tally)}`);
  });
}
