// axe-core, the field's accessibility checker (npm axe-core), run in
// Chromium over every view of the demo page and of the training page, in
// both languages, at desktop and phone widths: no violation of its rules
// (WCAG 2 A and AA, and its best practices).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const TEXT = 'I love deep learning.';

const browser = useBrowser();

async function violations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.length} element(s), e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

const pageViews = [
  ['heatmap, beam 4', 'beam=4'],
  ['lines', 'view=lines'],
  ['words', 'unit=words'],
  ['step panel, beam 4', 'view=step&step=2&beam=4'],
];

for (const lang of ['en', 'zh-CN']) {
  for (const [width, height] of [[1280, 900], [375, 800]]) {
    for (const [name, query] of pageViews) {
      test(`demo page, ${lang}, ${width} px, ${name}: no axe-core violation`, async () => {
        const page = await browser.newPage(`/web/?lang=${lang}&${query}&text=${encodeURIComponent(TEXT)}`, { width, height });
        try {
          await waitForTranslation(page, TEXT);
          if (query.includes('view=step')) await page.locator('[data-testid="beam-tree"]').waitFor();
          // The comparison, drawn once scrolled to, is part of the page.
          await page.locator('#compare').scrollIntoViewIfNeeded();
          await page.locator('[data-testid="bleu-chart"]').waitFor();
          assert.deepEqual(await violations(page), []);
        } finally {
          await page.close();
        }
      });
    }
  }
  test(`training page, ${lang}: no axe-core violation`, async () => {
    const page = await browser.newPage(`/web/train.html?lang=${lang}`, { width: 1280, height: 900 });
    try {
      await page.locator('[data-testid="lang-toggle"]').waitFor();
      // With the probe's outputs checked against the expected one (wrong symbols marked) and the snapshot's box.
      await page.locator('[data-testid="train-check-fixed"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="train-snapshot"][data-state="waiting"]').waitFor();
      assert.deepEqual(await violations(page), []);
    } finally {
      await page.close();
    }
  });
}
