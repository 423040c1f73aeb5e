// The model map above the step panel (web/figures/model-map.js) in Debian's
// Chromium, on the shipped models (or the tests' small stand-ins): present in
// English and in Chinese with the chapter's names, this step's parts lit and
// following the step, a part (clicked, or Enter on the map's one tab stop)
// opening its stage in the step panel, the fixed-context model's one
// vector, the links to both editions of the chapter, and a map that fits at
// 375 and 1280 px with no text outside its box and no axe-core violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { artifacts, useBrowser, waitForTranslation } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
const SENTENCE = 'Tom went to the station to meet his friend.';
// 26 words: the map must still fit a phone.
const LONG = 'When the old man finally arrived at the small station near the river, he told us that the last train had already left an hour ago.';
const D2L_EN = 'https://d2l.ai/chapter_attention-mechanisms-and-transformers/bahdanau-attention.html';
const D2L_ZH = 'https://zh.d2l.ai/chapter_attention-mechanisms/bahdanau-attention.html';
const ATTENTION_PARTS = ['source', 'encoder', 'states', 'query', 'score', 'softmax', 'weights', 'context', 'decoder', 'output', 'token'];
const FIXED_PARTS = ['source', 'encoder', 'states', 'fixed', 'decoder', 'output', 'token'];

const browser = useBrowser({ isolated: true });

async function open(params, viewport = { width: 1280, height: 900 }, text = SENTENCE) {
  const page = await browser.newPage(`/web/?${new URLSearchParams({ text, ...params })}`, viewport);
  await waitForTranslation(page, text);
  await page.locator('[data-testid="model-map"] [data-part]').first().waitFor();
  return page;
}

const map = (page) => page.locator('[data-testid="model-map"]');

// What the map shows: its kind and step, its parts in order, the lit ones,
// the lit cell of each part with cells, its text, its links.
const readMap = (page) => map(page).evaluate((box) => ({
  kind: box.dataset.kind,
  step: Number(box.dataset.step),
  parts: [...box.querySelectorAll('[data-part]')].map((part) => part.dataset.part),
  lit: [...box.querySelectorAll('[data-part][data-lit]')].map((part) => part.dataset.part),
  litCell: Object.fromEntries([...box.querySelectorAll('[data-part]')].map((part) => [part.dataset.part,
    [...part.querySelectorAll('[data-cell]')].filter((cell) => cell.dataset.lit).map((cell) => Number(cell.dataset.index))])),
  text: box.textContent,
  names: [...box.querySelectorAll('[data-part]')].map((part) => part.getAttribute('aria-label')).join('\n'),
  links: [...box.querySelectorAll('a')].map((a) => a.href),
  tabStops: [...box.querySelectorAll('[tabindex="0"]')].length,
}));

// The step panel's weights (data-weight of each source row) and its step.
const panelWeights = (page) => page.locator('[data-testid="step-panel"]').evaluate((panel) => ({
  step: Number(panel.dataset.step),
  weights: [...panel.querySelectorAll('[data-testid="step-source"]')].map((row) => Number(row.dataset.weight)),
}));
const argmax = (values) => values.indexOf(Math.max(...values));

for (const [lang, terms, first] of [
  ['en', [/Query sₜ₋₁/, /the keys and the values are both the encoder states hᵢ/, /attention pooling/, /Context variable cₜ/, /Bidirectional GRU encoder/, /Softmax/], D2L_EN],
  ['zh-CN', [/查询 sₜ₋₁/, /键和值都是编码器隐状态/, /注意力汇聚/, /上下文变量 cₜ/, /双向 GRU 编码器/, /注意力权重 αₜᵢ/], D2L_ZH],
]) {
  test(`${lang}: the map names every part as the chapter does and links to both editions, the page's language first`, async () => {
    const page = await open({ lang, step: '2' });
    const shown = await readMap(page);
    assert.equal(shown.kind, 'attention');
    assert.deepEqual(shown.parts, ATTENTION_PARTS);
    for (const term of terms) {
      assert.match(shown.text, term, `${lang}: the map shows ${term}`);
      assert.match(shown.names, term, `${lang}: a part's accessible name says ${term}`);
    }
    assert.deepEqual(shown.links, lang === 'en' ? [D2L_EN, D2L_ZH] : [D2L_ZH, D2L_EN]);
    assert.equal(shown.links[0], first);
    assert.equal(shown.tabStops, 1, 'the map is one tab stop');
    // The language switch draws the map again in the other language.
    await page.locator('[data-testid="lang-toggle"]').click();
    await page.waitForFunction((wanted) => document.querySelector('[data-testid="model-map"]').textContent.includes(wanted),
      lang === 'en' ? '键和值都是编码器隐状态' : 'the keys and the values are both');
  });
}

