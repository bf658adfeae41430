// Getting the connection and the code ready before the key arrives, so the first form opens sooner
// (docs/performance.md, time to form). Nothing runs at import time.
import { httpOrigin } from '../service/form-url.js';

/** Adds `<link rel="preconnect">` to the service's origin once per page. */
export function preconnect(origin: string): void {
  if ([...document.head.querySelectorAll<HTMLLinkElement>('link[rel~=preconnect]')].some((link) => httpOrigin(link.href) === origin)) return;
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = origin;
  document.head.append(link);
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
