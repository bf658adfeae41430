// Long-run fuzzing of the server validators (issue 6, item 4): at least 10,000 cases per validator and
// kind, through PaymentClient with an injected fetch that records what would reach the wire.
//   node --import tsx bench/fuzz-server.ts [casesPerProperty]
// Invariants: nothing valid is refused; nothing invalid reaches the wire; whatever is accepted is sent
// unchanged (apart from the documented language/customer_type normalisations) and correctly signed.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, sign } from '../src/service/signature.js';
import { PaymentClient, ValidationError, type PayoutParams, type TokenParams } from '../src/server/index.js';
import {
  brokenPayout,
  brokenToken,
  expectedToken,
  validPayout,
  validToken,
  wildPayout,
  wildToken,
} from '../test/node/server/arbitraries.js';

const SECRET = 'fuzz-secret';
const MERCHANT = 'fuzz-merchant';
const numRuns = Number(process.argv[2] ?? 10_000);
if (!Number.isSafeInteger(numRuns) || numRuns < 1) throw new Error('casesPerProperty must be a positive integer');

const wire: Array<Record<string, unknown>> = [];
const client = new PaymentClient({
  baseUrl: 'http://127.0.0.1:9',
  merchantId: MERCHANT,
  secret: SECRET,
  fetch: async (_url, init) => {
    wire.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const answer = { success: true, key: 'k', invoice_id: 'i' };
    return new Response(JSON.stringify({ ...answer, signature: await sign(answer, SECRET) }), {
      headers: { 'content-type': 'application/json' },
    });
  },
});

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

const payout: Call = (p) => client.createPayout(p as unknown as PayoutParams);
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

let failed = false;
console.log(`fuzz-server: ${numRuns} cases per property, fast-check ${fc.__version}`);
for (const [name, arbitrary, call, kind, expected] of runs) {
  let accepted = 0;
  let refused = 0;
  const started = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (params) => {
        const sent = await send(call, params);
        if (sent === undefined) {
          refused++;
          assert.notEqual(kind, 'valid', 'a valid request was refused');
        } else {
          accepted++;
          assert.notEqual(kind, 'broken', 'a broken request was accepted');
          assert.deepEqual(sent, expected(params));
        }
      }),
      { numRuns },
    );
    const ms = (performance.now() - started).toFixed(0);
    console.log(`  ${name}  ${accepted + refused} cases  accepted ${accepted}  refused ${refused}  ok  (${ms} ms)`);
  } catch (error) {
    failed = true;
    console.log(`  ${name}  FAILED\n${String(error)}`);
  }
}
console.log(failed ? 'fuzz-server: FAILED' : 'fuzz-server: all invariants held');
process.exitCode = failed ? 1 : 0;
