// The demo page (web/index.html) in Debian's Chromium: translation, the
// heatmap's contract, options, "what if", the comparison, URL state, errors.
// Screenshots go to tests/e2e/artifacts/.
//
// The tests are independent (issue 45): each opens the page afresh, in a
// browser context of its own (useBrowser({ isolated: true }): no cache,
// storage or state of another test), types its own sentence and picks its
// own model; one failure does not cascade, and any test runs alone with
// node --test --test-name-pattern='...' tests/e2e/page.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifacts, modelKind, readHeatmap, useBrowser, waitForTranslation } from './helpers.mjs';

const browser = useBrowser({ isolated: true });
// The page's first example, translated when it opens without ?text=.
const FIRST_EXAMPLE = 'I love deep learning.';

const heatmapOf = (p) => p.locator('#result [data-testid="attention-heatmap"]');
const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tokens = (p, id) => byTestId(p, id).evaluateAll((chips) => chips.map((chip) => chip.dataset.token));
// A token as the page shows it: a subword piece without its word marker.
const shown = (token) => token.replace(/^\u2581(?=.)/, '');

async function typeSentence(p, text) {
  await byTestId(p, 'source-input').fill(text);
  await waitForTranslation(p, text);
}

// The page as a reader opens it, in a context of its own, once its first
// example is translated.
async function openPage() {
  const page = await browser.newPage('/web/');
  await waitForTranslation(page, FIRST_EXAMPLE);
  return page;
}

before(async () => {
  console.log(`# e2e models: ${modelKind()}`);
});

