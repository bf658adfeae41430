// Types the framework entries share: the tag's attributes as HTML spells them, and its events as the
// `on…` attributes or props each framework's templates use. Types only: nothing here runs.
import type { PayFormDisplay, PayFormEventDetails, PayFormEventName, PayFormFallback } from './events.js';

/** `pay-form-success` → `PayFormSuccess`. */
export type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;

/** `redirect-on-timeout` → `redirectOnTimeout`. */
export type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Pascal<Tail>}` : S;

/** The attributes of `<pay-form>` (docs/element.md, Attributes). */
export interface PayFormAttributes {
  'base-url'?: string;
  key?: string;
  'redirect-url'?: string;
  display?: PayFormDisplay;
  'token-url'?: string;
  'order-ref'?: string;
  'load-timeout'?: number | `${number}`;
  'redirect-on-timeout'?: boolean;
  fallback?: PayFormFallback;
  'allowed-origins'?: string;
  'frame-sandbox'?: string;
  'frame-title'?: string;
  'status-url'?: string;
  'settle-timeout'?: number | `${number}`;
  'await-settled'?: boolean;
  /** JSON of `PayFormTexts` keys to strings. */
  texts?: string;
}

export type PayFormEventHandler<K extends PayFormEventName> = (event: CustomEvent<PayFormEventDetails[K]>) => void;

/** `onpay-form-success={…}`: React 19 and Svelte 5 listen for the event named after `on`. */
export type PayFormEventAttributes = { [K in PayFormEventName as `on${K}`]?: PayFormEventHandler<K> };

/** `onPayFormSuccess`: how Vue's `@pay-form-success` and @lit/react's props are typed. */
export type PayFormEventProps = { [K in PayFormEventName as `on${Pascal<K>}`]?: PayFormEventHandler<K> };
