// The figure first (issue 46, item 1): on the demo page, the top of the
// heatmap is at most 700 px down at 1280×900 and at most 1000 px down on a
// 375×812 phone, in both languages. The beam search's options (α, β, the
// shortlist, the notes on how the beam ranks) are folded under a disclosure
// whose summary names the values in use; it opens itself when the reader
// picks a beam above 1 or a link names a beam above 1. And the Chinese
// heading keeps its phrases whole on a phone line (item 9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const TEXT = 'I love deep learning.';
const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);
const browser = useBrowser({ isolated: true });

const topOf = (page, id) => page.evaluate((id) =>
  document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect().top + scrollY, id);

// Each language on the model it opens with: en-fr (α 0.6, β 0.2, a shortlist) and en-zh (α 2.0, β 0.0, none).
for (const [lang, values, controls] of [
  ['en', /α 0\.6 · β 0\.2 · shortlist on/, ['length-penalty', 'coverage-penalty', 'shortlist-control']],
  ['zh-CN', /α 2\.0 · β 0\.0）/, ['length-penalty', 'coverage-penalty']],
]) {
  for (const [width, height, limit] of [[1280, 900, 700], [375, 812, 1000]]) {
    test(`${lang} at ${width}×${height}: the heatmap's top is at most ${limit} px down, the options folded`, async () => {
      const page = await browser.newPage(`/web/?lang=${lang}&text=${encodeURIComponent(TEXT)}`, { width, height });
      await waitForTranslation(page, TEXT);
      await byTestId(page, 'attention-heatmap').waitFor();
      const heatmap = await topOf(page, 'attention-heatmap');
      const translation = await topOf(page, 'translation-output');
      assert.ok(heatmap <= limit, `the heatmap starts at ${heatmap} px`);
      assert.ok(translation < heatmap, `the translation (${translation} px) comes before the heatmap`);
      // Folded on a first visit, its summary naming what is in use; every option reachable by opening it.
      const options = byTestId(page, 'decoding-notes');
      assert.equal(await options.evaluate((d) => d.open), false);
      assert.match(await byTestId(page, 'option-values').textContent(), values);
      assert.equal(await byTestId(page, 'length-penalty').isVisible(), false);
      await options.locator('summary').click();
      for (const id of controls) assert.equal(await byTestId(page, id).isVisible(), true, id);
      assert.equal(await page.locator('#penalty-hint').isVisible(), true);
      assert.deepEqual(page.problems, []);
    });
  }
}

test('the options open themselves when the reader picks a beam above 1', async () => {
  const page = await browser.newPage(`/web/?beam=1&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(page, TEXT, { beam: 1 });
  const options = byTestId(page, 'decoding-notes');
  // Greedy decoding uses none of them: folded, and the summary says so.
  assert.equal(await options.evaluate((d) => d.open), false);
  assert.match(await byTestId(page, 'option-values').textContent(), /not used by greedy decoding/);
  await byTestId(page, 'beam-size').selectOption('4');
  await waitForTranslation(page, TEXT, { beam: 4 });
  assert.equal(await options.evaluate((d) => d.open), true);
  assert.equal(await byTestId(page, 'length-penalty').isVisible(), true);
  assert.match(await byTestId(page, 'option-values').textContent(), /α 0\.6 · β 0\.2 · shortlist on/);
  assert.deepEqual(page.problems, []);
});

test('a link that names a beam above 1 opens the options', async () => {
  const page = await browser.newPage(`/web/?beam=8&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(page, TEXT, { beam: 8 });
  assert.equal(await byTestId(page, 'decoding-notes').evaluate((d) => d.open), true);
  assert.equal(await byTestId(page, 'length-penalty').isVisible(), true);
});

test('zh-CN at 375 px: the heading 翻译时，模型在看哪里？ keeps its phrases whole (no lone “里？” line)', async () => {
  const page = await browser.newPage(`/web/?lang=zh-CN&text=${encodeURIComponent(TEXT)}`, { width: 375, height: 812 });
  await waitForTranslation(page, TEXT);
  const heading = page.locator('h1');
  assert.equal((await heading.textContent()).trim(), '翻译时，模型在看哪里？');
  // The lines as Chromium laid them out: each character's box, grouped by its top.
  const lines = await heading.evaluate((h1) => {
    const byTop = new Map();
    const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let k = 0; k < node.data.length; k += 1) {
        const range = document.createRange();
        range.setStart(node, k);
        range.setEnd(node, k + 1);
        const box = range.getBoundingClientRect();
        if (box.width === 0 || /\s/.test(node.data[k])) continue;
        const top = Math.round(box.top);
        byTop.set(top, (byTop.get(top) ?? '') + node.data[k]);
      }
    }
    return [...byTop.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
  });
  assert.ok(lines.length <= 2, `lines: ${JSON.stringify(lines)}`);
  assert.ok(lines.at(-1).length >= 4, `the last line is too short: ${JSON.stringify(lines)}`);
  assert.deepEqual(page.problems, []);
});
