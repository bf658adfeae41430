// The last step of `npm test`: the suites in two lanes side by side, each lane's scripts one after the
// other. The Node suites keep the two cores about 90 % busy and a browser engine about 55 %, so one after
// the other left a core idle for the browsers' half of the run (docs/testing.md, "How long"). A lane goes
// on after a failing script, so one run names every failure; each line is prefixed with its lane, and
// the end says how each script ended and how long it took.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const LANES = {
  node: ['test:node', 'test:node:fetch', 'test:node-lts'],
  browsers: ['test:browser', 'test:e2e'],
};

const children = new Set();
const stopAll = (signal) => {
  for (const child of children) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
  process.exit(1);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

const width = Math.max(...Object.keys(LANES).map((lane) => lane.length));
const tag = (lane) => `[${lane.padEnd(width)}]`;

/** Runs `npm run <script>` in its own process group, each output line prefixed; answers its exit code. */
function run(lane, script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => console.log(`${tag(lane)} ${line}`));
    }
    child.once('error', (error) => {
      console.log(`${tag(lane)} cannot run npm run ${script}: ${error.message}`);
      resolve(1);
    });
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = Date.now();
const ended = [];
await Promise.all(
  Object.entries(LANES).map(async ([lane, scripts]) => {
    for (const script of scripts) {
      const from = Date.now();
      const code = await run(lane, script);
      ended.push({ lane, script, code, seconds: (Date.now() - from) / 1000 });
    }
  }),
);

console.log(`\nnpm test, ${((Date.now() - started) / 60000).toFixed(1)} min in two lanes:`);
for (const { lane, script, code, seconds } of ended) {
  console.log(`  ${tag(lane)} ${code === 0 ? 'passed' : `FAILED (exit ${code})`}  ${script}  ${seconds.toFixed(0)} s`);
}
process.exit(ended.every(({ code }) => code === 0) ? 0 : 1);
