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
import { DISABLED_FEATURES, launchChromium } from './helpers/chromium.mjs';

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

test('a new browser context loads none of Chromium\'s own chrome:// pages', async () => {
  const { browser, close } = await launchChromium();
  try {
    const cdp = await browser.newBrowserCDPSession();
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const complete = new Promise((resolve) => { cdp.on('Tracing.tracingComplete', resolve); });
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['loading', 'devtools.timeline'] }, transferMode: 'ReportEvents' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('about:blank');
    await new Promise((resolve) => { setTimeout(resolve, 2000); });  // the popups preload within a second
    await cdp.send('Tracing.end');
    await complete;
    await context.close();
    const chromePages = new Set(events.map((e) => e.args?.url ?? e.args?.data?.url).filter((url) => String(url).startsWith('chrome://')));
    assert.equal(chromePages.size, 0, `loaded ${[...chromePages].slice(0, 3).join(', ')}: is ${DISABLED_FEATURES.join(' or ')} still the feature's name?`);
    assert.ok(events.length > 0, 'the trace recorded nothing');
  } finally {
    await close();
  }
});
