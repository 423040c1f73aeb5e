// The model's doubt on the page: the output words the model was unsure of
// (the result's unsureWords) are marked, a notice names them, a standing
// caveat says that this is a small model trained on short sentences, and
// the step panel gives the probability of the word written beside the top 5;
// in English and in Chinese. A sentence of made-up words makes any model
// unsure; a plain one keeps its words unmarked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const NONSENSE = 'The zorblax flummoxed seven hyperbolic parakeets near Quimper.';
const browser = useBrowser();

// What the page was given: the selected result's words, their probabilities and the unsure ones.
const doubtOf = (page) => page.evaluate(async () => {
  const { unsureWordProbability } = await import('/dist/options.js');
  const chips = [...document.querySelectorAll('[data-testid="target-token"]')];
  return {
    threshold: unsureWordProbability,
    marked: chips.filter((c) => c.classList.contains('unsure')).map((c) => ({ text: c.textContent, p: Number(c.dataset.unsure), title: c.title })),
    unmarked: chips.filter((c) => !c.classList.contains('unsure')).length,
  };
});

for (const [lang, caveat, notice] of [
  ['en', /small model, trained mostly on short sentences/, /The model was unsure of \d+ of its output words/],
  ['zh-CN', /这是一个小模型，主要用短句训练/, /模型对译文中的 \d+ 个词没有把握/],
]) {
  test(`${lang}: unsure words marked with their probability, a notice naming them, the caveat`, async () => {
    // en-fr in both languages (the Chinese page would open on en-zh).
    const page = await browser.newPage(`/web/?text=${encodeURIComponent(NONSENSE)}&model=en-fr&lang=${lang}`);
    try {
      await waitForTranslation(page, NONSENSE);
      const { threshold, marked, unmarked } = await doubtOf(page);
      assert.ok(marked.length > 0, 'made-up words leave the model unsure of some of its output');
      for (const word of marked) {
        assert.ok(word.p >= 0 && word.p < threshold, `"${word.text}" marked at ${word.p}, the threshold ${threshold}`);
        assert.match(word.title, lang === 'en' ? /unsure of this word \(probability 0\.\d\d\)/ : /没有把握（概率 0\.\d\d）/);
      }
      assert.ok(unmarked > 0, 'not every word is marked');
      assert.match(await byTestId(page, 'caveat').textContent(), caveat);
      assert.match(await byTestId(page, 'notice-unsure').textContent(), notice);
      // The dotted underline is drawn (a mark, not only a class).
      const decoration = await page.locator('[data-testid="target-token"].unsure').first()
        .evaluate((chip) => getComputedStyle(chip).textDecorationStyle);
      assert.equal(decoration, 'dotted');
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
}

test('a sentence the model knows well: no word marked, no notice, the caveat still there', async () => {
  const text = 'I am very happy today.';
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(text)}`);
  try {
    await waitForTranslation(page, text);
    assert.deepEqual((await doubtOf(page)).marked, []);
    assert.equal(await byTestId(page, 'notice-unsure').count(), 0);
    assert.equal(await byTestId(page, 'caveat').isVisible(), true);
  } finally {
    await page.close();
  }
});

test('the step panel gives the written word\'s probability beside the top 5, marked there when among them', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(NONSENSE)}&step=2`);
  try {
    await waitForTranslation(page, NONSENSE);
    const chosen = byTestId(page, 'step-chosen');
    await chosen.waitFor();
    const probability = Number(await chosen.getAttribute('data-probability'));
    assert.ok(probability > 0 && probability <= 1, `probability ${probability}`);
    assert.match(await chosen.textContent(), /Written at this step: .+, with probability 0\.\d{3}|1\.000/);
    // When the word written is one of the five, its row is marked and has the same probability.
    const rows = await byTestId(page, 'step-top').locator('li').evaluateAll((items) => items.map((li) => ({
      chosen: li.classList.contains('chosen'), p: Number(li.dataset.probability),
    })));
    const marked = rows.filter((r) => r.chosen);
    assert.ok(marked.length <= 1);
    if (marked.length) assert.ok(Math.abs(marked[0].p - probability) < 1e-6, `${marked[0].p} vs ${probability}`);
    else assert.ok(rows.every((r) => r.p >= probability), 'a word outside the top 5 is less likely than each of them');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
  }
});
