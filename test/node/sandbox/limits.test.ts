// The sandbox over a long run and in its log: form keys (bearer secrets) never written, invoices and
// records bounded with the oldest settled invoice forgotten first, and a used key's page leading back
// to the shop.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_CONCURRENT_POSTS } from '../../../src/sandbox/callbacks.js';
import { encodeKeySegment } from '../../../src/service/paths.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { startServer } from '../../support/servers/loopback.js';
import { until } from '../../support/poll.js';
import { obtainKey, payoutFields, postJson, press, sandbox, signedBody, startReceiver } from './helpers.js';

const open: Sandbox[] = [];
after(() => Promise.all(open.map((s) => s.close())));

test('form keys are written neither to the log nor to requests()', async () => {
  const lines: string[] = [];
  const sb = await sandbox({ log: (line) => lines.push(line) });
  open.push(sb);
  const key = await obtainKey(sb, { request_id: 'log-1' });
  await fetch(`${sb.url}/api/jsapi/open/${encodeKeySegment(key)}/`).then((r) => r.text());
  await press(sb, key, 'pay');
  await fetch(`${sb.url}/api/jsapi/open/${encodeKeySegment(key)}`).then((r) => r.text());
  const written = [...lines, ...sb.requests().map((r) => r.path)].join('\n');
  assert.ok(!written.includes(key) && !written.includes(encodeKeySegment(key)), written);
  assert.deepEqual(sb.requests().map((r) => `${r.method} ${r.path} ${r.status}`), [
    'POST /api/jsapi/obtain_token/ 200',
    'GET /api/jsapi/open/{key}/ 200',
    'POST /api/jsapi/open/{key}/pay 303',
    'GET /api/jsapi/open/{key} 404',
  ]);
});

test('invoices are capped: past maxInvoices the oldest settled one goes first, then the oldest pending', async () => {
  const sb = await sandbox({ maxInvoices: 3 });
  open.push(sb);
  const ids = () => sb.invoices().map((i) => i.request_id);
  const k1 = await obtainKey(sb, { request_id: 'cap-1' });
  await obtainKey(sb, { request_id: 'cap-2' });
  const k3 = await obtainKey(sb, { request_id: 'cap-3' });
  await press(sb, k1, 'pay');
  await obtainKey(sb, { request_id: 'cap-4' });
  assert.deepEqual(ids(), ['cap-2', 'cap-3', 'cap-4'], 'the paid cap-1 went');
  await press(sb, k3, 'decline');
  await obtainKey(sb, { request_id: 'cap-5' });
  assert.deepEqual(ids(), ['cap-2', 'cap-4', 'cap-5'], 'the settled cap-3 went, not the older pending cap-2');
  await obtainKey(sb, { request_id: 'cap-6' });
  assert.deepEqual(ids(), ['cap-4', 'cap-5', 'cap-6'], 'all pending: the oldest went');
  assert.equal((await fetch(`${sb.url}/api/jsapi/open/${encodeKeySegment(k1)}/`)).status, 404, 'a forgotten key is unknown');
  await sb.callbacksIdle();
});

test('requests() and callbacks() are capped at maxRecords, deliveries in progress counted: past it the oldest of those is given up', async () => {
  let answer = 200;
  const receiver = await startReceiver(() => answer);
  const retry = { initialDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 2, timeoutMs: 2000 };
  const lines: string[] = [];
  try {
    const sb = await sandbox({ maxRecords: 4, callbackUrl: receiver.url, callbackRetry: retry, log: (line) => lines.push(line) });
    open.push(sb);
    for (let i = 0; i < 8; i++) {
      assert.equal((await postJson(`${sb.url}/api/payout/`, await signedBody(payoutFields()))).status, 200);
    }
    await sb.callbacksIdle();
    assert.equal(sb.requests().length, 4);
    assert.deepEqual(sb.callbacks().map((d) => d.state), ['delivered', 'delivered', 'delivered', 'delivered']);
    answer = 503; // the merchant is down: each waits for a retry a minute away
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const fields = payoutFields();
      ids.push(fields.request_id as string);
      await postJson(`${sb.url}/api/payout/`, await signedBody(fields));
      await receiver.received(8 + i + 1);
    }
    const kept = sb.callbacks();
    assert.deepEqual(kept.map((d) => d.state), ['pending', 'pending', 'pending', 'pending']);
    assert.deepEqual(kept.map((d) => d.body.request_id), ids.slice(2), 'the two oldest being delivered were given up');
    assert.equal(lines.filter((line) => line.includes('given up: 4 callbacks kept (maxRecords)')).length, 2);
  } finally {
    await Promise.all(open.map((s) => s.close()));
    await receiver.close();
  }
});

