// PaymentClient's default transport on Node (docs/server.md, "Timeouts and retries"): node:http or node:https with
// a keep-alive Agent per client, because Node's fetch spends several times the CPU of node:http on each
// request (docs/performance.md, "Server overhead"). It keeps the fetch attempt's rules (transport.ts):
// one timer over the whole answer, the response cap, no redirect followed (node:http follows none), a
// refused connection reported as never sent.
// node:http is loaded through process.getBuiltinModule, never imported, so importing pay-form/server on
// Workers or Deno does not need Node's modules; there, and on Bun, the client keeps fetch.
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { isJsonContentType } from '../../service/body.js';
import {
  MAX_RESPONSE_BYTES,
  TOO_LARGE_DETAIL,
  answerAttempt,
  contentTypeDetail,
  networkAttempt,
  parseRetryAfter,
  type Attempt,
  type AttemptFn,
  type TransportSettings,
} from './transport.js';
import type { BadResponseReason } from '../errors.js';

interface HttpModule {
  Agent: new (options: { keepAlive: boolean; timeout: number; scheduling: 'lifo' | 'fifo' }) => Agent;
  request(options: RequestOptions, callback: (res: IncomingMessage) => void): ClientRequest;
}

interface Host {
  process?: {
    release?: { name?: string };
    versions?: Record<string, string | undefined>;
    getBuiltinModule?: (id: string) => unknown;
  };
  Deno?: unknown;
  Bun?: unknown;
  navigator?: { userAgent?: string };
}

/** Node itself: Bun, Deno and Workers (nodejs_compat) answer to parts of Node's API but keep fetch. */
export function isNode(host: Host = globalThis as Host): boolean {
  const p = host.process;
  return (
    p?.release?.name === 'node' &&
    typeof p.versions?.['node'] === 'string' &&
    p.versions['bun'] === undefined &&
    p.versions['deno'] === undefined &&
    host.Deno === undefined &&
    host.Bun === undefined &&
    host.navigator?.userAgent !== 'Cloudflare-Workers'
  );
}

function builtin(host: Host, id: 'node:http' | 'node:https'): HttpModule | undefined {
  try {
    const mod = host.process?.getBuiltinModule?.(id) as Partial<HttpModule> | undefined;
    return typeof mod?.request === 'function' && typeof mod.Agent === 'function' ? (mod as HttpModule) : undefined;
  } catch {
    return undefined;
  }
}

/** An idle pooled connection is closed after this, below the 5 s keep-alive of Node's own servers, so
 *  the client does not reuse a connection the other side is closing (the server's hint can lower it). */
const IDLE_SOCKET_MS = 4_000;

/** The Node transport for one client, or undefined where node:http is not Node's own (then: fetch). */
export function nodeTransport(host: Host = globalThis as Host): AttemptFn | undefined {
  if (!isNode(host)) return undefined;
  const http = builtin(host, 'node:http');
  const https = builtin(host, 'node:https');
  if (!http || !https) return undefined;
  const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' } as const;
  const pools = { 'http:': { mod: http, agent: new http.Agent(options) }, 'https:': { mod: https, agent: new https.Agent(options) } };
  // A client posts to two URLs: each is parsed once, not on every request.
  const targets = new Map<string, Target>();
  return (settings, url, body) => {
    let target = targets.get(url);
    if (target === undefined) {
      const parsed = new URL(url);
      const pool = parsed.protocol === 'https:' ? pools['https:'] : pools['http:'];
      const { hostname, port, pathname, search } = parsed;
      // RequestOptions take an IPv6 host without its brackets.
      const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
      target = { mod: pool.mod, options: { method: 'POST', agent: pool.agent, protocol: parsed.protocol, hostname: host, port, path: pathname + search } };
      if (targets.size < 8) targets.set(url, target);
    }
    return attempt(target, settings, body);
  };
}

interface Target {
  mod: HttpModule;
  options: RequestOptions;
}

function headerOf(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

function attempt({ mod, options }: Target, settings: TransportSettings, body: string): Promise<Attempt> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      done({ kind: 'timeout' });
      request.destroy();
    }, settings.timeoutMs);
    const headers = { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) };
    const request = mod.request({ ...options, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const retryAfterMs = parseRetryAfter(headerOf(res, 'retry-after'));
      // The connection is dropped with an unusable answer, as fetch cancels its body.
      const bad = (reason: BadResponseReason, detail: string) => {
        done({ kind: 'bad', status, retryAfterMs, reason, detail });
        res.destroy();
      };
      const type = headerOf(res, 'content-type');
      if (!isJsonContentType(type)) return bad('content-type', contentTypeDetail(type));
      const tooLarge = () => bad('too-large', TOO_LARGE_DETAIL);
      if (Number(headerOf(res, 'content-length') ?? 0) > MAX_RESPONSE_BYTES) return tooLarge();
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > MAX_RESPONSE_BYTES) return tooLarge();
        chunks.push(chunk);
      });
      res.on('end', () => {
        const answered = answerAttempt(status, retryAfterMs, Buffer.concat(chunks, total));
        done(answered);
        if (answered.kind === 'bad') res.destroy();
      });
      // A connection cut mid-body: the request reached the service.
      res.on('error', (error) => done(networkAttempt(error)));
      res.on('close', () => {
        if (!res.complete) done(networkAttempt(Object.assign(new Error('connection closed before the answer ended'), { code: 'ECONNRESET' })));
      });
    });
    request.on('error', (error) => done(networkAttempt(error)));
    request.end(body);
  });
}
