// Property tests of the browser validators: PAY_FORM_FUZZ_RUNS cases per property (a few hundred in
// `npm test`, 10,000 with `npm run bench:fuzz`). Runs in Node, whose URL parser is WHATWG's like Chromium's (the smaller suites in test/browser run
// the same checks in Chromium). Invariants: nothing invalid frames or navigates (every accepted URL is
// absolute http(s), https unless the host is loopback, without credentials; every framed URL stays one
// path segment under {base}/api/jsapi/open/); nothing valid is refused (valid inputs are built by
// generators and must be accepted unchanged); result messages and token answers take only the contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkBaseUrl, checkKey, checkRedirectUrl, isLoopbackHost, MAX_KEY_LENGTH, OPEN_FORM_PATH, openFormUrl } from '../../../src/service/form-url.js';
import { parseResult, RESULT_MESSAGE_TYPE } from '../../../src/element/result.js';
import { parseTokenAnswer } from '../../../src/service/checkout.js';
import { fuzzRuns, Tally } from '../../support/fuzz.js';

const numRuns = fuzzRuns();

// ---- generators ---------------------------------------------------------------------------------
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'.split('');
/** Keys as a service issues them: unreserved characters, 1 to 1024 long, never "." or "..". */
const validKey = fc
  .array(fc.constantFrom(...UNRESERVED), { minLength: 1, maxLength: MAX_KEY_LENGTH })
  .map((chars) => chars.join(''))
  .filter((k) => k !== '.' && k !== '..');
/** Any well-formed Unicode without white space or controls is a key too (it is percent-encoded). */
const unicodeKey = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 64 })
  .filter((k) => k !== '.' && k !== '..' && k.length <= MAX_KEY_LENGTH && !/[\s\p{Cc}]/u.test(k));
const TRICKY = fc.constantFrom(
  '.', '..', '%2e', '%2E', '/', '\\', '?', '#', '%', '%2f', '%5c', '%00', ':', '@', ';', 'é', '😀', '\u{FF0E}',
  '\u200B', '\uFEFF', ' ', '\t', '\n', '\r', '\u0000', '\u007F', '\u0085', '\u00A0', '\u2028', '\uD800', '\uDC00', 'a',
);
const anyKey = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(TRICKY, { maxLength: 10 }).map((p) => p.join('')),
  fc.string({ unit: 'grapheme-ascii', minLength: MAX_KEY_LENGTH - 2, maxLength: MAX_KEY_LENGTH + 2 }),
  validKey,
);
/** https URLs as fc.webUrl builds them (no credentials), and http ones on loopback hosts. */
const loopback = fc.constantFrom('localhost', '127.0.0.1', '127.1.2.3', '[::1]');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const path = fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((s) => s !== '.' && s !== '..'), { maxLength: 3 }).map((p) => (p.length ? `/${p.join('/')}` : ''));
const loopbackHttp = fc.tuple(loopback, port, path).map(([h, p, s]) => `http://${h}${p === undefined ? '' : `:${p}`}${s}`);
const validBase = fc.oneof(fc.webUrl({ validSchemes: ['https'], withQueryParameters: false, withFragments: false }), loopbackHttp);
const validRedirect = fc.oneof(fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }), loopbackHttp);
const SCHEMES = fc.constantFrom('javascript:', 'JaVaScRiPt:', ' javascript:', 'java\tscript:', 'java\nscript:', 'data:', 'vbscript:', 'file:', 'blob:', 'ftp:', 'http:', 'https:', '//', '/', '');
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.tuple(SCHEMES, fc.oneof(fc.domain(), fc.constantFrom('alert(1)', 'text/html,<script>x</script>', 'evil.example', 'user:pw@pay.example', '127.0.0.1.evil.example', '0x7f.1', '[::ffff:127.0.0.1]')), path).map((p) => p.join('')),
  fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'javascript', 'data'], withQueryParameters: true, withFragments: true }),
  fc.anything(),
);

