// One place that knows how this project starts its three browser engines, for web-test-runner, the
// end-to-end tests, the screenshots and the benchmarks, all from Debian's packages and none downloaded:
//   chromium  Chromium through Playwright (playwright-core)            CHROME_PATH
//   firefox   Firefox ESR through puppeteer-core over WebDriver BiDi    FIREFOX_PATH
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver, under   WEBKIT_DRIVER_PATH, MINIBROWSER_PATH,
//             xvfb-run (it needs a display)                            XVFB_RUN
// TEST_ENGINES (comma-separated, default all three) picks the engines a run uses.
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

/** The engines TEST_ENGINES names, in the order above; all three when it is unset. */
export function selectedEngines() {
  const raw = process.env.TEST_ENGINES?.trim();
  if (!raw) return [...ENGINES];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ENGINES.includes(name));
  if (unknown.length) throw new Error(`TEST_ENGINES names ${unknown.join(', ')}; the engines are ${ENGINES.join(', ')}`);
  return ENGINES.filter((name) => names.includes(name));
}

/** MiniBrowser lives under the multiarch library directory: /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/ on amd64. */
function miniBrowsers() {
  const lib = '/usr/lib';
  const dirs = existsSync(lib) ? readdirSync(lib).filter((name) => name.endsWith('-linux-gnu')) : [];
  return dirs.map((dir) => join(lib, dir, 'webkit2gtk-4.1', 'MiniBrowser'));
}

/** A program name found on PATH, as a path. */
function onPath(name) {
  return (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name));
}

/**
 * What each engine needs: the environment variable that names it, where Debian puts it, and the Debian
 * package that brings it. redis-server is here too, for the Node tests (test/support/redis/redis.ts honours it).
 */
export const REQUIREMENTS = {
  chromium: [{ what: 'Chromium', env: 'CHROME_PATH', paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser'], pkg: 'chromium' }],
  firefox: [{ what: 'Firefox', env: 'FIREFOX_PATH', paths: ['/usr/bin/firefox-esr', '/usr/bin/firefox'], pkg: 'firefox-esr' }],
  webkit: [
    { what: 'WebKitWebDriver', env: 'WEBKIT_DRIVER_PATH', paths: ['/usr/bin/WebKitWebDriver'], pkg: 'webkit2gtk-driver' },
    { what: 'MiniBrowser', env: 'MINIBROWSER_PATH', paths: miniBrowsers(), pkg: 'webkit2gtk-driver' },
    { what: 'xvfb-run', env: 'XVFB_RUN', paths: onPath('xvfb-run'), pkg: 'xvfb' },
  ],
  redis: [{ what: 'redis-server', env: 'REDIS_SERVER', paths: onPath('redis-server'), pkg: 'redis-server' }],
};

/** The requirement's program: its variable when set (a name is looked up on PATH), else the first that exists; null when none does. */
export function locate({ env, paths }) {
  const named = process.env[env];
  const candidates = named ? (named.includes('/') ? [named] : onPath(named)) : paths;
  return candidates.find((path) => existsSync(path)) ?? null;
}

/** The requirements of `groups` that are missing. */
export function missing(groups) {
  return groups.flatMap((group) => REQUIREMENTS[group]).filter((requirement) => locate(requirement) === null);
}

/** The one command that installs what is missing. */
export function installCommand(requirements) {
  return `apt-get install -y ${[...new Set(requirements.map((r) => r.pkg))].join(' ')}`;
}

/** The requirement's path, or an error that says how to get it. */
function required(requirement) {
  const found = locate(requirement);
  if (found) return found;
  const { what, env } = requirement;
  throw new Error(`No ${what} found. Install it (Debian: ${installCommand([requirement])}) or set ${env} to one.`);
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium's launch options for Playwright: the system browser, never a downloaded one. */
export const chromiumLaunchOptions = () => ({ executablePath: required(REQUIREMENTS.chromium[0]), headless: true, args: chromiumArgs });

/** Firefox's launch options for puppeteer-core (WebDriver BiDi, the protocol puppeteer speaks to Firefox). */
export const firefoxLaunchOptions = () => ({ browser: 'firefox', executablePath: required(REQUIREMENTS.firefox[0]), headless: true });

/**
 * A puppeteer page in Firefox whose setViewport lets one refusal through: puppeteer-core sends the
 * viewport and a screen orientation override together, and Firefox ESR 140.12 (Debian's) answers the
 * second "unknown command" while the first has set the viewport (checked with innerWidth). Any other
 * failure still fails. For web-test-runner's launcher (createPage) and the suite's own Firefox pages.
 */
export function firefoxPage(page) {
  const setViewport = page.setViewport.bind(page);
  page.setViewport = (viewport) =>
    setViewport(viewport).catch((error) => {
      if (!String(error?.message).includes('unknown command emulation.setScreenOrientationOverride')) throw error;
    });
  return page;
}

/**
 * WebKitWebDriver, xvfb-run and the capabilities that make the driver start MiniBrowser for
 * automation, allowed to open a window from script as the other two engines are under automation
 * (tests open a return page at the top level with window.open). No command waits for a page load
 * (pageLoadStrategy none): WebKitWebDriver sometimes loses a navigation a click starts (a form post
 * redirected to another site, in a new web process) and then holds the click for its whole page-load
 * timeout, 300 s; the tests wait for what they need to see instead.
 */
export function webkitOptions() {
  const [driver, miniBrowser, xvfbRun] = REQUIREMENTS.webkit.map(required);
  const capabilities = {
    browserName: 'MiniBrowser',
    pageLoadStrategy: 'none',
    'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation', '--javascript-can-open-windows-automatically=true'] },
  };
  return { driver, xvfbRun, capabilities };
}
