// Chromium for the browser tests and benches: Debian's /usr/bin/chromium
// (or S2S_CHROMIUM) driven by playwright-core (never a downloaded browser),
// with the flags that work as root in a container. Playwright's launch()
// gives every run a fresh temporary profile (--user-data-dir) and removes it
// on close; the end-to-end tests' persistent context (tests/e2e/helpers.mjs)
// takes the same options.
//
// Chromium's own omnibox popups are turned off. Since Chromium 156 every
// new browser context (a window, in its headless mode) preloads two of them
// (chrome://omnibox-popup.top-chrome/, the features WebUIOmniboxPopup and
// WebUIOmniboxAimPopup) into a renderer of their own: about 800 script
// loads and 1.7 s of a core's time (traced, bench/history.md). A user's
// browser pays that once per window, not per page; here each test or
// bench context would, and on two cores it competes with the page being
// measured. Chromium keeps only the last --disable-features switch and
// Playwright passes a list of its own, so the browser starts through
// chromium-features.sh, which merges the lists.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const chromiumPath = process.env.S2S_CHROMIUM ?? '/usr/bin/chromium';
const mergingLauncher = fileURLToPath(new URL('./chromium-features.sh', import.meta.url));

export const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Playwright launch options (executablePath, args, env) for Chromium; `extraArgs` go last. */
export function chromiumLaunchOptions(extraArgs = []) {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing; install Debian's Chromium: apt-get install -y chromium (or run scripts/setup.sh)`);
  }
  return {
    executablePath: mergingLauncher,
    env: { ...process.env, S2S_CHROMIUM_REAL: chromiumPath },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--disable-features=${DISABLED_FEATURES.join(',')}`, ...extraArgs],
  };
}

/** Launches Chromium; resolves to { browser, close() }. */
export async function launchChromium(extraArgs = []) {
  const browser = await chromium.launch(chromiumLaunchOptions(extraArgs));
  return { browser, close: () => browser.close() };
}
