// The e2e tests' problem watcher (test/support/browsers/engine-page.ts): a load cancelled because the shop removed
// its frame is no problem, whatever the engine calls it; a failure in a frame that stays is one. Firefox
// names the cancelled load of a removed frame NS_ERROR_FAILURE only now and then, and reports it before or
// after the frame is gone, so this drives the watcher with the events in each order.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { watchProblems, type WatchedPage } from '../../support/browsers/engine-page.js';

class Frame {
  detached = false;
}

function watched() {
  const page = new EventEmitter();
  const problems = watchProblems(page as unknown as WatchedPage);
  const fail = (url: string, errorText: string, frame: Frame) =>
    page.emit('requestfailed', { url: () => url, failure: () => ({ errorText }), frame: () => frame });
  const detach = (frame: Frame) => {
    frame.detached = true;
    page.emit('framedetached', frame);
  };
  return { problems, fail, detach };
}

test('a removed frame\'s load reported as NS_ERROR_FAILURE before the frame is gone is no problem once it goes', () => {
  const { problems, fail, detach } = watched();
  const form = new Frame();
  fail('http://localhost/demo/return.html?status=success', 'NS_ERROR_FAILURE', form);
  assert.deepEqual(problems, ['failed: http://localhost/demo/return.html?status=success NS_ERROR_FAILURE']);
  detach(form);
  assert.deepEqual(problems, []);
});

test('a load reported after its frame was removed is no problem', () => {
  const { problems, fail, detach } = watched();
  const form = new Frame();
  detach(form);
  fail('http://localhost/demo/return.html', 'NS_ERROR_FAILURE', form);
  assert.deepEqual(problems, []);
});

test('a failure in a frame that stays is a problem, even when another frame goes', () => {
  const { problems, fail, detach } = watched();
  const page = new Frame();
  const form = new Frame();
  fail('http://localhost/api/checkout/status', 'NS_ERROR_CONNECTION_REFUSED', page);
  fail('http://localhost/demo/return.html', 'NS_ERROR_FAILURE', form);
  detach(form);
  assert.deepEqual(problems, ['failed: http://localhost/api/checkout/status NS_ERROR_CONNECTION_REFUSED']);
});
