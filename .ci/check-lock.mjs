// npm ci refuses a lockfile that lacks any platform binary a package lists as optional. This machine's
// registry lacks some of them for some versions (rollup 4.68.7's, for one), so a plain `npm install`
// can write a lock that no fresh clone can install. Run after changing dependencies; .ci/run runs it too.
import { readFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const paths = Object.keys(lock.packages);
const missing = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    if (dep === 'fsevents') continue; // macOS only; npm tolerates its absence
    if (!paths.some((p) => p.endsWith(`node_modules/${dep}`))) missing.push(`${path || '(root)'} -> ${dep}`);
  }
}
if (missing.length) {
  console.error('package-lock.json misses optional platform packages, so `npm ci` will fail:');
  for (const m of missing) console.error(`  ${m}`);
  console.error('Pin the parent to a version whose binaries the registry has (package.json "overrides").');
  process.exit(1);
}
console.log('lockfile: every optional platform package is recorded');
