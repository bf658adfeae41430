// The payment service's field rules (docs/service-contract.md: Payout request, Form-token request, and
// Request fields under what pay-form chooses), as data. The client checks a
// request against these tables before anything leaves, and the sandbox checks what it receives against
// the same tables, so the two can never disagree. Where the service's documentation is silent, the choice is marked
// "(our choice)" and documented in docs/service-contract.md.
import {
  checkAdditional,
  currencyCode,
  isRecord,
  none,
  oneOf,
  orDefault,
  browserUrl,
  positiveInteger,
  text,
  validate,
  type AdditionalFieldRule,
  type Check,
  type FieldRule,
  type ValidateOptions,
  type Validation,
} from './field-checks.js';

export type { FieldIssue, Validation, ValidateOptions } from './field-checks.js';

export const PAYOUT_CURRENCIES = ['USD', 'EUR', 'RUB', 'UAH', 'USDT', 'IDR', 'AZN', 'VND'] as const;
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number];

/** additional_fields per payout method (docs/service-contract.md, "additional_fields by method"). Methods
 *  with no row of their own there need no additional fields, so they accept none. */
export const PAYOUT_ADDITIONAL_FIELDS = {
  card: { required: ['card_number'], optional: ['bank_name', 'card_holder', 'bank_option', 'expiry date'] },
  sbp: { required: ['bank_name', 'phone_holder', 'phone_number'], optional: [] },
  wallet_a: { required: ['phone_number'], optional: [] },
  localbanks: { required: ['account_number'], optional: ['bank_name', 'account_holder', 'alias'] },
  exchange: none,
  cash: { required: ['address', 'username', 'messenger', 'verification_code'], optional: ['asap', 'time'] },
  operator_a: { required: ['phone_number'], optional: [] },
  sbp_qr: none,
  wallet_b: { required: ['phone_number'], optional: [] },
  phone_topup: { required: ['bank_name', 'phone_number'], optional: ['phone_holder'] },
  havale: { required: ['account_number', 'bank_name', 'account_holder'], optional: [] },
  // Groups the service lists only in the additional_fields table; the method value is the group's name.
  ewallet_a: { required: ['ewallet_a_account', 'ewallet_a_holder'], optional: [] },
  transfer_a: { required: ['transfer_a_tag', 'transfer_a_holder'], optional: [] },
  ewallet_b: { required: ['ewallet_b_account', 'ewallet_b_holder', 'phone_number'], optional: [] },
  instant_transfer: { required: ['phone_number', 'account_holder', 'instant_transfer_key'], optional: [] },
  qr_transfer: { required: ['bank_name', 'phone_holder', 'phone_number'], optional: [] },
} as const satisfies Record<string, AdditionalFieldRule>;

type PayoutMethodGroup = keyof typeof PAYOUT_ADDITIONAL_FIELDS;
/** The service writes operator_a in lower case in one table and upper case in the other: both are accepted
 *  and sent as given. */
export const PAYOUT_METHODS = [
  ...(Object.keys(PAYOUT_ADDITIONAL_FIELDS) as PayoutMethodGroup[]),
  'OPERATOR_A',
] as readonly (PayoutMethodGroup | 'OPERATOR_A')[];
export type PayoutMethod = PayoutMethodGroup | 'OPERATOR_A';

export const FORM_METHODS = [
  'sbp', 'card', 'wallet_c', 'cash', 'mobile', 'exchange', 'operator_a_pay', 'wallet_a', 'wallet_b',
  'transfer_a', 'ewallet_a', 'cis_transfer', 'cis_transfer_card', 'localbanks', 'ewallet_b', 'bank_card_a',
  'instant_transfer', 'phone_topup',
] as const;
export type FormMethod = (typeof FORM_METHODS)[number];

export const FORM_LANGUAGES = ['EN', 'DE', 'UA', 'RU', 'KZ', 'AZ', 'IN', 'ID'] as const;
export type FormLanguage = (typeof FORM_LANGUAGES)[number];

export const BANK_APPS = ['bank_a', 'bank_b', 'bank_c'] as const;
export type BankApp = (typeof BANK_APPS)[number];

/** Form methods whose form needs `additional_fields.bank_app`; every other form method takes none. */
export const FORM_METHODS_WITH_BANK_APP: readonly FormMethod[] = ['cis_transfer', 'cis_transfer_card'];

