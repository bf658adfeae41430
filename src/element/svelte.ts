// The `pay-form/svelte` entry: defines <pay-form> and types it for Svelte 5 templates (its attributes
// and `onpay-form-…` event attributes, whose handlers get the typed CustomEvent).
// Imported under its own name: inside `declare module 'svelte/elements'` a bare HTMLAttributes is not in
// scope, and tsc drops an import it thinks unused from the emitted .d.ts.
import type { HTMLAttributes as SvelteHTMLAttributes } from 'svelte/elements';
import type { PayForm } from './pay-form.js';
import type { PayFormAttributes, PayFormEventAttributes } from './framework-types.js';

export * from './index.js';
export type * from './framework-types.js';

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'pay-form': SvelteHTMLAttributes<PayForm> & PayFormAttributes & PayFormEventAttributes;
  }
}