// ---- invariants ---------------------------------------------------------------------------------
/** What any URL the element frames or navigates to must be, written apart from the implementation. */
function assertSafeUrl(href: string): URL {
  const url = new URL(href);
  assert.ok(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)), `unsafe ${href}`);
  assert.equal(url.username + url.password, '', `credentials in ${href}`);
  return url;
}
const keyRefusable = (k: string) => k === '' || k === '.' || k === '..' || k.length > MAX_KEY_LENGTH || /[\s\p{Cc}]/u.test(k) || !(k as string & { isWellFormed(): boolean }).isWellFormed();

const counts = new Map<string, Tally>();
const tally = (name: string, ok: boolean) => {
  const c = counts.get(name) ?? new Tally();
  c.add(ok);
  counts.set(name, c);
};

const properties: Array<[string, () => void]> = [
  ['checkKey        valid', () => fc.assert(fc.property(fc.oneof(validKey, unicodeKey), (k) => {
    const r = checkKey(k);
    tally('checkKey        valid', r.ok);
    assert.deepEqual(r, { ok: true, value: k });
  }), { numRuns })],
  ['checkKey        any  ', () => fc.assert(fc.property(anyKey, (k) => {
    const r = checkKey(k);
    tally('checkKey        any  ', r.ok);
    assert.equal(r.ok, !keyRefusable(k), JSON.stringify(k));
    if (!r.ok) assert.equal(r.code, 'invalid-key');
  }), { numRuns })],
  ['checkBaseUrl    valid', () => fc.assert(fc.property(validBase, (b) => {
    const r = checkBaseUrl(b);
    tally('checkBaseUrl    valid', r.ok);
    assert.ok(r.ok, b);
    assert.equal(r.value, new URL(b).href.replace(/\/+$/, ''));
  }), { numRuns })],
  ['checkBaseUrl    any  ', () => fc.assert(fc.property(hostile, (b) => {
    const r = checkBaseUrl(b);
    tally('checkBaseUrl    any  ', r.ok);
    if (!r.ok) return assert.equal(r.code, 'invalid-base-url');
    const url = assertSafeUrl(r.value);
    assert.equal(url.search + url.hash, '');
  }), { numRuns })],
  ['checkRedirectUrl valid', () => fc.assert(fc.property(validRedirect, (u) => {
    const r = checkRedirectUrl(u);
    tally('checkRedirectUrl valid', r.ok);
    assert.deepEqual(r, { ok: true, value: new URL(u).href });
  }), { numRuns })],
  ['checkRedirectUrl any  ', () => fc.assert(fc.property(hostile, (u) => {
    const r = checkRedirectUrl(u);
    tally('checkRedirectUrl any  ', r.ok);
    if (!r.ok) return assert.equal(r.code, 'invalid-redirect-url');
    assertSafeUrl(r.value);
    if (typeof u === 'string') assert.ok(!/^\s*(java|vb)\s*script:|^\s*data:/i.test(u.replace(/[\t\n\r]/g, '')), `navigates to ${u}`);
  }), { numRuns })],
  ['openFormUrl     valid', () => fc.assert(fc.property(validBase, fc.oneof(validKey, unicodeKey), (b, k) => {
    const r = openFormUrl(b, k);
    tally('openFormUrl     valid', r.ok);
    assert.ok(r.ok, `${b} ${k}`);
    const prefix = `${new URL(b).href.replace(/\/+$/, '')}${OPEN_FORM_PATH}`;
    assert.ok(r.value.startsWith(prefix));
    const segment = r.value.slice(prefix.length, -1);
    assert.ok(r.value.endsWith('/') && !segment.includes('/'));
    assert.equal(decodeURIComponent(segment), k);
  }), { numRuns })],
  ['openFormUrl     any  ', () => fc.assert(fc.property(fc.oneof(validBase, hostile), fc.oneof(anyKey, fc.anything()), (b, k) => {
    const r = openFormUrl(b, k);
    tally('openFormUrl     any  ', r.ok);
    if (!r.ok) return assert.ok(r.code === 'invalid-base-url' || r.code === 'invalid-key');
    const base = checkBaseUrl(b);
    assert.ok(base.ok && typeof k === 'string' && !keyRefusable(k));
    const url = assertSafeUrl(r.value);
    assert.equal(url.origin, new URL(base.value).origin);
    const prefix = `${base.value}${OPEN_FORM_PATH}`;
    assert.ok(r.value.startsWith(prefix) && r.value.endsWith('/'));
    assert.equal(decodeURIComponent(r.value.slice(prefix.length, -1)), k);
  }), { numRuns })],
  ['parseResult     valid', () => fc.assert(fc.property(fc.constantFrom('success', 'fail'), fc.boolean(), fc.boolean(), (status, nullProto, reversed) => {
    const data: Record<string, unknown> = nullProto ? Object.create(null) : {};
    for (const [k, v] of reversed ? [['status', status], ['type', RESULT_MESSAGE_TYPE]] : [['type', RESULT_MESSAGE_TYPE], ['status', status]]) data[k as string] = v;
    const r = parseResult(structuredClone(data));
    tally('parseResult     valid', r !== null);
    assert.deepEqual(r, { type: RESULT_MESSAGE_TYPE, status });
  }), { numRuns })],
  ['parseResult     any  ', () => fc.assert(fc.property(fc.oneof(fc.anything(), fc.record({ type: fc.oneof(fc.constant(RESULT_MESSAGE_TYPE), fc.string()), status: fc.oneof(fc.constantFrom('success', 'fail', 'SUCCESS', 'ok'), fc.anything()) }, { requiredKeys: [] }), fc.dictionary(fc.string(), fc.anything())), (data) => {
    const r = parseResult(data);
    tally('parseResult     any  ', r !== null);
    if (r === null) return;
    const d = data as Record<string, unknown>;
    assert.deepEqual(Object.keys(d).sort(), ['status', 'type']);
    assert.ok(d['type'] === RESULT_MESSAGE_TYPE && (d['status'] === 'success' || d['status'] === 'fail'));
  }), { numRuns })],
  ['token answer    valid', () => fc.assert(fc.property(fc.option(fc.string(), { nil: undefined }), fc.option(fc.string(), { nil: undefined }), fc.dictionary(fc.string(), fc.jsonValue()), (key, redirect, extra) => {
    fc.pre(key !== undefined || redirect !== undefined);
    const body = JSON.parse(JSON.stringify({ ...extra, ...(key === undefined ? {} : { key }), ...(redirect === undefined ? {} : { redirect_url: redirect }) })) as unknown;
    const r = parseTokenAnswer(body);
    tally('token answer    valid', r !== null);
    // paid: true wins; else redirect_url over key, with a string attempt and base_url kept (service/checkout.ts).
    const { paid, attempt, base_url } = body as { paid?: unknown; attempt?: unknown; base_url?: unknown };
    const started = { ...(typeof attempt === 'string' ? { attempt } : {}), ...(typeof base_url === 'string' ? { base_url } : {}) };
    assert.deepEqual(r, paid === true ? { paid } : redirect !== undefined ? { redirect_url: redirect, ...started } : { key, ...started });
  }), { numRuns })],
  ['token answer    any  ', () => fc.assert(fc.property(fc.oneof(fc.anything(), fc.jsonValue(), fc.record({ key: fc.anything(), redirect_url: fc.anything() }, { requiredKeys: [] })), (data) => {
    const r = parseTokenAnswer(data);
    tally('token answer    any  ', r !== null);
    if (r === null) return;
    // Exactly one of paid (true), key or redirect_url (strings), and at most a string attempt and base_url beside it.
    const keys = Object.keys(r).filter((k) => k !== 'attempt' && k !== 'base_url');
    assert.equal(keys.length, 1);
    assert.ok(!('attempt' in r) || (typeof r.attempt === 'string' && !('paid' in r)));
    assert.ok(!('base_url' in r) || (typeof r.base_url === 'string' && !('paid' in r)));
    assert.ok(('paid' in r && r.paid === true) || ('key' in r && typeof r.key === 'string') || ('redirect_url' in r && typeof r.redirect_url === 'string'));
  }), { numRuns })],
];

const LIMIT = { timeout: 600_000 };
for (const [name, property] of properties) {
  const label = name.replace(/\s+/g, ' ').trim();
  test(`${label}: the invariants hold (${numRuns} cases, fast-check ${fc.__version})`, LIMIT, (t) => {
    property();
    t.diagnostic(`${label}: ${String(counts.get(name) ?? new Tally())}`);
  });
}
