// The four stores and ledgers check their options with one set of rules and one wording: a ConfigError
// naming every bad option, when the store is made. Infinity is refused (docs/stores.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { ConfigError, MemoryCallbackStore, MemoryPayoutLedger, RedisCallbackStore, RedisPayoutLedger } from '../../../../src/server/index.js';
import { refusedUrl } from '../../../support/servers/loopback.js';

// A real node-redis client, never connected: the constructors only check its shape.
const client = createClient({ url: (await refusedUrl()).replace('http:', 'redis:') });

const MAKERS: Record<string, (options: Record<string, unknown>) => unknown> = {
  MemoryCallbackStore: (o) => new MemoryCallbackStore(o),
  MemoryPayoutLedger: (o) => new MemoryPayoutLedger(o),
  RedisCallbackStore: (o) => new RedisCallbackStore(client, o),
  RedisPayoutLedger: (o) => new RedisPayoutLedger(client, o),
};

const WHOLE = 'must be a whole number, 1 or more';
const MS = 'must be a whole number of milliseconds, 1 or more';
const TIMER = 'must be a whole number of milliseconds, 1 to 2147483647';

/** Each constructor's checked options and the words of their refusal. */
const OPTIONS: Record<string, Record<string, string>> = {
  MemoryCallbackStore: { maxEntries: WHOLE, ttlMs: MS, leaseMs: MS },
  MemoryPayoutLedger: { maxEntries: WHOLE, ttlMs: MS },
  RedisCallbackStore: { leaseMs: MS, ttlMs: MS, commandTimeoutMs: TIMER },
  RedisPayoutLedger: { ttlMs: MS, commandTimeoutMs: TIMER },
};

const BAD: unknown[] = [NaN, -1, 0, 1.5, Infinity, -Infinity, '60000', true, {}, 10n];

function refusal(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    assert.ok(error instanceof ConfigError && error.code === 'config', `a ConfigError, not ${String(error)}`);
    return error.message;
  }
  assert.fail('accepted');
}

for (const [owner, options] of Object.entries(OPTIONS)) {
  const make = MAKERS[owner]!;
  test(`${owner}: every bad value of ${Object.keys(options).join(', ')} is a ConfigError in the one wording`, () => {
    for (const [name, words] of Object.entries(options)) {
      for (const value of BAD) {
        assert.equal(refusal(() => make({ [name]: value })), `Invalid ${owner} options: ${name}: ${words}`, `${name}: ${String(value)}`);
      }
    }
  });

  test(`${owner}: every bad option is named at once; the smallest and the largest good values are taken`, () => {
    const all = Object.fromEntries(Object.keys(options).map((name) => [name, NaN]));
    const listed = Object.entries(options).map(([name, words]) => `${name}: ${words}`).join('; ');
    assert.equal(refusal(() => make(all)), `Invalid ${owner} options: ${listed}`);
    for (const [name, words] of Object.entries(options)) {
      const largest = words === TIMER ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
      assert.doesNotThrow(() => make({ [name]: 1 }), name);
      assert.doesNotThrow(() => make({ [name]: largest }), name);
      if (words === TIMER) assert.equal(refusal(() => make({ [name]: largest + 1 })), `Invalid ${owner} options: ${name}: ${words}`);
    }
    assert.doesNotThrow(() => make({}));
  });
}
