// Callback delivery: again with backoff until the merchant answers 2xx, bounded, and stopped by close().
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { verify } from '../../../src/service/signature.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { callbackBody, obtainKey, press, sandbox, SECRET, startReceiver } from './helpers.js';

test('a callback answered 500, then 503, is delivered again until the 2xx, the same signed body each time', async () => {
  const receiver = await startReceiver((n) => [500, 503][n]);
  const sb = await sandbox({ callbackUrl: receiver.url });
  try {
    await press(sb, await obtainKey(sb), 'pay');
    await receiver.received(3);
    await sb.callbacksIdle();
    const [delivery] = sb.callbacks();
    assert.equal(delivery?.state, 'delivered');
    assert.deepEqual(delivery?.attempts.map((a) => a.outcome), [500, 503, 200]);
    assert.equal(receiver.bodies.length, 3);
    const first = callbackBody(receiver.bodies[0]);
    for (const body of receiver.bodies) {
      assert.deepEqual(callbackBody(body), first);
      assert.equal(body['(content-type)'], 'application/json');
    }
    assert.equal(await verify(first, SECRET), true);
    const [a, b, c] = delivery!.attempts;
    assert.ok(b!.at >= a!.at && c!.at >= b!.at);
  } finally {
    await sb.close();
    await receiver.close();
  }
});

test('an unreachable merchant is retried too, and the sandbox gives up after maxAttempts', async () => {
  const receiver = await startReceiver();
  const deadUrl = receiver.url;
  await receiver.close(); // nothing listens there now
  const sb = await sandbox({ callbackUrl: deadUrl, callbackRetry: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 3 } });
  try {
    await press(sb, await obtainKey(sb), 'decline');
    await sb.callbacksIdle();
    const [delivery] = sb.callbacks();
    assert.equal(delivery?.state, 'gave-up');
    assert.equal(delivery?.attempts.length, 3);
    assert.ok(delivery?.attempts.every((a) => typeof a.outcome === 'string'), 'network errors are recorded');
  } finally {
    await sb.close();
  }
});

test('a 3xx is not an acceptance: the sandbox does not follow it and tries again', async () => {
  const receiver = await startReceiver((n) => (n === 0 ? 302 : 204));
  const sb = await sandbox({ callbackUrl: receiver.url });
  try {
    await press(sb, await obtainKey(sb), 'pay');
    await sb.callbacksIdle();
    assert.deepEqual(sb.callbacks()[0]?.attempts.map((a) => a.outcome), [302, 204]);
  } finally {
    await sb.close();
    await receiver.close();
  }
});

test('close() stops the retries: no attempt after it, and the delivery is marked stopped', async () => {
  const receiver = await startReceiver(() => 500);
  const sb = await sandbox({ callbackUrl: receiver.url, callbackRetry: { initialDelayMs: 30, maxDelayMs: 30, maxAttempts: 1000 } });
  await press(sb, await obtainKey(sb), 'pay');
  await receiver.received(2);
  await sb.close();
  const seen = receiver.bodies.length;
  await sleep(150);
  assert.equal(receiver.bodies.length, seen, 'nothing arrives after close()');
  assert.equal(sb.callbacks()[0]?.state, 'stopped');
  await receiver.close();
});

test('without a callbackUrl the callback is recorded, not sent', async () => {
  const sb = await sandbox();
  try {
    await press(sb, await obtainKey(sb), 'pay');
    await sb.callbacksIdle();
    assert.equal(sb.callbacks()[0]?.state, 'no-callback-url');
  } finally {
    await sb.close();
  }
});

test('with the default retry settings a refused callback is delivered again', async () => {
  const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
  const sb = await startSandbox({ merchantId: 'merchant-1', secret: SECRET, callbackUrl: receiver.url });
  try {
    await press(sb, await obtainKey(sb), 'pay');
    await sb.callbacksIdle();
    const attempts = sb.callbacks()[0]?.attempts ?? [];
    assert.deepEqual(attempts.map((a) => a.outcome), [500, 200]);
  } finally {
    await sb.close();
    await receiver.close();
  }
});

