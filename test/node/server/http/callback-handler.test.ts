// The callback endpoint: signature, parsing, once-per-(invoice_id, status) hand-over, repeats,
// concurrency and throw-then-retry; served by toNodeHandler on a real node:http server.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  createCallbackHandler,
  MemoryCallbackStore,
  sign,
  toNodeHandler,
  type CallbackHandlerOptions,
  type CallbackPayload,
  type CallbackRecord,
  type CallbackStore,
  type ClaimResult,
} from '../../../../src/server/index.js';
import { SECRET, startServer } from '../../../support/servers/service.js';

const servers: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serve(options: CallbackHandlerOptions): Promise<(body: string, type?: string) => Promise<{ status: number; json: Record<string, unknown>; headers: Headers }>> {
  const server = await startServer(toNodeHandler(createCallbackHandler(options)));
  servers.push(server);
  return async (body, type = 'application/json') => {
    const response = await fetch(`${server.url}/callback`, { method: 'POST', headers: { 'content-type': type }, body });
    return { status: response.status, json: (await response.json()) as Record<string, unknown>, headers: response.headers };
  };
}

const signedBody = async (payload: Record<string, unknown>, secret = SECRET) =>
  JSON.stringify({ ...payload, signature: await sign(payload, secret) });

/** A callback as the store keeps it: invoice `id`, no order unless given. */
const cb = (id: string, status = 'paid', order_ref = '', attempt = ''): CallbackRecord => ({ invoice_id: id, status, order_ref, attempt });

/** A store that hands every call to `memory`, with `claim` replaced. */
function withClaim(memory: MemoryCallbackStore, claim: CallbackStore['claim']): CallbackStore {
  return {
    claim,
    finish: (c) => memory.finish(c),
    release: (c) => memory.release(c),
    waitForClaim: (c) => memory.waitForClaim(c),
    judge: (c) => memory.judge(c),
    status: (o, a) => memory.status(o, a),
    startAttempt: (o, a) => memory.startAttempt(o, a),
    keepToken: (o, a, t) => memory.keepToken(o, a, t),
    dropAttempt: (o, a) => memory.dropAttempt(o, a),
  };
}

/** A MemoryCallbackStore that calls `onAll` once `n` deliveries have claimed (so tests know they overlap). */
function countingStore(n: number, onAll: () => void): CallbackStore & { claimed(): number } {
  const memory = new MemoryCallbackStore();
  let claimed = 0;
  return {
    ...withClaim(memory, async (c) => {
      const claim = await memory.claim(c);
      if (++claimed === n) onAll();
      return claim;
    }),
    claimed: () => claimed,
  };
}

const PAID = { invoice_id: 'inv-1', request_id: 'order-1', status: 'paid', amount: 1500, extra: { nested: [1, 'two'] } };

describe('callback handler: input', () => {
  test('a signed callback: 200 and onStatus gets the verified object, extra fields untouched, no signature', async () => {
    const seen: CallbackPayload[] = [];
    const post = await serve({ secret: SECRET, onStatus: (p) => void seen.push(p) });
    const { status, json } = await post(await signedBody(PAID));
    assert.equal(status, 200);
    assert.deepEqual(json, { success: true });
    assert.deepEqual(seen, [PAID]);
  });
  test('a wrong or missing signature: 401 and no call', async () => {
    const seen: unknown[] = [];
    const post = await serve({ secret: SECRET, onStatus: (p) => void seen.push(p) });
    assert.equal((await post(await signedBody(PAID, 'other-secret'))).status, 401);
    assert.equal((await post(JSON.stringify(PAID))).status, 401);
    assert.equal((await post(JSON.stringify({ ...PAID, signature: 12 }))).status, 401);
    const tampered = JSON.parse(await signedBody(PAID)) as Record<string, unknown>;
    tampered['status'] = 'refunded';
    assert.equal((await post(JSON.stringify(tampered))).status, 401);
    assert.deepEqual(seen, []);
  });
  test("bad JSON or content type: 400 with the service's failure shape", async () => {
    const post = await serve({ secret: SECRET, onStatus: () => undefined });
    for (const [body, type] of [['{"invoice_id"', 'application/json'], [await signedBody(PAID), 'text/plain'], ['[]', 'application/json']] as const) {
      const { status, json } = await post(body, type);
      assert.equal(status, 400);
      assert.deepEqual(json, { success: false, message: 'Invalid ContentType or json format' });
    }
  });
  test('invoice_id or status not a string (even when signed): 400', async () => {
    const post = await serve({ secret: SECRET, onStatus: () => undefined });
    assert.equal((await post(await signedBody({ invoice_id: 5, status: 'paid' }))).status, 400);
    assert.equal((await post(await signedBody({ invoice_id: 'i' }))).status, 400);
  });
  test('a custom verifier (sync) replaces the default', async () => {
    const seen: unknown[] = [];
    const post = await serve({ verifier: (_p, s) => s === 'ok', onStatus: (p) => void seen.push(p) });
    assert.equal((await post(JSON.stringify({ ...PAID, signature: 'ok' }))).status, 200);
    assert.equal((await post(JSON.stringify({ ...PAID, signature: 'no' }))).status, 401);
    assert.equal(seen.length, 1);
  });
  test('options checked: one of secret or verifier, and onStatus', () => {
    assert.throws(() => createCallbackHandler({ onStatus: () => undefined } as never), ConfigError);
    assert.throws(() => createCallbackHandler({ secret: 's', verifier: () => true, onStatus: () => undefined } as never), ConfigError);
    assert.throws(() => createCallbackHandler({ secret: 's' } as never), ConfigError);
  });
  test('a payoutLedger that is null or not a ledger is a ConfigError, not a TypeError', () => {
    for (const payoutLedger of [null, {}, 'ledger']) {
      assert.throws(() => createCallbackHandler({ secret: 's', onStatus: () => undefined, payoutLedger } as never), ConfigError);
    }
  });
});

