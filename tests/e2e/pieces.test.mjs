// Subword pieces on the demo page, in Debian's Chromium: the heatmap of a
// subword model (a tiny one trained here, opened with ?model-url=) in the
// "pieces" and "words" views, the "what if" with pieces, the export, the
// scores' labels, and beam search's penalty controls; the same toggle on a
// word-level model (files from before the subword models still load), a tiny
// one opened the same way. Screenshots go to tests/e2e/artifacts/.
//
// Each test opens its own page, in a browser context of its own
// (useBrowser({ isolated: true })), so that any test runs alone (issue 45).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, readHeatmap, SUBWORD_MODEL_URL, useBrowser, waitForTranslation, WORD_MODEL_URL } from './helpers.mjs';

const MARKER = '\u2581';
const SENTENCE = 'I love deep learning.';

const browser = useBrowser({ isolated: true });

const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const heatmapOf = (p) => p.locator('#result [data-testid="attention-heatmap"]');
const unitButton = (p, unit) => p.locator(`[data-testid="attention-unit"] [data-unit="${unit}"]`);
const chips = (p, id) => byTestId(p, id).evaluateAll((elements) => elements.map((chip) => ({
  token: chip.dataset.token, text: chip.textContent, start: Number(chip.dataset.start), end: Number(chip.dataset.end),
  continuation: chip.classList.contains('cont'),
})));

// The heatmap as a matrix, after checking it is complete and sums to 1 by row.
async function matrixOf(p, what) {
  const { rows, cols, cells } = await readHeatmap(heatmapOf(p));
  assert.equal(cells.length, rows * cols, `${what}: one cell per row and column`);
  const matrix = Array.from({ length: rows }, () => new Array(cols).fill(NaN));
  for (const { row, col, weight } of cells) matrix[row][col] = weight;
  matrix.forEach((row, i) => {
    const sum = row.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `${what}: row ${i} sums to ${sum}`);
  });
  return matrix;
}

async function showUnit(p, unit) {
  await unitButton(p, unit).click();
  await p.waitForFunction((unit) => document.querySelector('#result [data-testid="attention-heatmap"]')?.dataset.unit === unit, unit);
  assert.equal(await unitButton(p, unit).getAttribute('aria-pressed'), 'true');
}

// The page on the subword model, SENTENCE translated.
async function openSubword() {
  const page = await browser.newPage(`/web/?model-url=${encodeURIComponent(SUBWORD_MODEL_URL)}&text=${encodeURIComponent(SENTENCE)}`);
  await waitForTranslation(page, SENTENCE);
  return page;
}

test('a subword model by ?model-url=: pieces shown without their marker, continuations marked', async () => {
  const page = await openSubword();
  assert.equal(await byTestId(page, 'model-select').inputValue(), new URL(SUBWORD_MODEL_URL, browser.server.origin).href);
  assert.match(await byTestId(page, 'model-select').locator('option:checked').textContent(), /tiny-subword\.s2s/);
  const source = await chips(page, 'source-token');
  assert.ok(source.some((chip) => chip.token.startsWith(MARKER)), `pieces with the marker: ${source.map((c) => c.token)}`);
  for (const chip of source) {
    // data-token is the piece as the model wrote it; the chip shows it without the marker.
    assert.ok(!chip.text.includes(MARKER) || chip.token === MARKER, `chip "${chip.text}" shows no marker`);
    assert.equal(chip.text, chip.continuation ? `·${chip.token}` : chip.token.replace(new RegExp(`^${MARKER}`), ''));
  }
  assert.ok(source.filter((chip) => chip.continuation).length >= 2, 'several pieces continue a word');
  const { rows, cols } = await readHeatmap(heatmapOf(page));
  assert.equal(cols, source.length);
  assert.equal(rows, (await chips(page, 'target-token')).length);
  const labels = await heatmapOf(page).locator('.col-label text').allTextContents();
  assert.deepEqual(labels, source.map((chip) => chip.text));
  assert.match(await page.locator('#unit-hint').textContent(), /subword pieces/);
  await page.screenshot({ path: join(artifacts, 'pieces-view.png'), fullPage: false });
  assert.deepEqual(page.problems, []);
});

