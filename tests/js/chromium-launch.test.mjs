// The browser tests' and benches' Chromium (tests/js/helpers/chromium.mjs):
// chromium-features.sh merges repeated --disable-features / --enable-features
// switches into one each (Chromium keeps only the last, and Playwright
// passes lists of its own), and a new browser context then loads none of
// Chromium's own chrome:// pages (the omnibox popups that Chromium 156
// preloads for each new window, at about 1.7 s of a core each time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DISABLED_FEATURES, chromiumLaunchOptions, launchChromium } from './helpers/chromium.mjs';

const launcher = fileURLToPath(new URL('./helpers/chromium-features.sh', import.meta.url));

test('chromium-features.sh passes every argument on, with the feature lists merged', () => {
  const dir = mkdtempSync(join(tmpdir(), 's2s-launcher-'));
  try {
    const echo = join(dir, 'echo-args');
    writeFileSync(echo, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(echo, 0o755);
    const run = (args) => {
      const r = spawnSync(launcher, args, { encoding: 'utf8', env: { ...process.env, S2S_CHROMIUM_REAL: echo } });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.split('\n').filter(Boolean);
    };
    assert.deepEqual(run(['--headless', '--disable-features=A,B', '--user-data-dir=/tmp/x y', '--enable-features=E',
      '--disable-features=C', 'about:blank']),
    ['--headless', '--user-data-dir=/tmp/x y', 'about:blank', '--disable-features=A,B,C', '--enable-features=E']);
    assert.deepEqual(run(['--no-sandbox']), ['--no-sandbox'], 'no feature switch: none added');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Traces a new context of `browser` for `ms` milliseconds after it opens
// about:blank; resolves to the chrome:// URLs it loaded. (The trace's events
// arrive when tracing ends, so the window is fixed, not "until the first".)
async function chromePagesOfNewContext(browser, ms) {
  const cdp = await browser.newBrowserCDPSession();
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const complete = new Promise((resolve) => { cdp.on('Tracing.tracingComplete', resolve); });
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['loading', 'devtools.timeline'] }, transferMode: 'ReportEvents' });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('about:blank');
  await new Promise((resolve) => { setTimeout(resolve, ms); });
  await cdp.send('Tracing.end');
  await complete;
  await context.close();
  const urls = new Set(events.map((e) => e.args?.url ?? e.args?.data?.url).filter((url) => String(url).startsWith('chrome://')));
  return { urls: [...urls], events: events.length };
}

test('a new browser context loads none of Chromium\'s own chrome:// pages (in a window a control browser shows is long enough to see them)', async () => {
  // The control: the same Chromium without the switch that turns the
  // popups off, watched for 2, then 4, then 8 s until it shows them; the
  // real check then watches as long. On a machine too slow for 8 s the test
  // fails saying so, rather than passing without having seen anything.
  const options = chromiumLaunchOptions();
  const { chromium } = await import('playwright-core');
  const control = await chromium.launch({ ...options, args: options.args.filter((a) => !a.startsWith('--disable-features=')) });
  let window = null;
  try {
    for (const ms of [2000, 4000, 8000]) {
      if ((await chromePagesOfNewContext(control, ms)).urls.length > 0) {
        window = ms;
        break;
      }
    }
  } finally {
    await control.close();
  }
  assert.ok(window !== null, 'the control browser loaded no chrome:// page in 8 s: the check would prove nothing (has Chromium dropped the popups, or is the machine that slow?)');
  const { browser, close } = await launchChromium();
  try {
    const seen = await chromePagesOfNewContext(browser, window);
    assert.equal(seen.urls.length, 0, `loaded ${seen.urls.slice(0, 3).join(', ')}: is ${DISABLED_FEATURES.join(' or ')} still the feature's name?`);
    assert.ok(seen.events > 0, 'the trace recorded nothing');
  } finally {
    await close();
  }
});
