// docs/server.md's error table is the classes pay-form/server exports: the same classes, each with the
// code it really has, and every one under PayFormError (service-call errors under ServiceCallError).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import * as server from '../../../src/server/index.js';
import { PayFormError, ServiceCallError } from '../../../src/server/index.js';

type ErrorClass = abstract new (...args: never[]) => PayFormError;

/** One instance of each exported error class; a class added without a row here fails the test below. */
const SAMPLES: Record<string, () => PayFormError> = {
  ConfigError: () => new server.ConfigError([{ path: 'secret', message: 'must not be empty' }]),
  ValidationError: () => new server.ValidationError([{ path: 'amount', message: 'must be an integer' }]),
  ApiError: () => new server.ApiError({ operation: 'payout', status: 400, body: { success: false, message: 'x' }, verified: true }),
  AuthenticationError: () => new server.AuthenticationError({ operation: 'obtain_token', status: 401, body: { success: false, message: 'Invalid signature' }, verified: false }),
  SignatureError: () => new server.SignatureError('obtain_token', 200, 'mismatch'),
  NetworkError: () => new server.NetworkError({ operation: 'payout', attempts: 1, outcomeUnknown: false, systemCode: 'ECONNREFUSED', cause: null }),
  TimeoutError: () => new server.TimeoutError({ operation: 'payout', attempts: 1, timeoutMs: 10 }),
  BadResponseError: () => new server.BadResponseError({ operation: 'payout', attempts: 1, outcomeUnknown: true, status: 200, reason: 'shape', detail: 'x' }),
  DuplicatePayoutError: () => new server.DuplicatePayoutError({ siteId: 1, requestId: 'r', state: 'paid', mismatch: false }),
  PayoutLedgerError: () => new server.PayoutLedgerError('claim', null),
  StoreError: () => new server.StoreError('Redis is not connected'),
  OnStatusTimeoutError: () => new server.OnStatusTimeoutError(10),
  BodyConsumedError: () => new server.BodyConsumedError(),
};

const SERVICE_CALLS = ['ApiError', 'AuthenticationError', 'SignatureError', 'NetworkError', 'TimeoutError', 'BadResponseError'];

function exportedErrorClasses(): string[] {
  return Object.entries(server)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof PayFormError && value !== ServiceCallError)
    .map(([name]) => name)
    .sort();
}

async function tableRows(): Promise<Map<string, string>> {
  const page = await readFile(new URL('../../../docs/server.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('\n## Errors\n'), page.indexOf('\n## ', page.indexOf('\n## Errors\n') + 1));
  const rows = new Map<string, string>();
  for (const [, name, code] of section.matchAll(/^\| `(\w+)`[^|]*\| `(\w+)` \|/gm)) rows.set(name as string, code as string);
  return rows;
}

test("docs/server.md's error table names every exported error class with the code it has, and nothing else", async () => {
  const rows = await tableRows();
  assert.deepEqual([...rows.keys()].sort(), exportedErrorClasses());
  assert.deepEqual(Object.keys(SAMPLES).sort(), exportedErrorClasses(), 'a sample for each class');
  for (const [name, make] of Object.entries(SAMPLES)) {
    const error = make();
    assert.ok(error instanceof (server[name as keyof typeof server] as ErrorClass), name);
    assert.equal(error.name, name);
    assert.equal(error.code, rows.get(name), `${name}'s code`);
    assert.equal(error instanceof ServiceCallError, SERVICE_CALLS.includes(name), `${name} under ServiceCallError`);
  }
});

test('a service-call error whose outcome is unknown says so once, in the same words for every class', () => {
  for (const name of SERVICE_CALLS) {
    const error = SAMPLES[name]!() as ServiceCallError;
    const says = error.message.split('the outcome is unknown: reconcile, do not resend').length - 1;
    assert.equal(says, error.outcomeUnknown ? 1 : 0, `${name}: ${error.message}`);
  }
});

test('the table check sees a class that is missing from the page', async () => {
  const rows = await tableRows();
  rows.delete('StoreError');
  assert.notDeepEqual([...rows.keys()].sort(), exportedErrorClasses());
});
