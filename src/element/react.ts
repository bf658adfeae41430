// The `pay-form/react` entry: <PayFormReact> made by @lit/react, with one `onPayForm…` prop per event
// (named from the event constants), and JSX typings for apps that write the raw <pay-form> tag.
// 'use client': React Server Components (Next.js) must run it in the browser, where it has hooks and
// defines the tag; scripts/build.ts keeps the directive at the top of dist/element/react.js.
'use client';
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { PayForm } from './pay-form-define.js';
import { registerModal } from './modal.js';
import { registerPopup } from './popup.js';
import { PAY_FORM_EVENTS, type PayFormEventDetails, type PayFormEventName } from './events.js';
import type { Pascal, PayFormAttributes, PayFormEventAttributes } from './framework-types.js';

/** `pay-form-success` → `onPayFormSuccess`, for every event the element fires. */
export type PayFormReactEvents = {
  [K in PayFormEventName as `on${Pascal<K>}`]: EventName<CustomEvent<PayFormEventDetails[K]>>;
};

function reactPropName(event: string): string {
  return `on${event.replace(/(^|-)([a-z])/g, (_match, _dash: string, letter: string) => letter.toUpperCase())}`;
}

const events = Object.fromEntries(PAY_FORM_EVENTS.map((name) => [reactPropName(name), name])) as PayFormReactEvents;

registerModal(PayForm);
registerPopup(PayForm);

const LitPayForm = createComponent({
  tagName: 'pay-form',
  elementClass: PayForm,
  react: React,
  events,
  displayName: 'PayForm',
});

const noSubscription = () => () => undefined;

/**
 * `<pay-form>` as a React component: properties are set as properties, `onPayFormSuccess` and its
 * siblings receive the typed CustomEvent. React keeps the `key` prop for itself, so pass the form key
 * through `fetchToken`/`tokenUrl` or a ref (`ref.current.key = …`).
 *
 * Rendered in the browser only, once React has hydrated (nothing in server HTML, as with any effect):
 * a server-rendered <pay-form> would start before hydration, firing events no handler hears yet and
 * setting its `state` attribute under React's feet (docs/frameworks.md, Server rendering).
 */
export const PayFormReact = React.forwardRef<PayForm, React.ComponentProps<typeof LitPayForm>>(function PayFormReact(props, ref) {
  // false on the server and while hydrating, true on every client render after.
  const hydrated = React.useSyncExternalStore(noSubscription, () => true, () => false);
  return hydrated ? React.createElement(LitPayForm, { ...props, ref }) : null;
}) as typeof LitPayForm;

/** Props of the raw `<pay-form>` tag in React 19 JSX. */
export type PayFormJsxProps = React.DetailedHTMLProps<React.HTMLAttributes<PayForm>, PayForm> & PayFormAttributes & PayFormEventAttributes;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'pay-form': PayFormJsxProps;
    }
  }
}

export { PayForm };
export type * from './framework-types.js';
