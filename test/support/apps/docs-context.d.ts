// What the documentation's fragments take from their surroundings, declared once, typed as a merchant's
// code would have them (test/node/package/docs-typecheck.test.ts). Blocks that run on their own (the
// README's server, the recipes, the Next.js app) declare everything themselves.

/** An Express app (the fragments mount the handlers on it). */
declare const app: import('express').Express;
/** The merchant's PaymentClient, its settings and the store the three handlers share. */
declare const client: import('pay-form/server').PaymentClient;
declare const store: import('pay-form/server').CallbackStore;
declare const baseUrl: string;
declare const merchantId: string;
declare const secret: string;
declare const onStatus: (payload: import('pay-form/server').CallbackPayload, order: import('pay-form/server').CallbackOrder) => Promise<void>;

/** A typed order table, as a merchant's database layer would give it. */
interface DocsOrder {
  id: string;
  login: string;
  amount: number;
  currency: string;
  paid: boolean;
}
declare const orders: {
  /** The order, when it is this user's. */
  find(orderRef: string | undefined, user: string | undefined): Promise<DocsOrder | undefined>;
  markPaid(orderRef: string, invoiceId: string): Promise<void>;
  /** The order by its reference, whoever's it is (for the callback). */
  get(orderRef: string): Promise<DocsOrder | undefined>;
};
/** The merchant's refund queue: extra payments handed over by onStatus. */
declare const refunds: { add(extra: import('pay-form/server').ExtraPayment): Promise<void> };
/** The session's user, from the request's cookie. */
declare function sessionUser(request: Request): Promise<string | undefined>;

/** The payload of docs/signature.md's worked example. */
declare const payload: import('pay-form/server').JsonObject;

/** What the Bun and Deno recipes use of their runtimes (their own type packages are not installed). */
declare const Bun: {
  serve(options: { port: number; fetch: (request: Request) => Promise<Response> }): { url: URL };
};
declare const Deno: {
  serve(options: { port: number; onListen?: (address: { port: number }) => void }, handler: (request: Request) => Promise<Response>): unknown;
  env: { get(name: string): string | undefined; toObject(): Record<string, string> };
};
