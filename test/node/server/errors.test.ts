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
  ServiceAddressError: () =>
    new server.ServiceAddressError({ operation: 'obtain_token', attempts: 1, outcomeUnknown: false, status: 404, reason: 'content-type', detail: 'x' }, 'https://shop.test/api/jsapi/obtain_token/', 'https://shop.test'),
  DuplicatePayoutError: () => new server.DuplicatePayoutError({ siteId: 1, requestId: 'r', state: 'paid', mismatch: false }),
  PayoutLedgerError: () => new server.PayoutLedgerError('claim', null),
  StoreError: () => new server.StoreError('Redis is not connected'),
  OnStatusTimeoutError: () => new server.OnStatusTimeoutError(10),
  BodyConsumedError: () => new server.BodyConsumedError(),
};

const SERVICE_CALLS = ['ApiError', 'AuthenticationError', 'SignatureError', 'NetworkError', 'TimeoutError', 'BadResponseError', 'ServiceAddressError'];

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

// docs/troubleshooting.md: every code of src/service/error-codes.ts (the element's and the server's),
// every message the handlers answer, and every line logRedisOutages writes has its row, and no row
// names a code that is gone.
const ROOT = new URL('../../../', import.meta.url);
const read = (file: string) => readFile(new URL(file, ROOT), 'utf8');

/** The members of a union of string literals in error-codes.ts, by the type's name. */
function unionMembers(source: string, type: string): string[] {
  const start = source.indexOf(`export type ${type} =`);
  const body = source.slice(start, source.indexOf(';', start));
  return [...body.matchAll(/\|\s*'([^']+)'/g)].map((m) => m[1] as string).sort();
}

/** The codes in the first column of the table under `heading`. */
function codesUnder(page: string, heading: string): string[] {
  const start = page.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/troubleshooting.md has "## ${heading}"`);
  const section = page.slice(start, page.indexOf('\n## ', start + 1) >>> 0 || undefined);
  return [...section.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1] as string).sort();
}

test('docs/troubleshooting.md lists every error code pay-form gives, with cause and fix, and no other', async () => {
  const [codes, page] = await Promise.all([read('src/service/error-codes.ts'), read('docs/troubleshooting.md')]);
  assert.deepEqual(codesUnder(page, 'The page: `pay-form-error` codes'), unionMembers(codes, 'ElementErrorCode'));
  assert.deepEqual(codesUnder(page, 'The server: error codes'), unionMembers(codes, 'ServerErrorCode'));
  for (const row of page.split('\n').filter((line) => /^\| `[\w-]+` \|/.test(line))) {
    assert.ok(row.split('|').filter((cell) => cell.trim() !== '').length >= 3, `a cause and a fix: ${row}`);
  }
});

test('docs/troubleshooting.md lists every message the handlers answer and every line logRedisOutages writes', async () => {
  const page = await read('docs/troubleshooting.md');
  const { readdir } = await import('node:fs/promises');
  const sources = await Promise.all(
    (await readdir(new URL('src/server/http/', ROOT))).filter((f) => f.endsWith('.ts')).map((f) => read(`src/server/http/${f}`)),
  );
  const messages = new Set<string>([server.INVALID_JSON_MESSAGE, 'Request body too large']);
  for (const source of sources) {
    for (const m of source.matchAll(/failure\(\s*\d+,\s*(?:[^,'"]*\?\s*)?'([^']+)'(?:\s*:\s*'([^']+)')?/g)) {
      messages.add(m[1] as string);
      if (m[2]) messages.add(m[2]);
    }
    // An answer's own body (`{ success: false, message }`), not an issue's message inside an error.
    for (const m of source.matchAll(/success: false, message: (?:'([^']+)'|"([^"]+)")/g)) messages.add((m[1] ?? m[2]) as string);
  }
  assert.ok(messages.size >= 15, `the messages were found: ${[...messages].join(', ')}`);
  for (const message of messages) assert.ok(page.includes(`\`${message}\``), `docs/troubleshooting.md lists the answer "${message}"`);

  const lines: string[] = [];
  const events = new Map<string, (error?: unknown) => void>();
  server.logRedisOutages({ on: (event, listener) => events.set(event, listener) }, (line) => lines.push(line));
  events.get('error')?.(Object.assign(new Error('…'), { code: 'ECONNREFUSED' }));
  events.get('error')?.(new Error('again'));
  events.get('ready')?.();
  assert.equal(lines.length, 2, 'one line for the outage, one for the recovery');
  for (const line of lines) assert.ok(page.includes(`\`${line}\``), `docs/troubleshooting.md lists the log line "${line}"`);
});
