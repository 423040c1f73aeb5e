// The page's Shortlist switch (web/index.html, app.js, page-state.js,
// page-url.js) in Debian's Chromium: shown only for a model with a lexical
// shortlist (the shipped en-fr; not en-zh, not en-fr-fixed), checked by
// default; unchecking it translates again with { shortlist: false } (the
// page's numbers are then the full softmax's, as the API gives them in the
// same browser) and writes shortlist=off in the URL, which opens the page
// unchecked. And pieces at probability 0 (outside a sentence's shortlist)
// are never offered nor shown as "-Infinity", "NaN" or 1e30: a copy of
// en-fr with a tiny shortlist (tightShortlistModel) leaves a short sentence
// fewer candidates than the "what if" and the beam ask for.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, modelKind, tightShortlistModel, useBrowser, waitForTranslation } from './helpers.mjs';

const SENTENCE = 'I love deep learning.';
const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const pageUrl = (params = {}) => `/web/?${new URLSearchParams({ text: SENTENCE, ...params })}`;
// The small stand-in models (S2S_E2E_MODELS=tiny) have no shortlist.
const shipped = modelKind() === 'shipped';
const needsShortlist = shipped ? false : 'the small stand-in models have no shortlist';

const browser = useBrowser();
const pages = [];

after(async () => {
  for (const page of pages) assert.deepEqual(page.problems, [], 'no console errors on any page');
});

async function open(path, viewport) {
  const page = await browser.newPage(path, viewport);
  pages.push(page);
  return page;
}

// What the page shows of its result: the step panel's top next tokens at
// step 1 (probabilities), the "what if" at output position 1 and the score.
async function shown(page) {
  await page.locator('[data-testid="step-top"] li').first().waitFor();
  return page.evaluate(() => ({
    top: [...document.querySelectorAll('#step-panel [data-testid="step-top"] li')].map((li) => Number(li.dataset.probability)),
    translation: document.querySelector('[data-testid="translation-output"]').textContent.trim(),
  }));
}

// The API's own numbers for SENTENCE through the page's worker: the first
// step's top tokens and alternatives, with and without the shortlist.
function apiResults(page) {
  return page.evaluate(async (text) => {
    const { getTranslator } = await import('/web/figures/translator.js');
    const { percentText } = await import('/web/demo/what-if.js');  // the page's own rule ("<0.1%" for a tiny one)
    const options = { beamSize: 1, alternatives: 8, trace: true };
    const run = async (shortlist) => {
      const { value } = await getTranslator().translate('en-fr', text, { ...options, shortlist });
      return {
        top: value.trace.steps[0].top.map((choice) => choice.probability),
        alternatives: value.alternatives[0].map(({ token, probability }) => ({ token, percent: percentText(probability) })),
        text: value.text,
      };
    };
    return { on: await run(true), off: await run(false) };
  }, SENTENCE);
}

// Waits until the step panel shows `top` as its first step's probabilities
// (it is drawn after the next paint), then returns what the page shows.
async function waitForTop(page, top) {
  await page.waitForFunction((expected) => {
    const shownTop = [...document.querySelectorAll('#step-panel [data-testid="step-top"] li')].map((li) => Number(li.dataset.probability));
    return shownTop.length === expected.length && shownTop.every((p, k) => p === expected[k]);
  }, top, { timeout: 15_000 }).catch(() => {});
  return shown(page);
}

async function whatIfAt(page, position) {
  await byTestId(page, 'target-token').nth(position).click();
  const options = await byTestId(page, 'alternative').evaluateAll((buttons) => buttons.map((button) => ({
    token: button.dataset.token, percent: button.querySelector('.prob').textContent,
  })));
  await page.keyboard.press('Escape');
  return options;
}

