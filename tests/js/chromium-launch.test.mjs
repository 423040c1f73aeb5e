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

// The chrome:// targets (Chromium's own WebUI, type browser_ui) that exist
// once a new context of `browser` has a page loaded. Chromium creates a
// window's omnibox popups with the window, before its first page target
// (seen with Target.setDiscoverTargets: the popups at ~400 ms, the page at
// ~800 ms), so the list taken after the page has loaded is complete: no
// time window, no wait. The control below proves it on the same machine.
async function chromeTargetsOfNewContext(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('about:blank');
    const { targetInfos } = await cdp.send('Target.getTargets');
    return {
      chrome: targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => `${t.type} ${t.url}`),
      pages: targetInfos.filter((t) => t.type === 'page').length,
    };
  } finally {
    await context.close();
    await cdp.detach();
  }
}

test('a new browser context creates none of Chromium\'s own chrome:// pages (a control browser without the switch creates them by the same point)', async () => {
  // The control: the same Chromium without the switch that turns the popups
  // off must show them when its first page has loaded; if it does not, the
  // check would prove nothing, and the test fails saying so.
  const options = chromiumLaunchOptions();
  const { chromium } = await import('playwright-core');
  const control = await chromium.launch({ ...options, args: options.args.filter((a) => !a.startsWith('--disable-features=')) });
  let shown;
  try {
    shown = await chromeTargetsOfNewContext(control);
  } finally {
    await control.close();
  }
  assert.ok(shown.chrome.length > 0, 'the control browser created no chrome:// target with its window: the check would prove nothing (has Chromium dropped the popups?)');
  const { browser, close } = await launchChromium();
  try {
    const seen = await chromeTargetsOfNewContext(browser);
    assert.ok(seen.pages > 0, 'the page target is listed');
    assert.deepEqual(seen.chrome, [], `is ${DISABLED_FEATURES.join(' or ')} still the feature's name?`);
  } finally {
    await close();
  }
});
