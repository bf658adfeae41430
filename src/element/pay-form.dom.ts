// The element's DOM, built directly: the iframe (a new one per open, so a late load of an old frame is
// never taken for the new), put in the modal dialog (modal.ts) when that display is registered, and the
// live regions that say what happens.
// Every value is set as an attribute or text, never parsed as HTML, so no Trusted Types policy is needed.
import type { Frame } from './frame-watch-controller.js';
import type { createModal } from './modal.js';
import type { PayFormEventName } from './events.js';

type Attributes = Record<string, string | null>;

/** Sets each attribute, or removes it when its value is null. */
export function setAttributes(node: Element, attributes: Attributes): void {
  for (const name in attributes) {
    const value = attributes[name];
    if (value == null) node.removeAttribute(name);
    else node.setAttribute(name, value);
  }
}

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  setAttributes(node, attributes);
  node.append(...children);
  return node;
}

/** A new iframe for the form URL (FrameWatchController.watch makes it); the element sets its title and sandbox before inserting it (and so before it starts loading). */
export function createFrame(url: string, onLoad: () => void): HTMLIFrameElement {
  const iframe = element('iframe', { part: 'frame', allow: 'payment', referrerpolicy: 'origin', src: url });
  iframe.onload = onLoad;
  return iframe;
}

const named = (node: Element, [name, lang]: [string, string]) => setAttributes(node, { 'aria-label': name, lang });

/**
 * Puts `frame` in the shadow root `root` (new nodes for a new frame, the last one's removed) and names it
 * at each update: `name` and the close button's `close` are each [name, language], so a screen reader reads
 * a name in its language's voice; `sandbox` is the iframe's. `modal` makes the dialog (modal.ts; without it the
 * form shows inline), inserts and opens it, and `dismiss` is its close. Returns the frame now in the root.
 */
export function showFrame(
  root: ShadowRoot,
  status: HTMLElement,
  shown: Frame | null | undefined,
  frame: Frame | null | undefined,
  name: [string, string],
  close: [string, string],
  sandbox: string | null,
  modal: typeof createModal | undefined,
  dismiss: () => void,
): Frame | null | undefined {
  const isNew = shown !== frame;
  if (isNew) {
    shown?.node!.remove();
    // Back from the modal's bar to the top of the shadow root.
    if (status.parentNode !== root) root.prepend(status);
    shown = frame;
  }
  if (!shown) return shown;
  const iframe = shown.iframe;
  // Set before the iframe is inserted, so before it starts loading; again at each update, for a language's words that came since.
  setAttributes(iframe, { title: name[0], lang: name[1], sandbox });
  if (isNew) shown.node = shown.display === 'modal' && modal ? modal(root, iframe, status, dismiss) : root.appendChild(iframe);
  const node = shown.node!;
  if (node !== iframe) {
    named(node, name);
    named(node.querySelector('button')!, close);
  }
  return shown;
}

/** Puts `text` in a live region as text (never markup), marked as in `lang`, so a screen reader reads it in that language's voice.
 *  Only a change is written: whatever is written into a live region is read out again. */
export function say(region: HTMLElement, [text, lang = '']: [string, string?]): void {
  region.lang = lang;
  if (region.textContent !== text) region.textContent = text;
}

/** An event's name without its `pay-form-` prefix, as the element fires it (`pay-form-{name}`). */
export type EventSuffix<K = PayFormEventName> = K extends `pay-form-${infer N}` ? N : never;
