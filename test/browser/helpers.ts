// Shared by the browser tests: the two origins, mounting an element with every event recorded, and
// a guard so a redirect a test did not expect can never navigate the test page itself.
import { fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../src/element/index.js';
// Every accessibility audit in the browser tests runs the WCAG 2.2 AA rules.
import './axe.js';
import { PAY_FORM_ERROR, PAY_FORM_EVENTS, PAY_FORM_REDIRECT, type PayForm } from '../../src/element/index.js';

export interface Origins {
  page: string;
  service: string;
}

export const origins = (): Promise<Origins> => executeServerCommand<Origins, undefined>('origins');

export interface Recorded {
  type: string;
  detail: unknown;
  cancelable: boolean;
}

export const EVENT_NAMES = PAY_FORM_EVENTS;

export function record(target: EventTarget): Recorded[] {
  const events: Recorded[] = [];
  for (const name of EVENT_NAMES) {
    target.addEventListener(name, (event) => {
      events.push({ type: event.type, detail: (event as CustomEvent).detail, cancelable: event.cancelable });
    });
  }
  return events;
}

// Tests run in one page: a redirect nobody expected must not take it away. Tests that prove a real
// navigation use test/fixtures/pages/host.html inside an iframe instead.
document.addEventListener(PAY_FORM_REDIRECT, (event) => event.preventDefault());

/**
 * Creates a <pay-form>, records its events from before it connects (the first decision is made in
 * the first update), sets attributes, lets `setup` set properties, and connects it in a fixture.
 */
export async function mount(
  attrs: Record<string, string> = {},
  setup?: (el: PayForm) => void,
): Promise<{ el: PayForm; events: Recorded[]; container: HTMLElement }> {
  const container = await fixture<HTMLElement>(html`<div></div>`);
  const el = document.createElement('pay-form');
  const events = record(el);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  setup?.(el);
  container.append(el);
  await el.updateComplete;
  return { el, events, container };
}

export const frameOf = (el: PayForm): HTMLIFrameElement | null => el.shadowRoot?.querySelector('iframe') ?? null;

export const typesOf = (events: Recorded[]): string[] => events.map((e) => e.type);

export async function waitForEvent(
  events: Recorded[],
  type: string,
  { message = `waiting for ${type}`, timeout = 15000 }: { message?: string; timeout?: number } = {},
): Promise<Recorded> {
  // A hang guard, as long as the element's own load-timeout: a first cross-origin frame in a fresh
  // Firefox content process took over 8 s once on a busy machine.
  try {
    await waitUntil(() => events.some((e) => e.type === type), message, { timeout });
  } catch (error) {
    // What came instead says why (an error event's code, or nothing at all).
    throw new Error(`${String(error)}; events so far: ${JSON.stringify(events.map((e) => [e.type, e.detail]))}`);
  }
  return events.find((e) => e.type === type) as Recorded;
}

/** Lets queued tasks (messages, timers) run, so a test can show something did NOT happen. */
export const settle = (ms = 150): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function errorCode(events: Recorded[]): string | undefined {
  const error = events.find((e) => e.type === PAY_FORM_ERROR);
  return (error?.detail as { code?: string } | undefined)?.code;
}

/**
 * Counts the element's asks about `orderRef` (its fetch calls, passed on untouched) until stop(): a server
 * sees more where a connection is dropped, since the browser retries a GET on a dropped kept-alive one itself.
 */
export function countAsks(orderRef: string): { stop: () => number } {
  const { fetch } = window;
  let asks = 0;
  window.fetch = (input, init) => {
    if (String(input instanceof Request ? input.url : input).includes(orderRef)) asks++;
    return fetch(input, init);
  };
  return {
    stop: () => {
      window.fetch = fetch;
      return asks;
    },
  };
}
