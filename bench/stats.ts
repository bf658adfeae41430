// What every bench reports: the median and the spread (min–max) over rounds, the machine it ran on,
// and its Markdown section for docs/performance.md (written by `npm run bench`, see bench/all.ts).
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';

export function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** "median (min–max)", each with `digits` decimals. */
export function spread(xs: readonly number[], digits = 0): string {
  const f = (x: number) => x.toFixed(digits);
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

export function machine(): string {
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  return `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), Node ${process.version}, load average ${load} at the end`;
}

/** Prints the section, and writes it where `npm run bench` asked (PAY_FORM_BENCH_OUT). */
export async function report(markdown: string): Promise<void> {
  console.log(markdown);
  const out = process.env['PAY_FORM_BENCH_OUT'];
  if (out) await writeFile(out, `${markdown.trim()}\n`);
}
