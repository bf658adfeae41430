// How a request is checked against a table of field rules: each field names a check, every issue is
// collected so one answer lists them all, and values are normalised where the service normalises them
// (docs/service-contract.md, Request fields). The tables themselves live in fields.ts.
import { checkHttpUrl } from './form-url.js';

export interface FieldIssue {
  /** Where, e.g. `amount` or `additional_fields.card_number`; empty for the request as a whole. */
  path: string;
  message: string;
}

export type Validation<T> =
  | { ok: true; value: T; warnings: FieldIssue[] }
  | { ok: false; issues: FieldIssue[] };

export interface ValidateOptions {
  /** The request must carry a string `signature` (the sandbox's view). Without it a `signature` field is
   *  refused, since the client adds it. */
  signed?: boolean;
}

export interface AdditionalFieldRule {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}
export const none: AdditionalFieldRule = { required: [], optional: [] };

export interface Context {
  body: Record<string, unknown>;
  issues: FieldIssue[];
  warnings: FieldIssue[];
}
/** Returns the value to send (normalised where the service documents that it normalises), or undefined after
 *  recording an issue. */
export type Check = (value: unknown, path: string, ctx: Context) => unknown;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const text: Check = (v, path, { issues }) => {
  if (typeof v !== 'string') return void issues.push({ path, message: 'must be a string' });
  if (v.trim() === '') return void issues.push({ path, message: 'must not be empty' });
  return v;
};

export const positiveInteger: Check = (v, path, { issues }) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return void issues.push({ path, message: 'must be an integer' });
  if (v <= 0) return void issues.push({ path, message: 'must be greater than 0' });
  return v;
};

export const oneOf =
  (allowed: readonly string[]): Check =>
  (v, path, { issues }) => {
    if (typeof v === 'string' && allowed.includes(v)) return v;
    issues.push({ path, message: `must be one of: ${allowed.join(', ')}` });
    return undefined;
  };

const CURRENCY_CODE = /^[A-Za-z0-9]{3,10}$/;
export const currencyCode: Check = (v, path, { issues }) => {
  if (typeof v === 'string' && CURRENCY_CODE.test(v)) return v;
  issues.push({ path, message: 'must be a currency code of 3 to 10 letters or digits' });
  return undefined;
};

/** Known value kept; any other string replaced by `fallback` with a warning, as the service does. */
export const orDefault =
  (allowed: readonly string[], fallback: string, what: string): Check =>
  (v, path, { issues, warnings }) => {
    if (typeof v !== 'string') return void issues.push({ path, message: 'must be a string' });
    if (allowed.includes(v)) return v;
    warnings.push({ path, message: `unknown ${what} ${JSON.stringify(v)} is sent as ${JSON.stringify(fallback)}` });
    return fallback;
  };

/** The browser is sent to success_url / fail_url: the element's own rule for navigation applies, and
 *  what is sent is the parsed URL's href, never the raw string. */
export const browserUrl: Check = (v, path, { issues }) => {
  const checked = checkHttpUrl(v, 'invalid-redirect-url', path);
  if (checked.ok) return checked.value.href;
  issues.push({ path, message: checked.message.slice(path.length + 1) });
  return undefined;
};

/** Checks an object's keys against required/optional lists; every value a string. */
export function checkAdditional(
  v: unknown,
  path: string,
  ctx: Context,
  rule: AdditionalFieldRule,
  valueCheck: (key: string) => Check,
): Record<string, string> | undefined {
  if (!isRecord(v)) return void ctx.issues.push({ path, message: 'must be an object' });
  const before = ctx.issues.length;
  const out: Record<string, string> = {};
  for (const key of rule.required) {
    if (!(key in v)) ctx.issues.push({ path: `${path}.${key}`, message: 'is required' });
  }
  for (const [key, value] of Object.entries(v)) {
    const at = `${path}.${key}`;
    if (!rule.required.includes(key) && !rule.optional.includes(key)) {
      ctx.issues.push({ path: at, message: 'is not accepted for this method' });
    } else if (typeof value !== 'string') {
      ctx.issues.push({ path: at, message: 'must be a string' });
    } else {
      const checked = rule.required.includes(key) ? valueCheck(key)(value, at, ctx) : value;
      if (typeof checked === 'string') out[key] = checked;
    }
  }
  return ctx.issues.length === before ? out : undefined;
}

export interface FieldRule {
  /** 'signed': required when validating a signed wire body, refused otherwise. A function: required
   *  depending on other fields of the same body. */
  readonly required: boolean | 'signed' | ((body: Record<string, unknown>) => boolean);
  readonly check: Check;
}

export function validate<T>(table: Readonly<Record<string, FieldRule>>, input: unknown, opts: ValidateOptions): Validation<T> {
  if (!isRecord(input)) return { ok: false, issues: [{ path: '', message: 'must be a JSON object' }] };
  const ctx: Context = { body: input, issues: [], warnings: [] };
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(table)) {
    const required =
      rule.required === 'signed'
        ? opts.signed === true
        : typeof rule.required === 'function'
          ? rule.required(input)
          : rule.required;
    if (!(name in input) || input[name] === undefined) {
      if (required) ctx.issues.push({ path: name, message: 'is required' });
      continue;
    }
    if (rule.required === 'signed' && !opts.signed) {
      ctx.issues.push({ path: name, message: 'is added by the client when it signs the request' });
      continue;
    }
    const value = rule.check(input[name], name, ctx);
    if (value !== undefined) out[name] = value;
  }
  for (const name of Object.keys(input)) {
    if (!(name in table)) ctx.issues.push({ path: name, message: 'is not a field of this request' });
  }
  if (ctx.issues.length > 0) return { ok: false, issues: ctx.issues };
  return { ok: true, value: out as T, warnings: ctx.warnings };
}

