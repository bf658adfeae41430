// Options checked when a thing is made, not when it is first used: one table per thing (PaymentClient,
// the sandbox), each option with its check, and one walk over it that lists every problem at once,
// a misspelt option included; or, for a handler, a store or a ledger, its checks as a list of
// `[path, problem]` pairs. The caller turns the issues into its own error class.
import type { FieldIssue } from './field-checks.js';

/** A problem with the value, as words that follow the option's name; undefined when it is fine. */
export type OptionCheck = (value: unknown) => string | undefined;

export interface OptionRule {
  check: OptionCheck;
  required?: true;
}

export const nonEmptyString: OptionCheck = (v) =>
  typeof v === 'string' && v.length > 0 ? undefined : 'must be a non-empty string';
export const fn: OptionCheck = (v) => (typeof v === 'function' ? undefined : 'must be a function');
export const positive: OptionCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'must be a finite number above 0';
export const count: OptionCheck = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? undefined : 'must be a whole number, 0 or more';
/** A bound on what a store keeps: at least one entry. */
export const atLeastOne: OptionCheck = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? undefined : 'must be a whole number, 1 or more';
/** A lease or a time to live. Infinity is refused (docs/stores.md): Redis cannot keep a key for
 *  ever with PX, and a lease without end would keep a dead holder's claim for ever. */
export const milliseconds: OptionCheck = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? undefined : 'must be a whole number of milliseconds, 1 or more';
/** Longest wait setTimeout keeps: past it, Node and browsers fire the timer after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const timer = (least: 0 | 1): OptionCheck => (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= least && v <= MAX_TIMER_MS
    ? undefined
    : `must be a whole number of milliseconds, ${least} to ${MAX_TIMER_MS}`;
/** A time limit or delay run by a timer: whole milliseconds, 1 to MAX_TIMER_MS. */
export const timerMilliseconds: OptionCheck = timer(1);
/** The same where 0 means "no wait". */
export const timerMillisecondsOrZero: OptionCheck = timer(0);

/** The issues among `[path, problem]` pairs, each problem what an OptionCheck answered (undefined when fine). */
export function issuesAmong(checks: ReadonlyArray<readonly [path: string, problem: string | undefined]>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const [path, message] of checks) if (message !== undefined) issues.push({ path, message });
  return issues;
}

/** Every issue with `input` against `table`: not an object, unknown keys, missing required ones, bad values. */
export function checkOptions(input: unknown, table: Readonly<Record<string, OptionRule>>, owner: string): FieldIssue[] {
  if (typeof input !== 'object' || input === null) return [{ path: 'options', message: 'must be an object' }];
  const options = input as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(table, key)) issues.push({ path: key, message: `is not a ${owner} option` });
  }
  for (const [key, rule] of Object.entries(table)) {
    const value = options[key];
    if (value === undefined) {
      if (rule.required) issues.push({ path: key, message: 'is required' });
      continue;
    }
    const problem = rule.check(value);
    if (problem) issues.push({ path: key, message: problem });
  }
  return issues;
}