test('the lit parts follow the step: the decoder state and output token of this step, the source token it attends to most', async () => {
  const page = await open({ step: '1' });
  let shown = await readMap(page);
  const steps = Number(await page.locator('[data-testid="step-panel"]').getAttribute('data-steps'));
  assert.ok(steps >= 3);
  assert.deepEqual(shown.lit, ['query', 'score', 'softmax', 'weights', 'context', 'decoder', 'output', 'token'],
    'the parts computed at every step are lit; the encoder (once per sentence) is not');
  const seen = new Set();
  for (let step = 1; step <= steps; step += 1) {
    if (step > 1) {
      await page.locator('[data-testid="step-next"]').click();
      await page.waitForFunction((n) => document.querySelector('[data-testid="model-map"]')?.dataset.step === String(n), step);
      shown = await readMap(page);
    }
    const { step: panelStep, weights } = await panelWeights(page);
    assert.equal(shown.step, panelStep);
    assert.deepEqual(shown.litCell.decoder, [step - 1], `step ${step}: its decoder state is lit`);
    assert.deepEqual(shown.litCell.token, [step - 1], `step ${step}: its output token is lit`);
    assert.deepEqual(shown.litCell.states, [argmax(weights)], `step ${step}: the encoder state with the largest weight is lit`);
    assert.deepEqual(shown.litCell.source, [argmax(weights)]);
    seen.add(argmax(weights));
  }
  assert.ok(seen.size > 1, 'the most attended source token changes over the sentence');
});

test('a click on a part opens its stage in the step panel, focused and in view; the URL says view=step', async () => {
  const page = await open({ step: '2' });
  assert.doesNotMatch(page.url(), /view=step/);
  const focusedStage = () => page.evaluate(() => document.activeElement?.dataset.stage ?? null);
  // The fixed twin's numbers arrive after the click (the step panel is
  // drawn again with them): the stage opened keeps the focus.
  await map(page).locator('[data-part="context"]').click();
  await page.locator('[data-testid="similarity-fixed"]').waitFor({ timeout: 30_000 });
  assert.equal(await focusedStage(), 'context', 'the opened stage is still focused once the twin has arrived');
  for (const [part, stage] of [['context', 'context'], ['query', 'query'], ['softmax', 'weights'], ['states', 'scores'], ['token', 'top']]) {
    await map(page).locator(`[data-part="${part}"]`).click();
    const opened = await page.evaluate(() => {
      const focused = document.activeElement;
      const box = focused.getBoundingClientRect();
      return { stage: focused.dataset.stage, inPanel: Boolean(focused.closest('[data-testid="step-panel"]')),
        opened: focused.dataset.opened, top: box.top, bottom: innerHeight };
    });
    assert.equal(opened.stage, stage, `${part} opens the ${stage} stage`);
    assert.ok(opened.inPanel && opened.opened === 'true');
    assert.ok(opened.top >= 0 && opened.top < opened.bottom, `${part}: the stage is in view (top at ${opened.top} px)`);
  }
  await page.waitForURL(/view=step/);
});

test('keyboard: Tab reaches the map once, the arrow keys move between parts, Enter and Space open the stage', async () => {
  const page = await open({ step: '2' });
  await map(page).locator('[tabindex="0"]').focus();
  const focusedPart = () => page.evaluate(() => document.activeElement?.dataset.part ?? null);
  assert.equal(await focusedPart(), 'source');
  await page.keyboard.press('End');
  assert.equal(await focusedPart(), 'token');
  await page.keyboard.press('Home');
  for (let k = 0; k < ATTENTION_PARTS.indexOf('context'); k += 1) await page.keyboard.press('ArrowDown');
  assert.equal(await focusedPart(), 'context');
  assert.equal((await readMap(page)).tabStops, 1, 'still one tab stop: the part last visited');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.stage), 'context');
  // Back to the map with Shift+Tab lands on the part last visited; Space opens it too.
  await map(page).locator('[tabindex="0"]').focus();
  assert.equal(await focusedPart(), 'context');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.stage), 'weights');
});

test("the fixed-context model's map shows its one vector c feeding every step, no score or softmax, and says why that is the bottleneck", async () => {
  for (const lang of ['en', 'zh-CN']) {
    const page = await open({ 'model-url': '/models/en-fr-fixed.s2s', step: '2', lang });
    const shown = await readMap(page);
    assert.equal(shown.kind, 'fixed');
    assert.deepEqual(shown.parts, FIXED_PARTS);
    const steps = Number(await page.locator('[data-testid="step-panel"]').getAttribute('data-steps'));
    const copies = await map(page).locator('[data-part="fixed"] [data-cell]').count();
    assert.equal(copies, steps, 'the one vector c, drawn once for each step it feeds');
    const size = (await page.locator('[data-testid="step-context"]').getAttribute('data-values')).split(' ').length;
    const bottleneck = await map(page).locator('[data-testid="model-map-bottleneck"]').textContent();
    assert.match(bottleneck, lang === 'en' ? /bottleneck/ : /瓶颈/);
    assert.match(bottleneck, new RegExp(`${size}`), 'it names the size of the vector');
    assert.deepEqual(shown.litCell.states, [(await page.locator('[data-testid="source-token"]').count()) - 1], 'c is the last encoder state');
    await map(page).locator('[data-part="fixed"]').click();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.stage), 'fixed');
  }
});