describe('callback handler: once per (invoice_id, status)', () => {
  test('a repeat answers 200 without a second call; a new status is a new call', async () => {
    const seen: string[] = [];
    const post = await serve({ secret: SECRET, onStatus: (p) => void seen.push(p.status) });
    const body = await signedBody(PAID);
    assert.equal((await post(body)).status, 200);
    assert.equal((await post(body)).status, 200);
    assert.equal((await post(await signedBody({ ...PAID, status: 'refunded' }))).status, 200);
    assert.deepEqual(seen, ['paid', 'refunded']);
  });
  test('throw then retry: 500, and the next delivery calls onStatus again, then repeats are quiet', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const post = await serve({
      secret: SECRET,
      onStatus: () => {
        calls++;
        if (calls === 1) throw new Error('database unavailable');
      },
      onError: (e) => errors.push(e),
    });
    const body = await signedBody(PAID);
    const first = await post(body);
    assert.equal(first.status, 500);
    assert.ok(!JSON.stringify(first.json).includes('database'));
    assert.equal((await post(body)).status, 200);
    assert.equal((await post(body)).status, 200);
    assert.equal(calls, 2);
    assert.equal((errors[0] as Error).message, 'database unavailable');
  });
  test('1,000 concurrent deliveries of the same callback over HTTP hand over exactly once', { timeout: 120_000 }, async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The one call is held until all 1,000 deliveries have claimed the key, so they truly overlap.
    const counting = countingStore(1000, () => release());
    const post = await serve({
      secret: SECRET,
      store: counting,
      onStatus: async () => {
        calls++;
        await gate;
      },
    });
    const body = await signedBody(PAID);
    const answers = await Promise.all(Array.from({ length: 1000 }, () => post(body)));
    assert.equal(counting.claimed(), 1000);
    assert.equal(calls, 1);
    assert.equal(answers.filter((a) => a.status === 200).length, 1000);
  });
  test('concurrent deliveries while the first throws: all answer 500, the next delivery calls again', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handler = createCallbackHandler({
      secret: SECRET,
      store: countingStore(20, () => release()),
      onStatus: async () => {
        calls++;
        if (calls === 1) {
          await gate;
          throw new Error('fail');
        }
      },
    });
    const request = async () =>
      handler(new Request('http://m.test/cb', { method: 'POST', headers: { 'content-type': 'application/json' }, body: await signedBody(PAID) }));
    const pending = Array.from({ length: 20 }, request);
    const statuses = (await Promise.all(pending)).map((r) => r.status);
    assert.deepEqual(statuses, Array(20).fill(500));
    assert.equal(calls, 1);
    assert.equal((await request()).status, 200);
    assert.equal(calls, 2);
  });
  test('a shared store without waitForClaim(): an in-flight repeat answers 503 with Retry-After', async () => {
    const states = new Map<string, 'in-flight' | 'finished'>();
    const key = (c: CallbackRecord) => `${c.invoice_id}/${c.status}`;
    const shared = {
      async claim(c: CallbackRecord): Promise<ClaimResult> {
        const s = states.get(key(c));
        if (s) return s;
        states.set(key(c), 'in-flight');
        return 'claimed';
      },
      async finish(c: CallbackRecord) {
        states.set(key(c), 'finished');
      },
      async release(c: CallbackRecord) {
        states.delete(key(c));
      },
      judge: async () => ({ verdict: 'foreign' as const }),
    };
    const body = await signedBody(PAID);
    // Another server holds the claim.
    await shared.claim(cb('inv-1', 'paid', 'order-1'));
    const post = await serve({ secret: SECRET, onStatus: () => assert.fail('not this server'), store: shared });
    const { status, headers } = await post(body);
    assert.equal(status, 503);
    assert.equal(headers.get('retry-after'), '5');
    await shared.finish(cb('inv-1', 'paid', 'order-1'));
    assert.equal((await post(body)).status, 200);
  });
});

