// `npm start`: Vite serves the shop's pages, and this plugin is the shop's backend. It starts the
// embedded sandbox payment service on another origin (127.0.0.1) unless the environment names a real
// service, and mounts the token and callback handlers of pay-form/server under /api/checkout/.
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'vite';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { escapeHtml } from '../src/sandbox/pages.js';
import { checkHttpUrl } from '../src/service/form-url.js';
import { PaymentClient } from '../src/server/index.js';
import { CHECKOUT_PREFIX, DemoBackend, type DemoBackendConfig } from './backend.js';
import { demoRedisStore, describeRedis, redisFromEnv, type DemoRedis } from './backend-redis.js';
import { demoTelemetry, type DemoTelemetry } from './telemetry.js';

export interface DemoBackendOptions {
  /** Where PAY_FORM_* settings are read; default process.env (read when the server starts). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The sandbox's demo sites: site 1 as usual, site 2 with the redirect_url setting. */
const SANDBOX_SITE = 1;
const SANDBOX_REDIRECT_SITE = 2;
const DEFAULT_SANDBOX_PORT = 8787;

export class DemoConfigError extends Error {
  override name = 'DemoConfigError';
}

const REAL_SERVICE_VARS = ['PAY_FORM_BASE_URL', 'PAY_FORM_MERCHANT_ID', 'PAY_FORM_SECRET'] as const;

/** A whole-number variable: site ids from 1, the sandbox port from 0 (any free port). */
function wholeNumber(env: DemoBackendOptions['env'], name: string, min: 0 | 1): number | undefined {
  const text = env?.[name];
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new DemoConfigError(`${name} must be a whole number from ${min}`);
  return Number(text);
}

/** The real service when all three variables are set; the sandbox when none is; an error in between. */
export function serviceFromEnv(env: DemoBackendOptions['env'] = {}): Omit<DemoBackendConfig, 'sandbox' | 'shopOrigin'> | undefined {
  const set = REAL_SERVICE_VARS.filter((name) => env[name]);
  if (set.length === 0) return undefined;
  if (set.length < REAL_SERVICE_VARS.length) {
    const missing = REAL_SERVICE_VARS.filter((name) => !env[name]);
    throw new DemoConfigError(`set all of ${REAL_SERVICE_VARS.join(', ')} to use a real service; missing ${missing.join(', ')}`);
  }
  return {
    baseUrl: env.PAY_FORM_BASE_URL as string,
    merchantId: env.PAY_FORM_MERCHANT_ID as string,
    secret: env.PAY_FORM_SECRET as string,
    siteId: wholeNumber(env, 'PAY_FORM_SITE_ID', 1) ?? 1,
    redirectSiteId: wholeNumber(env, 'PAY_FORM_REDIRECT_SITE_ID', 1),
  };
}

/** PAY_FORM_SHOP_ORIGIN: where the shop is reached when not at http://localhost:{port} (a proxy, a name). */
export function shopOriginFromEnv(env: DemoBackendOptions['env'] = {}): string | undefined {
  const text = env.PAY_FORM_SHOP_ORIGIN;
  if (text === undefined || text === '') return undefined;
  // The return pages are navigation targets: the element's URL rule applies (https, http on loopback only).
  const checked = checkHttpUrl(text, 'invalid-redirect-url', 'PAY_FORM_SHOP_ORIGIN');
  if (!checked.ok || checked.value.href !== `${checked.value.origin}/`) {
    throw new DemoConfigError(`PAY_FORM_SHOP_ORIGIN must be an origin such as https://shop.example, got ${JSON.stringify(text)}`);
  }
  return checked.value.origin;
}

async function sandboxOnFreePort(port: number, callbackUrl: string, secret: string): Promise<Sandbox> {
  const options = { host: '127.0.0.1', callbackUrl, secret, redirectMode: [SANDBOX_REDIRECT_SITE] };
  try {
    return await startSandbox({ ...options, port });
  } catch (error) {
    // A second `npm start`, or anything else on the default port: take any free one instead.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
    return startSandbox({ ...options, port: 0 });
  }
}

interface Running {
  backend: DemoBackend;
  sandbox: Sandbox | undefined;
  redis: DemoRedis | undefined;
}

export function demoBackend(options: DemoBackendOptions = {}): Plugin {
  let running: Promise<Running> | undefined;
  let stopped = false;
  let telemetry: DemoTelemetry | undefined;

  const stop = async () => {
    if (stopped || !running) return;
    stopped = true;
    const { backend, sandbox, redis } = await running.catch(() => ({ backend: undefined, sandbox: undefined, redis: undefined }));
    backend?.close();
    await sandbox?.close();
    await redis?.close();
    await telemetry?.close();
  };

  return {
    name: 'pay-form-demo-backend',
    apply: 'serve',
    configureServer(server) {
      const httpServer = server.httpServer;
      if (!httpServer) throw new DemoConfigError("the demo backend needs Vite's own HTTP server, not middleware mode");
      const env = options.env ?? process.env;
      // Each order's timeline in this terminal, drawn from pay-form's spans (and to OTEL_EXPORTER_OTLP_ENDPOINT when set).
      telemetry = demoTelemetry(env, (line) => server.config.logger.info(line));
      // A half-set environment stops `npm start` at once, before anything listens.
      const real = serviceFromEnv(env);
      const configuredOrigin = shopOriginFromEnv(env);
      // A bad real-service setting (its base URL, say) stops it here too: the client checks its options.
      if (real) new PaymentClient({ baseUrl: real.baseUrl, merchantId: real.merchantId, secret: real.secret });
      // REDIS_URL, REDIS_CLUSTER or REDIS_SENTINELS: callbacks and verified statuses in Redis, shared
      // with any other backend on it.
      const redisSpec = redisFromEnv(env);
      const sandboxPort = wholeNumber(env, 'PAY_FORM_SANDBOX_PORT', 0) ?? DEFAULT_SANDBOX_PORT;
      running = new Promise<Running>((resolve, reject) => {
        httpServer.once('listening', () => {
          const { address, family, port } = httpServer.address() as AddressInfo;
          const host = family === 'IPv6' ? `[${address}]` : address;
          // PAY_FORM_CALLBACK_URL: the sandbox calls another backend (npm run start:cluster).
          const callbackUrl = env.PAY_FORM_CALLBACK_URL || `http://${host}:${port}${CHECKOUT_PREFIX}callback`;
          // The address the log below tells the person to open, unless PAY_FORM_SHOP_ORIGIN names another.
          const shopOrigin = configuredOrigin ?? `http://localhost:${port}`;
          (async (): Promise<Running> => {
            const redis = redisSpec ? await demoRedisStore(redisSpec) : undefined;
            const store = redis?.store;
            if (real) return { backend: new DemoBackend({ ...real, sandbox: false, shopOrigin, store }), sandbox: undefined, redis };
            // A fresh secret each run unless given: it only has to be shared by the backends and their sandbox.
            const secret = env.PAY_FORM_SANDBOX_SECRET || crypto.randomUUID();
            const sandbox = await sandboxOnFreePort(sandboxPort, callbackUrl, secret);
            const backend = new DemoBackend({
              baseUrl: sandbox.url, merchantId: sandbox.merchantId, secret,
              siteId: SANDBOX_SITE, redirectSiteId: SANDBOX_REDIRECT_SITE, sandbox: true, shopOrigin, store,
            });
            return { backend, sandbox, redis };
          })().then((started) => {
            const service = started.sandbox
              ? `the embedded sandbox at ${started.sandbox.url} (merchant ${started.sandbox.merchantId})`
              : `${started.backend.config.baseUrl} (merchant ${started.backend.config.merchantId}, from PAY_FORM_* variables)`;
            server.config.logger.info(
              `\n  pay-form demo: open ${shopOrigin}/ and press Pay\n` +
                `  payment service: ${service}\n  callbacks are received at ${callbackUrl}\n` +
                `  callbacks and verified statuses are kept ${redisSpec ? describeRedis(redisSpec) : 'in memory'}\n` +
                `  each paid order's timeline is printed here${env.OTEL_EXPORTER_OTLP_ENDPOINT ? `, its spans sent to ${env.OTEL_EXPORTER_OTLP_ENDPOINT}` : ''}\n`,
            );
            resolve(started);
          }, reject);
        });
      });
      running.catch((error: unknown) => server.config.logger.error(`pay-form demo backend did not start: ${String(error)}`));
      httpServer.once('close', () => void stop());

      server.middlewares.use((req, res, next) => {
        if (!req.url?.startsWith(CHECKOUT_PREFIX) || !running) return next();
        running.then(({ backend }) => telemetry!.request(req, res, () => backend.middleware(req, res, next)), next);
      });
    },
    transformIndexHtml: {
      order: 'pre',
      // Pages name the service with %PAY_FORM_BASE_URL%, so the script-tag page needs no script to know it.
      async handler(html) {
        if (!html.includes('%PAY_FORM_BASE_URL%') || !running) return html;
        const { backend } = await running;
        return html.replaceAll('%PAY_FORM_BASE_URL%', escapeHtml(backend.config.baseUrl));
      },
    },
    closeBundle: stop,
  };
}
