// Labels that say what happens (issue 46, item 2), in a real Chromium: after
// a "what if" pick the way back shows at once; "write it step by step" shows
// above only what is written so far; a beam search penalty out of its range
// (the package's optionRanges), typed or in a link, is refused with a
// message naming the range, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);
const TEXT = 'I see the cat.';
const browser = useBrowser({ isolated: true });

const chipTokens = (page) => byTestId(page, 'target-token').evaluateAll((chips) => chips.map((c) => c.dataset.token));

test('after a "what if" pick, the way back to the model\'s translation shows at once, beside the result line', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(page, TEXT, { prefix: '' });
  const original = await page.locator('#translation').textContent();
  assert.equal(await byTestId(page, 'whatif-back').count(), 0, 'no way back before a pick');
  const before = await chipTokens(page);
  await byTestId(page, 'target-token').nth(1).click();
  const choices = await byTestId(page, 'alternative').evaluateAll((buttons) => buttons.map((b) => b.dataset.token));
  const pick = choices.find((token) => token !== before[1] && token !== '<eos>');
  assert.ok(pick, `no other token among ${choices}`);
  await page.locator(`[data-testid="alternative"][data-token="${pick}"]`).click();
  await waitForTranslation(page, TEXT, { prefix: `${before[0]} ${pick}` });
  // The alternatives closed with the pick; the way back did not go with them.
  assert.equal(await page.locator('#whatif').isVisible(), false);
  const back = byTestId(page, 'whatif-back');
  assert.equal(await back.isVisible(), true);
  assert.equal((await back.textContent()).trim(), 'Back to the model’s own translation');
  await back.click();
  await waitForTranslation(page, TEXT, { prefix: '' });
  assert.equal(await page.locator('#translation').textContent(), original);
  assert.equal(await byTestId(page, 'whatif-back').count(), 0);
  assert.deepEqual(page.problems, []);
});

test('write it step by step: the line above shows only what is written so far, then the whole translation', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(page, TEXT);
  const full = await byTestId(page, 'translation-output').textContent();
  await byTestId(page, 'play-button').click();
  // Read at the moment step 2 is drawn (a mutation of the heatmap's data-play-step), not after a delay.
  const atStep2 = await page.evaluate(() => new Promise((resolve) => {
    const heatmap = document.getElementById('heatmap');
    const observer = new MutationObserver(() => {
      if (heatmap.dataset.playStep !== '2') return;
      observer.disconnect();
      resolve(document.querySelector('[data-testid="translation-output"]').textContent);
    });
    observer.observe(heatmap, { attributes: true, attributeFilter: ['data-play-step'] });
  }));
  assert.ok(atStep2.length > 0 && atStep2.length < full.length, `at step 2 the line shows “${atStep2}” of “${full}”`);
  assert.ok(full.startsWith(atStep2), `“${atStep2}” is not the start of “${full}”`);
  await page.waitForFunction(() => document.getElementById('heatmap').dataset.playStep === undefined, null, { timeout: 30_000 });
  assert.equal(await byTestId(page, 'translation-output').textContent(), full);
  // Stopped in the middle: the whole translation again at once.
  await byTestId(page, 'play-button').click();
  await page.waitForFunction(() => document.getElementById('heatmap').dataset.playStep === '1');
  await byTestId(page, 'play-button').click();
  assert.equal(await byTestId(page, 'translation-output').textContent(), full);
  assert.deepEqual(page.problems, []);
});

for (const [lang, range, back] of [['en', /from 0 to 5/, /back to 0\.6/], ['zh-CN', /0 到 5/, /已恢复为 0\.6/]]) {
  test(`${lang}: α out of range is refused with the allowed range named beside the inputs, until a good value`, async () => {
    const page = await browser.newPage(`/web/?lang=${lang}&model=en-fr&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
    await waitForTranslation(page, TEXT);
    await byTestId(page, 'decoding-notes').locator('summary').click();
    const alpha = byTestId(page, 'length-penalty');
    const message = byTestId(page, 'penalty-error');
    assert.equal(await message.isVisible(), false);
    await alpha.fill('9');
    await alpha.press('Enter');
    await message.waitFor();
    assert.match(await message.textContent(), range);
    assert.match(await message.textContent(), back);
    assert.equal(await alpha.inputValue(), '0.6');
    assert.equal(await alpha.getAttribute('aria-invalid'), 'true');
    // Another translation does not wipe it (it is not the status line).
    await byTestId(page, 'source-input').fill('Go.');
    await waitForTranslation(page, 'Go.');
    assert.equal(await message.isVisible(), true);
    await alpha.fill('1');
    await alpha.press('Enter');
    await page.waitForURL(/alpha=1(&|$)/);
    assert.equal(await message.isVisible(), false);
    assert.equal(await alpha.getAttribute('aria-invalid'), null);
    assert.deepEqual(page.problems, []);
  });
}

test('a link with β out of range says so, naming the range, and uses the default', async () => {
  const page = await browser.newPage(`/web/?beta=7&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(page, TEXT);
  const message = byTestId(page, 'penalty-error');
  assert.equal(await message.isVisible(), true, 'the options open to show it');
  assert.match(await message.textContent(), /beta=7 in the link is outside the allowed range of β, 0 to 5/);
  assert.equal(await byTestId(page, 'coverage-penalty').inputValue(), '0.2');
  assert.doesNotMatch(page.url(), /beta=/);
  assert.deepEqual(page.problems, []);
});
