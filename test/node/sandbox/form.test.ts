// The open-form address: the page a person sees, its buttons, where they send the browser, the
// callback they cause, and the refusals for unknown, used and expired keys.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { verify } from '../../../src/service/signature.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import {
  callbackBody, MERCHANT, obtainKey, postJson, press, sandbox, SECRET, signedBody, sandboxWithReceiver, tokenFields,
} from './helpers.js';

const f = sandboxWithReceiver();

const openUrl = (s: Sandbox, key: string) => `${s.url}/api/jsapi/open/${encodeURIComponent(key)}/`;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

async function callbackFor(invoiceId: string | undefined) {
  await f.sb.callbacksIdle();
  const found = f.receiver.bodies.filter((b) => b.invoice_id === invoiceId);
  assert.equal(found.length, 1, 'exactly one callback for the invoice');
  return callbackBody(found[0]);
}

describe('the form page', () => {
  test('shows amount, currency, method, order and customer in the requested language', async () => {
    const key = await obtainKey(f.sb, { amount: 123456, currency: 'EUR', method: 'sbp', language: 'DE', request_id: 'A-1' });
    const response = await fetch(openUrl(f.sb, key));
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.match(page, /<html lang="de">/);
    assert.match(page, /<title>Zahlung: 1\.234,56\s€<\/title>/);
    const visible = text(page);
    assert.match(visible, /Betrag 1\.234,56\s€/);
    assert.match(visible, /Zahlungsart sbp/);
    assert.match(visible, /Bestellung A-1/);
    assert.match(page, /<button class="pay" type="submit">Bezahlen<\/button>/);
    assert.match(page, /<button class="decline" type="submit">Ablehnen<\/button>/);
    assert.doesNotMatch(page, /<script/i, 'the form page runs no script');
  });

  test('formats currencies by their minor units (VND has none, USDT falls back to two decimals)', async () => {
    const vnd = await (await fetch(openUrl(f.sb, await obtainKey(f.sb, { amount: 250000, currency: 'VND' })))).text();
    assert.match(text(vnd), /Amount ₫250,000/);
    const usdt = await (await fetch(openUrl(f.sb, await obtainKey(f.sb, { amount: 5, currency: 'USDT' })))).text();
    assert.match(text(usdt), /Amount 0\.05 USDT/);
  });

  test('sends headers that allow framing but nothing else', async () => {
    const response = await fetch(openUrl(f.sb, await obtainKey(f.sb)));
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors \*/);
    assert.match(csp, /default-src 'none'/);
    // Its one image is its empty icon (data:,), so no browser asks for /favicon.ico.
    assert.match(csp, /img-src data:(;|$)/);
    assert.match(await response.text(), /<link rel="icon" href="data:,">/);
    assert.match(csp, /form-action 'self' http:\/\/localhost:9(;|$)/);
    assert.equal(response.headers.get('referrer-policy'), 'same-origin');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('x-frame-options'), null);
  });

  test('frameAncestors narrows who may frame the form', async () => {
    const narrow = await sandbox({ frameAncestors: ['http://localhost:5173'] });
    try {
      const response = await fetch(openUrl(narrow, await obtainKey(narrow)));
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors http:\/\/localhost:5173(;|$)/);
    } finally {
      await narrow.close();
    }
  });

  test('escapes what the merchant sent: a <script> in site_login is text', async () => {
    const key = await obtainKey(f.sb, { site_login: '<script>alert("x")</script>&', request_id: '"><img src=x onerror=alert(1)>' });
    const page = await (await fetch(openUrl(f.sb, key))).text();
    assert.doesNotMatch(page, /<script/i);
    assert.doesNotMatch(page, /<img/i);
    assert.match(page, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&amp;/);
    assert.match(page, /&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  test('HEAD answers the headers without the page; PUT is 405', async () => {
    const key = await obtainKey(f.sb);
    const head = await fetch(openUrl(f.sb, key), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const put = await fetch(openUrl(f.sb, key), { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD');
  });
});

describe('IN and ID as the service gives them (docs/sandbox.md)', () => {
  test('IN shows Indonesian labels, ID shows Hindi ones', async () => {
    const indonesian = await (await fetch(openUrl(f.sb, await obtainKey(f.sb, { language: 'IN' })))).text();
    assert.match(indonesian, /<html lang="id">/);
    assert.match(indonesian, />Bayar</);
    const hindi = await (await fetch(openUrl(f.sb, await obtainKey(f.sb, { language: 'ID' })))).text();
    assert.match(hindi, /<html lang="hi">/);
    assert.match(hindi, />भुगतान करें</);
  });
});

describe('Pay and Decline', () => {
  test('Pay: 303 to success_url, then one signed success callback to a real f.receiver', async () => {
    const fields = tokenFields({ request_id: 'order-pay' });
    const answer = await postJson(`${f.sb.url}/api/jsapi/obtain_token/`, await signedBody(fields));
    const key = String(answer.body.key);
    const response = await press(f.sb, key, 'pay');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), fields.success_url);
    const invoice = f.sb.invoices().find((i) => i.key === key);
    assert.equal(invoice?.status, 'success');
    const callback = await callbackFor(invoice?.invoice_id);
    assert.deepEqual(callback, {
      invoice_id: invoice?.invoice_id, request_id: 'order-pay', status: 'success', amount: 1234, currency: 'USD',
      site_id: 7, site_login: 'alice', merchant_id: MERCHANT, signature: callback.signature,
    });
    assert.equal(await verify(callback, SECRET), true);
    assert.equal(await verify({ ...callback, amount: 1 }, SECRET), false, 'the signature covers the amount');
  });

  test('Decline: 303 to fail_url and a signed fail callback', async () => {
    const key = await obtainKey(f.sb);
    const response = await press(f.sb, key, 'decline');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), 'http://localhost:9/return?status=fail');
    const invoice = f.sb.invoices().find((i) => i.key === key);
    assert.equal(invoice?.status, 'fail');
    const callback = await callbackFor(invoice?.invoice_id);
    assert.equal(callback.status, 'fail');
    assert.equal(await verify(callback, SECRET), true);
  });

  test('a success_url the parser rewrites is stored and redirected to as its href', async () => {
    const key = await obtainKey(f.sb, { success_url: 'https:\\shop.example\\ok' });
    const response = await press(f.sb, key, 'pay');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), 'https://shop.example/ok');
    await callbackFor(f.sb.invoices().find((i) => i.key === key)?.invoice_id);
  });
  test('without success_url the person sees a plain result page', async () => {
    const key = await obtainKey(f.sb, { success_url: undefined, fail_url: undefined });
    const response = await press(f.sb, key, 'pay');
    assert.equal(response.status, 200);
    assert.match(text(await response.text()), /Payment successful/);
  });

  test('a POST from another origin is refused and settles nothing', async () => {
    const key = await obtainKey(f.sb);
    const response = await press(f.sb, key, 'pay', 'http://evil.example');
    assert.equal(response.status, 403);
    assert.equal((await press(f.sb, key, 'decline', 'null')).status, 403, 'an opaque origin too');
    assert.equal(f.sb.invoices().find((i) => i.key === key)?.status, 'pending');
  });
});

