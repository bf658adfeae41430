// The demo merchant's backend: the shop's own routes under /api/checkout/, built on pay-form/server.
// The secret stays here; the page gets the service's base URL, and its shopper's own orders, keys,
// statuses and callbacks, never another shopper's. What it keeps in memory is bounded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createCallbackHandler, createTokenHandler, INVALID_JSON_MESSAGE, PaymentClient, toNodeHandler, type CallbackOrder, type CallbackPayload,
  type ResolvedOrder, type TokenParams,
} from '../src/server/index.js';
import { SettledOrders, type CallbackStore } from './backend-status.js';
import { ensureShopper, shopperOf } from './shoppers.js';
import { failureBody, isJsonContentType, jsonResponse as json } from '../src/service/body.js';
import { checkChoices, DEMO_LANGUAGES, DEMO_METHODS, OrderBook, priceList, RATES } from './catalogue.js';
import { recordPageStep } from './page-steps.js';

/** A route of the shop: toNodeHandler's handlers, and the event stream that needs the whole ServerResponse. */
type Route = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** One Server-Sent Event for the callback log, the same for the replay and each live entry. */
const callbackEvent = (entry: CallbackLogEntry): string => `event: callback\ndata: ${JSON.stringify(entry)}\n\n`;

export interface DemoBackendConfig {
  /** The payment service: the embedded sandbox, or a real one named by the environment. */
  baseUrl: string;
  merchantId: string;
  secret: string;
  /** The merchant's site at the service, and the one that has the redirect_url setting (if any). */
  siteId: number;
  redirectSiteId: number | undefined;
  sandbox: boolean;
  /** The origin the shop's pages are served from, e.g. `http://localhost:5173`: success_url and
   *  fail_url are built on it, never on the request's Host header, which the browser (or anyone) sets. */
  shopOrigin: string;
  /** Where callbacks and verified statuses are kept: memory by default, Redis with REDIS_URL. */
  store?: CallbackStore;
  /** How long a checkout's key is handed out again (createTokenHandler's keyLifetimeMs; default 10 minutes). */
  keyLifetimeMs?: number;
  /** How long a status request waits for the verified status before its 204 (createStatusHandler's waitMs; default 25 s). */
  statusWaitMs?: number;
  /** The most orders kept, and entries of the callback log; the oldest go first. Default 10000. */
  maxOrders?: number;
  /** Told of each verified callback, whoever's order it is (backend A of the cluster prints them). */
  onCallback?: (entry: CallbackLogEntry) => void;
}

export interface CallbackLogEntry {
  received_at: string;
  invoice_id: string;
  /** The shop's order, and the request_id the service got for the attempt (the order and its attempt id). */
  order_ref: string;
  request_id: string;
  status: string;
  amount: number | undefined;
  currency: string | undefined;
  product: string | undefined;
  /** 'extra payment: refund' for a success that did not pay the order (docs/server.md, Extra payments). */
  note?: string;
}

export const CHECKOUT_PREFIX = '/api/checkout/';

/** Any other path under the shop's prefix: JSON, like every answer of the shop's own routes. */
const notFound: Route = toNodeHandler(async () => json(404, failureBody('Not found')));

/** The shop's customer on the demo: fixed, since the demo has no accounts. */
const DEMO_CUSTOMER = 'demo-customer';

/** A log entry and the shopper it may be shown to (none when the order is not this backend's). */
interface Logged {
  shopper: string | undefined;
  entry: CallbackLogEntry;
}

export class DemoBackend {
  readonly orders: OrderBook;
  readonly #log: Logged[] = [];
  /** Each open event stream and the shopper it is for. */
  readonly #streams = new Map<ServerResponse, string | undefined>();
  readonly #routes: Readonly<Record<string, Route>>;
  readonly #settled: SettledOrders;

