// A write that must reach the store even after its caller moved on: a release of a claim whose caller
// gave up, an outcome recorded after the work was done. Sent at once, then again with a growing pause
// (50 ms to 1 s) until it is taken or `forMs` has passed: a failover can keep a store away for seconds.

/**
 * Resolves after the first attempt: undefined when it was taken, else `{ error }` with its error;
 * further attempts run in the background.
 */
export async function sendUntilTaken(send: () => Promise<unknown>, forMs: number): Promise<{ error: unknown } | undefined> {
  const until = Date.now() + forMs;
  const again = (pause: number): void => {
    if (Date.now() + pause >= until) return;
    // unref: a pending retry does not keep the process alive (Node; other runtimes lack it).
    const timer: { unref?(): unknown } = setTimeout(() => void send().catch(() => again(Math.min(pause * 2, 1000))), pause);
    timer.unref?.();
  };
  try {
    await send();
    return undefined;
  } catch (error) {
    again(50);
    return { error };
  }
}
