// The test Redis itself: a real redis-server answers, restarts on its port, and is gone after stop().
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { startRedis } from '../../support/redis/redis.js';

function ping(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().trim());
    });
    socket.once('error', (error) => resolve(`error: ${(error as NodeJS.ErrnoException).code}`));
  });
}

test('startRedis runs a real redis-server on loopback, restarts it, and stops it by PID', async () => {
  const redis = await startRedis();
  try {
    assert.match(redis.url, /^redis:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await ping(redis.port), '+PONG');
    const before = redis.pid;
    await redis.restart();
    assert.notEqual(redis.pid, before);
    assert.equal(await ping(redis.port), '+PONG');
  } finally {
    await redis.stop();
  }
  assert.equal(await ping(redis.port), 'error: ECONNREFUSED');
});
