// How many cases each property test runs: PAY_FORM_FUZZ_RUNS, or a modest default so `npm test` stays
// quick; `npm run bench:fuzz` sets 10,000.
export const DEFAULT_FUZZ_RUNS = 200;

export function fuzzRuns(value = process.env['PAY_FORM_FUZZ_RUNS']): number {
  if (value === undefined || value === '') return DEFAULT_FUZZ_RUNS;
  const runs = Number(value);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`PAY_FORM_FUZZ_RUNS must be a positive integer, got ${JSON.stringify(value)}`);
  return runs;
}

/** Counts accepted and refused inputs per property, reported beside each test's result. */
export class Tally {
  accepted = 0;
  refused = 0;
  add(ok: boolean): void {
    if (ok) this.accepted++;
    else this.refused++;
  }
  toString(): string {
    return `${this.accepted + this.refused} cases, accepted ${this.accepted}, refused ${this.refused}`;
  }
}
