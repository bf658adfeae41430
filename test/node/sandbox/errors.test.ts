// The service's Errors section (docs/service-contract.md), case by case, on both POST endpoints: a wrong content type or malformed
// JSON answers the failure shape with the service's message, signed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verify } from '../../../src/service/signature.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { payoutFields, postJson, sandbox, SECRET, signedBody, tokenFields } from './helpers.js';

const SERVICE_MESSAGE = 'Invalid ContentType or json format';

let sb: Sandbox;
before(async () => {
  sb = await sandbox();
});
after(() => sb.close());

const endpoints = [
  { path: '/api/payout/', fields: payoutFields },
  { path: '/api/jsapi/obtain_token/', fields: tokenFields },
];

async function expectServiceFailure(answer: { status: number; body: Record<string, unknown> }) {
  assert.equal(answer.status, 400);
  assert.deepEqual(Object.keys(answer.body).sort(), ['message', 'signature', 'success']);
  assert.equal(answer.body.success, false);
  assert.equal(answer.body.message, SERVICE_MESSAGE);
  assert.equal(await verify(answer.body, SECRET), true, 'the failure answer is signed');
}

for (const { path, fields } of endpoints) {
  describe(`POST ${path}: the service's failure shape`, () => {
    test('a valid, signed body sent as text/plain', async () => {
      await expectServiceFailure(await postJson(`${sb.url}${path}`, await signedBody(fields()), 'text/plain'));
    });
    test('a valid, signed body sent as form data', async () => {
      await expectServiceFailure(
        await postJson(`${sb.url}${path}`, await signedBody(fields()), 'application/x-www-form-urlencoded'),
      );
    });
    test('a valid, signed body with no content type at all', async () => {
      const response = await fetch(`${sb.url}${path}`, {
        method: 'POST',
        body: new Blob([JSON.stringify(await signedBody(fields()))]),
      });
      await expectServiceFailure({ status: response.status, body: (await response.json()) as Record<string, unknown> });
    });
    test('malformed JSON with the JSON content type', async () => {
      await expectServiceFailure(await postJson(`${sb.url}${path}`, '{"merchant_id": "merchant-1",'));
    });
    test('an empty body with the JSON content type', async () => {
      await expectServiceFailure(await postJson(`${sb.url}${path}`, ''));
    });
    test('application/json with a charset parameter, and a +json type, are JSON (not refused)', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/vnd.merchant+json']) {
        const answer = await postJson(`${sb.url}${path}`, await signedBody(fields()), type);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.success, true);
      }
    });
  });
}

test('no invoice was created by any refused request', () => {
  // Each endpoint accepted exactly the two JSON-typed requests above.
  assert.deepEqual(sb.invoices().map((i) => i.kind).sort(), ['payment', 'payment', 'payout', 'payout']);
});
