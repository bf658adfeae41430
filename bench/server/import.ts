// bench/server/import.ts: what loading pay-form/server costs a fresh Node process (a serverless cold
// start, a CLI, each of a cluster's workers): the time `import()` of the built dist/server/index.js takes
// and the process's RSS once it has made a callback and a status handler (which loads
// @opentelemetry/api when it is installed), against Node alone.
//   node --import tsx bench/server/import.ts [runs] [dist folder ...]   (default 30, this checkout's dist)
// Several dist folders (another checkout's, built) are run side by side, one process each in turn.
import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machine, median, report, spread } from '../stats.js';

const [runsArg, ...dists] = process.argv.slice(2);
const runs = Number(runsArg ?? 30);
const folders = dists.length > 0 ? dists.map((d) => resolve(d)) : [resolve(import.meta.dirname, '../../dist')];

const CHILD = `
const started = performance.now();
const url = process.argv[1];
const server = url === 'none' ? undefined : await import(url);
const ms = performance.now() - started;
if (server) {
  const store = new server.MemoryCallbackStore();
  server.createCallbackHandler({ secret: 's', store, onStatus() {} });
  server.createStatusHandler({ store, authorize: () => true });
  await new Promise((r) => setTimeout(r, 50));
}
globalThis.gc();
console.log(JSON.stringify({ ms, rss: process.memoryUsage().rss }));
`;

function once(target: string): { ms: number; rss: number } {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD, target], { encoding: 'utf8' });
  return JSON.parse(out) as { ms: number; rss: number };
}

const subjects = ['none', ...folders.map((folder) => pathToFileURL(`${folder}/server/index.js`).href)];
const samples = new Map(subjects.map((s) => [s, { ms: [] as number[], rss: [] as number[] }]));
for (let run = 0; run < runs; run++) {
  const order = [...subjects.slice(run % subjects.length), ...subjects.slice(0, run % subjects.length)];
  for (const subject of order) {
    const { ms, rss } = once(subject);
    samples.get(subject)!.ms.push(ms);
    samples.get(subject)!.rss.push(rss / 1024 / 1024);
  }
}
const alone = median(samples.get('none')!.rss);
const ROOT = resolve(import.meta.dirname, '../..');
const rows = [...samples].map(([subject, { ms, rss }]) => {
  if (subject === 'none') return `| Node alone |  | ${spread(rss, 1)} |  |`;
  const folder = subject.replace('file://', '').replace(/\/server\/index\.js$/, '');
  return `| \`${relative(ROOT, folder) || '.'}\` | ${spread(ms, 1)} | ${spread(rss, 1)} | ${(median(rss) - alone).toFixed(1)} |`;
});
await report(
  [
    `bench/server/import, ${machine()}; ${runs} processes each, in rotated order; median (min–max).`,
    '',
    '| dist | import() ms | RSS MiB after two handlers | over Node alone |',
    '|---|---:|---:|---:|',
    ...rows,
  ].join('\n'),
);
