// The sandbox command's two helpers for a running shop: `trigger` and `doctor` (docs/sandbox.md). Each
// answers the process's exit code: 0 when every answer or check is as expected, 1 when one is not.
import { parseArgs } from 'node:util';
import { ConfigError } from '../service/errors.js';
import { DEFAULT_SECRET } from './options.js';
import { isTriggerEvent, trigger, formatTrigger, TRIGGER_EVENTS } from './trigger.js';
import { doctor, formatChecks } from './doctor.js';
import { minimalCsp } from './csp.js';

function usage(path: string, message: string): ConfigError {
  return new ConfigError([{ path, message }], 'pay-form-sandbox');
}

function httpUrl(flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usage(flag, `must be an absolute http(s) URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(flag, `must be an http(s) URL, got ${JSON.stringify(text)}`);
  return url.href;
}

const shared = { secret: { type: 'string' }, order: { type: 'string' } } as const;

export async function runCommand(
  command: 'trigger' | 'doctor',
  argv: readonly string[],
  out: (line: string) => void,
  envSecret: string | undefined,
): Promise<number> {
  if (command === 'trigger') {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { ...shared, to: { type: 'string' }, amount: { type: 'string' }, 'merchant-id': { type: 'string' } },
    });
    const [event] = positionals;
    if (!isTriggerEvent(event)) throw usage('trigger', `name one event of ${TRIGGER_EVENTS.join(', ')}, got ${JSON.stringify(event ?? '')}`);
    if (values.to === undefined) throw usage('--to', "is required: the shop's callback URL");
    if (values.amount !== undefined && !/^\d+$/.test(values.amount)) throw usage('--amount', `must be a whole number of minor units, got ${JSON.stringify(values.amount)}`);
    const to = httpUrl('--to', values.to);
    const result = await trigger(event, {
      to,
      secret: values.secret ?? envSecret ?? DEFAULT_SECRET,
      ...(values.order ? { order: values.order } : {}),
      ...(values.amount ? { amount: Number(values.amount) } : {}),
      ...(values['merchant-id'] ? { merchantId: values['merchant-id'] } : {}),
    });
    for (const line of formatTrigger(result, to)) out(line);
    return result.ok ? 0 : 1;
  }
  const paths = ['token-path', 'callback-path', 'status-path', 'checkout-page', 'return-page'] as const;
  const { values } = parseArgs({
    args: [...argv],
    options: { ...shared, shop: { type: 'string' }, 'base-url': { type: 'string' }, ...Object.fromEntries(paths.map((p) => [p, { type: 'string' }])) },
  });
  const v = values as Record<string, string | undefined>;
  const baseUrl = v['base-url'] === undefined ? undefined : httpUrl('--base-url', v['base-url']);
  if (v['shop'] === undefined) {
    if (baseUrl === undefined) throw usage('--shop', "is required: the shop's origin (or --base-url alone for the CSP header)");
    out(minimalCsp(baseUrl));
    return 0;
  }
  const checks = await doctor({
    shop: httpUrl('--shop', v['shop']),
    secret: v['secret'] ?? envSecret ?? DEFAULT_SECRET,
    ...(baseUrl ? { baseUrl } : {}),
    ...(v['order'] ? { order: v['order'] } : {}),
    ...(v['token-path'] ? { tokenPath: v['token-path'] } : {}),
    ...(v['callback-path'] ? { callbackPath: v['callback-path'] } : {}),
    ...(v['status-path'] ? { statusPath: v['status-path'] } : {}),
    ...(v['checkout-page'] ? { checkoutPage: v['checkout-page'] } : {}),
    ...(v['return-page'] ? { returnPage: v['return-page'] } : {}),
  });
  for (const line of formatChecks(checks)) out(line);
  if (baseUrl) out(`the least CSP a checkout page needs: ${minimalCsp(baseUrl)}`);
  return checks.some((c) => c.state === 'fail') ? 1 : 0;
}
