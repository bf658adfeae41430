// What a page holds on behalf of the code under test, counted by wrapping the browser's own functions
// (they still run: this only records): listeners on window and document, timers not yet fired or
// cleared (made by src/element/), fetches not yet settled, windows opened and not closed. The leak tests take a baseline, mount and remove
// many times, and compare.
type Key = string;

const listeners = new Map<EventTarget, Set<unknown>>();
const pendingTimers = new Set<number>();
const intervals = new Set<number>();
let pendingFetches = 0;
const windows: Window[] = [];

function keyOf(type: string, listener: unknown, options: unknown): Key | unknown {
  const capture = typeof options === 'boolean' ? options : !!(options as { capture?: boolean } | undefined)?.capture;
  return `${type}|${capture}|${listenerIds.get(listener as object) ?? assignId(listener as object)}`;
}
const listenerIds = new WeakMap<object, number>();
let nextId = 0;
function assignId(listener: object): number {
  const id = ++nextId;
  listenerIds.set(listener, id);
  return id;
}

function wrapListeners(target: EventTarget): void {
  const set = new Set<unknown>();
  listeners.set(target, set);
  const add = target.addEventListener;
  const remove = target.removeEventListener;
  target.addEventListener = function (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
    if (listener) set.add(keyOf(type, listener, options));
    return add.call(this, type, listener, options);
  };
  target.removeEventListener = function (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) {
    if (listener) set.delete(keyOf(type, listener, options));
    return remove.call(this, type, listener, options);
  };
}

/** Whether the element's code (src/element/) made the timer: the test runner's and the page's own are not counted. */
const fromElement = (): boolean => /\/src\/element\//.test(new Error().stack ?? '');

let installed = false;
export function installCounter(): void {
  if (installed) return;
  installed = true;
  wrapListeners(window);
  wrapListeners(document);
  const { setTimeout: st, clearTimeout: ct, setInterval: si, clearInterval: ci, fetch: f } = window;
  window.setTimeout = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
    const id: number = st(
      (...a: unknown[]) => {
        pendingTimers.delete(id);
        if (typeof handler === 'function') (handler as (...b: unknown[]) => void)(...a);
      },
      ms,
      ...args,
    );
    if (fromElement()) pendingTimers.add(id);
    return id;
  }) as typeof setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) pendingTimers.delete(id);
    ct(id);
  }) as typeof clearTimeout;
  window.setInterval = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
    const id: number = si(handler, ms, ...args);
    if (fromElement()) intervals.add(id);
    return id;
  }) as typeof setInterval;
  window.clearInterval = ((id?: number) => {
    if (id !== undefined) intervals.delete(id);
    ci(id);
  }) as typeof clearInterval;
  const open = window.open;
  window.open = (...args: Parameters<typeof window.open>) => {
    const win = open.apply(window, args);
    if (win) windows.push(win);
    return win;
  };
  window.fetch = (async (...args: Parameters<typeof fetch>) => {
    pendingFetches++;
    try {
      return await f(...args);
    } finally {
      pendingFetches--;
    }
  }) as typeof fetch;
}

export interface Counts {
  windowListeners: number;
  documentListeners: number;
  timers: number;
  intervals: number;
  fetches: number;
  iframes: number;
  dialogs: number;
  elements: number;
  windows: number;
}

export function counts(): Counts {
  return {
    windowListeners: listeners.get(window)?.size ?? 0,
    documentListeners: listeners.get(document)?.size ?? 0,
    timers: pendingTimers.size,
    intervals: intervals.size,
    fetches: pendingFetches,
    iframes: document.querySelectorAll('iframe').length,
    dialogs: document.querySelectorAll('dialog').length,
    elements: document.querySelectorAll('pay-form').length,
    windows: openWindows(),
  };
}

/** Windows opened and not closed; the closed ones are let go, so the counter itself keeps no document alive (the heap check). */
function openWindows(): number {
  for (let i = windows.length - 1; i >= 0; i--) if (windows[i]!.closed) windows.splice(i, 1);
  return windows.length;
}

/** What each window still open shows (its URL, or `cross-origin` once it left the page's origin):
 *  a failing count then names what stayed open. */
export function openWindowUrls(): string[] {
  openWindows();
  return windows.map((win) => {
    try {
      return win.location.href;
    } catch {
      return 'cross-origin';
    }
  });
}
