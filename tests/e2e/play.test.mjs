// "Write it step by step" (the play button): the translation appears one
// output token at a time with its heatmap row lit, the rest dimmed, then
// everything shows again; Stop ends it at once; both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const browser = useBrowser();

test('play writes the translation token by token with its row lit; at the end everything shows; Stop stops', async () => {
  const text = 'I see the cat.';
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(text)}`);
  await waitForTranslation(page, text);
  const tokens = await byTestId(page, 'target-token').count();
  assert.ok(tokens >= 3);
  await byTestId(page, 'play-button').click();
  assert.equal(await byTestId(page, 'play-button').getAttribute('aria-pressed'), 'true');
  await page.waitForFunction(() => document.getElementById('heatmap').dataset.playStep === '2', null, { timeout: 10_000 });
  const atStep2 = await page.evaluate(() => ({
    hiddenChips: document.querySelectorAll('[data-testid="target-token"].unwritten').length,
    dimmedCells: document.querySelectorAll('#heatmap .cell.unwritten').length,
    litCells: document.querySelectorAll('#heatmap .cell:not(.unwritten)').length,
    readout: document.getElementById('readout').dataset.step ?? document.getElementById('readout').textContent,
  }));
  assert.equal(atStep2.hiddenChips, tokens - 2, 'two tokens written');
  assert.ok(atStep2.dimmedCells > 0 && atStep2.litCells > 0);
  // The end: nothing dimmed, the button back to Play.
  await page.waitForFunction(() => document.getElementById('heatmap').dataset.playStep === undefined, null, { timeout: 30_000 });
  assert.equal(await page.locator('.unwritten').count(), 0);
  assert.equal(await byTestId(page, 'play-button').getAttribute('aria-pressed'), 'false');
  // Stop in the middle.
  await byTestId(page, 'play-button').click();
  await page.waitForFunction(() => document.getElementById('heatmap').dataset.playStep === '1', null, { timeout: 10_000 });
  await byTestId(page, 'play-button').click();
  assert.equal(await page.locator('.unwritten').count(), 0);
  assert.equal(await page.evaluate(() => document.getElementById('heatmap').dataset.playStep), undefined);
  // In Chinese.
  const zh = await browser.newPage(`/web/?lang=zh-CN&text=${encodeURIComponent(text)}`);
  await waitForTranslation(zh, text);
  assert.match(await byTestId(zh, 'play-button').textContent(), /逐步写出译文/);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(zh.problems, []);
});