test('the page loads, translates its first example, and logs no errors', async () => {
  const page = await browser.newPage('/web/');
  await waitForTranslation(page, FIRST_EXAMPLE);
  assert.notEqual((await byTestId(page, 'translation-output').textContent()).trim(), '');
  await heatmapOf(page).waitFor();
  await page.screenshot({ path: join(artifacts, 'page-desktop.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
});

test('typing a sentence draws a heatmap: target rows x source columns, each row summing to 1', async () => {
  const page = await openPage();
  await typeSentence(page, 'I see the cat.');
  const source = await tokens(page, 'source-token');
  const target = await tokens(page, 'target-token');
  assert.equal(source.at(-1), '<eos>');
  const { rows, cols, cells } = await readHeatmap(heatmapOf(page));
  assert.equal(rows, target.length);
  assert.equal(cols, source.length);
  assert.equal(cells.length, rows * cols);
  for (let i = 0; i < rows; i += 1) {
    const row = cells.filter((cell) => cell.row === i);
    assert.equal(row.length, cols);
    const sum = row.reduce((total, cell) => total + cell.weight, 0);
    assert.ok(Math.abs(sum - 1) < 1e-3, `row ${i} sums to ${sum}`);
    assert.ok(row.every((cell) => cell.weight >= 0 && cell.weight <= 1));
  }
  // Hovering a cell names both words (subword pieces without their marker)
  // and the weight; the labels light up.
  const cell = heatmapOf(page).locator('[data-row="0"][data-col="1"]');
  await cell.hover();
  const readout = await page.locator('#readout').textContent();
  assert.match(readout, new RegExp(`“${escape(shown(target[0]))}”.*“${escape(shown(source[1]))}”`));
  assert.equal(await heatmapOf(page).locator('.label.active').count(), 2);
  // The keyboard reaches the cells, and the arrow keys move between them.
  await heatmapOf(page).locator('[data-row="0"][data-col="0"]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.col), '1');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.row), '1');
  assert.match(await page.locator('#readout').textContent(), new RegExp(escape(shown(target[1]))));
  assert.deepEqual(page.problems, []);
});

test('the Translate button translates at once; a word never seen is pieces, a character never seen is marked unknown', async () => {
  const page = await openPage();
  await byTestId(page, 'source-input').fill('I see the zorblax 😀.');
  await byTestId(page, 'translate-button').click();
  await waitForTranslation(page, 'I see the zorblax 😀.');
  // "zorblax" is spelled with pieces the model knows; the emoji is one <unk>.
  const unknown = page.locator('[data-testid="source-token"].unk');
  assert.equal(await unknown.count(), 1);
  // The chip names what was typed there: the core's offsets of the piece in the text.
  assert.match(await unknown.first().getAttribute('title'), /“😀”: never seen in training/);
  assert.match((await tokens(page, 'source-token')).join('').replaceAll('\u2581', ' '), / zorblax /);
  assert.ok(await heatmapOf(page).locator('.col-label.unk title').count() >= 1);
  assert.deepEqual(page.problems, []);
});

test('switching the model translates into Chinese', async () => {
  const page = await openPage();
  await typeSentence(page, "I'm home.");
  await byTestId(page, 'model-select').selectOption('en-zh');
  await waitForTranslation(page, "I'm home.", { model: 'en-zh' });
  assert.equal(await byTestId(page, 'translation-output').getAttribute('lang'), 'zh');
  const { rows } = await readHeatmap(heatmapOf(page));
  assert.equal(rows, (await tokens(page, 'target-token')).length);
  assert.match(page.url(), /model=en-zh/);
  // "What if" names what the model writes: a Chinese character, not a piece.
  await byTestId(page, 'target-token').first().click();
  await byTestId(page, 'alternative').first().waitFor();
  assert.match(await page.locator('#whatif h3').textContent(), /^Character 1:/);
  assert.deepEqual(page.problems, []);
});

test('beam search lists its hypotheses, and each shows its own attention', async () => {
  const page = await openPage();
  await typeSentence(page, 'We drink water.');
  await byTestId(page, 'beam-size').selectOption('4');
  await waitForTranslation(page, 'We drink water.', { beam: 4 });
  const hypotheses = byTestId(page, 'hypothesis');
  const count = await hypotheses.count();
  assert.ok(count >= 2, `beam 4 gave ${count} hypotheses`);
  assert.equal(await hypotheses.first().getAttribute('aria-pressed'), 'true');
  const last = hypotheses.nth(count - 1);
  const lastText = (await last.locator('span').nth(1).textContent()).trim();
  await last.click();
  assert.equal(await last.getAttribute('aria-pressed'), 'true');
  assert.equal((await byTestId(page, 'translation-output').textContent()).trim(), lastText);
  const { rows } = await readHeatmap(heatmapOf(page));
  assert.equal(rows, (await tokens(page, 'target-token')).length);
  assert.match(page.url(), new RegExp(`hyp=${count - 1}`));
  await byTestId(page, 'beam-size').selectOption('1');
  await waitForTranslation(page, 'We drink water.', { beam: 1 });
  assert.equal(await hypotheses.count(), 0);
  assert.deepEqual(page.problems, []);
});

test('the attention can also be drawn as lines between the two sentences', async () => {
  const page = await openPage();
  await typeSentence(page, 'I see the cat.');
  await byTestId(page, 'view-lines').click();
  const lines = page.locator('[data-testid="attention-lines"]');
  await lines.waitFor();
  assert.equal(await heatmapOf(page).count(), 0);
  assert.ok(await lines.locator('path').count() >= (await tokens(page, 'target-token')).length);
  assert.match(page.url(), /view=lines/);
  await lines.locator('[data-row-label="0"]').hover();
  assert.ok(await lines.locator('path.on').count() >= 1);
  // The explanation beside it is the lines', not the heatmap's rows and cells.
  assert.match(await page.locator('#explainer-rows').textContent(), /joined to the English words/);
  assert.match(await page.locator('#explainer-context').textContent(), /a strong line means/);
  await byTestId(page, 'view-heatmap').click();
  await heatmapOf(page).waitFor();
  assert.doesNotMatch(page.url(), /view=lines/);
  assert.match(await page.locator('#explainer-rows').textContent(), /^Each row is one step of the decoder/);
  assert.match(await page.locator('#explainer-context').textContent(), /a dark cell means/);
  assert.deepEqual(page.problems, []);
});

test('what if: picking another word at a position re-decodes from there', async () => {
  const page = await openPage();
  await typeSentence(page, 'I see the cat.');
  const before = await tokens(page, 'target-token');
  const position = Math.min(1, before.length - 1);
  await byTestId(page, 'target-token').nth(position).click();
  const alternatives = byTestId(page, 'alternative');
  assert.ok(await alternatives.count() >= 2);
  const choices = await alternatives.evaluateAll((buttons) => buttons.map((b) => b.dataset.token));
  const pick = choices.find((token) => token !== before[position] && token !== '<eos>');
  assert.ok(pick, `no other word among ${choices}`);
  await page.locator(`[data-testid="alternative"][data-token="${pick}"]`).click();
  const prefix = [...before.slice(0, position), pick].join(' ');
  await waitForTranslation(page, 'I see the cat.', { prefix });
  const after = await tokens(page, 'target-token');
  assert.equal(after[position], pick);
  assert.deepEqual(after.slice(0, position), before.slice(0, position));
  assert.equal(await page.locator('[data-testid="target-token"].forced').count(), position + 1);
  const { rows } = await readHeatmap(heatmapOf(page));
  assert.equal(rows, after.length);
  assert.match(decodeURIComponent(page.url().replace(/\+/g, ' ')), new RegExp(`prefix=${prefix}`));
  // And back to the model's own choice.
  await byTestId(page, 'target-token').nth(position).click();
  await byTestId(page, 'whatif-reset').click();
  await waitForTranslation(page, 'I see the cat.', { prefix: '' });
  assert.deepEqual(await tokens(page, 'target-token'), before);
  assert.deepEqual(page.problems, []);
});

test('the compare view shows both models and the BLEU-by-length chart', async () => {
  const page = await openPage();
  await typeSentence(page, 'i see the dog .');
  // It loads the fixed-context model once its section is near the viewport.
  await page.locator('#compare').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-view"]')?.dataset.text === 'i see the dog .');
  const withAttention = (await byTestId(page, 'compare-attention-output').textContent()).trim();
  const fixed = (await byTestId(page, 'compare-fixed-output').textContent()).trim();
  assert.notEqual(withAttention, '');
  assert.notEqual(fixed, '');
  assert.equal(withAttention, (await byTestId(page, 'translation-output').textContent()).trim());
  const chart = byTestId(page, 'bleu-chart');
  await chart.waitFor();
  const bars = await chart.locator('.bar').evaluateAll((rects) => rects.map((r) => r.dataset.model));
  assert.ok(bars.includes('with attention') && bars.includes('fixed context'), `bars: ${bars}`);
  await page.locator('#compare').screenshot({ path: join(artifacts, 'compare.png') });
  // About this model: the data credit and the training record.
  const about = await page.locator('#about-list').textContent();
  assert.match(about, /Tatoeba/);
  assert.match(about, /CC-BY 2\.0 France/);
  assert.match(about, /steps/);
  // The reader's model is compared with its own twin: en-zh with en-zh-fixed,
  // and its chart is drawn from their files.
  await byTestId(page, 'model-select').selectOption('en-zh');
  await waitForTranslation(page, 'i see the dog .', { model: 'en-zh' });
  await page.waitForFunction(() => {
    const text = (id) => document.querySelector(`[data-testid="${id}"]`).textContent.trim();
    return document.getElementById('compare-fixed-name').textContent === 'en-zh-fixed'
      && text('compare-attention-output') === text('translation-output') && /\p{Script=Han}/u.test(text('compare-fixed-output'));
  }, null, { timeout: 30_000 });
  assert.match(await page.locator('#about-list').textContent(), /CC BY-SA 4\.0/);
  assert.deepEqual(page.problems, []);
});

test('the URL holds the view: opening it again reproduces it', async () => {
  const fresh = await browser.newPage(`/web/?text=${encodeURIComponent('you eat bread .')}&model=en-zh&beam=3`);
  await waitForTranslation(fresh, 'you eat bread .', { model: 'en-zh', beam: 3 });
  assert.equal(await byTestId(fresh, 'source-input').inputValue(), 'you eat bread .');
  assert.equal(await byTestId(fresh, 'model-select').inputValue(), 'en-zh');
  assert.equal(await byTestId(fresh, 'beam-size').inputValue(), '3');
  const first = (await byTestId(fresh, 'translation-output').textContent()).trim();
  // The page's own URL, opened again (in a browser of its own, as by a
  // reader it was sent to), gives the same translation.
  const again = await browser.newPage(new URL(fresh.url()).pathname + new URL(fresh.url()).search);
  await waitForTranslation(again, 'you eat bread .', { model: 'en-zh', beam: 3 });
  assert.equal((await byTestId(again, 'translation-output').textContent()).trim(), first);
  assert.deepEqual([...fresh.problems, ...again.problems], []);
});

test('markup in the input is shown as text and never runs', async () => {
  const page = await openPage();
  const attack = '<img src=x onerror="window.__injected = 1"> <script>window.__injected = 2</script> <b>bold</b>';
  await byTestId(page, 'source-input').fill(attack);
  await waitForTranslation(page, attack);
  assert.equal(await page.evaluate(() => window.__injected), undefined);
  assert.equal(await page.locator('#result img, #result script, #translation b, #tokens b').count(), 0);
  // The markup's characters are chips of text: pieces of "img" and "script"
  // the model knows, and <unk> for "<" and ">", never seen in training.
  const chipText = (await byTestId(page, 'source-token').allTextContents()).join('');
  assert.match(chipText.replaceAll('·', ''), /img.*script/);
  assert.ok((await tokens(page, 'source-token')).includes('<unk>'));
  assert.equal(await byTestId(page, 'source-input').inputValue(), attack);
  // Also through the URL.
  const viaUrl = await browser.newPage(`/web/?text=${encodeURIComponent(attack)}`);
  await waitForTranslation(viaUrl, attack);
  assert.equal(await viaUrl.evaluate(() => window.__injected), undefined);
  assert.deepEqual([...page.problems, ...viaUrl.problems], []);
});

test('empty input asks for a sentence; very long input is cut with a notice', async () => {
  const page = await openPage();
  // A sentence first, with its step panel and its comparison shown.
  await typeSentence(page, 'I see the cat.');
  await byTestId(page, 'step-section').waitFor();
  await page.locator('#compare').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-view"]')?.dataset.text === 'I see the cat.'
    && document.querySelector('[data-testid="compare-fixed-output"]').textContent.trim() !== '', null, { timeout: 30_000 });
  await byTestId(page, 'source-input').fill('');
  await page.waitForFunction(() => document.getElementById('result').dataset.state === 'empty');
  assert.match(await byTestId(page, 'translation-output').textContent(), /Type an English sentence/);
  assert.equal(await heatmapOf(page).count(), 0);
  // Nothing of the previous sentence is left: the step panel hides, the comparison empties.
  assert.equal(await byTestId(page, 'step-section').isHidden(), true);
  assert.equal((await byTestId(page, 'compare-fixed-output').textContent()).trim(), '');
  const long = Array.from({ length: 260 }, (_, k) => ['i', 'see', 'the', 'cat', 'and'][k % 5]).join(' ');
  await typeSentence(page, long);
  await byTestId(page, 'notice-truncated').waitFor();
  assert.match(await byTestId(page, 'notice-truncated').textContent(), /only the beginning/);
  const { rows, cols, cells } = await readHeatmap(heatmapOf(page));
  assert.equal(cols, 200); // 199 words and <eos>
  assert.equal(cells.length, rows * cols);
  assert.deepEqual(page.problems, []);
});

test('odd input: whitespace, 20,000 characters, emoji, CJK, right-to-left; the next sentence still translates', async () => {
  const page = await openPage();
  await byTestId(page, 'source-input').fill('   \n\t  ');
  await page.waitForFunction(() => document.getElementById('result').dataset.state === 'empty');
  assert.match(await byTestId(page, 'translation-output').textContent(), /Type an English sentence/);
  const huge = 'x'.repeat(20_000);
  await typeSentence(page, huge);
  assert.equal((await tokens(page, 'source-token')).at(-1), '<eos>');
  assert.equal(await byTestId(page, 'source-input').getAttribute('dir'), 'auto'); // right-to-left text reads as such
  // Mostly unreadable input (another script) says the model reads English;
  // an emoji among English words does not.
  for (const [odd, unreadable] of [['i love 🍕 and 🐱 .', false], ['我爱深度学习 。', true], ['שלום עולם , مرحبا .', true]]) {
    await typeSentence(page, odd);
    const source = await tokens(page, 'source-token');
    assert.ok(source.includes('<unk>'), `${odd}: ${source}`);
    const { rows, cols, cells } = await readHeatmap(heatmapOf(page));
    assert.equal(cells.length, rows * cols);
    assert.equal(await byTestId(page, 'notice-unreadable').count(), unreadable ? 1 : 0, odd);
    if (unreadable) assert.match(await byTestId(page, 'notice-unreadable').textContent(), /This model reads English.*<unk>/);
  }
  await typeSentence(page, 'I see the cat.');
  assert.equal(await byTestId(page, 'notice-unreadable').count(), 0);
  assert.notEqual((await byTestId(page, 'translation-output').textContent()).trim(), '');
  assert.deepEqual(page.problems, []);
});

test('the heatmap downloads as SVG and PNG', async () => {
  const page = await openPage();
  await typeSentence(page, 'I see the cat.');
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-svg').click()]);
  const svgText = await readFile(await svgDownload.path(), 'utf8');
  assert.match(svgDownload.suggestedFilename(), /^attention-en-fr-i-see-the-cat\.svg$/);
  assert.match(svgText, /<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.ok((svgText.match(/data-weight=/g) ?? []).length >= 6);
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'export-png').click()]);
  const png = await readFile(await pngDownload.path());
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  assert.ok(png.length > 2000);
  await svgDownload.saveAs(join(artifacts, 'heatmap-export.svg'));
  await pngDownload.saveAs(join(artifacts, 'heatmap-export.png'));
  assert.deepEqual(page.problems, []);
});

test('at phone width the page fits and the heatmap scrolls inside its box', async () => {
  const phone = await browser.newPage(`/web/?text=${encodeURIComponent('I think that the weather will be better tomorrow, so we can go to the beach with our friends.')}`,
    { width: 375, height: 812 });
  await waitForTranslation(phone, 'I think that the weather will be better tomorrow, so we can go to the beach with our friends.');
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await phone.screenshot({ path: join(artifacts, 'page-phone.png'), fullPage: true });
  // A long sentence's figure keeps readable cells: its box scrolls.
  const box = (p) => p.evaluate(() => {
    const svg = document.querySelector('#result [data-testid="attention-heatmap"]');
    const legend = svg.querySelector('.legend text:last-of-type').getBoundingClientRect();
    return { figure: svg.getBoundingClientRect().width, box: svg.parentElement.clientWidth,
      legendRight: legend.right, boxRight: svg.parentElement.getBoundingClientRect().right };
  });
  const long = await box(phone);
  assert.ok(long.figure > long.box, `a long sentence's figure (${long.figure} px) scrolls in its ${long.box} px box`);
  // A short one fits its box whole, legend included, in both languages.
  for (const lang of ['en', 'zh-CN']) {
    await phone.goto(`${browser.server.origin}/web/?lang=${lang}&text=${encodeURIComponent('I love deep learning.')}`);
    await waitForTranslation(phone, 'I love deep learning.');
    const short = await box(phone);
    assert.ok(short.figure <= short.box + 0.5, `${lang}: the figure is ${short.figure} px in a ${short.box} px box`);
    assert.ok(short.legendRight <= short.boxRight + 0.5, `${lang}: the legend's caption ends at ${short.legendRight}, the box at ${short.boxRight}`);
  }
  assert.deepEqual(phone.problems, []);
});

test('no WebAssembly, or no WASM SIMD: a clear message instead of a blank page', async () => {
  for (const [script, expected] of [
    ['delete globalThis.WebAssembly', /no WebAssembly/],
    ['WebAssembly.validate = () => false', /not WebAssembly SIMD/],
  ]) {
    const p = await browser.newPage(null);
    await p.addInitScript(script);
    await p.goto(`${browser.server.origin}/web/`);
    const error = byTestId(p, 'error');
    await error.waitFor();
    assert.match(await error.textContent(), expected);
  }
});

test('a model that fails to load shows its error in the page', async () => {
  const p = await browser.newPage(null);
  await p.route('**/models/en-zh.s2s', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('not a model at all') }));
  await p.goto(`${browser.server.origin}/web/?model=en-zh&text=Go.`);
  const error = byTestId(p, 'error');
  await error.waitFor();
  assert.match(await error.textContent(), /Something went wrong: .*model/i);
  // The page still works: another model translates.
  await byTestId(p, 'model-select').selectOption('en-fr');
  await waitForTranslation(p, 'Go.', { model: 'en-fr' });
  assert.equal(await byTestId(p, 'error').count(), 0);
});

