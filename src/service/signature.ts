// The default signature scheme (docs/signature.md), shared by the client, the handlers and
// the sandbox. The service leaves the algorithm open (docs/service-contract.md), so integrators can plug
// in their own Signer/Verifier; this one is lowercase hex HMAC-SHA256, keyed by the secret as UTF-8, over
// the payload without its top-level `signature`, serialised as JSON with keys sorted at every depth and
// no whitespace.
// Web Crypto everywhere, so the same code runs on Node, Deno, Bun, Workers and in the sandbox; where the
// runtime hands out node:crypto without a static import (process.getBuiltinModule: Node >= 20.16, Deno,
// Bun), its synchronous createHmac is used instead: same bytes, several times cheaper per call than the
// async crypto.subtle.sign (docs/performance.md).
import { PayFormError } from './errors.js';

export type { JsonValue, JsonObject } from './json.js';

/** Signs a payload (the payload's own `signature`, if any, is not part of the message). */
export type Signer = (payload: Record<string, unknown>) => string | Promise<string>;
/** Tells whether `signature` is right for `payload`. */
export type Verifier = (payload: Record<string, unknown>, signature: string) => boolean | Promise<boolean>;

const encoder = new TextEncoder();

function canonical(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    // JSON has no NaN or Infinity: refusing them keeps signer and verifier from disagreeing silently.
    if (!Number.isFinite(value)) throw new PayFormError('unsignable', 'Cannot sign a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') return canonicalObject(value as Record<string, unknown>, undefined);
  throw new PayFormError('unsignable', `Cannot sign a value of type ${typeof value}`);
}

// Plain loops rather than entries/filter/sort/map: this runs twice per token request and once per
// callback. sort() with no comparator orders by UTF-16 code units, as the definition asks.
function canonicalObject(object: Record<string, unknown>, skip: string | undefined): string {
  const keys = Object.keys(object).sort();
  let out = '{';
  for (const key of keys) {
    const member = object[key];
    if (member === undefined || key === skip) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonical(member)}`;
  }
  return `${out}}`;
}

/** The default scheme's message: the payload without its top-level `signature`, keys sorted at every
 *  depth (by UTF-16 code units, as JavaScript sorts), no whitespace. `undefined` members are left out,
 *  as JSON.stringify would. */
export function canonicalJson(payload: Record<string, unknown>): string {
  return canonicalObject(payload, 'signature');
}

interface NodeHmac {
  createHmac(algorithm: 'sha256', key: string): { update(data: string, encoding: 'utf8'): { digest(encoding: 'hex'): string } };
}

function builtinCrypto(): NodeHmac | undefined {
  try {
    const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = host?.getBuiltinModule?.('node:crypto') as Partial<NodeHmac> | undefined;
    return typeof mod?.createHmac === 'function' ? (mod as NodeHmac) : undefined;
  } catch {
    return undefined;
  }
}

const nodeCrypto = builtinCrypto();

const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // A handful of secrets per process at most; the cap only guards against misuse.
    if (keyCache.size > 16) keyCache.clear();
    keyCache.set(secret, key);
  }
  return key;
}

function toHex(bytes: ArrayBuffer): string {
  let out = '';
  for (const b of new Uint8Array(bytes)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** The Web Crypto path of sign(), used where node:crypto is not offered; exported for its test. */
export async function webCryptoSign(payload: Record<string, unknown>, secret: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(canonicalJson(payload)));
  return toHex(mac);
}

/** Lowercase hex HMAC-SHA256 of canonicalJson(payload), keyed by the secret as UTF-8. */
export async function sign(payload: Record<string, unknown>, secret: string): Promise<string> {
  if (nodeCrypto === undefined) return webCryptoSign(payload, secret);
  return nodeCrypto.createHmac('sha256', secret).update(canonicalJson(payload), 'utf8').digest('hex');
}

/** Constant-time comparison: the time taken depends on the lengths only, never on where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const length = Math.max(x.length, y.length);
  let diff = x.length ^ y.length;
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** Verifies payload.signature against the default scheme. A missing or non-string signature is false. */
export async function verify(payload: Record<string, unknown>, secret: string): Promise<boolean> {
  const { signature } = payload;
  return typeof signature === 'string' && hmacVerifier(secret)(payload, signature);
}

export function hmacSigner(secret: string): Signer {
  return (payload) => sign(payload, secret);
}

export function hmacVerifier(secret: string): Verifier {
  return async (payload, signature) => timingSafeEqual(signature.toLowerCase(), await sign(payload, secret));
}

/** A copy of `payload` with its `signature` set by `signer`. */
export async function signed<T extends Record<string, unknown>>(
  payload: T,
  signer: Signer,
): Promise<T & { signature: string }> {
  const { signature: _old, ...rest } = payload;
  return { ...(rest as T), signature: await signer(rest) };
}
