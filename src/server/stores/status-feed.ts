// The Redis store's news of recorded statuses, for the status handler's waits (docs/stores.md, The
// status wait). One subscription per process on the store's channel wakes exactly the orders named in
// its messages (Watchers). Redis pub/sub delivers every message in order on a live connection, and loses
// whatever is published while the subscriber is away or not yet subscribed; so the feed checks its own
// hearing with one PUBLISH of a ping every HEARTBEAT_MS while anything is watched, and tells every
// watched order to read again (the reconcile) when it cannot vouch for what it heard: a ping not heard
// by the next one, the subscriber connection made again, the first ping after subscribing. Its Redis
// cost is that one PUBLISH per process every HEARTBEAT_MS however many requests wait, and one read per
// waiting order per reconcile, which only a dropped or silent subscription causes.
import type { RedisConnection, RedisSubscription } from './redis-connection.js';
import { Watchers } from './watchers.js';
import type { OrderStatus, StatusNews } from './callback-store.js';
import { parseStatusAnswer } from '../../service/checkout.js';

/** How often a process checks that its subscription still hears: also the longest a missed message
 *  can delay an answer while the subscription is deaf. */
export const HEARTBEAT_MS = 5000;

/** Pings start with NUL: no order reference the callback handler publishes does (checkout.ts). */
const PING = '\u0000pay-form-ping:';
/** News of a recorded outcome (redis-callback-store.ts, FINISH): \u0001 and the JSON of [order
 *  reference, the attempt's field 'a:…', its outcome, the order's payment], each outcome JSON or false. */
const NEWS = '\u0001';

/** The order and what changed for it; undefined when the message is not news (an order reference alone). */
function parseNews(message: string): [orderRef: string, news: StatusNews] | undefined {
  try {
    const [orderRef, field, own, paid] = JSON.parse(message.slice(1)) as unknown[];
    if (typeof orderRef !== 'string' || typeof field !== 'string' || !field.startsWith('a:')) return undefined;
    return [orderRef, { attempt: field.slice(2), own: parseOrderStatus(own), paid: parseOrderStatus(paid) }];
  } catch {
    return undefined;
  }
}

export class StatusFeed {
  readonly #watchers = new Watchers();
  readonly #ping = `${PING}${crypto.randomUUID()}:`;
  #subscription: RedisSubscription | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** The last ping sent, and whether it was heard. */
  #sent = 0;
  #heard = true;
  /** Whether everything published since the last reconcile has been heard. */
  #hearing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly channel: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  watch(orderRef: string, listener: (news?: StatusNews) => void): () => void {
    this.#start();
    this.#watchers.add(orderRef, listener);
    // Bound rather than a closure: a waiting order's entry keeps it (status-waits.ts).
    return this.#unwatch.bind(this, orderRef, listener);
  }

  #unwatch(orderRef: string, listener: (news?: StatusNews) => void): void {
    this.#watchers.remove(orderRef, listener);
    if (this.#watchers.size === 0) this.#idle();
  }

  close(): void {
    this.#idle();
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#hearing = false;
  }

  #start(): void {
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), HEARTBEAT_MS);
      this.#timer.unref?.();
    }
    if (this.#subscription !== undefined) return;
    this.#hearing = false;
    const subscription = this.redis.subscribe(this.channel, (message) => this.#message(message), this.onError, () => this.#reconnected());
    this.#subscription = subscription;
    subscription.subscribed.then(
      () => this.#sendPing(),
      (error: unknown) => {
        // Made again on the next tick or watch; meanwhile the ticks' reconciles carry the news.
        this.onError(error);
        subscription.close();
        if (this.#subscription === subscription) this.#subscription = undefined;
      },
    );
  }

  /** Nothing watched: no pings, so an idle process sends Redis nothing. The subscription stays. */
  #idle(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #message(message: string): void {
    if (message.startsWith(NEWS)) {
      const news = parseNews(message);
      if (news !== undefined) return this.#watchers.notify(...news);
    }
    if (!message.startsWith(PING)) return this.#watchers.notify(message);
    if (message !== `${this.#ping}${this.#sent}`) return; // another process's ping, or an old one of ours
    this.#heard = true;
    if (this.#hearing) return;
    // Everything published from now on is heard; a read from now on sees what came before.
    this.#hearing = true;
    this.#watchers.notifyAll();
  }

  /** The subscriber connection was made again: what was published while it was away is lost. */
  #reconnected(): void {
    this.#hearing = false;
    if (this.#timer !== undefined) this.#sendPing();
  }

  #tick(): void {
    if (this.#subscription === undefined) this.#start();
    if (!this.#heard) {
      // Silent since the last ping: read every watched order now, and again each tick until it hears.
      this.#hearing = false;
      this.#watchers.notifyAll();
    }
    this.#sendPing();
  }

  #sendPing(): void {
    this.#heard = false;
    const ping = `${this.#ping}${++this.#sent}`;
    this.redis.send(this.channel, ['PUBLISH', this.channel, ping]).catch((error: unknown) => this.onError(error));
  }
}

/** A verified status as stored: JSON of the status answer, read by the protocol's one parser; anything else reads as absent. */
export function parseOrderStatus(text: unknown): OrderStatus | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return parseStatusAnswer(JSON.parse(text)) ?? undefined;
  } catch {
    return undefined; // a foreign value under our key: no status
  }
}
