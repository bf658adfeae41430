// The `pay-form/server` entry: everything a merchant backend uses. Node-free except toNodeHandler,
// whose node:http types are type-only imports plus node:stream (present on Node, Deno, Bun).
export { PaymentClient, type TokenResponse, type PayoutResponse } from './client.js';
export type { PaymentClientOptions, SecretOptions, SignerOptions, ClientWarning } from './options.js';
export {
  PayFormError,
  ConfigError,
  ValidationError,
  ApiError,
  SignatureError,
  NetworkError,
  TimeoutError,
  BadResponseError,
  DuplicatePayoutError,
  PayoutLedgerError,
  type PayFormErrorCode,
  type BadResponseReason,
  type Operation,
} from './errors.js';
export {
  sign,
  verify,
  canonicalJson,
  timingSafeEqual,
  hmacSigner,
  hmacVerifier,
  signed,
  type Signer,
  type Verifier,
  type JsonValue,
  type JsonObject,
} from '../service/signature.js';
export {
  PAYOUT_CURRENCIES,
  PAYOUT_METHODS,
  PAYOUT_ADDITIONAL_FIELDS,
  PAYOUT_FIELDS,
  FORM_METHODS,
  FORM_METHODS_WITH_BANK_APP,
  FORM_LANGUAGES,
  BANK_APPS,
  CUSTOMER_TYPES,
  TOKEN_FIELDS,
  validatePayoutRequest,
  validateTokenRequest,
  type PayoutCurrency,
  type PayoutMethod,
  type FormMethod,
  type FormLanguage,
  type BankApp,
  type CustomerType,
  type PayoutParams,
  type TokenParams,
  type PayoutRequest,
  type TokenRequest,
  type FieldIssue,
  type Validation,
  type ValidateOptions,
} from '../service/fields.js';
export { MAX_REQUEST_BYTES, INVALID_JSON_MESSAGE, type FetchHandler } from './handlers.js';
export { createTokenHandler, type TokenHandlerOptions, type TokenRequestBody } from './token-handler.js';
export {
  createCallbackHandler,
  OnStatusTimeoutError,
  type CallbackHandlerOptions,
  type CallbackPayload,
} from './callback-handler.js';
export { createStatusHandler, type StatusHandlerOptions } from './status-handler.js';
export type { CallbackStore, ClaimResult, OrderStatus, OrderOutcome } from './callback-store.js';
export { MemoryCallbackStore, type MemoryCallbackStoreOptions } from './memory-store.js';
export {
  RedisCallbackStore,
  type RedisCallbackStoreOptions,
  type RedisClientLike,
  type RedisSubscriberLike,
} from './redis-store.js';
export {
  MemoryPayoutLedger,
  type PayoutLedger,
  type PayoutEntry,
  type PayoutState,
  type PayoutClaim,
  type PayoutFinish,
  type PayoutResolution,
  type PaidSource,
  type MemoryPayoutLedgerOptions,
} from './payout-ledger.js';
export { RedisPayoutLedger, type RedisPayoutLedgerOptions } from './redis-payout-ledger.js';
export type { RedisCommandClient } from './redis-client.js';
export type { PayoutRef, PayoutOutcome } from './payout-guard.js';
export { toNodeHandler, type NodeHandler, type NodeHandlerOptions, type NodeRequest, type NodeResponse } from './node-adapter.js';
export { MAX_RESPONSE_BYTES } from './transport.js';
