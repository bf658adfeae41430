// Deno: `deno run --allow-net --allow-env --allow-read server.ts`.
import { payConfig, payHandlers, payRoutes } from '../pay.ts';

Deno.serve(
  {
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ port }) => console.log(`listening on http://localhost:${port}`),
  },
  payRoutes(payHandlers(payConfig(Deno.env.toObject()))),
);
