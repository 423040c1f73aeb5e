// The step-through section of the demo page (web/demo/step-view.js, step-panel.js,
// beam-tree.js) in Debian's Chromium, on a shipped model (or the tests' small
// stand-ins) and a sentence of 8+ words: the panel's numbers against the
// softmax and the API's own trace, the temperature slider, the fixed-context
// model's constant context, coverage, the beam tree, a keyboard-only tour and
// 375 px. Screenshots go to tests/e2e/artifacts/.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, useBrowser, waitForTranslation } from './helpers.mjs';
import { softmax, weightedSum, maxAbsDiff } from '../../web/figures/step-math.js';

// 11 words. At τ = 0.05 the shipped en-fr model's smallest top weight over
// the steps of this sentence is about 1.0 (some sentences have a step with
// two nearly equal scores, where even τ = 0.05 leaves two weights of ~0.5).
const SENTENCE = 'Tom went to the station to meet his friend.';
const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const pageUrl = (params) => `/web/?${new URLSearchParams({ text: SENTENCE, ...params })}`;

const browser = useBrowser();
const pages = [];

after(async () => {
  for (const page of pages) assert.deepEqual(page.problems, [], 'no console errors on any page of the tour');
});

async function open(params, viewport) {
  const page = await browser.newPage(pageUrl(params), viewport);
  pages.push(page);
  await waitForTranslation(page, SENTENCE);
  await page.locator('[data-testid="step-panel"][data-step]').waitFor();
  return page;
}

// The panel's step (1-based), steps, temperature and one { score, weight } per source position.
const readPanel = (page) => byTestId(page, 'step-panel').evaluate((panel) => ({
  step: Number(panel.dataset.step),
  steps: Number(panel.dataset.steps),
  temperature: Number(panel.dataset.temperature),
  sources: [...panel.querySelectorAll('[data-testid="step-source"]')].map((row) => ({
    index: Number(row.dataset.index), score: Number(row.dataset.score), weight: Number(row.dataset.weight),
  })),
  context: panel.querySelector('[data-testid="step-context"]')?.dataset.values.split(' ').map(Number) ?? null,
}));

async function waitForStep(page, step) {
  await page.waitForFunction((n) => document.getElementById('step-panel')?.dataset.step === String(n), step);
}

// Every step of the panel, walked with its "next" button.
async function everyStep(page) {
  const first = await readPanel(page);
  const all = [first];
  for (let step = first.step + 1; step <= first.steps; step += 1) {
    await byTestId(page, 'step-next').click();
    await waitForStep(page, step);
    all.push(await readPanel(page));
  }
  return all;
}