test('the words view: one column per source word, rows summing to 1, a word the sum of its pieces', async () => {
  const page = await openSubword();
  await showUnit(page, 'pieces');
  const pieces = await matrixOf(page, 'pieces');
  const sourcePieces = await chips(page, 'source-token');
  await showUnit(page, 'words');
  const words = await matrixOf(page, 'words');
  const sourceWords = await chips(page, 'source-token');
  const targetWords = await chips(page, 'target-token');
  // The words of the source: spans of its pieces, in order, each exactly once.
  assert.equal(words[0].length, sourceWords.length, 'one column per source word');
  assert.equal(words.length, targetWords.length, 'one row per target word');
  assert.ok(sourceWords.length < sourcePieces.length, 'fewer words than pieces');
  let next = 0;
  for (const word of sourceWords) {
    assert.equal(word.start, next);
    assert.ok(word.end > word.start);
    next = word.end;
  }
  assert.equal(next, sourcePieces.length);
  // "deep learning" is several pieces: "learning" is one word of them.
  const learning = sourceWords.find((word) => word.token === 'learning');
  assert.ok(learning, `a word "learning" among ${sourceWords.map((w) => w.token)}`);
  assert.ok(learning.end - learning.start >= 2, `"learning" is ${learning.end - learning.start} pieces`);
  assert.equal(sourcePieces.slice(learning.start, learning.end).map((p) => p.token).join('').replace(MARKER, ''), 'learning');
  assert.ok((await heatmapOf(page).locator('.col-label text').allTextContents()).includes('learning'));
  // Each cell: the source word's pieces summed (and, for a target word of
  // several pieces, the mean of its pieces' rows).
  targetWords.forEach((target, i) => sourceWords.forEach((source, j) => {
    let expected = 0;
    for (let t = target.start; t < target.end; t += 1) {
      for (let s = source.start; s < source.end; s += 1) expected += pieces[t][s];
    }
    expected /= target.end - target.start;
    assert.ok(Math.abs(words[i][j] - expected) < 1e-4, `word cell (${i}, ${j}) is ${words[i][j]}, its pieces give ${expected}`);
  }));
  const oneRow = targetWords.findIndex((w) => w.end - w.start === 1);
  assert.ok(oneRow >= 0);
  const row = targetWords[oneRow].start;
  const sum = pieces[row].slice(learning.start, learning.end).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(words[oneRow][sourceWords.indexOf(learning)] - sum) < 1e-4, '"learning" is the sum of its pieces');
  // The readout names words; the URL keeps the view.
  await heatmapOf(page).locator(`[data-row="0"][data-col="${sourceWords.indexOf(learning)}"]`).hover();
  assert.match(await page.locator('#readout').textContent(), /“learning”/);
  assert.match(page.url(), /unit=words/);
  assert.match(await page.locator('#unit-hint').textContent(), /summed/);
  await page.screenshot({ path: join(artifacts, 'words-view.png'), fullPage: false });
  // Opened again from its URL, the page shows the words view.
  const again = await browser.newPage(new URL(page.url()).pathname + new URL(page.url()).search);
  try {
    await waitForTranslation(again, SENTENCE);
    assert.equal(await heatmapOf(again).getAttribute('data-unit'), 'words');
    assert.deepEqual(await matrixOf(again, 'reopened'), words);
    assert.deepEqual([...page.problems, ...again.problems], []);
  } finally {
    await again.close();
  }
});

test('the lines view and the export work in both units', async () => {
  const page = await openSubword();
  await showUnit(page, 'words');
  await byTestId(page, 'view-lines').click();
  const lines = page.locator('[data-testid="attention-lines"]');
  await lines.waitFor();
  const wordCount = (await chips(page, 'source-token')).length;
  assert.equal(await lines.locator('[data-col-label]').count(), wordCount);
  await unitButton(page, 'pieces').click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="attention-lines"] [data-col-label]').length > n, wordCount);
  await byTestId(page, 'view-heatmap').click();
  await showUnit(page, 'words');
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-svg').click()]);
  assert.match(download.suggestedFilename(), /^attention-tiny-subword-words-i-love-deep-learning\.svg$/);
  const svgText = await readFile(await download.path(), 'utf8');
  assert.ok(!svgText.includes(MARKER), 'the export shows no word markers');
  assert.match(svgText, />learning</);
  await showUnit(page, 'pieces');
  assert.deepEqual(page.problems, []);
});