test('options are checked: an unknown option or a bad callbackUrl throws at once', async () => {
  await assert.rejects(startSandbox({ prot: 1 } as never), /prot: is not a sandbox option/);
  await assert.rejects(startSandbox({ callbackUrl: 'ftp://x' }), /callbackUrl: must be an absolute http\(s\) URL/);
});

test('options are checked from one table: every bad option is named at once, callbackRetry too', async () => {
  await assert.rejects(
    startSandbox({ prot: 1, port: 70000, keyTtlMs: -1, callbackRetry: { maxAttempts: 0, tries: 3 } } as never),
    (error: Error) =>
      error.name === 'SandboxOptionsError' &&
      /prot: is not a sandbox option/.test(error.message) &&
      /port: must be 0\.\.65535/.test(error.message) &&
      /keyTtlMs: must be a finite number above 0/.test(error.message),
  );
  await assert.rejects(startSandbox({ callbackRetry: { maxAttempts: 0, tries: 3 } } as never), /callbackRetry\.tries: is not a sandbox option; callbackRetry\.maxAttempts: must be/);
  // A timer past 2^31 - 1 ms fires after 1 ms: such delays are refused, not turned into a busy loop.
  await assert.rejects(startSandbox({ payoutDelayMs: 2 ** 31 }), /payoutDelayMs: must be a whole number of milliseconds, 0 to 2147483647/);
  await assert.rejects(
    startSandbox({ callbackRetry: { timeoutMs: 2 ** 31, maxDelayMs: 2 ** 31 } }),
    (error: Error) => ['callbackRetry.timeoutMs', 'callbackRetry.maxDelayMs'].every((name) => error.message.includes(`${name}: must be a whole number of milliseconds, 1 to 2147483647`)),
  );
});

test('options of the wrong type or shape are refused at start, each by name, and every right one still starts', async (t) => {
  const bad: Array<[options: Record<string, unknown>, named: string]> = [
    [{ secret: 123 }, 'secret: must be a non-empty string'],
    [{ secret: {} }, 'secret: must be a non-empty string'],
    [{ secret: ['a'] }, 'secret: must be a non-empty string'],
    [{ merchantId: 42 }, 'merchantId: must be a non-empty string'],
    [{ host: 127 }, 'host: must be a non-empty string'],
    [{ callbackUrl: 'http://' }, 'callbackUrl: must be an absolute http(s) URL with a host'],
    [{ callbackUrl: 'http://x y/' }, 'callbackUrl: must be an absolute http(s) URL with a host'],
    [{ callbackUrl: 'http://[::1' }, 'callbackUrl: must be an absolute http(s) URL with a host'],
    [{ callbackUrl: 'http://127.0.0.1:3000/cb\n' }, 'callbackUrl: must be an absolute http(s) URL with a host'],
    [{ callbackRetry: { maxAttempts: 1.5 } }, 'callbackRetry.maxAttempts: must be a whole number, 1 to 1000'],
    [{ callbackRetry: { maxAttempts: 1e9 } }, 'callbackRetry.maxAttempts: must be a whole number, 1 to 1000'],
    [{ callbackRetry: 5 }, 'callbackRetry: must be an object'],
    [{ redirectMode: 'yes' }, 'redirectMode: must be true, false or a list of site_ids'],
    [{ redirectMode: [1.5] }, 'redirectMode: must be true, false or a list of site_ids'],
    [{ frameAncestors: "'self'" }, 'frameAncestors: must be a list of CSP sources'],
    [{ frameAncestors: ["'self'; script-src *"] }, 'frameAncestors: must be a list of CSP sources'],
    [{ log: 'console' }, 'log: must be a function'],
  ];
  for (const [options, named] of bad) {
    await assert.rejects(startSandbox(options as never), (error: Error) => error.name === 'SandboxOptionsError' && error.message.includes(named), JSON.stringify(options));
  }
  const good = [
    { callbackUrl: 'https://[::1]:8443/payments/callback' },
    { callbackUrl: 'http://app:3000/callback', callbackRetry: { maxAttempts: 1000 } },
    { redirectMode: [1, 2], frameAncestors: ["'self'", 'https://shop.example'], host: 'localhost', log: () => {} },
  ];
  for (const options of good) await (await startSandbox(options)).close();
  t.diagnostic(`${bad.length} options of the wrong type or shape refused at start, each by name; ${good.length} right ones started`);
});
