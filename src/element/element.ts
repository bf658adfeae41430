// The `pay-form/element` entry: the class, its types and event names, without defining the tag.
export { PayForm } from './pay-form.js';
export { DEFAULT_FRAME_TITLE, DEFAULT_LOAD_TIMEOUT, DEFAULT_SETTLE_TIMEOUT } from './pay-form-properties.js';
export * from './events.js';
export type { FetchToken, FetchTokenContext, TokenAnswer } from './token-controller.js';
export { DEFAULT_TEXTS, type PayFormTextKey, type PayFormTexts } from './texts.js';
export type { ResultMessage, ResultStatus } from './result.js';
