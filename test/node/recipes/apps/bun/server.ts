// Bun: `bun run server.ts`. One fetch function serves the three endpoints.
import { payConfig, payHandlers, payRoutes } from '../pay.js';

const server = Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  fetch: payRoutes(payHandlers(payConfig(process.env))),
});
console.log(`listening on ${server.url}`);
