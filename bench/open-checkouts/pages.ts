// The simulated checkout pages of bench/open-checkouts: each asks its status URL exactly as
// src/element/settle-controller.ts does, one request at a time on a connection of its own (as a browser
// tab holds one): a 204 asked again after 250 ms; a 5xx, a 429 or no connection after a back-off from
// 1 s, doubling, or the Retry-After when that is longer; every pause capped at 30 s and jittered by a
// quarter either way; a 200 settles, and the page records when it read the answer and when the backend wrote it.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

// Each page holds its own connection between asks, as a browser tab does.
export const pageAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Milliseconds since the epoch, with a fraction: comparable with the backends' x-answered-at. */
export const now = () => performance.timeOrigin + performance.now();

function get(url: string): Promise<{ status: number; retryAfter: number; body: string; answeredAt: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: pageAgent, headers: { accept: 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after']), body, answeredAt: Number(res.headers['x-answered-at']) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export interface Page {
  orderRef: string;
  attempt: string;
  backend: number;
  expected: string;
  /** When the page read its answer, and when the backend wrote it (now()). */
  answered?: number;
  written?: number;
  got?: string;
  refusals: Record<number, number>;
}

/** One page's settle loop, as settle-controller.ts asks. */
export async function settle(page: Page, url: string, counts: { inFlight: number }): Promise<void> {
  let failures = 0;
  for (let asks = 0; asks < 10_000; asks++) {
    let wait = 1000 * 2 ** failures++;
    counts.inFlight++;
    try {
      const answer = await get(`${url}/status?order_ref=${page.orderRef}&attempt=${page.attempt}`);
      if (answer.status === 200) {
        page.answered = now();
        page.written = answer.answeredAt;
        page.got = (JSON.parse(answer.body) as { status: string }).status;
        return;
      }
      if (answer.status === 404) return;
      if (answer.status === 204) {
        failures = 0;
        wait = 250;
      } else {
        page.refusals[answer.status] = (page.refusals[answer.status] ?? 0) + 1;
        // The larger of the back-off and the Retry-After, as the element takes it.
        if (answer.retryAfter > 0) wait = Math.max(wait, answer.retryAfter * 1000);
      }
    } catch {
      page.refusals[0] = (page.refusals[0] ?? 0) + 1;
    } finally {
      counts.inFlight--;
    }
    // Capped at 30 s and jittered by a quarter either way, as the element waits.
    await sleep(Math.min(wait, 30_000) * (0.75 + Math.random() / 2));
  }
}
