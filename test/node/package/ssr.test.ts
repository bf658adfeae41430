// Server-side: every built entry imports in Node, and @lit-labs/ssr renders <pay-form> to declarative
// shadow DOM without touching window or document (test/browser/ssr-hydrate.test.ts hydrates it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTRIES } from '../../../scripts/entries.js';
import { distFile } from './dist.js';
import { renderPayForm } from '../../support/ssr-render.mjs';

test('every built entry imports in Node without throwing', async () => {
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  for (const entry of ENTRIES) {
    const module = (await import(distFile(`${entry.name}.js`).href)) as Record<string, unknown>;
    assert.ok(Object.keys(module).length > 0, `${entry.subpath} exports something`);
  }
});

test('@lit-labs/ssr renders <pay-form> to a declarative shadow root with its styles and attributes', async () => {
  const html = await renderPayForm({ 'base-url': 'https://pay.example', key: 'KEY-1', display: 'modal' });
  assert.match(html, /<pay-form\s+base-url="https:\/\/pay\.example" key="KEY-1" display="modal">/);
  assert.match(html, /<template shadowroot="open" shadowrootmode="open">/);
  assert.match(html, /--pay-form-height/);
  assert.match(html, /<!--lit-part[^>]*-->/);
  // Nothing is framed on the server: the form opens when the element connects in the browser.
  assert.doesNotMatch(html, /<iframe/);
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
});

test('attribute values are escaped in the rendered HTML', async () => {
  const html = await renderPayForm({ 'base-url': 'https://pay.example/"><script>alert(1)</script>', key: 'a&b' });
  assert.doesNotMatch(html, /<script>/);
  assert.match(html, /key="a&amp;b"/);
});
