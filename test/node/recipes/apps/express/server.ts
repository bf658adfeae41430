// Express: the handlers go before any body parser, since they read the raw body themselves.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { toNodeHandler } from 'pay-form/server';
import { payConfig, payHandlers } from '../pay.js';

const { token, callback, status } = payHandlers(payConfig(process.env));
const app = express();
app.post('/api/pay-token', toNodeHandler(token));
app.post('/api/pay-callback', toNodeHandler(callback));
app.get('/api/pay-status', toNodeHandler(status));
app.use(express.json()); // the rest of your API

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`listening on http://localhost:${(server.address() as AddressInfo).port}`);
});
