// The one observer (docs/observability.md, The observer): every handler and the client tell it the same
// events that feed the spans and metrics; the deprecated onError / onWarning still hear errors and
// warnings; an observer that throws changes no answer. No SDK is registered in this file: the API is
// installed and hands out no-op spans, which must change nothing either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  MemoryCallbackStore,
  sign,
  type PayFormEvent,
} from '../../../../src/server/index.js';
import { newAttemptId } from '../../../../src/service/checkout.js';
import { clientFor, happyService, MERCHANT, SECRET, servicesForFile, TOKEN } from '../../../support/servers/service.js';

const serviceFor = servicesForFile();
const post = (body: unknown) => new Request('http://shop.test/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('the token handler tells the observer the attempt it started, then reused, and a resolve that threw both to the observer and to onError', async () => {
  const service = await serviceFor(happyService);
  const events: PayFormEvent[] = [];
  const old: unknown[] = [];
  let fail = false;
  const handler = createTokenHandler({
    client: clientFor(service.url),
    store: new MemoryCallbackStore(),
    resolve: () => {
      if (fail) throw new Error('orders db down');
      return { ...TOKEN, request_id: 'order-7' };
    },
    observer: (e) => events.push(e),
    onError: (e) => old.push(e),
  });
  const answer = (await (await handler(post({ order_ref: 'order-7' }))).json()) as { attempt: string };
  assert.deepEqual(events, [{ type: 'attempt', source: 'token', outcome: 'started', orderRef: 'order-7', attempt: answer.attempt }]);
  assert.equal((await handler(post({ order_ref: 'order-7' }))).status, 200);
  assert.deepEqual(events[1], { type: 'attempt', source: 'token', outcome: 'reused', orderRef: 'order-7', attempt: answer.attempt });
  fail = true;
  assert.equal((await handler(post({ order_ref: 'order-7' }))).status, 400);
  assert.equal(events[2]?.type, 'error');
  assert.equal((old[0] as Error).message, 'orders db down');
  assert.equal(events[2]?.type === 'error' && events[2].error, old[0]);
});

test('the callback handler tells each delivery\'s outcome: new, duplicate, refused signature', async () => {
  const events: PayFormEvent[] = [];
  const handler = createCallbackHandler({ secret: SECRET, onStatus: () => undefined, observer: (e) => events.push(e) });
  const payload = { merchant_id: MERCHANT, request_id: `order-8~${newAttemptId()}`, invoice_id: 'inv-1', status: 'success' };
  const body = { ...payload, signature: await sign(payload, SECRET) };
  assert.equal((await handler(post(body))).status, 200);
  assert.equal((await handler(post(body))).status, 200);
  assert.equal((await handler(post({ ...payload, signature: 'forged' }))).status, 401);
  assert.deepEqual(
    events.map((e) => e.type === 'callback' && [e.outcome, e.orderRef]),
    [['new', 'order-8'], ['duplicate', 'order-8'], ['refused_signature', undefined]],
  );
});

test('an observer that throws changes no answer, and the status handler tells a refused wait', async () => {
  const store = new MemoryCallbackStore();
  const handler = createStatusHandler({ store, authorize: () => true, maxWaiters: 0, observer: () => { throw new Error('observer bug'); } });
  assert.equal((await handler(new Request('http://shop.test/s?order_ref=o-1'))).status, 503);
  const events: PayFormEvent[] = [];
  const told = createStatusHandler({ store, authorize: () => false, observer: (e) => events.push(e) });
  assert.equal((await told(new Request('http://shop.test/s?order_ref=o-1'))).status, 404);
  assert.deepEqual(events, [{ type: 'status', source: 'status', outcome: 'not_found', orderRef: undefined, attempt: undefined }]);
});

test('the client tells its warnings to the observer and to the deprecated onWarning alike', async () => {
  const service = await serviceFor(happyService);
  const events: PayFormEvent[] = [];
  const old: unknown[] = [];
  await clientFor(service.url, { observer: (e) => events.push(e), onWarning: (w) => old.push(w) }).obtainToken({ ...TOKEN, language: 'FR' } as never);
  assert.equal(old.length, 1);
  assert.deepEqual(events, [{ type: 'warning', source: 'client', warning: old[0] }]);
});

test('an observer that is not a function is a ConfigError, on every handler and the client', () => {
  const observer = 'log' as never;
  const store = new MemoryCallbackStore();
  assert.throws(() => createTokenHandler({ client: clientFor('http://127.0.0.1:9'), store, resolve: () => null, observer }), ConfigError);
  assert.throws(() => createCallbackHandler({ secret: SECRET, onStatus: () => undefined, observer }), ConfigError);
  assert.throws(() => createStatusHandler({ store, authorize: () => true, observer }), ConfigError);
  assert.throws(() => clientFor('http://127.0.0.1:9', { observer }), ConfigError);
});
