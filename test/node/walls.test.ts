// The rooms of src/ keep to their walls: element and server build on the service contract only, the
// sandbox reaches the server through its public entry, the contract imports nothing; inside the server,
// stores import neither http nor client, client never imports http. Each wall is also crossed on
// purpose in a made-up file, to show the check catches it. The toolshed's rule is held here too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOOLSHED, sourceFiles, specifiers, toolshedViolations, wallViolations } from '../support/walls.js';

const src = new URL('../../src/', import.meta.url);

test('no import in src/ crosses a wall', async () => {
  const files = await sourceFiles(src);
  assert.ok(files.length > 30, `read ${files.length} files`);
  for (const room of ['element', 'service', 'server', 'server/client', 'server/http', 'server/payouts', 'server/stores', 'sandbox']) {
    assert.ok(files.some((f) => f.path.startsWith(`${room}/`)), `room ${room} has files`);
  }
  assert.deepEqual(wallViolations(files), []);
});

test('the import reader sees static, type-only, re-export and dynamic imports', () => {
  const text = [
    `import { a } from './a.js';`,
    `import type { B } from "../service/b.js";`,
    `export * from './c.js';`,
    `export { d } from './d.js';`,
    `import './e.js';`,
    `const f = await import('./f.js');`,
    `import {\n  g,\n  h,\n} from './g.js';`,
  ].join('\n');
  assert.deepEqual(specifiers(text), ['./a.js', '../service/b.js', './c.js', './d.js', './e.js', './f.js', './g.js']);
});

const crossings: [string, string, RegExp][] = [
  ['element/x.ts', `import { sign } from '../service/signature.js';`, /may not/],
  ['element/x.ts', `import { PaymentClient } from '../server/index.js';`, /element room may not import the server room/],
  ['element/x.ts', `import http from 'node:http';`, /package node:http/],
  ['service/x.ts', `import { PayForm } from '../element/pay-form.js';`, /service room may not import the element room/],
  ['service/x.ts', `import { LitElement } from 'lit';`, /package lit/],
  ['server/x.ts', `import { startSandbox } from '../sandbox/index.js';`, /server room may not import the sandbox room/],
  ['server/x.ts', `import { html } from 'lit';`, /package lit/],
  ['sandbox/x.ts', `import { readNodeBody } from '../server/node-adapter.js';`, /only through server\/index\.js/],
  ['sandbox/x.ts', `import type { X } from '../element/events.js';`, /sandbox room may not import the element room/],
  ['server/stores/x.ts', `import { answer } from '../http/json-answers.js';`, /server\/stores room may not import the server\/http room/],
  ['server/stores/x.ts', `import type { PaymentClient } from '../client/payment-client.js';`, /server\/stores room may not import the server\/client room/],
  ['server/client/x.ts', `import { toNodeHandler } from '../http/node-adapter.js';`, /server\/client room may not import the server\/http room/],
  ['server/http/x.ts', `import { PaymentClient } from '../index.js';`, /only through server\/errors\.js/],
  ['server/client/x.ts', `import { startSandbox } from '../../sandbox/index.js';`, /server\/client room may not import the sandbox room/],
  ['server/payouts/x.ts', `import { PaymentClient } from '../client/payment-client.js';`, /server\/payouts room may not import the server\/client room/],
  ['server/payouts/x.ts', `import { toNodeHandler } from '../http/node-adapter.js';`, /server\/payouts room may not import the server\/http room/],
  ['server/payouts/x.ts', `import { PaymentClient } from '../client/payment-client.js';`, /server\/payouts room may not import the server\/client room/],
  ['server/payouts/x.ts', `import { toNodeHandler } from '../http/node-adapter.js';`, /server\/payouts room may not import the server\/http room/],
  ['sandbox/x.ts', `import { MemoryCallbackStore } from '../server/stores/memory-callback-store.js';`, /sandbox room may not import the server\/stores room/],
  ['x.ts', `export {};`, /not in a room/],
  ['server/x.ts', `import { y } from '../support/walls.js';`, /outside src/],
];

for (const [file, line, expected] of crossings) {
  test(`the check catches ${file}: ${line}`, () => {
    const found = wallViolations([{ path: file, text: line }]);
    assert.equal(found.length, 1, found.join('\n'));
    assert.match(found[0] as string, expected);
  });
}

test('allowed imports pass: element → service, sandbox → server/index.js, server → node:, http → client and stores, client → stores', () => {
  assert.deepEqual(
    wallViolations([
      { path: 'server/http/x.ts', text: `import type { PaymentClient } from '../client/payment-client.js';\nimport type { CallbackStore } from '../stores/callback-store.js';\nimport { ConfigError } from '../errors.js';` },
      { path: 'server/client/x.ts', text: `import { OldestFirst } from '../stores/oldest-first.js';\nimport { sign } from '../../service/signature.js';` },
      { path: 'server/index.ts', text: `export { createTokenHandler } from './http/token-handler.js';` },
      { path: 'element/x.ts', text: `import { checkKey } from '../service/form-url.js';\nimport { LitElement } from 'lit';` },
      { path: 'sandbox/x.ts', text: `import { toNodeHandler } from '../server/index.js';\nimport http from 'node:http';` },
      { path: 'server/x.ts', text: `import { sign } from '../service/signature.js';\nimport type { IncomingMessage } from 'node:http';` },
    ]),
    [],
  );
});

const repo = new URL('../../', import.meta.url);

test('the toolshed keeps its rule: scripts/ imports no test code, bench/ and demo/ only test/support/', async () => {
  const files = [];
  for (const [folder] of TOOLSHED) {
    for (const file of await sourceFiles(new URL(`${folder}/`, repo))) files.push({ ...file, path: `${folder}/${file.path}` });
  }
  assert.ok(files.some((f) => f.path.startsWith('bench/')) && files.some((f) => f.path.startsWith('scripts/')), 'read scripts/ and bench/');
  assert.deepEqual(toolshedViolations(files), []);
  // Crossed on purpose, so the check is shown to catch each rule.
  assert.equal(toolshedViolations([{ path: 'scripts/x.ts', text: `import { startRedis } from '../test/support/redis.js';` }]).length, 1);
  assert.equal(toolshedViolations([{ path: 'bench/a/x.ts', text: `import '../../test/node/walls.test.js';` }]).length, 1);
  assert.deepEqual(toolshedViolations([{ path: 'bench/a/x.ts', text: `import { startRedis } from '../../test/support/redis/redis.js';` }]), []);
});
