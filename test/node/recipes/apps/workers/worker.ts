// Cloudflare Workers: PAY_BASE_URL and PAY_MERCHANT_ID as vars, PAY_SECRET as a secret
// (`wrangler secret put PAY_SECRET`). No Node types or compatibility flags needed.
import type { FetchHandler } from 'pay-form/server';
import { payConfig, payHandlers, payRoutes } from '../pay.js';

interface Env {
  PAY_BASE_URL: string;
  PAY_MERCHANT_ID: string;
  PAY_SECRET: string;
}

// Made once per isolate, so that its callback store sees a repeated callback.
let routes: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    routes ??= payRoutes(payHandlers(payConfig({ ...env })));
    return routes(request);
  },
};
