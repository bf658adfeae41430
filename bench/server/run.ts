// bench/server: the token and callback handlers against their floors, on loopback.
//   npm run bench:server [-- rounds seconds rate connections]   (default 5 5 1000 10)
// Every server is a child process (roles.ts). Each round runs every subject, in an order rotated by one
// each round, twice: at a fixed offered load (`rate` req/s, autocannon's overallRate) for the CPU the
// subject's process spends per request (process.cpuUsage over IPC, before and after), and unbounded
// (`connections` connections) for its throughput. Ratios are taken within a round, then summarised
// over rounds as median (min–max).
import { machine, median, report, spread } from '../stats.js';
import { callbackRequest, children, measure, start, tokenRequest, usage, type Sample, type Subject } from './subjects.js';

const [rounds = 5, seconds = 5, rate = 1000, connections = 10] = process.argv.slice(2).map(Number);

try {
  const upstream = await start('upstream');
  const [proxy, token, tokenFetch, callback, bare] = await Promise.all([
    start('proxy', upstream.url),
    start('token', upstream.url),
    start('token-fetch', upstream.url),
    start('callback'),
    start('bare-callback'),
  ]);
  const subjects: Subject[] = [
    { name: 'raw fetch proxy (baseline)', child: proxy, options: tokenRequest },
    { name: 'token handler (Node transport, the default)', child: token, options: tokenRequest },
    { name: 'token handler with `fetch`', child: tokenFetch, options: tokenRequest },
    { name: 'bare node:http JSON + HMAC (callback floor)', child: bare, options: callbackRequest },
    { name: 'callback handler (distinct callbacks)', child: callback, options: callbackRequest },
  ];
  const upstreamStart = await usage(upstream.child);
  for (const subject of subjects) await measure(subject, 1, rate, connections); // warm-up: JIT, connection pools
  const samples = new Map<string, Sample[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = [...subjects.slice(round % subjects.length), ...subjects.slice(0, round % subjects.length)];
    for (const subject of order) samples.get(subject.name)!.push(await measure(subject, seconds, rate, connections));
    console.error(`round ${round + 1}/${rounds}: ${order.map((s) => s.name.split(' (')[0]).join(' → ')}`);
  }
  const upstreamEnd = await usage(upstream.child);

  const of = (name: string) => samples.get(name)!;
  const pick = (name: string, key: keyof Sample) => of(name).map((s) => s[key]);
  const ratio = (a: string, b: string, key: keyof Sample) => of(a).map((s, i) => s[key] / of(b)[i]![key]);
  const [P, T, TF, B, C] = subjects.map((s) => s.name) as [string, string, string, string, string];
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const verdict = (xs: number[], ok: (x: number) => boolean) => (ok(median(xs)) ? 'met' : '**missed**');

  const cpuToken = ratio(T, P, 'cpu');
  const rpsToken = ratio(T, P, 'rps');
  const cpuCallback = ratio(C, B, 'cpu');
  const lines = [
    `bench/server, ${machine()}.`,
    `${rounds} rounds in rotated order; per subject and round ${seconds} s at a fixed ${rate} req/s (CPU per request) and ${seconds} s unbounded with ${connections} connections (throughput); loopback; upstream: bench/server's minimal signed-answer service (RSS ${mib(upstreamStart.rss)} MiB before the rounds, ${mib(upstreamEnd.rss)} MiB after).`,
    '',
    `| server | CPU µs / request at ${rate} req/s | served at ${rate} req/s | p50 / p99 ms at ${rate} req/s | max req/s | errors |`,
    '|---|---:|---:|---:|---:|---:|',
    ...subjects.map((s) => {
      const xs = of(s.name);
      const lat = `${median(xs.map((x) => x.p50)).toFixed(0)} / ${median(xs.map((x) => x.p99)).toFixed(0)}`;
      return `| ${s.name} | ${spread(pick(s.name, 'cpu'))} | ${spread(pick(s.name, 'served'))} | ${lat} | ${spread(pick(s.name, 'rps'))} | ${xs.reduce((n, x) => n + x.bad, 0)} |`;
    }),
    '',
    '| ratio (per round, median (min–max)) | value | target |',
    '|---|---:|---|',
    `| token handler CPU / request ÷ raw fetch proxy | ${spread(cpuToken, 2)} | ≤ 0.50: ${verdict(cpuToken, (x) => x <= 0.5)} |`,
    `| token handler throughput ÷ raw fetch proxy | ${spread(rpsToken, 2)} | ≥ 1.50: ${verdict(rpsToken, (x) => x >= 1.5)} |`,
    `| callback handler CPU / request ÷ bare node:http JSON + HMAC | ${spread(cpuCallback, 2)} | ≤ 1.50: ${verdict(cpuCallback, (x) => x <= 1.5)} |`,
    `| token handler with \`fetch\`, CPU / request ÷ raw fetch proxy | ${spread(ratio(TF, P, 'cpu'), 2)} | (the transport's share) |`,
  ];
  await report(lines.join('\n'));
} finally {
  for (const child of children) child.kill();
}