test('each source position carries data-score and data-weight; softmax(scores) = weights, Σ = 1 (1e-4), at every step', async () => {
  const page = await open({ view: 'step', step: '1' });
  const steps = await everyStep(page);
  const sourceCount = await byTestId(page, 'source-token').count();
  assert.ok(SENTENCE.split(' ').length >= 8);
  assert.ok(steps.length >= 2);
  for (const { step, sources, temperature } of steps) {
    assert.equal(temperature, 1);
    assert.equal(sources.length, sourceCount, `step ${step}: one element per source position`);
    const expected = softmax(sources.map((s) => s.score), temperature);
    sources.forEach(({ weight }, i) => assert.ok(Math.abs(weight - expected[i]) < 1e-4, `step ${step}, source ${i}: ${weight} vs softmax ${expected[i]}`));
    const sum = sources.reduce((a, s) => a + s.weight, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `step ${step}: weights sum to ${sum}`);
  }
  // The panel's weights are the heatmap's rows.
  const heatmapRow = await page.locator('#result [data-testid="attention-heatmap"] [data-row="0"]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.weight)));
  heatmapRow.forEach((w, i) => assert.ok(Math.abs(w - steps[0].sources[i].weight) < 1e-4));
  await page.screenshot({ path: join(artifacts, 'step-desktop.png'), fullPage: true });
});

test("the JS trace's c_t equals Σ a_ti H_i (1e-4), the page shows the trace's numbers, and τ = 1 is the translation without the option", async () => {
  const page = await open({ view: 'step', step: '2' });
  const shown = await readPanel(page);
  const api = await page.evaluate(async (text) => {
    const { loadModel } = await import('/dist/index.js');
    const model = await loadModel('en-fr');
    const plain = model.translate(text);
    const one = model.translate(text, { temperature: 1 });
    const traced = model.translate(text, { trace: true });
    model.dispose?.();
    const { trace } = traced;
    return {
      plain: { tokens: plain.targetTokens, attention: plain.attention.map((row) => Array.from(row)) },
      one: { tokens: one.targetTokens, attention: one.attention.map((row) => Array.from(row)) },
      traced: traced.targetTokens,
      states: trace.states.map((s) => Array.from(s)),
      steps: trace.steps.map((s) => ({ weights: Array.from(s.weights), scores: Array.from(s.scores), context: Array.from(s.context) })),
    };
  }, SENTENCE);
  assert.deepEqual(api.one, api.plain, 'temperature 1 gives exactly the translation without the option');
  assert.deepEqual(api.traced, api.plain.tokens, 'the trace does not change the translation');
  for (const [t, step] of api.steps.entries()) {
    const sum = weightedSum(step.weights, api.states);
    const diff = maxAbsDiff(sum, step.context);
    assert.ok(diff < 1e-4, `step ${t + 1}: |c_t − Σ a_ti H_i| = ${diff}`);
  }
  // Step 2 on the page: the trace's own scores, weights and context.
  const mine = api.steps[1];
  shown.sources.forEach(({ score, weight }, i) => {
    assert.ok(Math.abs(score - mine.scores[i]) < 1e-6);
    assert.ok(Math.abs(weight - mine.weights[i]) < 1e-6);
  });
  assert.ok(maxAbsDiff(shown.context, mine.context) < 1e-6);
  // The page at ?tau=1 writes what it writes without it.
  const plainText = await byTestId(page, 'translation-output').textContent();
  const atOne = await open({ tau: '1' });
  assert.equal(await byTestId(atOne, 'translation-output').textContent(), plainText);
  assert.doesNotMatch(new URL(atOne.url()).search, /tau=/, 'τ = 1 is the default, left out of the URL');
});

test('τ = 0.05 makes every step nearly hard (largest weight ≥ 0.9); τ = 20 nearly uniform (within 0.05)', async () => {
  const hard = await open({ tau: '0.05', view: 'step', step: '1' });
  for (const { step, sources, temperature } of await everyStep(hard)) {
    assert.equal(temperature, 0.05);
    const top = Math.max(...sources.map((s) => s.weight));
    assert.ok(top >= 0.9, `τ = 0.05, step ${step}: largest weight ${top}`);
  }
  const soft = await open({ tau: '20', view: 'step', step: '1' });
  for (const { step, sources, temperature } of await everyStep(soft)) {
    assert.equal(temperature, 20);
    const uniform = 1 / sources.length;
    for (const { index, weight } of sources) assert.ok(Math.abs(weight - uniform) < 0.05, `τ = 20, step ${step}, source ${index}: ${weight} vs ${uniform}`);
  }
});

test('the slider re-decodes with the new τ and puts it in the URL', async () => {
  const page = await open({ view: 'step', step: '1' });
  const slider = byTestId(page, 'temperature');
  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.getElementById('step-panel').dataset.temperature === '0.05', null, { timeout: 30_000 });
  assert.equal(await byTestId(page, 'tau-value').textContent(), '0.05');
  assert.match(page.url(), /tau=0\.05/);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.getElementById('step-panel').dataset.temperature === '20', null, { timeout: 30_000 });
  assert.match(page.url(), /tau=20/);
});

