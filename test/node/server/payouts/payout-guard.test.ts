// What a payout's answer may be taken to mean: a refusal is definite only when it is signed and a 4xx
// other than 409; a signed success is ours only when it echoes our request. Anything else leaves the outcome
// unknown, and the payout is never sent again.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, BadResponseError, type PayoutParams, type TokenParams } from '../../../../src/server/index.js';
import { answerSigned, clientFor, fails, happyService, PAYOUT, servicesForFile, TOKEN, type Responder } from '../../../support/servers/service.js';

const service = servicesForFile();

const payout = PAYOUT as unknown as PayoutParams;

const unsigned =
  (status: number, body: unknown): Responder =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

describe('a refused payout: definite or unknown', () => {
  const cases: Array<[string, Responder, boolean]> = [
    ['unsigned 500 { success: false }', unsigned(500, { success: false, message: 'Internal' }), true],
    ['unsigned 502 { success: false }', unsigned(502, { success: false }), true],
    ['unsigned 400 { success: false }', unsigned(400, { success: false, message: 'Bad' }), true],
    ['signed 503 { success: false }', (_q, res) => answerSigned(res, 503, { success: false, message: 'Busy' }), true],
    ['signed 400 { success: false }', (_q, res) => answerSigned(res, 400, { success: false, message: 'Bad' }), false],
    ['signed 409 { success: false }', (_q, res) => answerSigned(res, 409, { success: false, message: 'Dup' }), true],
    ['signed 422 { success: false }', (_q, res) => answerSigned(res, 422, { success: false, message: 'Bad' }), false],
    ['signed 200 { success: false }', (_q, res) => answerSigned(res, 200, { success: false, message: '?' }), true],
  ];
  for (const [name, respond, unknown] of cases) {
    test(`${name}: ApiError with outcomeUnknown ${unknown}, sent once`, async (t) => {
      const s = await service(respond);
      const error = await fails(clientFor(s.url, { maxRetries: 3 }).createPayout(payout), ApiError);
      assert.equal(error.outcomeUnknown, unknown);
      assert.equal(/reconcile, do not resend/.test(error.message), unknown);
      assert.equal(s.requests.length, 1, 'a payout is never resent');
      t.diagnostic(`payout refusal, ${name}: outcomeUnknown ${error.outcomeUnknown}, ${s.requests.length} request`);
    });
  }
  test('obtain_token refusals never claim an unknown outcome (no money moves)', async () => {
    const s = await service(unsigned(400, { success: false }));
    const error = await fails(clientFor(s.url).obtainToken(TOKEN as unknown as TokenParams), ApiError);
    assert.equal(error.outcomeUnknown, false);
  });
});

describe('a signed payout answer is tied to its request', () => {
  test('the answer of payout A, replayed for payout B, is a BadResponseError mismatch with outcomeUnknown', async () => {
    let recorded: Record<string, unknown> | undefined;
    const s = await service(async (req, res) => {
      if (recorded === undefined) {
        recorded = { ...req.json };
        return happyService(req, res);
      }
      // The replay: A's answer, correctly signed, sent to B.
      const a = recorded;
      return answerSigned(res, 200, {
        success: true, status: 'created', invoice_id: 'inv-A', request_id: a['request_id'], amount: a['amount'],
        currency: a['currency'], site_login: a['site_login'], site_id: a['site_id'],
      });
    });
    const client = clientFor(s.url);
    assert.equal((await client.createPayout(payout)).request_id, 'payout-1');
    const error = await fails(client.createPayout({ ...payout, request_id: 'payout-2', amount: 9999 }), BadResponseError);
    assert.equal(error.reason, 'mismatch');
    assert.equal(error.outcomeUnknown, true);
    assert.match(error.message, /request_id does not match the request/);
    assert.equal(s.requests.length, 2, 'B was sent once and not again');
  });

  test('each echoed field changed or missing in a signed answer: mismatch, outcome unknown, sent once', async (t) => {
    const fields = ['request_id', 'amount', 'currency', 'site_id', 'site_login'] as const;
    let tried = 0;
    for (const field of fields) {
      for (const change of ['changed', 'missing'] as const) {
        const s = await service(async (req, res) => {
          const body = req.json ?? {};
          const answer: Record<string, unknown> = {
            success: true, status: 'created', invoice_id: 'inv-1', request_id: body['request_id'], amount: body['amount'],
            currency: body['currency'], site_login: body['site_login'], site_id: body['site_id'],
          };
          if (change === 'missing') delete answer[field];
          else answer[field] = typeof answer[field] === 'number' ? Number(answer[field]) + 1 : `${String(answer[field])}x`;
          await answerSigned(res, 200, answer);
        });
        const error = await fails(clientFor(s.url).createPayout(payout), BadResponseError);
        assert.equal(error.reason, 'mismatch', `${field} ${change}`);
        assert.equal(error.outcomeUnknown, true);
        assert.match(error.message, new RegExp(`${field} does not match`));
        assert.equal(s.requests.length, 1);
        tried++;
      }
    }
    assert.equal(tried, 10);
    t.diagnostic(`payout echo: ${tried} signed answers with a changed or missing echoed field, ${tried} refused as mismatch with outcomeUnknown, each payout sent once`);
  });

  test('an answer echoing every field is accepted, numbers sent back as their decimal strings too', async () => {
    const s = await service(async (req, res) => {
      const body = req.json ?? {};
      await answerSigned(res, 200, {
        success: true, status: 'created', invoice_id: 7, request_id: body['request_id'], amount: String(body['amount']),
        currency: body['currency'], site_login: body['site_login'], site_id: String(body['site_id']),
      });
    });
    assert.equal((await clientFor(s.url).createPayout(payout)).invoice_id, 7);
  });
});
