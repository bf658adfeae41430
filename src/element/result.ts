// The message a merchant's return page (success_url / fail_url) posts to the page that framed it.
import { ConfigError } from '../service/errors.js';

export const RESULT_MESSAGE_TYPE = 'pay-form:result';

export type ResultStatus = 'success' | 'fail';

export interface ResultMessage {
  type: typeof RESULT_MESSAGE_TYPE;
  status: ResultStatus;
}

export function isResultStatus(value: unknown): value is ResultStatus {
  return value === 'success' || value === 'fail';
}

export function buildResult(status: ResultStatus): ResultMessage {
  if (!isResultStatus(status)) throw new ConfigError([{ path: 'status', message: 'must be "success" or "fail"' }], 'reportResult');
  return { type: RESULT_MESSAGE_TYPE, status };
}

/**
 * The contract message or null. Exactly two own keys are allowed: a message carrying anything more
 * was not built by this contract, and treating it as one would widen what a framed page can say.
 */
export function parseResult(data: unknown): ResultMessage | null {
  const { type, status } = Object(data) as { type?: unknown; status?: unknown };
  // A plain object only (an array's prototype is Array.prototype; a primitive is not an object).
  return !!data &&
    typeof data == 'object' &&
    [Object.prototype, null].includes(Object.getPrototypeOf(data)) &&
    Object.keys(data as object).length == 2 &&
    type === RESULT_MESSAGE_TYPE &&
    isResultStatus(status)
    ? { type, status }
    : null;
}
