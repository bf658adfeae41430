// No leaks, with a budget (issue 30), through the Vue entry: 200 mounts of a Vue app whose template shows
// <pay-form> (the compiler told of the tag by the entry's isCustomElement) leave what the element's own
// cycles may leave (leak-cycles.ts): nothing. The real Vue from node_modules, its ES build with the
// template compiler (test/support/browsers/frameworks.mjs).
import { createApp } from 'vue';
import { isCustomElement } from '../../src/element/vue.js';
import { frameworkSuite, type Mount } from './framework-mounts.js';

const TEMPLATE = `<pay-form :base-url="checkout.baseUrl" :token-url="checkout.tokenUrl" :order-ref="checkout.orderRef"
  :display="checkout.display" :status-url="checkout.statusUrl" @pay-form-ready="onReady"></pay-form>`;

const mountVue: Mount = (container, checkout, onReady) => {
  const app = createApp({ template: TEMPLATE, setup: () => ({ checkout, onReady }) });
  app.config.compilerOptions.isCustomElement = isCustomElement;
  app.mount(container);
  return () => app.unmount();
};

frameworkSuite('vue', 'Vue entry', 'a Vue app with <pay-form>', mountVue);
