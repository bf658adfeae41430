// Fastify: the routes take their body as raw bytes (no JSON parsing, so the handlers apply their own
// rules), and the reply is handed to toNodeHandler.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { toNodeHandler, type FetchHandler } from 'pay-form/server';
import { payConfig, payHandlers } from '../pay.js';

const { token, callback, status } = payHandlers(payConfig(process.env));
const app = Fastify();

await app.register(async (pay) => {
  pay.removeAllContentTypeParsers();
  pay.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const mount = (handler: FetchHandler) => {
    const node = toNodeHandler(handler);
    return (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      node(Object.assign(request.raw, { body: request.body }), reply.raw);
    };
  };
  pay.post('/api/pay-token', mount(token));
  pay.post('/api/pay-callback', mount(callback));
  pay.get('/api/pay-status', mount(status));
});

const address = await app.listen({ port: Number(process.env.PORT ?? 3000) });
console.log(`listening on ${address}`);
