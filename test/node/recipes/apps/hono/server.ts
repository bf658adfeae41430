// Hono: c.req.raw is the Fetch Request, and the handlers answer with a Fetch Response. Served here on
// Node with @hono/node-server; on Bun, Deno or Workers export `app` (or `app.fetch`) instead.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { payConfig, payHandlers } from '../pay.js';

const { token, callback, status } = payHandlers(payConfig(process.env));
const app = new Hono();
app.post('/api/pay-token', (c) => token(c.req.raw));
app.post('/api/pay-callback', (c) => callback(c.req.raw));
app.get('/api/pay-status', (c) => status(c.req.raw));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`listening on http://localhost:${info.port}`);
});
