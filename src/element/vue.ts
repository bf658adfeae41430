// The `pay-form/vue` entry: defines <pay-form>, types it as a global component for Vue templates
// (attributes and `@pay-form-…` events), and gives the compiler setting that leaves the tag to the browser.
import type { DefineComponent } from 'vue';
import type { Camel, PayFormAttributes, PayFormEventProps } from './framework-types.js';

export * from './index.js';
export type * from './framework-types.js';

/** For `compilerOptions.isCustomElement` (@vitejs/plugin-vue's `template.compilerOptions`, or `app.config.compilerOptions`). */
export function isCustomElement(tag: string): boolean {
  return tag === 'pay-form';
}

/** Vue camelizes kebab attributes to props (`base-url` → `baseUrl`) and `@pay-form-success` to `onPayFormSuccess`. */
export type PayFormVueProps = { [K in keyof PayFormAttributes as Camel<K>]: PayFormAttributes[K] } & PayFormEventProps;

declare module 'vue' {
  interface GlobalComponents {
    PayForm: DefineComponent<PayFormVueProps>;
  }
}