test('what if, with pieces: the prefix is sent as the pieces the model wrote', async () => {
  const page = await openSubword();
  await showUnit(page, 'pieces');
  const before = await chips(page, 'target-token');
  const position = Math.min(1, before.length - 1);
  await byTestId(page, 'target-token').nth(position).click();
  const alternatives = byTestId(page, 'alternative');
  assert.ok(await alternatives.count() >= 2);
  const choices = await alternatives.evaluateAll((buttons) => buttons.map((b) => ({ token: b.dataset.token, text: b.querySelector('span').textContent })));
  for (const { token, text } of choices) assert.ok(!text.includes(MARKER) || token === MARKER, `alternative "${text}" shows no marker`);
  const pick = choices.find((c) => c.token !== before[position].token && c.token !== '<eos>' && c.token !== '<unk>');
  assert.ok(pick, `no other piece among ${choices.map((c) => c.token)}`);
  await page.locator(`[data-testid="alternative"][data-token="${pick.token}"]`).click();
  const prefix = [...before.slice(0, position).map((c) => c.token), pick.token].join(' ');
  await waitForTranslation(page, SENTENCE, { prefix });
  const after = await chips(page, 'target-token');
  assert.equal(after[position].token, pick.token);
  assert.equal(await page.locator('[data-testid="target-token"].forced').count(), position + 1);
  // In the words view, a word holding a forced piece is marked too, and the heatmap still sums to 1.
  await showUnit(page, 'words');
  assert.ok(await page.locator('[data-testid="target-token"].forced').count() >= 1);
  await matrixOf(page, 'words, with a prefix');
  await showUnit(page, 'pieces');
  await byTestId(page, 'target-token').nth(position).click();
  await byTestId(page, 'whatif-reset').click();
  await waitForTranslation(page, SENTENCE, { prefix: '' });
  assert.deepEqual(page.problems, []);
});

