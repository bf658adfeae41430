// The backoff arithmetic: capped exponential with full jitter, Retry-After honoured up to the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRetryAfter, retryDelayMs, type TransportSettings } from '../../../../src/server/client/transport.js';

const settings = (random: number): TransportSettings => ({
  fetch: globalThis.fetch,
  timeoutMs: 1000,
  maxRetries: 5,
  retryBaseMs: 100,
  retryMaxMs: 1000,
  random: () => random,
});

test('full jitter: a random share of base * 2^(n-1), never above retryMaxMs', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(settings(0.999), n, undefined)), [99, 199, 399, 799, 999, 999]);
  assert.deepEqual([1, 2, 3].map((n) => retryDelayMs(settings(0), n, undefined)), [0, 0, 0]);
  assert.equal(retryDelayMs(settings(0.5), 3, undefined), 200);
});

test('Retry-After is used as given, capped at retryMaxMs', () => {
  assert.equal(retryDelayMs(settings(0.5), 1, 300), 300);
  assert.equal(retryDelayMs(settings(0.5), 1, 3_600_000), 1000);
});

test('Retry-After is read as seconds or as an HTTP date; anything else is ignored', () => {
  assert.equal(parseRetryAfter('7'), 7000);
  assert.equal(parseRetryAfter(' 0 '), 0);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseRetryAfter('-5'), undefined);
  const inAMinute = new Date(Date.now() + 60_000).toUTCString();
  const ms = parseRetryAfter(inAMinute)!;
  assert.ok(ms > 50_000 && ms <= 60_000, String(ms));
  assert.equal(parseRetryAfter(new Date(Date.now() - 60_000).toUTCString()), 0);
});
