// success_url / fail_url under attack: every payload is either refused or sent as its parsed URL's
// href, never as the raw string; controls and white space anywhere are refused. The figures printed
// here are the ones docs/security.md quotes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTokenRequest } from '../../../src/service/fields.js';
import { isLoopbackHost } from '../../../src/service/form-url.js';
import { ValidationError } from '../../../src/server/index.js';
import { clientFor, happyService, startService, TOKEN } from '../../support/servers/service.js';

/** The issue's own five: each slipped through before, forwarded as given. */
export const REPORTED = [
  'https://shop.example/ok\r\nSet-Cookie: pwn=1',
  '\u0000https://shop.example/',
  'h\nttps://evil.example/',
  'https:\\\\evil.example',
  'https:evil.example',
];

const BASES = ['https://shop.example/ok', 'http://localhost:8080/return?status=success', 'https://shop.example/a?b=c#d'];

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
/** Every C0 and C1 control, DEL, and the Unicode white space characters. */
const BAD_CHARS = [
  ...range(0x00, 0x1f), '\u007f', ...range(0x80, 0x9f),
  ' ', '\u00a0', '\u1680', ...range(0x2000, 0x200a), '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff',
];

/** A bad character at the start, after the scheme, in the host, in the path, and at the end of each base. */
function injected(): string[] {
  const out: string[] = [];
  for (const base of BASES) {
    const schemeEnd = base.indexOf(':') + 1;
    const hostAt = base.indexOf('//') + 4;
    const pathAt = base.indexOf('/', base.indexOf('//') + 2) + 1;
    for (const c of BAD_CHARS) {
      for (const at of [0, schemeEnd, hostAt, pathAt, base.length]) out.push(base.slice(0, at) + c + base.slice(at));
    }
  }
  for (const line of ['\r\nSet-Cookie: pwn=1', '\nLocation: https://evil.example/', '\r\n\r\n<script>x</script>']) {
    for (const base of BASES) out.push(base + line);
  }
  return out;
}

/** The same lines percent-encoded: harmless, accepted unchanged (the parser keeps the escapes). */
const ENCODED = ['\r\nSet-Cookie: pwn=1', '\nLocation: https://evil.example/'].map(
  (line) => `https://shop.example/ok?next=${encodeURIComponent(line)}`,
);

/** Strings the URL parser rewrites: the href differs from the raw string and is what must be sent. */
const REWRITTEN = [
  'https:\\\\evil.example', 'https:/\\evil.example/x', 'https:evil.example', 'HTTPS://SHOP.EXAMPLE/OK',
  'https://shop.example:443/', 'https://shop.example/a/../../b', 'https://shop.example/%2e%2e/x',
  'https://shop.example/ok#<script>', 'https://shop.example/ok?x=<"\'>', 'https://shop.example/ok/\u202e',
  'https://0x7f.1/', 'http://127.1:80/', 'https://ШОП.example/', 'https://shop.example\\@evil.example/',
];

/** Refused on the scheme, the host or credentials, whatever their spelling. */
const OTHER_REFUSALS = [
  'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', '//evil.example/',
  '/relative', 'ok', '', 'http://shop.example/', 'https://user:pass@shop.example/', 'https://user@shop.example/',
  'https://', 'blob:https://shop.example/x', 'ftp://shop.example/',
];

const CONTROL_OR_SPACE = /[\s\p{Cc}]/u;

test('success_url and fail_url: every attack payload is refused or sent as its normalised href', (t) => {
  const payloads = [...REPORTED, ...injected(), ...REWRITTEN, ...ENCODED, ...OTHER_REFUSALS];
  let refused = 0;
  let rewritten = 0;
  let unchanged = 0;
  for (const raw of payloads) {
    for (const field of ['success_url', 'fail_url'] as const) {
      const result = validateTokenRequest({ merchant_id: 'm', ...TOKEN, [field]: raw });
      if (!result.ok) {
        assert.deepEqual(result.issues.map((i) => i.path), [field], JSON.stringify(raw));
        refused++;
        continue;
      }
      const sent = result.value[field]!;
      const url = new URL(raw);
      assert.equal(sent, url.href, `${JSON.stringify(raw)} is sent as its href`);
      assert.ok(!CONTROL_OR_SPACE.test(raw), `${JSON.stringify(raw)} holds a control or white space`);
      assert.ok(!CONTROL_OR_SPACE.test(sent));
      assert.ok(url.protocol === 'https:' || isLoopbackHost(url.hostname), sent);
      if (sent === raw) unchanged++;
      else rewritten++;
    }
  }
  // Every injected control or white space is refused; every string the parser rewrites is sent rewritten.
  assert.equal(refused, 2 * (REPORTED.length - 2 + injected().length + OTHER_REFUSALS.length));
  assert.equal(rewritten, 2 * (2 + REWRITTEN.length));
  assert.equal(unchanged, 2 * ENCODED.length);
  t.diagnostic(
    `URL attacks: ${payloads.length} payloads × 2 fields = ${payloads.length * 2} checks; ` +
      `${refused} refused, ${rewritten} sent as their normalised href, ${unchanged} already normal, 0 forwarded raw`,
  );
});

test('PaymentClient: the reported payloads never reach the wire raw', async (t) => {
  const service = await startService(happyService);
  try {
    const client = clientFor(service.url);
    let sent = 0;
    let refused = 0;
    for (const raw of REPORTED) {
      const before = service.requests.length;
      try {
        await client.obtainToken({ ...TOKEN, success_url: raw, fail_url: raw });
        const wire = service.requests.at(-1)!.json!;
        assert.equal(service.requests.length, before + 1);
        assert.equal(wire['success_url'], 'https://evil.example/', `${JSON.stringify(raw)} is normalised`);
        assert.equal(wire['fail_url'], 'https://evil.example/');
        sent++;
      } catch (error) {
        assert.ok(error instanceof ValidationError, String(error));
        assert.deepEqual(error.issues.map((i) => i.path), ['success_url', 'fail_url']);
        assert.equal(service.requests.length, before, 'nothing sent');
        refused++;
      }
    }
    assert.deepEqual([refused, sent], [3, 2]);
    t.diagnostic(`PaymentClient: ${REPORTED.length} reported payloads, ${refused} refused before sending, ${sent} sent normalised`);
  } finally {
    await service.close();
  }
});
