// pay-form-sandbox: the sandbox as a command. Prints its address and stops cleanly on Ctrl-C.
import { parseArgs } from 'node:util';
import { DEFAULT_MERCHANT_ID, DEFAULT_SECRET, SECRET_ENV } from './options.js';
import { startSandbox, type Sandbox } from './index.js';
import { ConfigError, PayFormError } from '../service/errors.js';
import type { FieldIssue } from '../service/field-checks.js';
import { TRIGGER_EVENTS } from './trigger.js';
import { runCommand } from './commands.js';

const USAGE = `Usage: pay-form-sandbox [options]

A local payment service for development (see docs/sandbox.md).

  --port <n>            port to listen on (default 8787; 0 picks a free one)
  --host <addr>         address to bind (default 127.0.0.1)
  --merchant-id <id>    the merchant it knows (default ${DEFAULT_MERCHANT_ID})
  --secret <s>          that merchant's signing secret (default: $${SECRET_ENV}, else
                        ${DEFAULT_SECRET}); prefer the variable: a command line is
                        readable by every user of this machine
  --callback-url <url>  where signed callbacks go (default: none, recorded only)
  --redirect-mode       obtain_token answers redirect_url for every site
  --redirect-sites <l>  ... or only for these site_ids (comma-separated)
  --key-ttl <seconds>   how long a form key lives (default 900)
  --quiet               no request log (form keys are never logged)
  -h, --help            this text

  pay-form-sandbox trigger <event> --to <callback URL> [--order <ref>] [--amount <n>]
      sends the callbacks of <event> (${TRIGGER_EVENTS.join(', ')})
      to a running shop and says whether each answer is what the service expects
  pay-form-sandbox doctor --shop <origin> [--base-url <service URL>] [--order <ref>]
      checks a running shop's endpoints and pages; paths: --token-path, --callback-path,
      --status-path, --checkout-page, --return-page (defaults: the docs' paths)
  pay-form-sandbox doctor --base-url <service URL>
      prints the least Content-Security-Policy a checkout page needs
  Both sign with --secret or $${SECRET_ENV} (default ${DEFAULT_SECRET}).
`;

/** A command line the sandbox cannot run with: its options, as ConfigError lists them. */
export class CliUsageError extends ConfigError {
  constructor(issues: readonly FieldIssue[]) {
    super(issues, 'pay-form-sandbox');
  }
}

function integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new CliUsageError([{ path: `--${name}`, message: `must be a whole number, got ${JSON.stringify(text)}` }]);
  return Number(text);
}

/** Says how to pick another port, rather than Node's bare EADDRINUSE. */
export class PortInUseError extends PayFormError {
  constructor(port: number, host: string) {
    super(
      'port_in_use',
      `port ${port} on ${host} is already in use (another sandbox or server?). Pick another with ` +
        `--port <n> (e.g. --port ${port === 65535 ? port - 1 : port + 1}), or --port 0 for any free port.`,
    );
  }
}

/** The secret as every subcommand takes it: --secret, else the variable when it is set and not empty. */
export function secretOf(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  return flag ?? (env[SECRET_ENV] === '' ? undefined : env[SECRET_ENV]);
}

export async function runCli(
  argv: readonly string[],
  out: (line: string) => void = console.log,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Sandbox | number | undefined> {
  const [command, ...rest] = argv;
  if (command === 'trigger' || command === 'doctor') return runCommand(command, rest, out, secretOf(undefined, env));
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'merchant-id': { type: 'string' },
      secret: { type: 'string' },
      'callback-url': { type: 'string' },
      'redirect-mode': { type: 'boolean' },
      'redirect-sites': { type: 'string' },
      'key-ttl': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(USAGE);
    return undefined;
  }
  const sites = values['redirect-sites']?.split(',').map((s) => integer('redirect-sites', s.trim(), 0));
  const fromEnv = secretOf(undefined, env);
  const secret = values.secret ?? fromEnv;
  const port = integer('port', values.port, 8787);
  const host = values.host ?? '127.0.0.1';
  const sandbox = await startSandbox({
    port,
    host,
    merchantId: values['merchant-id'] ?? DEFAULT_MERCHANT_ID,
    secret: secret ?? DEFAULT_SECRET,
    ...(values['callback-url'] ? { callbackUrl: values['callback-url'] } : {}),
    redirectMode: values['redirect-mode'] ? true : (sites ?? false),
    keyTtlMs: integer('key-ttl', values['key-ttl'], 900) * 1000,
    ...(values.quiet ? {} : { log: (line: string) => out(`  ${line}`) }),
  }).catch((error: unknown) => {
    throw (error as { code?: unknown }).code === 'EADDRINUSE' ? new PortInUseError(port, host) : error;
  });
  const secretFrom = values.secret ? ' (secret: from --secret)' : fromEnv ? ` (secret: from ${SECRET_ENV})` : ` (secret: the default, ${DEFAULT_SECRET})`;
  out(`pay-form sandbox listening on ${sandbox.url}`);
  out(`  merchant_id ${sandbox.merchantId}${secretFrom}`);
  if (values.secret) out(`  note: a --secret on the command line is readable by every user of this machine; prefer ${SECRET_ENV}`);
  out(`  callbacks   ${values['callback-url'] ?? 'none (recorded only)'}`);
  return sandbox;
}

/** The command's entry: exits 2 on a usage error, stops the sandbox on SIGINT/SIGTERM. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  let sandbox: Sandbox | number | undefined;
  try {
    sandbox = await runCli(argv);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // A busy port is not a usage mistake: its message says what to do, without the whole usage text.
    console.error(error instanceof PortInUseError ? `pay-form-sandbox: ${text}` : `pay-form-sandbox: ${text}\n\n${USAGE}`);
    process.exitCode = error instanceof PortInUseError ? 1 : 2;
    return;
  }
  if (typeof sandbox === 'number') {
    process.exitCode = sandbox;
    return;
  }
  if (!sandbox) return;
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
