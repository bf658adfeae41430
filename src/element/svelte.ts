// The `pay-form/svelte` entry: defines <pay-form> and types it for Svelte 5 templates (its attributes
// and `onpay-form-…` event attributes, whose handlers get the typed CustomEvent).
import type { HTMLAttributes } from 'svelte/elements';
import type { PayForm } from './pay-form.js';
import type { PayFormAttributes, PayFormEventAttributes } from './framework-types.js';

export * from './index.js';
export type * from './framework-types.js';

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'pay-form': HTMLAttributes<PayForm> & PayFormAttributes & PayFormEventAttributes;
  }
}
