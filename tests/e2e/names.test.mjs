// Names kept on the page (the API's keepNames, default on): a name the model
// could not translate is written as typed where its attention pointed, the
// chips of the pieces it wrote there are framed with the name in their
// tooltip, and a notice says so; a name it wrote lowercased is recased. In
// English and in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const SENTENCE = 'Barack Obama visited Paris in 2015.';
const browser = useBrowser();

for (const [lang, notice, tooltip] of [
  ['en', /Copied from your sentence as you typed it: “Barack Obama”/, /writes “Barack Obama” here, copied from your sentence/],
  ['zh-CN', /按你输入的原样照抄：“Barack Obama”/, /译文在这里写的是“Barack Obama”/],
]) {
  test(`${lang}: a name the model cannot translate is copied, its chips framed, a notice names it; a known one recased`, async () => {
    const page = await browser.newPage(`/web/?text=${encodeURIComponent(SENTENCE)}&model=en-fr&lang=${lang}`);
    try {
      await waitForTranslation(page, SENTENCE);
      const text = await byTestId(page, 'translation-output').textContent();
      assert.match(text, /^Barack Obama /, text);
      assert.match(text, /Paris/, 'the model writes paris; the page shows it as typed');
      assert.match(text, /2015/);
      const framed = await page.locator('[data-testid="target-token"].copied').evaluateAll((chips) =>
        chips.map((c) => ({ copied: c.dataset.copied, title: c.title, outline: getComputedStyle(c).outlineStyle })));
      assert.ok(framed.length > 0, 'the pieces the model wrote for the name are framed');
      for (const chip of framed) {
        assert.equal(chip.copied, 'Barack Obama');
        assert.match(chip.title, tooltip);
        assert.equal(chip.outline, 'dashed');
      }
      assert.match(await byTestId(page, 'notice-copied').textContent(), notice);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
}

test('a sentence without names: nothing copied, no notice', async () => {
  const text = 'I am very happy today.';
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(text)}`);
  try {
    await waitForTranslation(page, text);
    assert.equal(await page.locator('[data-testid="target-token"].copied').count(), 0);
    assert.equal(await byTestId(page, 'notice-copied').count(), 0);
  } finally {
    await page.close();
  }
});
