// The backoff arithmetic: capped exponential with full jitter, Retry-After honoured up to the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryDelayMs, type TransportSettings } from '../../../src/server/transport.js';

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
