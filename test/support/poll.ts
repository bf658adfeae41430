// Waiting for what another process, a server or a browser does, without a fixed sleep: asked again
// until it holds, and an error naming what was awaited (with the last error met) once time is up.

/** Polls `attempt` every `everyMs` until it gives something other than null (a throw counts as not yet). */
export async function poll<T>(attempt: () => Promise<T | null>, what: string, { timeoutMs = 20_000, everyMs = 100 } = {}): Promise<T> {
  let last: unknown;
  for (const end = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, everyMs))) {
    try {
      const value = await attempt();
      if (value !== null) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
  }
}

/** Polls `check` every 50 ms until it answers true. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await poll(async () => ((await check()) ? true : null), what, { timeoutMs, everyMs: 50 });
}

/** `work`, or an error naming `what` once `timeoutMs` has passed: for a step (a client's close, a
 *  worker's exit) that a library bug could leave waiting forever, so the file fails with its name. */
export async function within<T>(what: string, work: Promise<T>, timeoutMs = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
