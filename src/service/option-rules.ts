// Options checked when a thing is made, not when it is first used: one table per thing (PaymentClient,
// the sandbox), each option with its check, and one walk over it that lists every problem at once,
// a misspelt option included. The caller turns the list into its own error class.
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
export const nonNegative: OptionCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a finite number, 0 or more';
export const positive: OptionCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'must be a finite number above 0';
export const count: OptionCheck = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? undefined : 'must be a whole number, 0 or more';

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
