// fast-check generators for both requests: valid ones (built from the service's rules), broken ones (a
// valid one with one or more known defects), and wild ones (anything at all in each field). Shared by
// the property tests (npm test) and test/node/fuzz/server.test.ts (the long run).
import fc from 'fast-check';
import {
  BANK_APPS,
  FORM_LANGUAGES,
  FORM_METHODS,
  PAYOUT_ADDITIONAL_FIELDS,
  PAYOUT_CURRENCIES,
  PAYOUT_METHODS,
} from '../../../../src/service/fields.js';

const text = fc.string({ minLength: 1, maxLength: 24 }).filter((s) => s.trim() !== '');
const positive = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const httpsUrl = fc.webUrl({ validSchemes: ['https'] });

function additionalFor(method: string): fc.Arbitrary<Record<string, string>> {
  const rule = PAYOUT_ADDITIONAL_FIELDS[method.toLowerCase() as keyof typeof PAYOUT_ADDITIONAL_FIELDS];
  const required = Object.fromEntries(rule.required.map((k) => [k, text]));
  const optional = Object.fromEntries(rule.optional.map((k) => [k, fc.string({ maxLength: 24 })]));
  return fc.record({ ...required, ...optional }, { requiredKeys: [...rule.required] }) as fc.Arbitrary<Record<string, string>>;
}

export const validPayout: fc.Arbitrary<Record<string, unknown>> = fc
  .constantFrom(...PAYOUT_METHODS)
  .chain((method) =>
    fc.record({
      site_login: text,
      site_id: positive,
      request_id: text,
      amount: positive,
      currency: fc.constantFrom(...PAYOUT_CURRENCIES),
      method: fc.constant(method),
      additional_fields: additionalFor(method),
    }),
  );

export const validToken: fc.Arbitrary<Record<string, unknown>> = fc
  .option(fc.constantFrom(...FORM_METHODS), { nil: undefined })
  .chain((method) =>
    fc.record(
      {
        site_login: text,
        site_id: positive,
        request_id: text,
        amount: positive,
        currency: fc.stringMatching(/^[A-Za-z0-9]{3,10}$/),
        method: fc.constant(method),
        customer_type: fc.oneof(fc.constantFrom('trust', 'regular'), fc.string({ maxLength: 10 })),
        language: fc.oneof(fc.constantFrom(...FORM_LANGUAGES), fc.string({ maxLength: 5 })),
        success_url: httpsUrl,
        fail_url: httpsUrl,
        additional_fields:
          method === 'cis_transfer' || method === 'cis_transfer_card'
            ? fc.record({ bank_app: fc.constantFrom(...BANK_APPS) })
            : fc.constant({}),
      },
      {
        requiredKeys: ['site_login', 'site_id', 'request_id', 'amount', 'currency', 'method', 'additional_fields'],
      },
    ).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined))),
  );

/** A value of a wrong type for any field: never a non-empty string and never a positive integer. */
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constant(''),
  fc.constant('   '),
  fc.double({ noInteger: true }),
  fc.integer({ max: 0 }),
  fc.array(fc.integer(), { maxLength: 2 }),
);

type Defect = (body: Record<string, unknown>) => Record<string, unknown>;

/** One defect each, every one a rule of docs/service-contract.md. */
function defects(required: readonly string[]): fc.Arbitrary<Defect> {
  return fc.oneof(
    fc.constantFrom(...required).map((field): Defect => (b) => {
      const { [field]: _gone, ...rest } = b;
      return rest;
    }),
    fc.tuple(fc.constantFrom('site_id', 'amount'), wrongType).map(([f, v]): Defect => (b) => ({ ...b, [f]: v })),
    fc.tuple(fc.constantFrom('site_login', 'request_id'), wrongType).map(([f, v]): Defect => (b) => ({ ...b, [f]: v })),
    fc.constantFrom('merchant', 'signature', 'extra', 'amount_major').map((f): Defect => (b) => ({ ...b, [f]: 'x' })),
    fc.constant<Defect>((b) => ({ ...b, additional_fields: { ...(b['additional_fields'] as object), unknown_key: 'x' } })),
    fc.constant<Defect>((b) => ({ ...b, additional_fields: 'not an object' })),
    fc.constantFrom('', 'US D', 'ABCDEFGHIJK', 'US$').map((c): Defect => (b) => ({ ...b, currency: c })),
  );
}

