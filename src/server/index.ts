// The `pay-form/server` entry: everything a merchant backend uses. Node-free except toNodeHandler,
// whose node:http types are type-only imports plus node:stream (present on Node, Deno, Bun).
export { PaymentClient, type TokenResponse, type PayoutResponse } from './client/payment-client.js';
export type { PaymentClientOptions, SecretOptions, SignerOptions, ClientWarning } from './client/client-options.js';
export {
  PayFormError,
  ConfigError,
  ValidationError,
  ApiError,
  AuthenticationError,
  SignatureError,
  NetworkError,
  TimeoutError,
  BadResponseError,
  ServiceAddressError,
  DuplicatePayoutError,
  PayoutLedgerError,
  ServiceCallError,
  StoreError,
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
export { FORM_LANGUAGE_OF, formLanguage } from '../service/language.js';
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
export { MAX_REQUEST_BYTES, INVALID_JSON_MESSAGE, type FetchHandler } from './http/json-answers.js';
export { createTokenHandler, type TokenHandlerOptions, type TokenRequestBody, type ResolvedOrder } from './http/token-handler.js';
export {
  createCallbackHandler,
  OnStatusTimeoutError,
  type CallbackHandlerOptions,
  type CallbackPayload,
  type CallbackOrder,
  type ExtraPayment,
} from './http/callback-handler.js';
export { createStatusHandler, type StatusHandlerOptions } from './http/status-handler.js';
export type {
  CallbackStore,
  ClaimStore,
  StatusStore,
  StatusNews,
  AttemptStore,
  CallbackRecord,
  ClaimResult,
  OrderStatus,
  Verdict,
  ExtraReason,
  KeptToken,
  AttemptRequest,
  AttemptStart,
} from './stores/callback-store.js';
export { orderStatus } from './stores/callback-store.js';
export { ATTEMPT_SEPARATOR, parseRequestId, type StatusAnswer, type TokenAnswer } from '../service/checkout.js';
export { MemoryCallbackStore, type MemoryCallbackStoreOptions } from './stores/memory-callback-store.js';
export { RedisCallbackStore, type RedisCallbackStoreOptions } from './stores/redis-callback-store.js';
export { logRedisOutages, type RedisEventSource } from './stores/redis-outage.js';
export { MemoryPayoutLedger, type MemoryPayoutLedgerOptions } from './payouts/memory-payout-ledger.js';
export type {
  PayoutLedger,
  PayoutEntry,
  PayoutState,
  PayoutClaim,
  PayoutFinish,
  PayoutResolution,
  PaidSource,
} from './payouts/payout-ledger.js';
export { RedisPayoutLedger, type RedisPayoutLedgerOptions } from './payouts/redis-payout-ledger.js';
export type {
  RedisClientLike,
  RedisCommandClient,
  RedisSubscriberLike,
  NodeRedisClientLike,
  NodeRedisClusterLike,
  NodeRedisSentinelLike,
  IoredisLike,
} from './stores/redis-client.js';
export type { PayoutRef, PayoutOutcome } from './payouts/payout-guard.js';
export { toNodeHandler, BodyConsumedError, type NodeHandler, type NodeHandlerOptions, type NodeRequest, type NodeResponse } from './http/node-adapter.js';
export { MAX_RESPONSE_BYTES } from './client/transport.js';
export type {
  PayFormEvent,
  PayFormObserver,
  EventSource,
  CallbackOutcome,
  PayoutOutcomeName,
  StatusOutcome,
} from './telemetry/observer.js';