test('the Shortlist switch shows for en-fr, checked, with a hint; not for en-zh or the fixed-context model', { skip: needsShortlist }, async () => {
  const page = await open(pageUrl());
  await waitForTranslation(page, SENTENCE, { model: 'en-fr', shortlist: 'on' });
  const control = byTestId(page, 'shortlist-control');
  // The switch and its hint live in the folded beam search options: open them, so that their visibility means something.
  await byTestId(page, 'decoding-notes').locator('summary').click();
  assert.ok(await control.isVisible());
  assert.equal(await byTestId(page, 'shortlist-toggle').isChecked(), true);
  assert.ok(await byTestId(page, 'shortlist-hint').isVisible());
  const hint = await byTestId(page, 'shortlist-hint').textContent();
  assert.match(hint, /French pieces .*2,000 most frequent .*all 10,000/);
  assert.equal(await control.getAttribute('title'), hint);
  assert.doesNotMatch(page.url(), /shortlist=/);
  await page.locator('.input-panel').screenshot({ path: join(artifacts, 'shortlist-control.png') });

  await byTestId(page, 'model-select').selectOption('en-zh');
  await waitForTranslation(page, SENTENCE, { model: 'en-zh', shortlist: 'none' });
  assert.equal(await control.isVisible(), false);
  assert.equal(await byTestId(page, 'decoding-notes').evaluate((d) => d.open), true, 'the notes are still open');
  assert.equal(await byTestId(page, 'shortlist-hint').isVisible(), false);
  await byTestId(page, 'model-select').selectOption('en-fr');
  await waitForTranslation(page, SENTENCE, { model: 'en-fr', shortlist: 'on' });
  assert.ok(await control.isVisible());

  const fixed = await open(pageUrl({ 'model-url': '/models/en-fr-fixed.s2s' }));
  await waitForTranslation(fixed, SENTENCE, { shortlist: 'none' });
  assert.equal(await byTestId(fixed, 'shortlist-control').isVisible(), false);
  await fixed.close();

  const chinese = await open(pageUrl({ lang: 'zh-CN', model: 'en-fr' }));  // the Chinese page opens on en-zh otherwise
  await waitForTranslation(chinese, SENTENCE, { shortlist: 'on' });
  assert.equal((await byTestId(chinese, 'shortlist-control').textContent()).trim(), '候选词表');
  assert.match(await byTestId(chinese, 'shortlist-hint').textContent(), /法语子词.*2,000.*10,000/);
  await chinese.close();
});

test('the switch is hidden for en-zh from the start', async () => {
  const page = await open(pageUrl({ model: 'en-zh' }));
  await waitForTranslation(page, SENTENCE, { model: 'en-zh', shortlist: 'none' });
  assert.equal(await byTestId(page, 'shortlist-control').isVisible(), false);
  await byTestId(page, 'decoding-notes').locator('summary').click();
  assert.equal(await byTestId(page, 'shortlist-hint').isVisible(), false);
  await page.close();
});

test('unchecking it translates again over every piece and writes shortlist=off; checking it goes back', { skip: needsShortlist }, async () => {
  const page = await open(pageUrl());
  await waitForTranslation(page, SENTENCE, { shortlist: 'on' });
  const api = await apiResults(page);
  // The two really differ (the shortlist's softmax runs over ~2,500 of
  // 10,000 pieces, so its probabilities are larger), or the test proves nothing.
  assert.notDeepEqual(api.on.top, api.off.top);
  assert.ok(api.on.top[0] > api.off.top[0]);

  const before = await waitForTop(page, api.on.top);
  assert.deepEqual(before.top, api.on.top, 'with the shortlist, the step panel shows the API\'s numbers with it');
  assert.equal(before.translation, api.on.text);
  assert.deepEqual(await whatIfAt(page, 0), api.on.alternatives);

  await byTestId(page, 'decoding-notes').locator('summary').click();  // the switch is among the folded options
  await byTestId(page, 'shortlist-toggle').uncheck();
  await waitForTranslation(page, SENTENCE, { shortlist: 'off' });
  assert.match(page.url(), /[?&]shortlist=off(&|$)/);
  const after = await waitForTop(page, api.off.top);
  assert.deepEqual(after.top, api.off.top, 'unchecked, the step panel shows the full softmax\'s numbers');
  assert.equal(after.translation, api.off.text);
  assert.deepEqual(await whatIfAt(page, 0), api.off.alternatives);

  await byTestId(page, 'shortlist-toggle').check();
  await waitForTranslation(page, SENTENCE, { shortlist: 'on' });
  assert.doesNotMatch(page.url(), /shortlist=/);
  assert.deepEqual((await waitForTop(page, api.on.top)).top, api.on.top);
  await page.close();
});

