// Importing the browser entries in Node (SSR, bundlers' analysis, tests) must not touch window/document.
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('src/element/index.ts, src/element/element.ts and src/element/return-page.ts import in Node without throwing', async () => {
  assert.equal(typeof globalThis.customElements, 'undefined');
  const index = await import('../../src/element/index.js');
  const element = await import('../../src/element/element.js');
  const returnPage = await import('../../src/element/return-page.js');
  assert.equal(typeof index.PayForm, 'function');
  assert.equal(index.PayForm, element.PayForm);
  assert.equal(index.PAY_FORM_ERROR, 'pay-form-error');
  assert.equal(typeof returnPage.reportResult, 'function');
});

test('the return-page helpers are safe no-ops without a window', async () => {
  const returnPage = await import('../../src/element/return-page.js');
  assert.equal(returnPage.reportResult('success'), false);
  assert.equal(returnPage.statusFromUrl(), null);
  assert.equal(returnPage.isFramed(), false);
  assert.deepEqual(returnPage.completeReturn(), { status: null, framed: false, reported: false });
  assert.equal(returnPage.statusFromUrl('https://shop.example/r?status=fail'), 'fail');
});

test('the URL checks run in Node too', async () => {
  const { openFormUrl } = await import('../../src/service/form-url.js');
  assert.deepEqual(openFormUrl('https://pay.example/base/', 'a/b'), {
    ok: true,
    value: 'https://pay.example/base/api/jsapi/open/a%2Fb/',
  });
  assert.equal(openFormUrl('https://pay.example', '..').ok, false);
});
