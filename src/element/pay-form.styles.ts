// The element's shadow styles: the frame, the modal dialog and its close button, the status and the
// alert, themed by the --pay-form-* custom properties documented on the class. One rule per line,
// joined with +: the minifier folds them into one string, without the line breaks a template keeps.
// What the browser already does is left to it: the modal dialog's size limits (it never passes the
// viewport less 2em) and scrolling, the button's focus ring (each engine's own, drawn to be seen on
// any background). The .bar is sticky so that, when the form is taller than the viewport, the Close
// button stays on screen. The dialog's transparent border is invisible until forced colours paint it,
// so the dialog keeps an edge there. An empty live region takes no space. unsafeCSS, not the css tag:
// this text is a constant of ours, never outside data, so the tag's checks have nothing to guard here.
import { unsafeCSS } from '@lit/reactive-element';

export const styles = unsafeCSS(
  `:host(:not([hidden])){display:block}` +
  `iframe{display:block;box-sizing:border-box;width:var(--pay-form-width,100%);height:var(--pay-form-height,640px);border:var(--pay-form-border,0)}` +
  `dialog{width:var(--pay-form-dialog-width,32rem);padding:0;border:1px solid #0000;border-radius:.5rem}` +
  `dialog::backdrop{background:var(--pay-form-backdrop,#00000080)}` +
  `.bar{position:sticky;top:0;background:inherit;display:flex;align-items:center;padding:.25rem}` +
  `button{margin-inline-start:auto;min-width:44px;min-height:44px;font-size:1.5rem;line-height:1;background:none;border:0}` +
  `[role]:not(:empty){padding:.75rem}`,
);
