// The pay-form-sandbox command, run as a user runs it: the bin file in a child process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { verify } from '../../../src/service/signature.js';
import { postJson, signedBody, tokenFields } from './helpers.js';

const BIN = fileURLToPath(new URL('../../../bin/pay-form-sandbox.js', import.meta.url));

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const address = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
  });
  address.catch(() => {}); // a test that expects an early exit does not wait for the address
  return { child, address, output: () => ({ stdout, stderr }) };
}

test('starts with the given merchant, secret and redirect mode, answers signed, stops on SIGTERM', async () => {
  const { child, address, output } = run(['--port', '0', '--merchant-id', 'cli-merchant', '--secret', 'cli-secret', '--redirect-mode']);
  try {
    const url = await address;
    const answer = await postJson(`${url}/api/jsapi/obtain_token/`, await signedBody(tokenFields({ merchant_id: 'cli-merchant' }), 'cli-secret'));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(String(answer.body.redirect_url), new RegExp(`^${url}/api/jsapi/open/`));
    assert.equal(await verify(answer.body, 'cli-secret'), true);
    // The log line is written after the answer is sent, through a pipe: wait for it (bounded).
    for (let i = 0; i < 100 && !/POST \/api\/jsapi\/obtain_token\/ 200/.test(output().stdout); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.match(output().stdout, /POST \/api\/jsapi\/obtain_token\/ 200/, 'the request log');
    assert.doesNotMatch(output().stdout, /cli-secret/, 'a secret given on the command line is not echoed');
  } finally {
    child.kill('SIGTERM');
  }
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('a bad option exits 2 with the usage text', async () => {
  const { child, output } = run(['--port', 'eighty']);
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(output().stderr, /--port: must be a whole number/);
  assert.match(output().stderr, /Usage: pay-form-sandbox/);
});

test('the secret can come from PAY_FORM_SANDBOX_SECRET, off the command line, and is never printed', async () => {
  const { child, address, output } = run(['--port', '0'], { PAY_FORM_SANDBOX_SECRET: 'env-secret-Ω' });
  try {
    const url = await address;
    const body = await signedBody(tokenFields({ merchant_id: 'sandbox-merchant' }), 'env-secret-Ω');
    const answer = await postJson(`${url}/api/jsapi/obtain_token/`, body);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await verify(answer.body, 'env-secret-Ω'), true);
    assert.match(output().stdout, /secret: from PAY_FORM_SANDBOX_SECRET/);
    assert.doesNotMatch(output().stdout, /env-secret/);
  } finally {
    child.kill('SIGTERM');
  }
  await once(child, 'exit');
});

test('a --secret on the command line works but is warned about', async () => {
  const { child, address, output } = run(['--port', '0', '--secret', 'argv-secret']);
  try {
    await address;
    for (let i = 0; i < 100 && !/note:/.test(output().stdout); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(output().stdout, /readable by every user of this machine; prefer PAY_FORM_SANDBOX_SECRET/);
  } finally {
    child.kill('SIGTERM');
  }
  await once(child, 'exit');
});

test('a port in use exits 1 saying how to pick another', async () => {
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const { port } = busy.address() as AddressInfo;
  try {
    const { child, output } = run(['--port', String(port)]);
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.match(output().stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.match(output().stderr, /--port <n>.*or --port 0 for any free port/s);
    assert.doesNotMatch(output().stderr, /EADDRINUSE|Usage:/);
  } finally {
    busy.close();
  }
});
