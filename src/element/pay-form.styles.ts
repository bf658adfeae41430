// The element's shadow styles: the frame, its buttons (the modal's Close, the popup's), the status and
// the alert, themed by the --pay-form-* custom properties documented on the class; the modal dialog's
// own are in modal.ts, loaded with it. One rule per line, joined with +: the minifier folds them into
// one string, without the line breaks a template keeps. A button's focus ring is left to each engine
// (drawn to be seen on any background). An empty live region takes no space. unsafeCSS, not the css tag:
// this text is a constant of ours, never outside data, so the tag's checks have nothing to guard here.
import { unsafeCSS } from '@lit/reactive-element';

export const styles = unsafeCSS(
  `:host(:not([hidden])){display:block}` +
  `iframe{display:block;box-sizing:border-box;width:var(--pay-form-width,100%);height:var(--pay-form-height,640px);border:var(--pay-form-border,0)}` +
  `button{margin-inline-start:auto;min-width:44px;min-height:44px;font-size:1.5rem;line-height:1;background:none;border:0}` +
  `[role]:not(:empty){padding:.75rem}`,
);
