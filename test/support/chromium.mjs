// One place that knows how this project starts Chromium, shared by web-test-runner, the end-to-end
// tests and the benchmarks. Playwright never downloads a browser here: we point it at the system one.
import { existsSync } from 'node:fs';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** CHROME_PATH wins, so users elsewhere can point at their own browser. */
export function chromiumPath() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found. Install it (Debian: apt-get install -y chromium) or set CHROME_PATH to a Chrome/Chromium binary.',
    );
  }
  return found;
}

export const launchOptions = () => ({ executablePath: chromiumPath(), headless: true, args: chromiumArgs });
