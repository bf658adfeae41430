// The base of every error pay-form throws, and the error for bad options, shared by every room: the
// server's classes (server/errors.ts), the sandbox's and the return-page helper's all extend it, so a
// merchant branches on `instanceof PayFormError` or on the stable `code` string. None of them ever
// holds a secret or a signature: toJSON() is explicit so logging an error as JSON shows only safe fields.
import type { ServerErrorCode } from './error-codes.js';
import type { FieldIssue } from './fields.js';
import { issuesAmong } from './option-rules.js';

export class PayFormError extends Error {
  readonly code: ServerErrorCode;

  constructor(code: ServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** The message and every own field (all safe by construction), never the stack or the cause. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const [field, value] of Object.entries(this)) {
      if (field !== 'cause' && field !== 'stack') out[field] = value;
    }
    return out;
  }
}

/** Issues as one line of an error message: `path: problem; path: problem`. */
export function listIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}

/**
 * Something was made with bad options (a client, a handler, a store, a ledger, the sandbox): a bug in
 * the merchant's setup, found when the thing is made rather than at its first use. Lists every problem.
 */
export class ConfigError extends PayFormError {
  readonly issues: readonly FieldIssue[];

  /** `owner` names what was being made: `PaymentClient`, `createCallbackHandler`, `RedisCallbackStore`… */
  constructor(issues: readonly FieldIssue[], owner = 'PaymentClient') {
    super('config', `Invalid ${owner} options: ${listIssues(issues)}`);
    this.issues = issues;
  }
}

/**
 * A constructor's or factory's option checks, each `[path, problem]` with the problem as an OptionCheck
 * (option-rules.ts) answers it, undefined when fine: throws one ConfigError listing every problem.
 */
export function requireOptions(owner: string, checks: ReadonlyArray<readonly [path: string, problem: string | undefined]>): void {
  const issues = issuesAmong(checks);
  if (issues.length > 0) throw new ConfigError(issues, owner);
}
