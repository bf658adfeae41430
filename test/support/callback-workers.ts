// Callback workers for the tests (scripts/callback-workers.ts starts them) and delivery the way the
// service does it: the same body again after a 5xx, until a 2xx.
export * from '../../scripts/callback-workers.js';

/** One POST; the answer's status (0 when the connection failed). */
export async function deliverOnce(url: string, body: string): Promise<number> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * Delivers until a 2xx, to a server picked by `pick` each time, `pauseMs` apart; answers every status
 * seen, in order. Gives up (and the test fails on it) after `attempts`.
 */
export async function deliver(pick: () => string, body: string, { pauseMs = 50, attempts = 200 } = {}): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const status = await deliverOnce(pick(), body);
    seen.push(status);
    if (status >= 200 && status < 300) return seen;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return seen;
}

/** Resolves once nothing accepts connections on the loopback port (a server was stopped). */
export async function waitUntilRefused(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
