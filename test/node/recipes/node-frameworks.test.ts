// The Node server recipes of docs/recipes.md, each run as its own process from test/fixtures/recipes/ against
// a sandbox: Express, Fastify and Hono (@hono/node-server).
import { test } from 'node:test';
import { proveRecipe } from '../../support/apps/recipes.js';

for (const [name, file] of [
  ['Express', 'express/server.ts'],
  ['Fastify', 'fastify/server.ts'],
  ['Hono on @hono/node-server', 'hono/server.ts'],
] as const) {
  test(`${name} (test/fixtures/recipes/${file}): a token, malformed JSON, a signed callback and its repeat, the verified status, the paid order refused`, () =>
    proveRecipe({ command: process.execPath, args: ['--import', 'tsx', new URL(`../../fixtures/recipes/${file}`, import.meta.url).pathname] }));
}
