// Where a status wait's memory goes: one backend process (backend.ts, or BACKEND_ENTRY's, such as
// floor-backend.ts) on a real redis-server, a heap snapshot before any page and another with `size`
// pages waiting (pages.ts, each on its own order), and the difference per waiting request (counted by
// node:http's ServerResponse objects) by what V8 calls each
// object: its constructor for objects, its function's name for closures, its kind otherwise. The
// snapshots are V8's own (node:v8 writeHeapSnapshot, after a full GC), so only live objects count.
//   node --import tsx bench/open-checkouts/heap.ts [size=300] [rows=30]
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedis } from '../../test/support/redis/redis-server.js';
import { newAttemptId } from '../../src/service/checkout.js';
import { buildBackend, startBackend } from './backends.js';
import { pageAgent, settle, type Page } from './pages.js';
import { setTimeout as sleep } from 'node:timers/promises';

const SIZE = Number(process.argv[2] ?? 300);
const ROWS = Number(process.argv[3] ?? 30);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size and count of the snapshot's objects, by kind and name. */
function census(file: string): Map<string, { size: number; count: number }> {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const kinds = heap.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const out = new Map<string, { size: number; count: number }>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const kind = kinds[heap.nodes[i + type]!]!;
    // Strings and code are grouped by kind: their names are their contents.
    const named = kind === 'object' || kind === 'closure' || kind === 'hidden' || kind === 'native';
    const key = named ? `${kind} ${heap.strings[heap.nodes[i + name]!] || '(anonymous)'}` : kind;
    const row = out.get(key) ?? { size: 0, count: 0 };
    row.size += heap.nodes[i + size]!;
    row.count++;
    out.set(key, row);
  }
  return out;
}

const redis = await startRedis();
const dir = mkdtempSync(join(tmpdir(), 'pay-form-heap-'));
const backend = await startBackend(await buildBackend(), redis.url);
try {
  await sleep(500);
  const snap = async (name: string) => {
    const file = join(dir, `${name}.heapsnapshot`);
    await fetch(`${backend.url}/heap-snapshot?to=${encodeURIComponent(file)}`);
    return census(file);
  };
  // One round of asks first, so that what every request leaves behind once (compiled code, caches)
  // is in both snapshots.
  const warm: Page[] = Array.from({ length: 20 }, (_, i) => ({ orderRef: `warm-${i}`, attempt: newAttemptId(), backend: 0, expected: 'success', refusals: {} }));
  const counts = { inFlight: 0 };
  for (const page of warm) void settle(page, backend.url, counts);
  await sleep(2000);
  const before = await snap('before');
  const pages: Page[] = Array.from({ length: SIZE }, (_, i) => ({ orderRef: `heap-${i}`, attempt: newAttemptId(), backend: 0, expected: 'success', refusals: {} }));
  for (const page of pages) void settle(page, backend.url, counts);
  while (counts.inFlight < SIZE + warm.length) await sleep(50);
  await sleep(1000);
  const after = await snap('after');
  // Per request held at the second snapshot: node:http makes one ServerResponse per request until it
  // is answered, so their count is the waits' (a page still connecting is not yet one).
  const responses = (after.get('object ServerResponse')?.count ?? 0) - (before.get('object ServerResponse')?.count ?? 0);
  const rows = [...new Set([...before.keys(), ...after.keys()])]
    .map((key) => {
      const a = after.get(key) ?? { size: 0, count: 0 };
      const b = before.get(key) ?? { size: 0, count: 0 };
      return { key, bytes: (a.size - b.size) / responses, count: (a.count - b.count) / responses };
    })
    .sort((x, y) => y.bytes - x.bytes);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  console.log(`${responses} of ${SIZE} pages waiting on ${process.env['BACKEND_ENTRY'] ?? 'bench/open-checkouts/backend.ts'}: ${total.toFixed(0)} B of live heap per wait\n`);
  console.log('| bytes per wait | objects per wait | what |\n|---:|---:|---|');
  for (const row of rows.slice(0, ROWS)) console.log(`| ${row.bytes.toFixed(0)} | ${row.count.toFixed(2)} | ${row.key} |`);
} finally {
  backend.child.kill();
  pageAgent.destroy();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
