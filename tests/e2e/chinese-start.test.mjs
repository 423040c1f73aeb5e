// The Chinese page opens for a reader of d2l-zh (issue 46, item 9): on the
// en-zh model unless the URL names one, with example sentences whose
// translations that reader knows (I love deep learning. → 我爱深度学习。);
// and "About this model" says in plain sentences, in the page's language,
// what the model is, what it learned from and how well it translates, with
// the file's record (hashes, file names) folded below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelKind, useBrowser, waitForTranslation } from './helpers.mjs';

const TEXT = 'I love deep learning.';
const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);
const shipped = modelKind() === 'shipped';
const browser = useBrowser({ isolated: true });

const chips = (page) => byTestId(page, 'example').evaluateAll((buttons) => buttons.map((b) => b.textContent));

test('zh-CN without a model in the URL opens on en-zh, its chips the Chinese ones, and the link names the model', async () => {
  const page = await browser.newPage('/web/?lang=zh-CN', { width: 1280, height: 900 });
  await waitForTranslation(page, TEXT, { model: 'en-zh' });
  assert.equal(await byTestId(page, 'model-select').inputValue(), 'en-zh');
  if (shipped) assert.equal(await byTestId(page, 'translation-output').textContent(), '我爱深度学习。');
  const offered = await chips(page);
  assert.ok(offered.includes('Hi.') && offered.includes('Thank you.'), offered.join(' | '));
  assert.equal(offered.includes('Go.'), false, 'not the French pair\'s chips');
  await page.locator('[data-testid="example"]', { hasText: /^Hi\.$/ }).click();
  await waitForTranslation(page, 'Hi.', { model: 'en-zh' });
  if (shipped) assert.equal(await byTestId(page, 'translation-output').textContent(), '你好。');
  // A link from the Chinese page opens the same model for anyone.
  assert.equal(new URL(page.url()).searchParams.get('model'), 'en-zh');
  // Another model: its own chips.
  await byTestId(page, 'model-select').selectOption('en-fr');
  await waitForTranslation(page, 'Hi.', { model: 'en-fr' });
  assert.ok((await chips(page)).includes('Go.'));
  assert.deepEqual(page.problems, []);
});

test('zh-CN with a model in the URL opens on that model; English opens on the package\'s default', async () => {
  const named = await browser.newPage(`/web/?lang=zh-CN&model=en-fr&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(named, TEXT, { model: 'en-fr' });
  const english = await browser.newPage(`/web/?lang=en&text=${encodeURIComponent(TEXT)}`, { width: 1280, height: 900 });
  await waitForTranslation(english, TEXT, { model: 'en-fr' });
  assert.ok((await chips(english)).includes('Go.'));
  assert.equal(new URL(english.url()).searchParams.get('model'), null);
  assert.deepEqual([...named.problems, ...english.problems], []);
});

for (const [lang, what, learned, scores] of [
  ['zh-CN', /^这个模型把英语翻译成中文。它是一个循环神经网络（GRU）编码器—解码器/, /个句对（一句话和它的译文）中学习，数据来自 /, /在训练时没见过的 [\d,]+ 个句子上，它的 BLEU 为 \d+\.\d/],
  ['en', /^This model translates English into French\. It is a recurrent encoder–decoder \(GRU\)/, /It learned from [\d,]+ sentence pairs/, /On [\d,]+ sentences it never saw in training it scores BLEU \d+\.\d/],
]) {
  test(`${lang}: About this model says it in plain sentences first; hashes and file names folded below`, async () => {
    const page = await browser.newPage(`/web/?lang=${lang}&text=${encodeURIComponent(TEXT)}`, { width: 375, height: 812 });
    await waitForTranslation(page, TEXT);
    await page.locator('#about').scrollIntoViewIfNeeded();
    await byTestId(page, 'about-plain-scores').waitFor({ timeout: 30_000 });
    const summary = byTestId(page, 'about-summary');
    const paragraphs = await summary.locator('p').allTextContents();
    assert.equal(paragraphs.length, 3, paragraphs.join('\n'));
    assert.match(paragraphs[0], what);
    assert.match(paragraphs[1], learned);
    assert.match(paragraphs[2], scores);
    // No hash, file name or checkpoint in the plain part.
    for (const text of paragraphs) assert.doesNotMatch(text, /[0-9a-f]{16}|\.tsv|\.txt|\.s2s|FNV|checkpoint/i, text);
    // The record is there, folded, and opens.
    const details = byTestId(page, 'about-details');
    assert.equal(await details.evaluate((d) => d.open), false);
    assert.equal(await page.locator('#about-list').isVisible(), false);
    await details.locator('summary').click();
    assert.equal(await page.locator('#about-list').isVisible(), true);
    assert.match(await page.locator('#about-list').textContent(), /FNV-1a [0-9a-f]{16}/);
    assert.deepEqual(page.problems, []);
  });
}
