// The element's two pieces of DOM, built directly: the iframe (a new one per open, so a late load of an
// old frame is never taken for the new) and the modal dialog around it. Every value is set as an
// attribute or text, never parsed as HTML, so no Trusted Types policy is needed.
import { openFormUrl } from '../service/form-url.js';

type Attributes = Record<string, string | null>;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes, ...children: Node[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const name in attributes) {
    const value = attributes[name];
    if (value != null) node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** The iframe, its attributes all set before it is inserted (and so before it starts loading). */
export function createFrame(url: string, sandbox: string | null, title: string, onLoad: () => void): HTMLIFrameElement {
  const iframe = element('iframe', { part: 'frame', sandbox, allow: 'payment', referrerpolicy: 'origin', title, src: url });
  iframe.addEventListener('load', onLoad);
  return iframe;
}

export interface ModalHandlers {
  cancel(event: Event): void;
  close(): void;
  dismiss(): void;
}

export function createModal(label: string, iframe: HTMLIFrameElement, on: ModalHandlers): HTMLDialogElement {
  const button = element(
    'button',
    { part: 'close-button', type: 'button', 'aria-label': 'Close' },
    element('span', { 'aria-hidden': 'true' }, document.createTextNode('×')),
  );
  button.addEventListener('click', on.dismiss);
  const dialog = element('dialog', { part: 'dialog', 'aria-label': label }, element('div', { class: 'bar' }, button), iframe);
  dialog.addEventListener('cancel', on.cancel);
  dialog.addEventListener('close', on.close);
  return dialog;
}

/**
 * Runs the URL checks and the iframe's construction once, so the first key pays only for inserting
 * the iframe (bench/form-open measures the cold first open). The iframe is never inserted: it never loads.
 */
export function warmFrame(): void {
  openFormUrl('https://warm.invalid', 'warm');
  createFrame('about:blank', null, 'warm', () => {});
}