test('in the words view, a click on an output word opens the step of its first piece', async () => {
  const p = await browser.newPage(`/web/?model-url=${encodeURIComponent(SUBWORD_MODEL_URL)}&text=${encodeURIComponent(SENTENCE)}&unit=words`);
  try {
    await waitForTranslation(p, SENTENCE);
    const words = await chips(p, 'target-token');
    const k = Math.max(0, words.findIndex((word) => word.start > 0));
    await byTestId(p, 'target-token').nth(k).click();
    await p.waitForFunction((step) => document.getElementById('step-panel')?.dataset.step === String(step), words[k].start + 1);
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('"About this model" labels the scores: sacreBLEU-compatible, with chrF2 when the report has it', async () => {
  const page = await openSubword();
  // The fixture's report comes from the sacreBLEU-compatible scorer (it has a signature and chrF2).
  const about = byTestId(page, 'about-bleu');
  await about.waitFor({ state: 'attached' });  // in the folded record
  const text = await about.textContent();
  assert.match(text, /sacreBLEU-compatible \(13a, or zh for Chinese\), lowercased/);
  assert.match(text, /chrF2 \d/);
  assert.match(await page.locator('#about-list').textContent(), /English subword pieces/);
  assert.deepEqual(page.problems, []);
});

test('a word-level model: the words view is the pieces view, cell for cell', async () => {
  const p = await browser.newPage(`/web/?model-url=${encodeURIComponent(WORD_MODEL_URL)}&text=${encodeURIComponent('I see the cat.')}`);
  try {
    await waitForTranslation(p, 'I see the cat.');
    const pieces = await matrixOf(p, 'pieces');
    await showUnit(p, 'words');
    assert.deepEqual(await matrixOf(p, 'words'), pieces);
    assert.ok((await chips(p, 'source-token')).every((chip) => !chip.continuation && chip.end - chip.start === 1));
    assert.match(await p.locator('#unit-hint').textContent(), /whole words/);
    const about = await byTestId(p, 'about-bleu').textContent();
    assert.match(about, /BLEU \d/);
    // chrF2 only where the recorded report has it.
    assert.equal(/chrF2/.test(about), /sacreBLEU-compatible \(13a/.test(about));
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('beam search penalties: a model that records its own (en-zh: alpha 2, beta 0, as scripts/train.sh writes them) shows and uses them', async () => {
  const text = 'We drink water.';
  const p = await browser.newPage(`/web/?text=${encodeURIComponent(text)}&model=en-zh&beam=4`);
  try {
    await waitForTranslation(p, text, { model: 'en-zh', beam: 4 });
    await p.waitForFunction(() => document.getElementById('alpha').value === '2.0');
    assert.equal(await byTestId(p, 'coverage-penalty').inputValue(), '0.0');
    assert.match(await p.locator('#penalty-hint').textContent(), /default 2\.0.*default 0\.0/s);
    // Back on en-fr, the package's defaults again.
    await byTestId(p, 'model-select').selectOption('en-fr');
    await waitForTranslation(p, text, { beam: 4 });
    await p.waitForFunction(() => document.getElementById('alpha').value === '0.6');
    assert.equal(await byTestId(p, 'coverage-penalty').inputValue(), '0.2');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('beam search penalties: alpha and beta beside the beam size, used with a beam, kept in the URL', async () => {
  const text = 'We drink water.';
  const p = await browser.newPage(`/web/?text=${encodeURIComponent(text)}&beam=1`);
  try {
    await waitForTranslation(p, text, { beam: 1 });
    const alpha = byTestId(p, 'length-penalty');
    const beta = byTestId(p, 'coverage-penalty');
    // Greedy decoding (asked for in the URL) does not use them; the defaults are shown.
    assert.equal(await alpha.isDisabled(), true);
    assert.equal(await alpha.inputValue(), '0.6');
    assert.equal(await beta.inputValue(), '0.2');
    assert.match(await p.locator('#penalty-hint').textContent(), /default 0\.6.*default 0\.2.*from 0 to 5/s);
    // And the score says what it is at beam 1: the plain log-probability.
    assert.match(await p.locator('#meta').textContent(), /^Score -?\d+\.\d+ \(the log-probability of the pieces written: greedy decoding uses no penalty\)/);
    await byTestId(p, 'beam-size').selectOption('4');
    await waitForTranslation(p, text, { beam: 4 });
    assert.equal(await alpha.isEnabled(), true);
    const scoreOf = async () => Number((await p.locator('#meta').textContent()).match(/Score (-?[\d.]+)/)[1]);
    const withDefaults = await scoreOf();
    assert.match(await p.locator('#meta').textContent(), /log-probability with the length and coverage penalties/);
    await alpha.fill('0');
    await alpha.press('Enter');
    await p.waitForURL(/alpha=0(&|$)/);
    await waitForTranslation(p, text, { beam: 4 });
    await beta.fill('0');
    await beta.press('Enter');
    await p.waitForURL(/beta=0(&|$)/);
    await waitForTranslation(p, text, { beam: 4 });
    // alpha = beta = 0: the raw log probability, lower than the length-normalized default.
    await p.waitForFunction((before) => !document.getElementById('meta').textContent.includes(`Score ${before.toFixed(3)}`), withDefaults);
    assert.ok(await scoreOf() < withDefaults, `raw ${await scoreOf()} vs normalized ${withDefaults}`);
    // Out of range: refused with the range named beside the inputs, the value restored.
    await alpha.fill('7');
    await alpha.press('Enter');
    await p.waitForFunction(() => /must be a number from 0 to 5/.test(document.querySelector('[data-testid="penalty-error"]').textContent));
    assert.equal(await alpha.inputValue(), '0.0');
    // The URL reopens the same options.
    const again = await browser.newPage(new URL(p.url()).pathname + new URL(p.url()).search);
    try {
      await waitForTranslation(again, text, { beam: 4 });
      assert.equal(await byTestId(again, 'length-penalty').inputValue(), '0.0');
      assert.equal(await byTestId(again, 'coverage-penalty').inputValue(), '0.0');
      assert.equal((await again.locator('#meta').textContent()).match(/Score (-?[\d.]+)/)[1],
        (await p.locator('#meta').textContent()).match(/Score (-?[\d.]+)/)[1]);
    } finally {
      await again.close();
    }
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('a model URL on another site is refused; the page uses its own model', async () => {
  const p = await browser.newPage(`/web/?model-url=${encodeURIComponent('https://example.com/evil.s2s')}&text=Go.`);
  try {
    await waitForTranslation(p, 'Go.', { model: 'en-fr' });
    assert.match(await byTestId(p, 'notice-url').textContent(), /must be a file on this site/);
  } finally {
    await p.close();
  }
});