  constructor(readonly config: DemoBackendConfig) {
    this.orders = new OrderBook(config.maxOrders);
    const client = new PaymentClient({ baseUrl: config.baseUrl, merchantId: config.merchantId, secret: config.secret });
    this.#settled = new SettledOrders((orderRef, shopper) => this.orders.visibleTo(orderRef, shopper), config.store, config.statusWaitMs);
    // One store for the three handlers: a paid order gets no second token, and each checkout is an attempt.
    const store = this.#settled.store;
    const tokenHandler = createTokenHandler({
      client, store, resolve: (request, body) => this.#tokenParams(request, body.order_ref),
      // The attempt each order has now, for the page's steps of its timeline (demo/page-steps.ts).
      observer: (event) => {
        if (event.type === 'attempt') {
          const order = this.orders.get(event.orderRef);
          if (order) order.attempt = event.attempt;
        }
      },
      ...(config.keyLifetimeMs === undefined ? {} : { keyLifetimeMs: config.keyLifetimeMs }),
    });
    const callbackHandler = createCallbackHandler({
      secret: config.secret, store, onStatus: (payload, order) => this.#record(payload, order),
    });
    this.#routes = {
      'GET config': toNodeHandler(async () => json(200, this.#publicConfig())),
      'GET catalogue': toNodeHandler(async () =>
        json(200, { products: priceList(), currencies: Object.keys(RATES), methods: DEMO_METHODS, languages: DEMO_LANGUAGES }),
      ),
      'POST orders': toNodeHandler((request) => this.#createOrder(request)),
      'GET status': toNodeHandler(this.#settled.handler),
      'POST token': toNodeHandler(tokenHandler),
      'POST callback': toNodeHandler(callbackHandler),
      'GET callbacks': toNodeHandler(async (request) => json(200, this.#logOf(shopperOf(request.headers.get('cookie'))))),
      'GET events': (req, res) => this.#stream(req, res),
      'POST page-steps': toNodeHandler((request) => recordPageStep(request, (ref) => this.orders.visibleTo(ref, shopperOf(request.headers.get('cookie'))))),
    };
  }

  /** Connect middleware for Vite: the shop's routes, everything else passes on. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
    if (!path.startsWith(CHECKOUT_PREFIX)) return next();
    ensureShopper(req, res);
    const route = this.#routes[`${req.method} ${path.slice(CHECKOUT_PREFIX.length)}`];
    (route ?? notFound)(req, res, next);
  };

  /** Every shopper's callbacks, for the shop's own code (tests); a browser sees only its own. */
  callbacks(): readonly CallbackLogEntry[] {
    return this.#log.map((logged) => logged.entry);
  }

  close(): void {
    for (const res of this.#streams.keys()) res.end();
    this.#streams.clear();
  }

  #publicConfig() {
    return {
      base_url: this.config.baseUrl,
      sandbox: this.config.sandbox,
      redirect_mode_available: this.config.redirectSiteId !== undefined,
    };
  }

  async #createOrder(request: Request): Promise<Response> {
    let input: unknown;
    try {
      if (!isJsonContentType(request.headers.get('content-type'))) throw new TypeError('not JSON');
      input = await request.json();
    } catch {
      return json(400, failureBody(INVALID_JSON_MESSAGE));
    }
    const checked = checkChoices(input);
    if (!checked.ok) return json(400, { success: false, issues: checked.issues });
    if (checked.value.redirect_mode && this.config.redirectSiteId === undefined) {
      return json(400, { success: false, issues: [{ field: 'redirect_mode', message: 'this service has no redirect site configured' }] });
    }
    const shopper = shopperOf(request.headers.get('cookie')) as string;
    const { order_ref, amount, currency, product_name } = this.orders.create(checked.value, shopper);
    return json(201, { order_ref, amount, currency, product_name });
  }

  /** The token request for an order, from the shop's own data; 'paid' for an order the shop knows is
   *  paid (the store knows it too, across backends). success_url / fail_url point back at the shop's
   *  configured origin, the one its pages are served from, so the return page's message comes from the
   *  page's own origin; a forged Host header cannot move them. */
  #tokenParams(request: Request, orderRef: string | undefined): ResolvedOrder {
    const shopper = shopperOf(request.headers.get('cookie'));
    const order = this.orders.visibleTo(orderRef, shopper);
    if (!order) return null;
    if (order.status === 'paid') return 'paid';
    const origin = this.config.shopOrigin;
    const siteId = order.redirect_mode ? (this.config.redirectSiteId as number) : this.config.siteId;
    return {
      site_login: DEMO_CUSTOMER,
      site_id: siteId,
      request_id: order.request_ref,
      amount: order.amount,
      currency: order.currency,
      method: order.method as TokenParams['method'],
      language: order.language,
      success_url: `${origin}/demo/return.html?status=success`,
      fail_url: `${origin}/demo/return.html?status=fail`,
    };
  }

  #record(payload: CallbackPayload, { orderRef, verdict }: CallbackOrder): void {
    // A payout's or a hand-made key's callback names no order of the shop (docs/server.md, Callback endpoint).
    const order = verdict === 'foreign' ? undefined : this.orders.get(orderRef);
    // Only the order's one payment pays it, at its own amount; a paid order stays paid: a late decline does not undo it.
    if (order && verdict === 'payment' && payload.amount === order.amount && payload.currency === order.currency) order.status = 'paid';
    if (order && verdict === 'attempt' && payload.status === 'fail' && order.status !== 'paid') order.status = 'failed';
    const entry: CallbackLogEntry = {
      received_at: new Date().toISOString(),
      invoice_id: payload.invoice_id,
      order_ref: order?.order_ref ?? orderRef ?? '',
      request_id: String(payload.request_id ?? ''),
      status: payload.status,
      amount: typeof payload.amount === 'number' ? payload.amount : undefined,
      currency: typeof payload.currency === 'string' ? payload.currency : undefined,
      product: order?.product_name,
      ...(verdict === 'extra' ? { note: 'extra payment: refund' } : {}),
    };
    const shopper = order?.shopper;
    this.#log.push({ shopper, entry });
    const max = this.orders.max;
    if (this.#log.length > max) this.#log.splice(0, this.#log.length - max);
    this.config.onCallback?.(entry);
    if (shopper === undefined) return;
    const event = callbackEvent(entry);
    for (const [res, of] of this.#streams) if (of === shopper) res.write(event);
  }

  /** The callbacks of this shopper's orders, none for a request without a shopper. */
  #logOf(shopper: string | undefined): CallbackLogEntry[] {
    return shopper === undefined ? [] : this.#log.filter((logged) => logged.shopper === shopper).map((logged) => logged.entry);
  }

  /** Server-Sent Events: this shopper's callbacks so far, then each new one as it is verified. */
  #stream(req: IncomingMessage, res: ServerResponse): void {
    const shopper = shopperOf(req.headers.cookie);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': pay-form demo callback log\n\n');
    for (const entry of this.#logOf(shopper)) res.write(callbackEvent(entry));
    this.#streams.set(res, shopper);
    req.on('close', () => this.#streams.delete(res));
  }
}
