// Server-side: every built entry imports in Node, and @lit-labs/ssr renders <pay-form> without touching
// window or document (test/browser/ssr-hydrate.test.ts upgrades what it renders).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTRIES } from '../../../scripts/entries.js';
import { distFile } from './dist.js';
import { renderPayForm } from '../../support/apps/ssr-render.mjs';

test('every built entry imports in Node without throwing', async () => {
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  for (const entry of ENTRIES) {
    const module = (await import(distFile(`${entry.name}.js`).href)) as Record<string, unknown>;
    assert.ok(Object.keys(module).length > 0, `${entry.subpath} exports something`);
  }
});

test('@lit-labs/ssr renders <pay-form> with its attributes and no shadow root, which the element builds when it upgrades', async () => {
  const html = await renderPayForm({ 'base-url': 'https://pay.example', key: 'KEY-1', display: 'modal' });
  assert.match(html, /<pay-form\s+base-url="https:\/\/pay\.example" key="KEY-1" display="modal"><\/pay-form>/);
  // The element is a ReactiveElement (no lit-html template to render on the server): its few nodes and
  // styles are made in the browser, so nothing is written inside it and nothing needs hydrating.
  assert.doesNotMatch(html, /<template shadowroot/);
  assert.doesNotMatch(html, /<iframe/);
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
});

test('attribute values are escaped in the rendered HTML', async () => {
  const html = await renderPayForm({ 'base-url': 'https://pay.example/"><script>alert(1)</script>', key: 'a&b' });
  assert.doesNotMatch(html, /<script>/);
  assert.match(html, /key="a&amp;b"/);
});
