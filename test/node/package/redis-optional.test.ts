// redis is an optional peer dependency, and ioredis works as well: the built pay-form/server (code and
// types) imports neither, so a merchant without Redis installs and type-checks nothing more, and the
// libraries' clients still fit RedisCallbackStore's structural types.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { distFile } from './dist.js';

test("dist/server, code and declarations, never names the 'redis' or 'ioredis' package", async () => {
  const dir = distFile('server/');
  for (const name of await readdir(dir, { recursive: true })) {
    if (!/\.(js|d\.ts)$/.test(name)) continue;
    const text = await readFile(new URL(name, dir), 'utf8');
    assert.doesNotMatch(text, /from\s+["'](io)?redis["']|import\(\s*["'](io)?redis["']\s*\)|require\(\s*["'](io)?redis["']\s*\)|["']@(io)?redis\//, name);
  }
});

test('pay-form/server loads from a folder with no node_modules at all, RedisCallbackStore included', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-no-redis-'));
  try {
    await cp(distFile('server/'), path.join(dir, 'server'), { recursive: true });
    await cp(distFile('service/'), path.join(dir, 'service'), { recursive: true });
    const server = (await import(pathToFileURL(path.join(dir, 'server', 'index.js')).href)) as Record<string, unknown>;
    assert.equal(typeof server['RedisCallbackStore'], 'function');
    assert.equal(typeof server['createStatusHandler'], 'function');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