test("the twin's toggle draws the attention model's fixed-context twin (the comparison's en-fr-fixed) on the same sentence, and back", async () => {
  const page = await open({ step: '2' });
  await map(page).scrollIntoViewIfNeeded();
  await page.locator('[data-testid="similarity-fixed"]').waitFor({ timeout: 30_000 });
  await map(page).locator('[data-map-model="fixed"]').click();
  let shown = await readMap(page);
  assert.equal(shown.kind, 'fixed');
  assert.deepEqual(shown.parts, FIXED_PARTS);
  assert.equal(await map(page).getAttribute('data-twin'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.mapModel), 'fixed', 'focus stays on the toggle');
  const twinSteps = await page.locator('[data-testid="similarity-fixed"] [data-cosine]').count();
  assert.equal(await map(page).locator('[data-part="fixed"] [data-cell]').count(), twinSteps, "one c per step of the twin's own translation");
  assert.match(await map(page).locator('[data-testid="model-map-bottleneck"]').textContent(), /bottleneck/);
  // The panel shows the attention model: the twin's parts open its comparison of contexts.
  await map(page).locator('[data-part="decoder"]').click();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.stage), 'similarity');
  assert.equal(await map(page).locator('[data-map-model="fixed"]').getAttribute('aria-pressed'), 'true');
  await map(page).locator('[data-map-model="fixed"]').click();
  assert.equal(await map(page).locator('[data-map-model="fixed"]').getAttribute('aria-pressed'), 'false');
  shown = await readMap(page);
  assert.equal(shown.kind, 'attention');
  assert.deepEqual(shown.parts, ATTENTION_PARTS);
});

// Every text of the map inside its part's box, the map inside its section,
// and the page no wider than the window.
const overflow = (page) => page.evaluate(() => {
  const problems = [];
  const box = document.querySelector('[data-testid="model-map"]');
  const svg = box.querySelector('svg');
  const section = box.closest('section').getBoundingClientRect();
  const chart = svg.getBoundingClientRect();
  if (chart.left < section.left || chart.right > section.right) problems.push(`map ${chart.left}–${chart.right} outside its section ${section.left}–${section.right}`);
  for (const part of svg.querySelectorAll('[data-part]')) {
    const frame = part.querySelector('.map-box').getBoundingClientRect();
    for (const text of part.querySelectorAll('text')) {
      const r = text.getBoundingClientRect();
      if (r.left < frame.left - 0.5 || r.right > frame.right + 0.5 || r.top < frame.top - 0.5 || r.bottom > frame.bottom + 0.5) {
        problems.push(`${part.dataset.part}: "${text.textContent}" (${Math.round(r.left)}–${Math.round(r.right)}) outside its box (${Math.round(frame.left)}–${Math.round(frame.right)})`);
      }
    }
  }
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth) problems.push(`page ${document.documentElement.scrollWidth} px wide`);
  return problems;
});

for (const width of [375, 1280]) {
  test(`${width} px: the map fits, every label inside its box, in both languages, for a short and a 26-word sentence and the fixed model`, async () => {
    for (const lang of ['en', 'zh-CN']) {
      for (const [text, extra] of [[SENTENCE, {}], [LONG, {}], [SENTENCE, { 'model-url': '/models/en-fr-fixed.s2s' }]]) {
        const page = await open({ lang, step: '3', ...extra }, { width, height: 850 }, text);
        assert.deepEqual(await overflow(page), [], `${lang}, ${text.length} characters, ${extra['model-url'] ?? 'en-fr'}`);
        if (text === SENTENCE && !extra['model-url']) await map(page).screenshot({ path: join(artifacts, `model-map-${width}-${lang}.png`) });
        await page.close();
      }
    }
  });
}

test('axe-core: no violation in the map, in both languages, at 375 and 1280 px', async () => {
  for (const lang of ['en', 'zh-CN']) {
    for (const width of [375, 1280]) {
      for (const extra of [{}, { 'model-url': '/models/en-fr-fixed.s2s' }]) {
        const page = await open({ lang, step: '2', ...extra }, { width, height: 850 });
        await page.addScriptTag({ path: AXE });
        const violations = () => page.evaluate(async () => {
          // eslint-disable-next-line no-undef
          const result = await axe.run('[data-testid="model-map"]', { resultTypes: ['violations'] });
          return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
        });
        assert.deepEqual(await violations(), [], `${lang}, ${width} px, ${extra['model-url'] ?? 'en-fr'}`);
        if (!extra['model-url']) {
          // With the twin's toggle, and showing the twin.
          await map(page).scrollIntoViewIfNeeded();
          await map(page).locator('[data-map-model="fixed"]').click();
          assert.deepEqual(await violations(), [], `${lang}, ${width} px, the twin`);
          assert.deepEqual(await overflow(page), [], `${lang}, ${width} px, the twin`);
          await map(page).screenshot({ path: join(artifacts, `model-map-${width}-${lang}-twin.png`) });
        }
        assert.deepEqual(page.problems, []);
        await page.close();
      }
    }
  }
});
