// The pure URL checks, run in Chromium so `new URL()` is the parser that will read the form URL.
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import {
  MAX_KEY_LENGTH,
  checkBaseUrl,
  checkKey,
  checkRedirectUrl,
  encodeKeySegment,
  isLoopbackHost,
  openFormUrl,
} from '../../src/service/form-url.js';

const BASES = [
  'https://pay.example',
  'https://pay.example/',
  'https://pay.example/sub/dir/',
  'http://127.0.0.1:8080/a/b',
  'http://localhost:3000',
  'http://[::1]:9/x//',
] as const;

/** Pieces that parsers treat specially: dot segments in every spelling, separators, escapes. */
const TRICKY = fc.constantFrom(
  '.', '..', '%2e', '%2E', '%2e%2e', '.%2E', '%2E.', '/', '\\', '?', '#', '%', '%2f', '%5c', '%00',
  ':', '@', ';', '&', '=', '+', '~', "'", '(', ')', '*', '!', 'é', '😀', '\u{FF0E}', '\u2024', '\u200B',
  '\uFEFF', ' ', '\t', '\n', '\u0000', '\u007F', '\u0085', '\u00A0', '\u2028', '\uD800', '\uDC00', 'a', 'Z', '0',
);
const keyArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(TRICKY, { maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme-ascii', minLength: 1000, maxLength: 1100 }),
);

/** What the contract says about a key, written independently of the implementation. */
function keyShouldBeRefused(key: string): boolean {
  return (
    key === '' ||
    key === '.' ||
    key === '..' ||
    key.length > MAX_KEY_LENGTH ||
    /[\s\p{Cc}]/u.test(key) ||
    !(key as string & { isWellFormed(): boolean }).isWellFormed()
  );
}

describe('form-url: base URL', () => {
  it('keeps the base path and drops trailing slashes', () => {
    expect(checkBaseUrl('https://pay.example/sub/')).to.deep.equal({ ok: true, value: 'https://pay.example/sub' });
    expect(checkBaseUrl('https://pay.example')).to.deep.equal({ ok: true, value: 'https://pay.example' });
  });

  for (const bad of [
    'javascript:alert(1)',
    'data:text/html,hi',
    '/relative',
    'pay.example',
    '',
    'ftp://pay.example',
    'http://pay.example',
    'http://10.0.0.1',
    'https://user:pass@pay.example',
    'https://user@pay.example',
    'https://pay.example/?a=1',
    'https://pay.example/#x',
  ]) {
    it(`refuses ${JSON.stringify(bad)} with invalid-base-url`, () => {
      const checked = checkBaseUrl(bad);
      expect(checked.ok).to.equal(false);
      if (!checked.ok) expect(checked.code).to.equal('invalid-base-url');
    });
  }

  it('a base accepted by checkBaseUrl frames any valid key under it; dot-segment bases never give invalid-key', () => {
    // Found by test/node/fuzz/browser.test.ts: 'http://localhost/A/.~/.' was accepted as a base, then every key was refused.
    for (const base of ['http://localhost/A/.~/.', 'https://pay.example/a/.', 'https://pay.example/a/..', 'https://pay.example/%2e', 'https://pay.example/a/.b/.']) {
      const checked = checkBaseUrl(base);
      const opened = openFormUrl(base, 'k-1');
      if (checked.ok) expect(opened, base).to.deep.equal({ ok: true, value: `${checked.value}/api/jsapi/open/k-1/` });
      else expect(opened.ok === false && opened.code, base).to.equal('invalid-base-url');
    }
  });

  it('allows plain http only for loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]']) expect(isLoopbackHost(host), host).to.equal(true);
    for (const host of ['localhost.evil.example', '128.0.0.1', '127.example', '[::2]', 'example.com']) {
      expect(isLoopbackHost(host), host).to.equal(false);
    }
    // The parser normalises short IPv4 forms before the check sees them.
    expect(checkBaseUrl('http://127.1:8080').ok).to.equal(true);
    expect(checkBaseUrl('http://0x7f.1').ok).to.equal(true);
  });
});