describe('refused keys', () => {
  test('an unknown key gets 404 and a refusal page, never a form', async () => {
    const response = await fetch(openUrl(f.sb, 'no-such-key'));
    assert.equal(response.status, 404);
    const page = await response.text();
    assert.match(text(page), /Payment link not found/);
    assert.doesNotMatch(page, /<form/);
    assert.equal((await press(f.sb, 'no-such-key', 'pay')).status, 404);
  });

  test('a used key gets 410 for the page and for a second press; one callback only', async () => {
    const key = await obtainKey(f.sb);
    assert.equal((await press(f.sb, key, 'pay')).status, 303);
    const again = await fetch(openUrl(f.sb, key));
    assert.equal(again.status, 410);
    const page = await again.text();
    assert.match(text(page), /already been completed/);
    assert.doesNotMatch(page, /<form/);
    assert.equal((await press(f.sb, key, 'decline')).status, 410);
    const invoice = f.sb.invoices().find((i) => i.key === key);
    assert.equal(invoice?.status, 'success');
    await callbackFor(invoice?.invoice_id);
  });

  test('an expired key gets 410 and cannot be paid', async () => {
    const quick = await sandbox({ keyTtlMs: 30 });
    try {
      const key = await obtainKey(quick);
      await sleep(80);
      const response = await fetch(openUrl(quick, key));
      assert.equal(response.status, 410);
      assert.match(text(await response.text()), /expired/);
      assert.equal((await press(quick, key, 'pay')).status, 410);
      assert.equal(quick.invoices()[0]?.status, 'expired');
    } finally {
      await quick.close();
    }
  });

  test('a key is good while it lives: opening it twice shows the form twice', async () => {
    const key = await obtainKey(f.sb);
    assert.equal((await fetch(openUrl(f.sb, key))).status, 200);
    assert.equal((await fetch(openUrl(f.sb, key))).status, 200);
  });
});

describe('redirectMode (the site setting)', () => {
  test('true: obtain_token answers redirect_url to the open-form address, signed', async () => {
    const redirecting = await sandbox({ redirectMode: true });
    try {
      const answer = await postJson(`${redirecting.url}/api/jsapi/obtain_token/`, await signedBody(tokenFields()));
      assert.deepEqual(Object.keys(answer.body).sort(), ['key', 'redirect_url', 'signature', 'success']);
      assert.equal(answer.body.redirect_url, `${redirecting.url}/api/jsapi/open/${String(answer.body.key)}/`);
      assert.equal(await verify(answer.body, SECRET), true);
      assert.equal((await fetch(String(answer.body.redirect_url))).status, 200);
    } finally {
      await redirecting.close();
    }
  });

  test('a list of site_ids: only those sites get redirect_url', async () => {
    const some = await sandbox({ redirectMode: [2] });
    try {
      const on = await postJson(`${some.url}/api/jsapi/obtain_token/`, await signedBody(tokenFields({ site_id: 2 })));
      const off = await postJson(`${some.url}/api/jsapi/obtain_token/`, await signedBody(tokenFields({ site_id: 1 })));
      assert.equal(typeof on.body.redirect_url, 'string');
      assert.equal('redirect_url' in off.body, false);
    } finally {
      await some.close();
    }
  });

  test('off by default', async () => {
    const answer = await postJson(`${f.sb.url}/api/jsapi/obtain_token/`, await signedBody(tokenFields()));
    assert.equal('redirect_url' in answer.body, false);
  });
});
