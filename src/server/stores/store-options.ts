// The constructor checks of the stores and ledgers (MemoryCallbackStore, RedisCallbackStore,
// MemoryPayoutLedger, RedisPayoutLedger): the rules of service/option-rules.ts, with every bad option
// named in one RangeError, thrown when the store is made rather than at its first use (docs/stores.md). A RangeError, not a ConfigError: these constructors have always thrown one.
import { issuesAmong } from '../../service/option-rules.js';
import { listIssues } from '../errors.js';

/** Throws a RangeError listing every `[path, problem]` with a problem; does nothing when all are fine. */
export function requireStoreOptions(owner: string, checks: ReadonlyArray<readonly [path: string, problem: string | undefined]>): void {
  const issues = issuesAmong(checks);
  if (issues.length > 0) throw new RangeError(`Invalid ${owner} options: ${listIssues(issues)}`);
}
