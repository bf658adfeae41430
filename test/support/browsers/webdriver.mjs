// WebKitGTK for the tests: Debian's WebKitWebDriver started under xvfb-run (MiniBrowser needs a
// display), a W3C WebDriver client of the few commands the tests use, and a web-test-runner launcher
// on top of it. Written here rather than taken from webdriverio: these are a handful of HTTP requests,
// and webdriverio brings 130 packages, two of them with install scripts that download other drivers.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A free loopback port, from the kernel. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts WebKitWebDriver on a free port under its own Xvfb (`xvfb-run -a` picks a free display), in a
 * process group of its own so that stop() ends the driver, the browsers it started and the X server.
 */
export async function startWebKitDriver({ driver, xvfbRun = 'xvfb-run' }) {
  const port = await freePort();
  const child = spawn(xvfbRun, ['-a', '-s', '-screen 0 1920x1200x24', driver, `--port=${port}`, '--host=local'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    await Promise.race([exited, sleep(5000)]);
  };
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}): ${stderr.trim()}`);
    try {
      if ((await fetch(`${url}/status`)).ok) return { url, stop };
    } catch {
      // Not listening yet.
    }
    if (waited > 20_000) {
      await stop();
      throw new Error(`WebKitWebDriver did not answer on ${url} in 20 s: ${stderr.trim()}`);
    }
    await sleep(100);
  }
}

/** How long opening a session may take: MiniBrowser is up in a second or two, but once, on a busy
 *  machine, a new session never answered (the fetch gave up after undici's 300 s). */
const SESSION_MS = 60_000;

/**
 * WebKitWebDriver (startWebKitDriver) and its sessions: a session that does not open within SESSION_MS
 * is asked for once more, of a driver started afresh (the stuck one stopped, with its browsers and
 * its X server). The sessions of one driver are opened one after another, never two at once.
 */
export async function webKitDriver({ driver, xvfbRun, capabilities }) {
  let current = await startWebKitDriver({ driver, xvfbRun });
  return {
    async session() {
      try {
        return await WebDriverSession.create(current.url, capabilities);
      } catch {
        await current.stop();
        current = await startWebKitDriver({ driver, xvfbRun });
        return WebDriverSession.create(current.url, capabilities);
      }
    },
    stop: () => current.stop(),
  };
}

/** Key names as web-test-runner's sendKeys gives them, as WebDriver's key codes. */
const KEYS = { Escape: '\uE00C', Enter: '\uE007', Tab: '\uE004', Space: ' ', ArrowDown: '\uE015', ArrowUp: '\uE013' };

/** An element reference in a WebDriver answer or argument. */
export const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** One WebDriver session: the commands the tests need, each one HTTP request. */
export class WebDriverSession {
  /** Opens a session on the driver at `driverUrl` with the capabilities that must match. */
  static async create(driverUrl, capabilities) {
    const answer = await request(driverUrl, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } }, SESSION_MS);
    return new WebDriverSession(driverUrl, answer.sessionId, answer.capabilities);
  }

  constructor(driverUrl, id, capabilities) {
    this.base = `${driverUrl}/session/${id}`;
    this.capabilities = capabilities;
  }

  command(method, path, body) {
    return request(this.base, method, path, body);
  }

  /** Navigates the top-level page and waits for its load. */
  navigate(url) {
    return this.command('POST', '/url', { url });
  }

  url() {
    return this.command('GET', '/url');
  }

  /** Runs a function body in the current browsing context; `arguments` holds `args`. */
  execute(script, args = []) {
    return this.command('POST', '/execute/sync', { script, args });
  }

  /** Like execute, with the callback as the last of `arguments`. */
  executeAsync(script, args = []) {
    return this.command('POST', '/execute/async', { script, args });
  }

  click(element) {
    return this.command('POST', `/element/${element[ELEMENT]}/click`, {});
  }

  /** Into the frame of an element reference, or back to the top-level page with null. */
  frame(element) {
    return this.command('POST', '/frame', { id: element });
  }

  /** Presses and releases each key (a name such as Escape, or a character). */
  keys(keys) {
    const actions = keys.flatMap((key) => [
      { type: 'keyDown', value: KEYS[key] ?? key },
      { type: 'keyUp', value: KEYS[key] ?? key },
    ]);
    return this.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
  }

  setWindowSize(width, height) {
    return this.command('POST', '/window/rect', { width, height });
  }

  /** The top-level page's viewport as a PNG. */
  async screenshot() {
    return Buffer.from(await this.command('GET', '/screenshot'), 'base64');
  }

  delete() {
    return this.command('DELETE', '');
  }
}

async function request(base, method, path, body, timeoutMs) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
  });
  const { value } = await response.json();
  if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${value?.error} ${value?.message ?? ''}`.trim());
  return value;
}

/**
 * A web-test-runner launcher over one WebDriver session, one test file at a time (concurrency 1):
 * each test file is a navigation of the one window, and about:blank in between stops what it left
 * running. `open` starts the driver and the session on first use and gives back `{ session, stop }`.
 */
export function webDriverLauncher({ name, open }) {
  let opened;
  const urls = new Map();
  const session = async () => (await (opened ??= open())).session;
  return {
    name,
    type: 'webdriver',
    async initialize() {},
    async startSession(id, url) {
      const s = await session();
      urls.set(id, url);
      // Not awaited: the test page reports to the runner on its own, and a command the page sends
      // meanwhile (sendKeys) must not wait for the navigation's load.
      s.navigate(url).catch(() => undefined);
    },
    isActive: (id) => urls.has(id),
    getBrowserUrl: (id) => urls.get(id),
    async stopSession(id) {
      await (await session()).navigate('about:blank');
      urls.delete(id);
      return {};
    },
    async startDebugSession() {
      throw new Error(`${name} runs headless only`);
    },
    async sendKeys(_id, keys) {
      await (await session()).keys(keys);
    },
    async stop() {
      if (!opened) return;
      const { session: s, stop } = await opened;
      opened = undefined;
      await s.delete().catch(() => undefined);
      await stop();
    },
  };
}
