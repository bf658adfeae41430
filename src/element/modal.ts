// The modal display (docs/element.md, Modal display): the dialog around the iframe, its bar and its
// styles. `pay-form`, `pay-form/react` (and `pay-form/vue`, `pay-form/svelte` through `pay-form`) register
// it for the class they define; a script-tag page with `display="modal"` loads dist/pay-form-modal.min.js
// (modal-on-load.ts) beside the element's bundle, which leaves it out so that pages that show the form
// inline or in a popup do not load it. Without it the form shows inline.
import type { PayForm } from './pay-form.js';
import { element } from './pay-form.dom.js';

// What the browser already does is left to it: the dialog's size limits (it never passes the viewport
// less 2em) and scrolling. The .bar is sticky so that, when the form is taller than the viewport, the
// Close button stays on screen. The dialog's transparent border is invisible until forced colours paint
// it, so the dialog keeps an edge there. The close button's own rule is the element's (pay-form.styles.ts).
const MODAL_CSS =
  `dialog{width:var(--pay-form-dialog-width,32rem);padding:0;border:1px solid #0000;border-radius:.5rem}` +
  `dialog::backdrop{background:var(--pay-form-backdrop,#00000080)}` +
  `.bar{position:sticky;top:0;background:inherit;display:flex;align-items:center;padding:.25rem}`;

/** One constructed sheet, made at the first dialog (nothing touches the DOM on import), adopted by each shadow root that shows one. */
let sheet: CSSStyleSheet | undefined;

/**
 * The modal dialog around the iframe, put in `root` and opened, with the element's status in its bar: content outside a modal
 * dialog is inert, so the status must be inside to be seen and heard, and it describes the dialog so
 * that opening it reads out "loading". `dismiss` runs for the close button and for the dialog's close
 * (Escape, or the browser closing it).
 */
export function createModal(root: ShadowRoot, iframe: HTMLIFrameElement, status: HTMLElement, dismiss: () => void): HTMLDialogElement {
  if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(MODAL_CSS);
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  // aria-label names the button (showFrame, at each update); the glyph is only what the eye sees.
  const button = element('button', { part: 'close-button', type: 'button' }, '×');
  button.onclick = dismiss;
  const dialog = element('dialog', { part: 'dialog', 'aria-describedby': 'status' }, element('div', { class: 'bar' }, status, button), iframe);
  // Escape (the cancel event) closes the dialog, and the close event dismisses the form.
  dialog.onclose = dismiss;
  root.append(dialog);
  // showModal() remembers the focused element and close() returns focus to it (HTML's dialog focus
  // steps), so the form is always closed through dialog.close() before it is removed (pay-form.ts).
  if (dialog.isConnected) dialog.showModal();
  return dialog;
}

/** Lets `display="modal"` show the form in a dialog for every element of this class. */
export function registerModal(payForm: typeof PayForm): void {
  payForm.modal ??= createModal;
}
