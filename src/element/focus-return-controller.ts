// Focus given back, as a Lit reactive controller (docs/element.md, Accessibility): after an update of
// the host that removed the form or came with an error, focus that fell to <body> goes to the opener
// when it can take it (it may be disabled or gone by now), else to the host itself, focusable for that
// moment. Nothing moves when the opener is <body>: focus was never on a control. After the update, so
// that the removed nodes are gone; a modal shown in the same update has taken focus already.
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';

export interface FocusReturn extends ReactiveController {
  /** What had focus when the form last started loading (<body> when nothing had), set by the host. */
  before?: Element | null;
  /** Set by the host when it removes the form or an error comes: focus may fall to <body>. */
  lost?: boolean;
}

/** The controller, added to `host`: a plain object, not a class, for the bundle's size. */
export function focusReturn(host: ReactiveControllerHost & HTMLElement): FocusReturn {
  const focus: FocusReturn = {
    hostUpdated() {
      const opener = focus.before as HTMLElement | null | undefined;
      if (!focus.lost) return;
      focus.lost = false;
      if (!opener || document.activeElement !== document.body) return;
      opener.focus();
      if (document.activeElement === opener) return;
      host.tabIndex = -1;
      host.addEventListener('blur', () => host.removeAttribute('tabindex'), { once: true });
      host.focus();
    },
  };
  host.addController(focus);
  return focus;
}
