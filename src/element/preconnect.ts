// Getting the connection and the code ready before the key arrives, so the first form opens sooner
// (docs/performance.md, time to form). Nothing runs at import time.
import { element } from './pay-form.dom.js';

const preconnected = new Set<string>();

/** Adds `<link rel="preconnect">` to the service's origin once per page. */
export function preconnect(origin: string): void {
  if (preconnected.has(origin)) return;
  preconnected.add(origin);
  document.head.append(element('link', { rel: 'preconnect', href: origin }));
}

let warmed = false;

/**
 * Once per page, in an idle moment, runs `warm`: the element uses it to prepare the frame's template
 * and run the URL checks once, so the first `key` pays only for the iframe itself.
 */
export function warmUpOnce(warm: () => void): void {
  if (warmed) return;
  warmed = true;
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
  idle(warm);
}
