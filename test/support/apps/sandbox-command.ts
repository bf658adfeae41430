// The pay-form-sandbox command as a merchant runs it (the bin, a child process), and a shop fixture of
// test/fixtures/ started against a sandbox, for the trigger and doctor tests.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SANDBOX_MERCHANT, builtSandbox, startRecipe, type RunningRecipe } from './recipes.js';

const BIN = fileURLToPath(new URL('../../../bin/pay-form-sandbox.js', import.meta.url));

/** The sandbox's secret in the variable both subcommands read. */
export const SECRET_ENV = { PAY_FORM_SANDBOX_SECRET: SANDBOX_MERCHANT.secret };

/** Runs the command (this checkout's bin, or `bin`: an installed one); its exit code and everything it printed. */
export function sandboxCommand(args: readonly string[], env: Record<string, string> = {}, bin = BIN): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, NODE_OPTIONS: '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

export type Sandbox = Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;

/** Starts a sandbox and test/fixtures/<file> against it (PAY_BASE_URL: `baseUrl(sandbox.url)`), runs `run`, stops both. */
export async function withShop(
  file: string,
  run: (shop: RunningRecipe, sandbox: Sandbox) => Promise<void>,
  env: Record<string, string> = {},
  baseUrl: (sandboxUrl: string) => string = (url) => url,
): Promise<void> {
  const sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT });
  const shop = await startRecipe(
    { command: process.execPath, args: ['--import', 'tsx', fileURLToPath(new URL(`../../fixtures/${file}`, import.meta.url))], env },
    baseUrl(sandbox.url),
  );
  try {
    await run(shop, sandbox);
  } finally {
    await shop.stop();
    await sandbox.close();
  }
}