test("the fixed-context model's panel shows the same context at every step; with attention it changes", async () => {
  const fixed = await open({ 'model-url': '/models/en-fr-fixed.s2s', view: 'step', step: '1' });
  const steps = await everyStep(fixed);
  assert.ok(steps.length >= 2);
  assert.equal(await byTestId(fixed, 'step-source').count(), 0, 'no scores or weights without attention');
  for (const { step, context } of steps) assert.deepEqual(context, steps[0].context, `step ${step}: the same context`);
  const cosines = await byTestId(fixed, 'similarity-fixed').locator('[data-cosine]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.cosine)));
  assert.equal(cosines.length, steps.length);
  cosines.forEach((c) => assert.ok(Math.abs(c - 1) < 1e-6, `cosine ${c}`));
  // The attention model's panel shows both rows: its own contexts change.
  const page = await open({ view: 'step', step: '1' });
  await byTestId(page, 'similarity-fixed').waitFor({ timeout: 30_000 });
  const attention = await byTestId(page, 'similarity-attention').locator('[data-cosine]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.cosine)));
  assert.ok(Math.min(...attention) < 0.99, `the attention contexts change: ${attention}`);
  const twin = await byTestId(page, 'similarity-fixed').locator('[data-cosine]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.cosine)));
  twin.forEach((c) => assert.ok(Math.abs(c - 1) < 1e-6));
  // The twin decoded its own translation: only the attention row marks this
  // step, and the twin's row says how many steps it has.
  assert.equal(await byTestId(page, 'similarity-attention').locator('.current').count(), 1);
  assert.equal(await byTestId(page, 'similarity-fixed').locator('.current').count(), 0);
  assert.match(await byTestId(page, 'similarity-fixed').textContent(), new RegExp(`its own translation \\(${twin.length} steps\\)`));
  // en-fr decodes over its shortlist (on by default): the next-token stage says so.
  assert.match(await page.locator('[data-stage="top"] .hint').textContent(), /shortlist is on/);
});

test('a model without a shortlist or without a fixed-context twin is not promised one', async () => {
  // The small word-level fixture model: no shortlist, no twin.
  const page = await open({ 'model-url': '/e2e-models/tiny-words.s2s', view: 'step', step: '1' });
  assert.doesNotMatch(await page.locator('[data-stage="top"] .hint').textContent(), /shortlist/i);
  // The page says it has no twin for this model (data-twin="none", set when
  // the panel is drawn) before the check that no twin row is drawn.
  await page.locator('#step-section[data-twin="none"]').waitFor();
  const similarity = page.locator('[data-stage="similarity"]');
  assert.equal(await similarity.count(), 1);
  assert.equal(await byTestId(page, 'similarity-fixed').count(), 0);
  assert.match(await similarity.locator('.hint').textContent(), /a model without attention would/);
});

test('the coverage row under the heatmap: Σ_t a_ti per source token, low ones flagged, with a legend', async () => {
  const page = await open({});
  const cells = await byTestId(page, 'coverage-cell').evaluateAll((list) => list.map((c) => ({
    coverage: Number(c.dataset.coverage), dropped: c.dataset.dropped === 'true',
  })));
  const columns = await page.locator('#result [data-testid="attention-heatmap"] [data-row][data-col]').evaluateAll((list) => {
    const sums = [];
    for (const cell of list) sums[Number(cell.dataset.col)] = (sums[Number(cell.dataset.col)] ?? 0) + Number(cell.dataset.weight);
    return sums;
  });
  assert.equal(cells.length, columns.length);
  cells.forEach(({ coverage, dropped }, i) => {
    assert.ok(Math.abs(coverage - columns[i]) < 1e-3, `source ${i}: coverage ${coverage} vs column sum ${columns[i]}`);
    if (i < cells.length - 1) assert.equal(dropped, coverage < 0.1, `source ${i} flagged iff its coverage is under 0.1`);
  });
  assert.ok((await byTestId(page, 'coverage-legend').textContent()).length > 10);
});

test('the beam tree: kept and pruned candidates with scores; a kept node shows its attention', async () => {
  const page = await open({ beam: '3' });
  await byTestId(page, 'beam-tree').waitFor();
  const nodes = byTestId(page, 'beam-node');
  const kinds = await nodes.evaluateAll((list) => list.map((n) => n.dataset.kept));
  // Pruned siblings may be folded into one "+N pruned" row (tests/e2e/long-figures.test.mjs).
  const folds = await byTestId(page, 'beam-fold').count();
  assert.ok(kinds.includes('true') && (kinds.includes('false') || folds > 0), 'both kept and pruned candidates');
  const kept = page.locator('[data-testid="beam-node"][role="button"]').nth(1);
  await kept.focus();
  await page.keyboard.press('Enter');
  // The node's attention is drawn after the key press: wait for it.
  await byTestId(page, 'beam-node-attention').locator('[data-weight]').first().waitFor();
  const weights = await byTestId(page, 'beam-node-attention').locator('[data-weight]').evaluateAll((list) => list.map((li) => Number(li.dataset.weight)));
  assert.equal(weights.length, await byTestId(page, 'source-token').count());
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-4);
});

test('keyboard alone: Tab to the output words, → to the third, Enter opens its step with the focus on the panel, ←/→ move, focus is visible', async () => {
  const page = await open({});
  await byTestId(page, 'source-input').focus();
  const active = () => page.evaluate(() => {
    const e = document.activeElement;
    return { testid: e?.dataset?.testid ?? null, index: e?.dataset?.index ?? null, id: e?.id ?? '' };
  });
  // The output words are one tab stop (web/demo/keys.js): Tab reaches the
  // first, the arrow keys the others.
  let reached = null;
  for (let k = 0; k < 40 && !reached; k += 1) {
    await page.keyboard.press('Tab');
    const now = await active();
    if (now.testid === 'target-token') reached = now;
  }
  assert.equal(reached?.index, '0', 'Tab reaches the output words, at the first');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await active()).index, '2', '→ moves to the third output word');
  await page.keyboard.press('Enter');
  await waitForStep(page, 3);
  assert.match(page.url(), /step=3/);
  assert.match(page.url(), /view=step/);
  assert.equal((await active()).id, 'step-panel', 'Enter moved the focus to the step panel');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused panel shows its focus');
  await page.keyboard.press('ArrowRight');
  await waitForStep(page, 4);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await waitForStep(page, 2);
  assert.match(page.url(), /step=2/);
});