export const CUSTOMER_TYPES = ['trust', 'regular'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** The fields both requests share: who pays, on which site, for which order, how much. */
export interface OrderFields {
  site_login: string;
  site_id: number;
  request_id: string;
  /** Minor units (cents): a positive integer. */
  amount: number;
}

/** What a merchant passes for a payout: merchant_id and signature are added by the client. */
export interface PayoutParams extends OrderFields {
  currency: PayoutCurrency;
  method: PayoutMethod;
  /** Method-specific keys (see PAYOUT_ADDITIONAL_FIELDS); every value is a string. */
  additional_fields: Record<string, string>;
}

/** What a merchant passes to obtain a form key. */
export interface TokenParams extends OrderFields {
  /** The service gives no list for this request: 3 to 10 letters or digits. */
  currency: string;
  method?: FormMethod;
  /** 'trust' or 'regular'; the service treats anything else as 'regular', so it is sent as 'regular'. */
  customer_type?: CustomerType | (string & {});
  /** Sent as 'EN' when not one of FORM_LANGUAGES, as the service would treat it. */
  language?: FormLanguage | (string & {});
  success_url?: string;
  fail_url?: string;
  /** Only for cis_transfer and cis_transfer_card: `{ bank_app }`. */
  additional_fields?: { bank_app: BankApp } | Record<string, never>;
}

export type PayoutRequest = PayoutParams & { merchant_id: string };
export type TokenRequest = TokenParams & { merchant_id: string };

const payoutAdditionalFields: Check = (v, path, ctx) => {
  const method = ctx.body.method;
  // An unknown method is reported on its own field; its additional_fields cannot be judged.
  if (typeof method !== 'string' || !(PAYOUT_METHODS as readonly string[]).includes(method)) {
    return isRecord(v) ? v : void ctx.issues.push({ path, message: 'must be an object' });
  }
  const rule: AdditionalFieldRule = PAYOUT_ADDITIONAL_FIELDS[method.toLowerCase() as PayoutMethodGroup];
  return checkAdditional(v, path, ctx, rule, () => text);
};

const needsBankApp = (body: Record<string, unknown>) =>
  typeof body.method === 'string' && FORM_METHODS_WITH_BANK_APP.includes(body.method as FormMethod);

const formAdditionalFields: Check = (v, path, ctx) => {
  const rule: AdditionalFieldRule = needsBankApp(ctx.body) ? { required: ['bank_app'], optional: [] } : none;
  return checkAdditional(v, path, ctx, rule, () => oneOf(BANK_APPS));
};

// ---- the tables: one per request ----

const common = {
  merchant_id: { required: true, check: text },
  site_login: { required: true, check: text },
  site_id: { required: true, check: positiveInteger },
  request_id: { required: true, check: text },
  amount: { required: true, check: positiveInteger },
  signature: { required: 'signed', check: text },
} as const satisfies Record<string, FieldRule>;

/** Payout request fields (docs/service-contract.md, "Payout request fields"). */
export const PAYOUT_FIELDS: Readonly<Record<keyof PayoutRequest | 'signature', FieldRule>> = {
  ...common,
  currency: { required: true, check: oneOf(PAYOUT_CURRENCIES) },
  method: { required: true, check: oneOf(PAYOUT_METHODS) },
  additional_fields: { required: true, check: payoutAdditionalFields },
};

/** Form-token request fields (docs/service-contract.md, "Form-token request fields"). */
export const TOKEN_FIELDS: Readonly<Record<keyof TokenRequest | 'signature', FieldRule>> = {
  ...common,
  currency: { required: true, check: currencyCode },
  method: { required: false, check: oneOf(FORM_METHODS) },
  customer_type: { required: false, check: orDefault(CUSTOMER_TYPES, 'regular', 'customer_type') },
  language: { required: false, check: orDefault(FORM_LANGUAGES, 'EN', 'language') },
  success_url: { required: false, check: browserUrl },
  fail_url: { required: false, check: browserUrl },
  additional_fields: { required: needsBankApp, check: formAdditionalFields },
};

/** Checks a whole payout body (merchant_id included) against PAYOUT_FIELDS; every issue at once. */
export function validatePayoutRequest(input: unknown, opts: ValidateOptions = {}): Validation<PayoutRequest> {
  return validate<PayoutRequest>(PAYOUT_FIELDS, input, opts);
}

/** Checks a whole obtain_token body (merchant_id included) against TOKEN_FIELDS; every issue at once. */
export function validateTokenRequest(input: unknown, opts: ValidateOptions = {}): Validation<TokenRequest> {
  return validate<TokenRequest>(TOKEN_FIELDS, input, opts);
}