describe('form-url: keys', () => {
  for (const [label, key] of [
    ['empty', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['a no-break space', 'a\u00a0b'],
    ['a line separator', 'a\u2028b'],
    ['1025 characters', 'k'.repeat(MAX_KEY_LENGTH + 1)],
    ['a lone surrogate', 'a\uD800b'],
    // JavaScriptCore's /\p{Cs}/u finds no lone surrogate here; building the URL then threw a URIError.
    ['a lead surrogate before a fullwidth full stop', '\uD800\uFF0E'],
  ] as const) {
    it(`refuses a key with ${label} as invalid-key`, () => {
      const checked = checkKey(key);
      expect(checked.ok).to.equal(false);
      if (!checked.ok) expect(checked.code).to.equal('invalid-key');
    });
  }

  it('accepts 1024 characters and percent-encodes a key as one segment', () => {
    expect(checkKey('k'.repeat(MAX_KEY_LENGTH)).ok).to.equal(true);
    expect(encodeKeySegment('a/b?c#d')).to.equal('a%2Fb%3Fc%23d');
    expect(encodeKeySegment("%2e.'()*!")).to.equal('%252e.%27%28%29%2A%21');
    expect(openFormUrl('https://pay.example/sub/', '../x')).to.deep.equal({
      ok: true,
      value: 'https://pay.example/sub/api/jsapi/open/..%2Fx/',
    });
  });

  it('property: no key makes the form leave {base}/api/jsapi/open/ (3000 runs)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BASES), keyArb, (base, key) => {
        const built = openFormUrl(base, key);
        if (keyShouldBeRefused(key)) {
          expect(built.ok, 'refused').to.equal(false);
          if (!built.ok) expect(built.code).to.equal('invalid-key');
          return;
        }
        expect(built.ok, 'accepted').to.equal(true);
        if (!built.ok) return;
        const baseUrl = new URL(base);
        const url = new URL(built.value);
        const prefix = `${baseUrl.pathname.replace(/\/+$/, '')}/api/jsapi/open/`;
        expect(url.origin).to.equal(baseUrl.origin);
        expect(url.search).to.equal('');
        expect(url.hash).to.equal('');
        expect(url.pathname.startsWith(prefix), url.pathname).to.equal(true);
        const rest = url.pathname.slice(prefix.length);
        expect(rest.endsWith('/')).to.equal(true);
        const segment = rest.slice(0, -1);
        expect(segment.includes('/'), segment).to.equal(false);
        expect(decodeURIComponent(segment)).to.equal(key);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('form-url: redirect URLs', () => {
  const schemes = fc.constantFrom(
    'https://', 'http://', 'javascript:', 'JavaScript:', ' javascript:', 'java\tscript:', 'java\nscript:', 'data:',
    'vbscript:', 'file://', 'blob:', 'ftp://', '//', '/', '', 'https:', 'http:/', 'https:\\\\', '\u0000https://',
  );
  const hosts = fc.constantFrom(
    'pay.example', 'localhost', '127.0.0.1', '[::1]', '10.1.2.3', 'user:pw@pay.example', 'localhost.evil.example',
    'alert(1)', 'text/html,<script>alert(1)</script>', '127.0.0.1@evil.example', '',
  );
  const urlish = fc.oneof(
    fc.tuple(schemes, hosts, fc.string({ unit: 'binary', maxLength: 12 })).map(([s, h, p]) => `${s}${h}${p}`),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
  );

  it('property: only an absolute http(s) URL is ever returned, plain http only to loopback (3000 runs)', () => {
    fc.assert(
      fc.property(urlish, (raw) => {
        const checked = checkRedirectUrl(raw);
        if (!checked.ok) {
          expect(checked.code).to.equal('invalid-redirect-url');
          return;
        }
        const url = new URL(checked.value);
        expect(['https:', 'http:']).to.include(url.protocol);
        if (url.protocol === 'http:') expect(isLoopbackHost(url.hostname), url.hostname).to.equal(true);
        expect(url.username + url.password).to.equal('');
        expect(url.href).to.equal(checked.value);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses javascript:, data: and relative URLs and keeps allowed ones normalised', () => {
    for (const bad of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'java\nscript:alert(1)', 'data:text/html,x', '/pay', 'http://pay.example/']) {
      expect(checkRedirectUrl(bad).ok, bad).to.equal(false);
    }
    expect(checkRedirectUrl('https://pay.example/r?x=1')).to.deep.equal({ ok: true, value: 'https://pay.example/r?x=1' });
  });
});