test('375 px: no horizontal scrolling, in English and in Chinese', async () => {
  for (const lang of ['en', 'zh-CN']) {
    const page = await open({ view: 'step', step: '2', beam: '2', lang }, { width: 375, height: 800 });
    await byTestId(page, 'beam-tree').waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
    }));
    assert.ok(scrollWidth <= clientWidth, `${lang}: page ${scrollWidth} px wide in a ${clientWidth} px window`);
    // Every number the desktop panel shows is on screen, whole: each score
    // and weight (softmax(scores) = weights stays checkable), and each
    // context term's label (which h_i, which word) uncut.
    const hidden = await page.evaluate(() => {
      const problems = [];
      const panel = document.querySelector('[data-testid="step-panel"]');
      for (const element of panel.querySelectorAll('.step-score, .step-weight, .step-term .step-token, .step-source .step-token')) {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        if (style.display === 'none' || style.visibility === 'hidden' || box.width === 0) problems.push(`${element.className} "${element.textContent}" is hidden`);
        else if (element.scrollWidth > element.clientWidth + 1) problems.push(`${element.className} "${element.textContent}" is cut (${element.scrollWidth} > ${element.clientWidth} px)`);
      }
      return problems;
    });
    assert.deepEqual(hidden, [], lang);
    await page.screenshot({ path: join(artifacts, `step-375-${lang}.png`), fullPage: true });
  }
});

test('?lang=zh-CN says the step panel in Chinese', async () => {
  const page = await open({ view: 'step', step: '2', lang: 'zh-CN' });
  const heading = await page.locator('#step-section-heading').textContent();
  assert.match(heading, /解码器/);
  assert.match(await byTestId(page, 'step-panel').textContent(), /注意力权重/);
  await byTestId(page, 'step-panel').screenshot({ path: join(artifacts, 'step-panel-zh-CN.png') });
});

