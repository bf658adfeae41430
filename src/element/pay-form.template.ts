// The element's two pieces of DOM: the iframe (keyed by the frame's id, so each open gets a fresh
// iframe and a late load of an old one is never taken for the new) and the modal dialog around it.
import { html, render, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { keyed } from 'lit/directives/keyed.js';
import { openFormUrl } from '../service/form-url.js';
import type { Frame } from './frame-watch-controller.js';

export function frameTemplate(frame: Frame, sandbox: string | null, title: string, onLoad: () => void) {
  return keyed(
    frame.id,
    html`<iframe
      part="frame"
      sandbox=${ifDefined(sandbox ?? undefined)}
      allow="payment"
      referrerpolicy="origin"
      title=${title}
      src=${frame.url}
      @load=${onLoad}
    ></iframe>`,
  );
}

export interface ModalHandlers {
  cancel(event: Event): void;
  close(): void;
  dismiss(): void;
}

export function modalTemplate(label: string, iframe: unknown, on: ModalHandlers): TemplateResult {
  return html`<dialog part="dialog" aria-label=${label} @cancel=${on.cancel} @close=${on.close}>
    <div class="bar">
      <button part="close-button" type="button" aria-label="Close" @click=${on.dismiss}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
    ${iframe}
  </dialog>`;
}

/**
 * Prepares the iframe's template and runs the URL checks once, so the first key pays only for the
 * iframe itself (bench/form-open measures the cold first open). The iframe is rendered into a detached
 * fragment: it never loads.
 */
export function warmFrame(host: object): void {
  openFormUrl('https://warm.invalid', 'warm');
  const frame: Frame = { id: 0, url: 'about:blank', origin: 'null', display: 'inline', ready: false, result: false };
  render(frameTemplate(frame, null, 'warm', () => {}), document.createDocumentFragment(), { host });
}
