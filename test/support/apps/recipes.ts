// Runs a server recipe of test/fixtures/recipes/ as its own process (Node, Bun, Deno or workerd) against a
// sandbox on loopback, and drives the requests every runtime must answer the same way: a valid token
// request, malformed JSON, a signed callback and its repeat, the order's verified status, and a second
// token request for the order, now paid. The sandbox and the signing come from the built package
// (dist/), as a merchant would install it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { distFile } from '../../node/package/dist.js';
import { MERCHANT, SECRET } from '../constants.js';
import { freePort } from '../redis/redis.js';

type SandboxModule = typeof import('../../../src/sandbox/index.js');
type ServerModule = typeof import('../../../src/server/index.js');

/** What test/fixtures/recipes/pay.ts prints when onStatus handles the test's callback. */
export const HANDLED_LINE = 'order order-1: success';

/** The sandbox's merchant, whose secret (not ASCII) every runtime must sign and verify alike. */
export const SANDBOX_MERCHANT = { merchantId: MERCHANT, secret: SECRET } as const;

export async function builtSandbox(): Promise<SandboxModule> {
  return (await import(distFile('sandbox/index.js').href)) as SandboxModule;
}

export async function builtServer(): Promise<ServerModule> {
  return (await import(distFile('server/index.js').href)) as ServerModule;
}

export interface RunningRecipe {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the process (by its PID) and gives everything it printed. */
  stop(): Promise<string>;
  /** What it printed so far, once it has printed `line` (or after 5 s), for servers that keep running. */
  printedOnceSeen(line: string): Promise<string>;
}

export interface RecipeCommand {
  command: string;
  args: readonly string[];
  env?: Record<string, string>;
  /** The port to give the recipe; when unset the recipe gets PORT=0 and prints the one it took. */
  port?: number;
  cwd?: string;
}

/** Starts a recipe and waits until it answers HTTP on loopback. */
export async function startRecipe(run: RecipeCommand, baseUrl: string): Promise<RunningRecipe> {
  const env = {
    ...process.env,
    NODE_OPTIONS: '',
    PAY_BASE_URL: baseUrl,
    PAY_MERCHANT_ID: SANDBOX_MERCHANT.merchantId,
    PAY_SECRET: SANDBOX_MERCHANT.secret,
    PORT: String(run.port ?? 0),
    ...run.env,
  };
  const child = spawn(run.command, run.args, { env, cwd: run.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
    return output;
  };
  try {
    const port = run.port ?? (await printedPort(child, () => output));
    const url = `http://127.0.0.1:${port}`;
    await answering(url, child, () => output);
    const printedOnceSeen = async (line: string) => {
      for (let i = 0; i < 100 && !output.includes(line); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return output;
    };
    return { url, stop, printedOnceSeen };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function printedPort(child: ChildProcess, output: () => string): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const found = /listening on https?:\/\/[^:\s]+:(\d+)/.exec(output());
    if (found) return Number(found[1]);
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the recipe did not say where it listens:\n${output()}`);
}

async function answering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`${url}/api/pay-token`, { method: 'GET' }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the recipe does not answer at ${url}:\n${output()}`);
}

export { freePort };

export interface Exchange {
  status: number;
  body: unknown;
}

async function post(url: string, body?: string): Promise<Exchange> {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body };
  const response = await fetch(url, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the assertion message.
  }
  return { status: response.status, body: parsed };
}

export interface Scenario {
  token: Exchange;
  malformed: Exchange;
  callback: Exchange;
  repeat: Exchange;
  /** GET /api/pay-status for order-1 after its callback. */
  status: Exchange;
  /** A second token request for order-1, paid by then. */
  again: Exchange;
  /** Invoices the sandbox made for order-1. */
  invoices: number;
  invalidJsonMessage: string;
}

/** The requests, in order, against a running recipe (and the sandbox only it uses). */
export async function driveRecipe(recipe: RunningRecipe, sandbox: { invoices(): { request_id: string }[] }): Promise<Scenario> {
  const { signed, hmacSigner, INVALID_JSON_MESSAGE } = await builtServer();
  const token = await post(`${recipe.url}/api/pay-token`, JSON.stringify({ order_ref: 'order-1' }));
  const malformed = await post(`${recipe.url}/api/pay-token`, '{"order_ref": ');
  // The service's success for the attempt the token request started, at the order's amount (docs/recipes.md's orders).
  const attempt = String((token.body as { attempt?: unknown }).attempt);
  const paid = { invoice_id: 'inv-recipe-1', request_id: `order-1~${attempt}`, status: 'success', amount: 2490, currency: 'USD' };
  const payload = await signed(paid, hmacSigner(SANDBOX_MERCHANT.secret));
  const callback = await post(`${recipe.url}/api/pay-callback`, JSON.stringify(payload));
  const repeat = await post(`${recipe.url}/api/pay-callback`, JSON.stringify(payload));
  const status = await post(`${recipe.url}/api/pay-status?order_ref=order-1`);
  const again = await post(`${recipe.url}/api/pay-token`, JSON.stringify({ order_ref: 'order-1' }));
  const invoices = sandbox.invoices().filter((invoice) => invoice.request_id.startsWith('order-1~')).length;
  return { token, malformed, callback, repeat, status, again, invoices, invalidJsonMessage: INVALID_JSON_MESSAGE };
}

/** Starts a sandbox and the recipe, drives the requests, stops both and checks the answers. */
export async function proveRecipe(run: RecipeCommand | ((sandboxUrl: string) => Promise<RecipeCommand>)): Promise<void> {
  const sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT });
  try {
    const command = typeof run === 'function' ? await run(sandbox.url) : run;
    const recipe = await startRecipe(command, sandbox.url);
    let scenario: Scenario;
    try {
      scenario = await driveRecipe(recipe, sandbox);
    } finally {
      await recipe.stop();
    }
    assertScenario(scenario, await recipe.stop());
  } finally {
    await sandbox.close();
  }
}

/** What every runtime must have answered, and printed: onStatus ran once for the callback and its repeat. */
export function assertScenario(scenario: Scenario, printed: string): void {
  assert.equal(scenario.token.status, 200, JSON.stringify(scenario.token.body));
  assert.match(String((scenario.token.body as { key?: unknown }).key), /^[A-Za-z0-9_-]{20,}$/);
  assert.match(String((scenario.token.body as { attempt?: unknown }).attempt), /^[0-9a-z]{12}$/);
  assert.equal(scenario.invoices, 1, 'the sandbox made one invoice for order-1, none for the paid order');
  assert.deepEqual(scenario.malformed, { status: 400, body: { success: false, message: scenario.invalidJsonMessage } });
  assert.deepEqual(scenario.callback, { status: 200, body: { success: true } });
  assert.deepEqual(scenario.repeat, { status: 200, body: { success: true } });
  assert.deepEqual(scenario.status, { status: 200, body: { status: 'success', invoice_id: 'inv-recipe-1' } });
  assert.deepEqual(scenario.again, { status: 409, body: { success: false, message: 'Order already paid', paid: true } });
  const handled = printed.split('\n').filter((line) => line.includes(HANDLED_LINE));
  assert.equal(handled.length, 1, `onStatus must run once for a callback and its repeat; printed:\n${printed}`);
}
