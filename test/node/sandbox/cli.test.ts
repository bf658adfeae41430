// The pay-form-sandbox command, run as a user runs it: the bin file in a child process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { verify } from '../../../src/service/signature.js';
import { postJson, signedBody, tokenFields } from './helpers.js';

const BIN = fileURLToPath(new URL('../../../bin/pay-form-sandbox.js', import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  assert.match(output().stderr, /--port must be a whole number/);
  assert.match(output().stderr, /Usage: pay-form-sandbox/);
});