describe('callback handler: a failing store', () => {
  test('claim throws: 503 with Retry-After, onStatus not called; the next delivery is handled', async () => {
    let down = true;
    const memory = new MemoryCallbackStore();
    const flaky = withClaim(memory, (c) => (down ? Promise.reject(new Error('redis down')) : memory.claim(c)));
    const seen: unknown[] = [];
    const errors: unknown[] = [];
    const post = await serve({ secret: SECRET, store: flaky, onStatus: (p) => void seen.push(p), onError: (e) => errors.push(e) });
    const body = await signedBody(PAID);
    const first = await post(body);
    assert.equal(first.status, 503);
    assert.equal(first.headers.get('retry-after'), '5');
    assert.equal(seen.length, 0);
    assert.equal((errors[0] as Error).message, 'redis down');
    down = false;
    assert.equal((await post(body)).status, 200);
    assert.equal(seen.length, 1);
  });
});

describe('MemoryCallbackStore', () => {
  test('bounded: the least recently seen finished callbacks go first; claims in flight stay', async () => {
    const store = new MemoryCallbackStore({ maxEntries: 3 });
    assert.equal(await store.claim(cb('held')), 'claimed');
    for (const k of ['a', 'b', 'c']) {
      assert.equal(await store.claim(cb(k)), 'claimed');
      await store.finish(cb(k));
    }
    assert.equal(store.size, 3);
    assert.equal(await store.claim(cb('held')), 'in-flight', 'claims in flight are never evicted');
    assert.equal(await store.claim(cb('c')), 'finished');
    assert.equal(await store.claim(cb('a')), 'claimed', 'the oldest finished callback was dropped');
  });
  test('eviction over a long mixed run matches the plain rule (oldest done key first, scanning from the start)', async () => {
    // The model: the rule written the obvious way. The store keeps a cursor between evictions instead.
    const model = new Map<string, 'finished' | 'in-flight'>();
    const max = 3;
    const evict = () => {
      for (const [key, state] of model) {
        if (model.size <= max) break;
        if (state === 'finished') model.delete(key);
      }
    };
    const store = new MemoryCallbackStore({ maxEntries: max });
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let step = 0; step < 5000; step++) {
      const key = `k${random(10)}`;
      const op = random(3);
      if (op === 0) {
        const state = model.get(key);
        const expected = state === 'in-flight' ? 'in-flight' : state === 'finished' ? 'finished' : 'claimed';
        if (expected !== 'in-flight') {
          model.delete(key);
          model.set(key, expected === 'finished' ? 'finished' : 'in-flight');
          if (expected === 'claimed') evict();
        }
        assert.equal(await store.claim(cb(key)), expected, `step ${step}: claim ${key}`);
      } else if (op === 1 && model.get(key) === 'in-flight') {
        model.delete(key);
        model.set(key, 'finished');
        evict();
        await store.finish(cb(key));
      } else if (op === 2 && model.get(key) === 'in-flight') {
        model.delete(key);
        await store.release(cb(key));
      }
      assert.equal(store.size, model.size, `step ${step}: size`);
    }
  });
  test('orders over a long run: the least recently recorded go first, as a scan from the start finds', async () => {
    // The model keeps the statuses the obvious way; the store keeps a cursor between evictions.
    const model = new Map<string, string>();
    const max = 4;
    const store = new MemoryCallbackStore({ maxEntries: max });
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let step = 0; step < 3000; step++) {
      const id = `o${random(9)}`;
      const invoice = `inv-${step}`;
      model.delete(id);
      model.set(id, invoice);
      while (model.size > max) model.delete(model.keys().next().value as string);
      // A fail, so that each new outcome replaces the last (a success would stay).
      await store.claim(cb(invoice, 'fail', id));
      await store.finish({ ...cb(invoice, 'fail', id), verdict: { verdict: 'attempt' } });
      for (let i = 0; i < 9; i++) {
        const expected = model.get(`o${i}`);
        assert.deepEqual(await store.status(`o${i}`), expected && { status: 'fail', invoice_id: expected }, `step ${step}: o${i}`);
      }
    }
  });
  test('finished callbacks expire after ttlMs', async () => {
    const store = new MemoryCallbackStore({ ttlMs: 30 });
    await store.claim(cb('k'));
    await store.finish(cb('k'));
    assert.equal(await store.claim(cb('k')), 'finished');
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(await store.claim(cb('k')), 'claimed');
  });
  test('the default bound is 10,000 keys for 24 hours', () => {
    const store = new MemoryCallbackStore();
    assert.equal(store.maxEntries, 10_000);
    assert.equal(store.ttlMs, 86_400_000);
    assert.throws(() => new MemoryCallbackStore({ maxEntries: 0 }), ConfigError);
  });
});