test('?shortlist=off opens the page unchecked and translates without the shortlist', { skip: needsShortlist }, async () => {
  const page = await open(pageUrl({ shortlist: 'off' }));
  await waitForTranslation(page, SENTENCE, { shortlist: 'off' });
  assert.equal(await byTestId(page, 'shortlist-toggle').isChecked(), false);
  assert.ok(await byTestId(page, 'shortlist-control').isVisible());
  const api = await apiResults(page);
  const off = await waitForTop(page, api.off.top);
  assert.deepEqual(off.top, api.off.top);
  assert.equal(off.translation, api.off.text);
  assert.match(page.url(), /[?&]shortlist=off(&|$)/);
  // The URL keeps it across other options.
  await byTestId(page, 'beam-size').selectOption('3');
  await waitForTranslation(page, SENTENCE, { beam: 3, shortlist: 'off' });
  assert.match(page.url(), /[?&]shortlist=off(&|$)/);
  await page.close();
});

test('a tiny shortlist: only possible pieces are offered, and nothing shows as -Infinity, NaN or 1e30', { skip: needsShortlist }, async () => {
  const url = tightShortlistModel();
  // "x": one English piece, which triggers nothing, so the only candidates
  // are the first block of 8 output rows, two of them special tokens the
  // decoder never writes: 6 possible pieces, fewer than beam 8 and the 8
  // alternatives asked for.
  const page = await open(`/web/?${new URLSearchParams({ text: 'x', 'model-url': url, beam: '8' })}`);
  await waitForTranslation(page, 'x', { beam: 8, shortlist: 'on' });
  const api = await page.evaluate(async (model) => {
    const { getTranslator } = await import('/web/figures/translator.js');
    const { value } = await getTranslator().translate(new URL(model, location.href).href, 'x', { beamSize: 8, alternatives: 8, beamTree: true });
    const possible = (c) => Number.isFinite(c.logProb) && c.logProb > -1e29 && c.probability > 0;
    return {
      impossible: value.alternatives.map((choices) => choices.filter((c) => !possible(c)).length),
      possible: value.alternatives.map((choices) => choices.filter(possible).map((c) => `${c.token} ${(c.probability * 100).toFixed(1)}%`)),
      maskedNodes: value.beamTree.flat().filter((node) => !(node.score > -1e29)).length,
    };
  }, url);
  // The API offers only pieces the model can write: fewer than asked for here.
  assert.ok(api.impossible.every((count) => count === 0), `pieces at probability 0 offered: ${api.impossible}`);
  assert.equal(api.maskedNodes, 0);
  const position = api.possible.findIndex((list) => list.length < 8);
  assert.ok(position >= 0, `every position offers 8 pieces: the shortlist is not tight (${api.possible.map((l) => l.length)})`);

  // The "what if" lists exactly those, with percentages.
  await byTestId(page, 'target-token').nth(position).click();
  const listed = await byTestId(page, 'alternative').evaluateAll((buttons) => buttons.map((b) => `${b.dataset.token} ${b.querySelector('.prob').textContent}`));
  assert.deepEqual(listed, api.possible[position].map((entry) => entry.replace(/ 0\.0%$/, ' <0.1%')));
  const percents = listed.map((entry) => entry.split(' ').pop());
  assert.ok(percents.length > 0);
  for (const percent of percents) assert.match(percent, /^(\d{1,3}\.\d|<0\.1)%$/);
  assert.ok(percents.every((percent) => percent === '<0.1%' || (Number.parseFloat(percent) > 0 && Number.parseFloat(percent) <= 100)),
    `a possible piece shown as impossible: ${percents}`);
  assert.equal(await byTestId(page, 'whatif-impossible').count(), 0);

  // The beam tree, the step panel and the result: plain numbers.
  await page.locator('#step-section').scrollIntoViewIfNeeded();
  await byTestId(page, 'beam-tree').waitFor();
  const scores = await page.locator('[data-testid="beam-tree"] .beam-score').allTextContents();
  assert.ok(scores.length > 0);
  for (const score of scores) assert.match(score, /^(−∞|-?\d+\.\d\d)$/);
  const titles = await page.locator('[data-testid="beam-node"] title').allTextContents();
  // (The provenance's file hashes, "FNV-1a 085a88cc…", are hexadecimal,
  // not numbers: left out.)
  const text = [await page.locator('main').innerText(), ...titles].join('\n').replace(/FNV-1a [0-9a-f]{16}/g, 'FNV-1a');
  assert.doesNotMatch(text, /Infinity|NaN|\d\.?\d*e[+-]?\d|\d{12,}/);
  await page.locator('#step-section').screenshot({ path: join(artifacts, 'shortlist-tight-beam.png') });
  await page.close();
});
