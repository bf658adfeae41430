// No leaks, with a budget (issue 30), through the React entry: 200 mounts of <PayFormReact> under
// <StrictMode> (React's development build, where StrictMode mounts each component, runs its effects and
// attaches its refs twice) leave what the element's own cycles may leave (leak-cycles.ts): nothing. The
// real React from node_modules, bundled for the page at test time (test/support/browsers/frameworks.mjs).
import { StrictMode, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { PayFormReact } from '../../src/element/react.js';
import { frameworkSuite, type Mount } from './framework-mounts.js';

const mountReact: Mount = (container, checkout, onReady) => {
  const root = createRoot(container);
  const props = {
    baseUrl: checkout.baseUrl,
    tokenUrl: checkout.tokenUrl,
    orderRef: checkout.orderRef,
    display: checkout.display,
    ...(checkout.statusUrl !== undefined && { statusUrl: checkout.statusUrl }),
    onPayFormReady: onReady,
  };
  flushSync(() => root.render(createElement(StrictMode, null, createElement(PayFormReact, props))));
  return () => root.unmount();
};

frameworkSuite('react', 'React entry, StrictMode', '<PayFormReact> under StrictMode', mountReact);