const PAYOUT_REQUIRED = ['site_login', 'site_id', 'request_id', 'amount', 'currency', 'method', 'additional_fields'];
const TOKEN_REQUIRED = ['site_login', 'site_id', 'request_id', 'amount', 'currency'];

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const payoutOnly: fc.Arbitrary<Defect> = fc.oneof(
  fc.constantFrom('CARD', 'Card', 'paypal', 'operator_A').map((m): Defect => (b) => ({ ...b, method: m })),
  fc.constantFrom('GBP', 'usd', 'EURO').map((c): Defect => (b) => ({ ...b, currency: c })),
  // A required additional field missing or not a string.
  fc.constant<Defect>((b) => {
    const method = String(b['method']).toLowerCase() as keyof typeof PAYOUT_ADDITIONAL_FIELDS;
    if (!(PAYOUT_METHODS as readonly string[]).includes(String(b['method'])) || !isPlainObject(b['additional_fields'])) {
      return { ...b, method: 'paypal' };
    }
    const required = PAYOUT_ADDITIONAL_FIELDS[method].required;
    const fields = { ...(b['additional_fields'] as Record<string, unknown>) };
    if (required.length === 0) return { ...b, additional_fields: { ...fields, card_number: '1', phone_number: '2' } };
    const first = required[0] as string;
    delete fields[first];
    return { ...b, additional_fields: fields };
  }),
  fc.constant<Defect>((b) => {
    const fields = b['additional_fields'];
    if (!isPlainObject(fields)) return { ...b, additional_fields: [] };
    const key = Object.keys(fields)[0];
    return key === undefined ? { ...b, additional_fields: { x: 1 } } : { ...b, additional_fields: { ...fields, [key]: 7 } };
  }),
);

const tokenOnly: fc.Arbitrary<Defect> = fc.oneof(
  fc.constantFrom('havale', 'CARD', 'paypal').map((m): Defect => (b) => ({ ...b, method: m })),
  fc.constantFrom('javascript:alert(1)', '/relative', 'http://shop.example/ok', 'data:text/html,x').map(
    (u): Defect => (b) => ({ ...b, success_url: u }),
  ),
  fc.constant<Defect>((b) => ({ ...b, method: 'cis_transfer', additional_fields: {} })),
  fc.constant<Defect>((b) => ({ ...b, method: 'cis_transfer', additional_fields: { bank_app: 'bank_z' } })),
  fc.constant<Defect>((b) => ({ ...b, method: 'card', additional_fields: { bank_app: 'bank_a' } })),
  fc.tuple(fc.constantFrom('language', 'customer_type'), fc.oneof(fc.integer(), fc.constant(null))).map(
    ([f, v]): Defect => (b) => ({ ...b, [f]: v }),
  ),
);

const broken = (valid: fc.Arbitrary<Record<string, unknown>>, defect: fc.Arbitrary<Defect>) =>
  fc.tuple(valid, fc.array(defect, { minLength: 1, maxLength: 3 })).map(([body, ds]) => ds.reduce((b, d) => d(b), body));

export const brokenPayout = broken(validPayout, fc.oneof(defects(PAYOUT_REQUIRED), payoutOnly));
export const brokenToken = broken(validToken, fc.oneof(defects(TOKEN_REQUIRED), tokenOnly));

/** Anything in any field: the invariant is only "accepted ⇒ sent as documented, refused ⇒ not sent". */
export const wildPayout = fc.oneof(validPayout, brokenPayout, fc.dictionary(fc.string(), fc.anything(), { maxKeys: 8 }));
export const wildToken = fc.oneof(validToken, brokenToken, fc.dictionary(fc.string(), fc.anything(), { maxKeys: 8 }));

/** What the client must put on the wire for an accepted token body (the documented normalisations). */
export function expectedToken(params: Record<string, unknown>, merchantId: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params, merchant_id: merchantId };
  if ('language' in params && !(FORM_LANGUAGES as readonly unknown[]).includes(params['language'])) out['language'] = 'EN';
  if ('customer_type' in params && params['customer_type'] !== 'trust') out['customer_type'] = 'regular';
  // Return addresses are sent as their parsed href (docs/server.md, Field rules).
  for (const field of ['success_url', 'fail_url']) {
    if (typeof params[field] === 'string') out[field] = new URL(params[field] as string).href;
  }
  return out;
}
