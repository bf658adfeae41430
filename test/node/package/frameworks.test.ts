// Each framework compiles a real use of the built package with its own type checker (tsc for React,
// vue-tsc, svelte-check, ngc), and a use in test/fixtures/types/*-must-fail must fail to compile, so the
// checks are known to bite.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { compileTemplate, parse } from 'vue/compiler-sfc';
import { distFile, root } from './dist.js';
import { angularToolchain, nodeLine } from '../../support/apps/toolchain.js';

interface Run {
  code: number | null;
  output: string;
}

/** Angular 22 refuses Node 20: its compiler (test/toolchains/angular, installed on first use) runs on the pinned Node 22. */
const NODE22 = nodeLine('node22');
const NGC = `${angularToolchain()}/node_modules/@angular/compiler-cli/bundles/src/bin/ngc.js`;

function command(bin: string): { file: string; prefix: string[] } {
  if (bin === 'ngc') return { file: NODE22, prefix: [NGC] };
  return { file: new URL(`node_modules/.bin/${bin}`, root).pathname, prefix: [] };
}

function run(bin: string, args: readonly string[], fixture: string): Promise<Run> {
  distFile('element/index.d.ts');
  const cwd = new URL(`test/fixtures/types/${fixture}/`, root);
  const { file, prefix } = command(bin);
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...prefix, ...args], { cwd, env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const CHECKERS = [
  { framework: 'React 19', fixture: 'react', bin: 'tsc', args: ['-p', 'tsconfig.json'], wrong: /checkout\.tsx.*TS2322: Type 'string' is not assignable to type 'number'/ },
  { framework: 'Vue 3', fixture: 'vue', bin: 'vue-tsc', args: ['-p', 'tsconfig.json'], wrong: /Checkout\.vue.*not assignable to type 'PayFormEventHandler<"pay-form-success">'/ },
  {
    framework: 'Svelte 5',
    fixture: 'svelte',
    bin: 'svelte-check',
    args: ['--tsconfig', './tsconfig.json', '--fail-on-warnings', '--output', 'human'],
    wrong: /Property 'code' does not exist on type 'PayFormSuccessDetail'/,
  },
  {
    framework: 'Node ESM backend',
    fixture: 'node-server',
    bin: 'tsc',
    args: ['-p', 'tsconfig.json'],
    wrong: /server\.ts.*TS2322: Type 'string' is not assignable to type 'number'/,
  },
  {
    framework: 'Angular 22 on Node 22',
    fixture: 'angular',
    bin: 'ngc',
    args: ['-p', 'tsconfig.json'],
    wrong: /'CustomEvent<PayFormSuccessDetail>' is not assignable to parameter of type 'CustomEvent<PayFormErrorDetail>'/,
  },
] as const;

for (const checker of CHECKERS) {
  describe(`${checker.framework} (${checker.bin})`, () => {
    test(`compiles test/fixtures/types/${checker.fixture} against the built types`, async () => {
      const { code, output } = await run(checker.bin, checker.args, checker.fixture);
      assert.equal(code, 0, output);
    });

    test(`refuses test/fixtures/types/${checker.fixture}-must-fail with the expected type error`, async () => {
      const { code, output } = await run(checker.bin, checker.args, `${checker.fixture}-must-fail`);
      assert.notEqual(code, 0, `expected a type error, got:\n${output}`);
      assert.match(output, checker.wrong);
    });
  });
}

// Apps that check every declaration they load (skipLibCheck: false) and have no ambient @types.
test("every browser entry's declarations type-check with skipLibCheck off (test/fixtures/types/strict-types)", async () => {
  const { code, output } = await run('tsc', ['-p', 'tsconfig.json'], 'strict-types');
  assert.equal(code, 0, output);
});

test('pay-form/server type-checks in a Workers project with no Node types (test/fixtures/types/workers)', async () => {
  const { code, output } = await run('tsc', ['-p', 'tsconfig.json'], 'workers');
  assert.equal(code, 0, output);
});

test('the Angular proof runs Angular 22 with TypeScript 6.0 on Node 22', () => {
  const pkg = (name: string) => JSON.parse(readFileSync(new URL(`test/toolchains/angular/node_modules/${name}/package.json`, root), 'utf8')) as { version: string };
  assert.equal(pkg('@angular/compiler-cli').version.split('.')[0], '22');
  assert.equal(pkg('typescript').version.split('.').slice(0, 2).join('.'), '6.0');
  const node = spawnSync(NODE22, ['--version'], { encoding: 'utf8' }).stdout.trim();
  assert.match(node, /^v22\./);
});

test('Vue: with isCustomElement from pay-form/vue the template leaves <pay-form> to the browser', async () => {
  const { isCustomElement } = (await import(distFile('element/vue.js').href)) as typeof import('../../../src/element/vue.js');
  const source = await readFile(new URL('test/fixtures/types/vue/Checkout.vue', root), 'utf8');
  const { descriptor } = parse(source, { filename: 'Checkout.vue' });
  assert.ok(descriptor.template);
  const compile = (options: { isCustomElement?: (tag: string) => boolean }) =>
    compileTemplate({ source: descriptor.template!.content, filename: 'Checkout.vue', id: 'checkout', compilerOptions: options }).code;
  assert.match(compile({}), /resolveComponent\("pay-form"\)/);
  const code = compile({ isCustomElement });
  assert.doesNotMatch(code, /resolveComponent/);
  assert.match(code, /createElementBlock\("pay-form"|createElementVNode\("pay-form"/);
  assert.equal(isCustomElement('pay-form'), true);
  assert.equal(isCustomElement('pay-form-x'), false);
});

test('plain Node ESM imports pay-form/server and pay-form/sandbox by name and gets a real key', async () => {
  distFile('server/index.js');
  const script = new URL('test/fixtures/types/node-server/run.mjs', root);
  const output = await new Promise<string>((resolve, reject) => {
    // No tsx here: what runs is the built package, resolved through its own "exports".
    const child = spawn(process.execPath, [script.pathname], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
  const result = JSON.parse(output) as { key: string; refused: string[] };
  assert.match(result.key, /^[A-Za-z0-9_-]{20,}$/);
  assert.deepEqual(result.refused.sort(), ['additional_fields.card_number', 'currency']);
});
