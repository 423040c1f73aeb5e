// A text of several sentences on the page: the package's splitter cuts it,
// the model translates one sentence at a time, and the page lists the
// sentences with their translations and shows one heatmap per sentence (the
// one picked). The pick is in the URL (?part=), a "what if" applies to the
// sentence shown, and a single sentence shows no list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const TEXT = 'The cat is sleeping on the sofa. The dog is playing in the garden. Mr. Smith reads the paper.';
const browser = useBrowser();

// The source words of the figure, joined (pieces glued back together).
const sourceText = (page) => byTestId(page, 'source-token')
  .evaluateAll((chips) => chips.map((c) => c.textContent).join(' ').replace(/\s+/g, ' '));

test('several sentences: one button each, one heatmap per sentence, the pick in the URL', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(TEXT)}`);
  await waitForTranslation(page, TEXT);
  const list = byTestId(page, 'sentence-list');
  assert.equal(await list.isVisible(), true);
  const buttons = byTestId(page, 'sentence');
  assert.equal(await buttons.count(), 3, 'three sentences ("Mr." does not end one)');
  assert.deepEqual(await buttons.evaluateAll((b) => b.map((x) => x.getAttribute('aria-pressed'))), ['true', 'false', 'false']);
  assert.match(await list.textContent(), /3 sentences/);
  let words = await sourceText(page);
  assert.match(words, /sofa/);
  assert.doesNotMatch(words, /garden/);
  const firstRows = await page.locator('#heatmap [data-row]').evaluateAll((cells) => new Set(cells.map((c) => c.dataset.row)).size);
  assert.ok(firstRows > 0);

  await buttons.nth(1).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="translation-output"]').dataset.part === '2');
  words = await sourceText(page);
  assert.match(words, /garden/);
  assert.doesNotMatch(words, /sofa/);
  assert.equal(await buttons.nth(1).getAttribute('aria-pressed'), 'true');
  const shown = await byTestId(page, 'translation-output').textContent();
  assert.equal((await buttons.nth(1).locator('.sentence-target').textContent()), shown, 'the list shows the translation of the sentence shown');
  assert.match(page.url(), /[?&]part=2(&|$)/);

  // A link opens the same sentence.
  const again = await browser.newPage(new URL(page.url()).pathname + new URL(page.url()).search);
  await waitForTranslation(again, TEXT);
  assert.equal(await byTestId(again, 'translation-output').getAttribute('data-part'), '2');
  assert.match(await sourceText(again), /garden/);
  await again.close();

  // "What if" on the sentence shown: the forced token stays in that sentence.
  const before = await byTestId(page, 'target-token').evaluateAll((chips) => chips.map((c) => c.dataset.token ?? c.textContent));
  await byTestId(page, 'target-token').nth(1).click();
  const choices = await byTestId(page, 'alternative').evaluateAll((b) => b.map((x) => x.dataset.token));
  const pick = choices.find((token) => token !== before[1] && token !== '<eos>');
  assert.ok(pick, `no other token among ${choices}`);
  await page.locator(`[data-testid="alternative"][data-token="${pick}"]`).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="translation-output"]').dataset.prefix !== '');
  assert.equal(await byTestId(page, 'translation-output').getAttribute('data-part'), '2');
  assert.match(await sourceText(page), /garden/);
  assert.equal(await page.locator('[data-testid="target-token"].forced').count(), 2);
  await page.close();
});

test('one sentence: no list; in Chinese the hint is in Chinese', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent('I see the cat.')}`);
  await waitForTranslation(page, 'I see the cat.');
  assert.equal(await byTestId(page, 'sentence-list').isVisible(), false);
  assert.equal(await byTestId(page, 'translation-output').getAttribute('data-part'), null);
  await page.close();
  const zh = await browser.newPage(`/web/?lang=zh-CN&text=${encodeURIComponent('I see the cat. I see the dog.')}`);
  await waitForTranslation(zh, 'I see the cat. I see the dog.');
  assert.match(await byTestId(zh, 'sentence-list').textContent(), /2 个句子/);
  await zh.close();
});