test('the custom element opens at a step: view="step" step="3", ←/→ move and set the attribute', async () => {
  const page = await browser.newPage('/web/embed-example.html', { width: 900, height: 900 });
  pages.push(page);
  await page.evaluate((sentence) => {
    const demo = document.createElement('seq2seq-attention-demo');
    Object.entries({ id: 'step-demo', sentence, view: 'step', step: '3', lang: 'zh-CN' }).forEach(([k, v]) => demo.setAttribute(k, v));
    document.body.prepend(demo);
  }, SENTENCE);
  const panel = page.locator('#step-demo [data-testid="step-panel"]');
  await page.locator('#step-demo [data-testid="step-panel"][data-step="3"]').waitFor({ timeout: 30_000 });
  const rows = await panel.locator('[data-testid="step-source"]').evaluateAll((list) => list.map((r) => ({ score: Number(r.dataset.score), weight: Number(r.dataset.weight) })));
  assert.ok(rows.length >= 9);
  const expected = softmax(rows.map((r) => r.score));
  rows.forEach(({ weight }, i) => assert.ok(Math.abs(weight - expected[i]) < 1e-4));
  assert.match(await panel.textContent(), /上下文变量/, 'the element speaks its lang attribute');
  await panel.focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#step-demo [data-testid="step-panel"][data-step="4"]').waitFor();
  assert.equal(await page.locator('#step-demo').getAttribute('step'), '4');
});

test('a heatmap row opens its step: a click on the row label, Enter on a cell', async () => {
  const page = await open({});
  const heatmap = page.locator('#result [data-testid="attention-heatmap"]');
  await heatmap.locator('[data-row-label="3"]').click();
  await waitForStep(page, 4);
  assert.match(page.url(), /step=4/);
  // The grid is one tab stop (its first cell); the arrow keys move.
  await heatmap.locator('[data-row="0"][data-col="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await waitForStep(page, 2);
});

test('in the words view a row is a word: a click opens the step of its first piece', async () => {
  const page = await open({ unit: 'words' });
  const heatmap = page.locator('#result [data-testid="attention-heatmap"]');
  // The first target word made of two or more pieces, and the piece it starts at.
  const { row, firstPiece } = await byTestId(page, 'target-token').evaluateAll((chips) => {
    const chip = chips.find((c) => Number(c.dataset.end) - Number(c.dataset.start) > 1) ?? chips[1];
    return { row: Number(chip.dataset.index), firstPiece: Number(chip.dataset.start) };
  });
  await heatmap.locator(`[data-row="${row}"][data-col="0"]`).click();
  await waitForStep(page, firstPiece + 1);
  assert.match(page.url(), new RegExp(`step=${firstPiece + 1}`));
});

test('keyboard: focus stays on a coverage cell when the fixed-context result arrives; Tab reaches the heatmap cells with no unnamed stop, and arrows move between them', async () => {
  const page = await open({});
  // Focus a coverage cell before the twin's trace arrives (the panel is drawn again then).
  const cell = page.locator('[data-testid="coverage-cell"][data-index="1"]');
  await cell.focus();
  await byTestId(page, 'similarity-fixed').waitFor({ timeout: 30_000 });
  const focused = await page.evaluate(() => ({ testid: document.activeElement?.dataset?.testid, index: document.activeElement?.dataset?.index }));
  assert.deepEqual(focused, { testid: 'coverage-cell', index: '1' });

  await byTestId(page, 'translate-button').focus();
  let stops = [];
  for (let k = 0; k < 80; k += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const e = document.activeElement;
      return { tag: e.tagName, name: e.getAttribute('aria-label') ?? e.textContent.trim().slice(0, 30), cell: e.classList.contains('cell') };
    });
    stops.push(stop);
    if (stop.cell) break;
  }
  assert.ok(stops.at(-1).cell, 'Tab reaches a heatmap cell');
  const unnamed = stops.filter((s) => !s.name);
  assert.deepEqual(unnamed, [], 'every Tab stop on the way has a name');
  // The cell in the middle of the screen, so that its neighbours are in view
  // too: any scroll after the arrows is then the arrows scrolling the page.
  await page.evaluate(() => document.activeElement.scrollIntoView({ block: 'center', inline: 'center' }));
  const before = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const at = await page.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col]);
  assert.deepEqual(at, ['1', '1']);
  assert.equal(await page.evaluate(() => window.scrollY), before, 'the arrows move between cells, not the page');
});
