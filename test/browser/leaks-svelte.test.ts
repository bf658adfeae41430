// No leaks, with a budget (issue 30), through the Svelte entry: 200 mounts and unmounts of a Svelte 5
// component showing <pay-form> (test/fixtures/frameworks/Checkout.svelte) leave what the element's own
// cycles may leave (leak-cycles.ts): nothing. The real Svelte from node_modules, the component compiled
// at test time (test/support/browsers/frameworks.mjs).
import { mount, unmount } from 'svelte';
import '../../src/element/svelte.js';
import Checkout from '../fixtures/frameworks/Checkout.svelte';
import { frameworkSuite, type Mount } from './framework-mounts.js';

const mountSvelte: Mount = (container, checkout, onReady) => {
  const component = mount(Checkout, { target: container, props: { checkout, onReady } });
  return () => unmount(component);
};

frameworkSuite('svelte', 'Svelte entry', 'a Svelte component with <pay-form>', mountSvelte);