test('a cold load downloads its model once (the page fetches it while the worker starts, and hands it over), and the fixed-context model only when the comparison is scrolled to', async () => {
  // A context of its own: nothing cached by another test.
  const p = await browser.newPage(null);
  const downloads = [];
  p.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/models/')) downloads.push(new URL(request.url()).pathname);
  });
  await p.goto(`${browser.server.origin}/web/?text=${encodeURIComponent('I lost.')}`);
  await waitForTranslation(p, 'I lost.');
  assert.deepEqual(downloads.filter((path) => path === '/models/en-fr.s2s'), ['/models/en-fr.s2s']);
  // The fixed-context model waits until the comparison is scrolled to: once
  // both sections that would fetch it have said they wait (data-deferred,
  // set by their IntersectionObserver's first report), it has not been asked for.
  await p.waitForFunction(() => ['compare', 'step-section'].every((id) => document.getElementById(id).dataset.deferred === 'true'));
  assert.ok(!downloads.includes('/models/en-fr-fixed.s2s'), `downloads: ${downloads}`);
  await p.locator('#compare').scrollIntoViewIfNeeded();
  await p.waitForFunction(() => document.querySelector('[data-testid="compare-view"]')?.dataset.text === 'I lost.');
  assert.ok(downloads.includes('/models/en-fr-fixed.s2s'), `downloads: ${downloads}`);
  // The page marks the hand-over; the worker loaded those bytes.
  assert.equal(await p.evaluate(() => performance.getEntriesByName('s2s:model-downloaded').length), 1);
});
