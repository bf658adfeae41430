// pay-form-sandbox: the sandbox as a command. Prints its address and stops cleanly on Ctrl-C.
import { parseArgs } from 'node:util';
import { DEFAULT_MERCHANT_ID, DEFAULT_SECRET } from './options.js';
import { startSandbox, type Sandbox } from './index.js';

const USAGE = `Usage: pay-form-sandbox [options]

A local payment service for development (see docs/sandbox.md).

  --port <n>            port to listen on (default 8787; 0 picks a free one)
  --host <addr>         address to bind (default 127.0.0.1)
  --merchant-id <id>    the merchant it knows (default ${DEFAULT_MERCHANT_ID})
  --secret <s>          that merchant's signing secret (default ${DEFAULT_SECRET})
  --callback-url <url>  where signed callbacks go (default: none, recorded only)
  --redirect-mode       obtain_token answers redirect_url for every site
  --redirect-sites <l>  ... or only for these site_ids (comma-separated)
  --key-ttl <seconds>   how long a form key lives (default 900)
  --quiet               no request log
  -h, --help            this text
`;

export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

function integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new CliUsageError(`--${name} must be a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}

export async function runCli(argv: readonly string[], out: (line: string) => void = console.log): Promise<Sandbox | undefined> {
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
  const sandbox = await startSandbox({
    port: integer('port', values.port, 8787),
    host: values.host ?? '127.0.0.1',
    merchantId: values['merchant-id'] ?? DEFAULT_MERCHANT_ID,
    secret: values.secret ?? DEFAULT_SECRET,
    ...(values['callback-url'] ? { callbackUrl: values['callback-url'] } : {}),
    redirectMode: values['redirect-mode'] ? true : (sites ?? false),
    keyTtlMs: integer('key-ttl', values['key-ttl'], 900) * 1000,
    ...(values.quiet ? {} : { log: (line: string) => out(`  ${line}`) }),
  });
  out(`pay-form sandbox listening on ${sandbox.url}`);
  out(`  merchant_id ${sandbox.merchantId}${values.secret ? '' : ` (secret: the default, ${DEFAULT_SECRET})`}`);
  out(`  callbacks   ${values['callback-url'] ?? 'none (recorded only)'}`);
  return sandbox;
}

/** The command's entry: exits 2 on a usage error, stops the sandbox on SIGINT/SIGTERM. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await runCli(argv);
  } catch (error) {
    console.error(`pay-form-sandbox: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (!sandbox) return;
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
