// Chromium for the browser tests: Debian's /usr/bin/chromium driven by
// playwright-core (never a downloaded browser), with the flags that work as
// root in a container. Playwright's launch() gives every run a fresh
// temporary profile (--user-data-dir) and removes it on close.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.S2S_CHROMIUM ?? '/usr/bin/chromium';

/** Launches Chromium; resolves to { browser, close() }. */
export async function launchChromium() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing; install Debian's Chromium: apt-get install -y chromium (or run scripts/setup.sh)`);
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return { browser, close: () => browser.close() };
}
