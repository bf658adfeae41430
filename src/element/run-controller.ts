// One run at a time, as a Lit reactive controller: the token request and the wait for the verified
// status each start a run with a time limit, abort it when the host leaves the page, a new run starts
// or the time is up, and ignore whatever a run reports after it ended.
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';

/** Ends the current run and then reports its outcome; does nothing once that run has ended. */
export type EndRun = (report: () => void) => void;

export class RunController<Callbacks> implements ReactiveController {
  /** The current run: aborted when cut short, null once it has ended. */
  #run?: AbortController | null;
  /** The browser is offline, and when it came back (the settle controller listens): a time limit never runs out
   *  offline, nor within its own length of the network's return, so a wait cut by an outage gets a fair chance. */
  declare down?: boolean;
  declare back?: number;

  constructor(
    protected readonly host: ReactiveControllerHost,
    protected readonly on: Callbacks,
  ) {
    host.addController(this);
  }

  get running(): boolean {
    return !!this.#run;
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Stops any run and starts one that reports `timedOut`, its signal aborted, unless it ends within `ms` (online). */
  protected begin(ms: number, timedOut: () => void): [signal: AbortSignal, end: EndRun] {
    this.stop();
    const run = (this.#run = new AbortController());
    // An answer ends the run without aborting: the signal is only for what was cut short.
    const end = (report: () => void, abort?: boolean) => {
      if (this.#run !== run) return;
      this.#run = null;
      clearTimeout(timer);
      if (abort) run.abort();
      report();
    };
    // Offline (or just back) the limit is put off, not run out; a stopped run leaves no timer behind
    // (a removed element would otherwise be kept until it fires).
    const expire = () => (this.#run === run && (this.down || Date.now() - this.back! < ms) ? (timer = setTimeout(expire, ms)) : end(timedOut, true));
    let timer = setTimeout(expire, ms);
    run.signal.onabort = () => clearTimeout(timer);
    return [run.signal, end];
  }

  /** Ends the current run, aborting it; what it reports later is ignored. */
  stop(): void {
    this.#run?.abort();
    this.#run = null;
  }
}