test('2,000 callbacks to a merchant that never answers: maxRecords of them kept, and as many requests open at the merchant', async (t) => {
  const sockets = new Set<Socket>();
  let mostSockets = 0;
  let posts = 0;
  let waiting = 0;
  let mostWaiting = 0;
  // Reads each callback and never answers; a request stays open until the sandbox lets it go.
  const merchant = await startServer((_req, res) => {
    posts++;
    mostWaiting = Math.max(mostWaiting, ++waiting);
    res.once('close', () => waiting--);
  });
  merchant.server.on('connection', (socket) => {
    sockets.add(socket);
    mostSockets = Math.max(mostSockets, sockets.size);
    socket.once('close', () => sockets.delete(socket));
  });
  const retry = { initialDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 12, timeoutMs: 60_000 };
  const sb = await sandbox({ maxRecords: 10, callbackUrl: `${merchant.url}/callback`, callbackRetry: retry });
  try {
    const PAYOUTS = 2000;
    let last = '';
    for (let i = 0; i < PAYOUTS; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => signedBody(payoutFields())));
      last = batch.at(-1)!.request_id as string;
      const answers = await Promise.all(batch.map((body) => postJson(`${sb.url}/api/payout/`, body)));
      assert.ok(answers.every((a) => a.status === 200));
    }
    // The last payout's callback is sent once its answer has gone.
    await until("the last payout's callback", async () => sb.callbacks().some((d) => d.body.request_id === last));
    const kept = sb.callbacks();
    t.diagnostic(
      `${PAYOUTS} payouts, callback URL never answers, maxRecords 10: ${kept.length} callbacks kept, ` +
        `at most ${mostWaiting} callback requests open at the merchant at once (${posts} reached it); ` +
        `at most ${mostSockets} sockets (the rest idle, closed by the merchant's keep-alive timeout)`,
    );
    assert.equal(kept.length, 10);
    assert.deepEqual(new Set(kept.map((d) => d.state)), new Set(['pending']));
    // A given-up request's close reaches the merchant a moment after the next one: the hard cap is the
    // sandbox's own on attempts at once; once the closes are in, only the deliveries kept are open.
    assert.ok(mostWaiting <= MAX_CONCURRENT_POSTS, `at most ${MAX_CONCURRENT_POSTS} requests open at once, saw ${mostWaiting}`);
    for (let i = 0; i < 500 && waiting > 10; i++) await sleep(10);
    assert.ok(waiting <= 10, `${waiting} requests still open at the merchant`);
  } finally {
    await sb.close();
    await merchant.close();
  }
});

test('a used key\'s page links back to the shop\'s return page for its result', async () => {
  const sb = await sandbox();
  open.push(sb);
  const paid = await obtainKey(sb, { success_url: 'https://shop.example/return?status=success&o=1' });
  await press(sb, paid, 'pay');
  const page = await fetch(`${sb.url}/api/jsapi/open/${encodeKeySegment(paid)}/`);
  assert.equal(page.status, 410);
  assert.match(await page.text(), /<a href="https:\/\/shop\.example\/return\?status=success&amp;o=1" data-testid="back">Back to the shop<\/a>/);
  const declined = await obtainKey(sb, { fail_url: 'https://shop.example/return?status=fail' });
  await press(sb, declined, 'decline');
  assert.match(await (await fetch(`${sb.url}/api/jsapi/open/${encodeKeySegment(declined)}/`)).text(), /href="https:\/\/shop\.example\/return\?status=fail"/);
  const none = await obtainKey(sb, { success_url: undefined, fail_url: undefined });
  await press(sb, none, 'pay');
  assert.doesNotMatch(await (await fetch(`${sb.url}/api/jsapi/open/${encodeKeySegment(none)}/`)).text(), /<a /);
});

test('maxInvoices and maxRecords must be whole numbers of at least 1', async () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(sandbox({ maxInvoices: bad }), /maxInvoices: must be a whole number of at least 1/);
    await assert.rejects(sandbox({ maxRecords: bad }), /maxRecords: must be a whole number of at least 1/);
  }
});
