// npm run bench: every bench, one after the other, each in its own process, and their tables written
// into docs/performance.md between its markers (`<!-- bench:NAME -->` … `<!-- /bench:NAME -->`); the
// size table and the README's hashes through scripts/readme-sync.ts. `npm run bench -- quick` runs
// each at a small size, to check the benches work (its figures are not worth publishing); names after
// it (size, server, server-import, telemetry, form-open, form-open-engines, ledger, settle, redis, open-checkouts, fuzz) run only those, e.g. `npm run bench -- fuzz`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = join(ROOT, 'docs/performance.md');
const args = process.argv.slice(2);
const quick = args.includes('quick');
const chosen = args.filter((a) => a !== 'quick');
const wanted = (name: string) => chosen.length === 0 || chosen.includes(name);
const work = mkdtempSync(join(tmpdir(), 'pay-form-bench-'));

/** Runs a script under tsx with `env`; returns its standard output (its tables are also echoed). */
function run(args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(result.stdout);
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${String(result.status)}`);
  return result.stdout;
}

/** Replaces what lies between the markers of `name` in docs/performance.md. */
export function replaceGenerated(markdown: string, name: string, content: string): string {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start === -1 || end < start) throw new Error(`docs/performance.md has no ${open} … ${close}`);
  return `${markdown.slice(0, start + open.length)}\n${content.trim()}\n${markdown.slice(end)}`;
}

function benchSection(name: string, script: string, args: string[]): void {
  const out = join(work, `${name}.md`);
  run([script, ...args], { PAY_FORM_BENCH_OUT: out });
  writeFileSync(DOC, replaceGenerated(readFileSync(DOC, 'utf8'), name, readFileSync(out, 'utf8')));
}

/** The fuzz tests' own report (node:test's spec output), as a table. */
export function fuzzTable(spec: string, runs: number): string {
  const rows: string[] = [];
  for (const [, label, accepted, refused] of spec.matchAll(/^\s*ℹ (.+?): \d+ cases, accepted (\d+), refused (\d+)$/gm)) {
    const passed = new RegExp(`^\\s*✔ ${label!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*\\(([\\d.]+)ms\\)$`, 'm').exec(spec);
    rows.push(`| ${label} | ${accepted} | ${refused} | ${passed ? 'held' : '**failed**'} | ${passed ? Number(passed[1]).toFixed(0) : ''} |`);
  }
  const failed = (spec.match(/^\s*✖ /gm) ?? []).length;
  return [
    `fast-check, ${runs} cases per property (PAY_FORM_FUZZ_RUNS), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}; ${failed === 0 ? 'every invariant held' : `**${failed} failed**`}.`,
    '',
    '| property | accepted | refused | invariants | time (ms) |',
    '|---|---:|---:|---|---:|',
    ...rows,
  ].join('\n');
}

try {
  if (wanted('size')) run(['scripts/readme-sync.ts']);
  if (wanted('server')) benchSection('server', 'bench/server/run.ts', quick ? ['5', '2', '1000', '10'] : []);
  if (wanted('server-import')) benchSection('server-import', 'bench/server/import.ts', quick ? ['3'] : []);
  if (wanted('telemetry')) benchSection('telemetry', 'bench/telemetry/run.ts', quick ? ['2', '2', '500'] : []);
  if (wanted('form-open')) benchSection('form-open', 'bench/form-open/run.ts', quick ? ['6', '30'] : []);
  if (wanted('form-open-engines')) benchSection('form-open-engines', 'bench/form-open/engines.ts', quick ? ['6'] : []);
  if (wanted('ledger')) ledgerSection(quick ? ['3', '100', '1000'] : []);
  if (wanted('settle')) settleSection(quick ? { ROUNDS: '1', SAMPLES: '5' } : {});
  if (wanted('redis')) benchSection('redis', 'bench/redis/run.ts', quick ? ['1', '100'] : []);
  if (wanted('open-checkouts')) benchSection('open-checkouts', 'bench/open-checkouts/run.ts', quick ? ['300', '3'] : []);
  if (wanted('fuzz')) fuzzSection(quick ? 200 : 10_000);
  console.log(`docs/performance.md written${quick ? ' (quick sizes)' : ''}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** bench/ledger prints its table last, after its progress lines: the table is what goes in. */
function ledgerSection(args: string[]): void {
  const table = run(['bench/ledger/run.ts', ...args]).split('\n').filter((line) => line.startsWith('|'));
  if (table.length < 3) throw new Error('bench/ledger printed no table');
  writeFileSync(DOC, replaceGenerated(readFileSync(DOC, 'utf8'), 'ledger', table.join('\n')));
}

/** bench/settle prints one line saying what ran, then its table. */
function settleSection(env: Record<string, string>): void {
  const lines = run(['bench/settle/run.ts'], env).split('\n');
  const table = lines.filter((line) => line.startsWith('|'));
  if (table.length < 3) throw new Error('bench/settle printed no table');
  const heading = lines.find((line) => line.startsWith('callback → settled')) ?? '';
  writeFileSync(DOC, replaceGenerated(readFileSync(DOC, 'utf8'), 'settle', `${heading}\n\n${table.join('\n')}`));
}

function fuzzSection(runs: number): void {
  const fuzz = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/node/fuzz/browser.test.ts', 'test/node/fuzz/server.test.ts'],
    { cwd: ROOT, env: { ...process.env, PAY_FORM_FUZZ_RUNS: String(runs) }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  process.stdout.write(fuzz.stdout);
  writeFileSync(DOC, replaceGenerated(readFileSync(DOC, 'utf8'), 'fuzz', fuzzTable(fuzz.stdout, runs)));
}
