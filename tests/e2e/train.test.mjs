// The Train view (web/train.html) in Debian's Chromium: the reversal task is
// trained for real in two Web Workers, and the probe's attention must end up
// on the mirrored diagonal; the fixed-context twin trains beside it; the
// page stays responsive; bad pairs are an error in the page.
//
// Each test opens the page afresh, in a browser context of its own
// (startIsolatedBrowser): none starts from another's training run (issue 45).
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, readHeatmap, startIsolatedBrowser } from './helpers.mjs';

let browser;

const byTestId = (p, id) => p.locator(`[data-testid="${id}"]`);
const status = (p) => byTestId(p, 'train-status').evaluate((e) => ({ ...e.dataset, text: e.textContent }));

before(async () => {
  browser = await startIsolatedBrowser();
});

afterEach(async () => {
  await browser.closePages();
});

after(async () => {
  await browser?.close();
});

test('training the reversal task in the page: the probe\'s attention becomes the mirrored diagonal', async () => {
  const page = await browser.newPage('/web/train.html');
  await page.waitForFunction(() => !document.querySelector('[data-testid="train-start"]').disabled, null, { timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'train-before.png'), fullPage: true });
  await byTestId(page, 'train-start').click();

  // Both models train in workers, never on the page's own thread: two
  // train-worker.js workers run, each has fetched the trainer's WebAssembly,
  // and the page itself never has (where the work runs, not how long a
  // frame took: the gate does not read the clock).
  const trainers = () => page.workers().filter((w) => w.url().endsWith('/web/train/train-worker.js'));
  await page.waitForFunction(() => document.querySelector('[data-testid="train-status"]').dataset.state === 'running', null, { timeout: 30_000 });
  assert.equal(trainers().length, 2, `workers: ${page.workers().map((w) => w.url()).join(', ')}`);
  for (const worker of trainers()) {
    assert.ok(await worker.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/s2s-train.wasm'))),
      'each worker loaded the trainer');
  }
  assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('s2s-train'))), false,
    'the page\'s thread never loads the trainer');

  // Train until held-out exact match is high and the schedule is well along,
  // or the schedule ends: a slow machine takes longer, a model that does not
  // learn fails the check below (the timeout only guards against a hang).
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="train-status"]').dataset;
    return (Number(s.exactAttention) >= 0.95 && Number(s.stepsAttention) >= 500) || s.state === 'finished';
  }, null, { timeout: 1_200_000, polling: 500 });
  const trained = await status(page);
  assert.ok(Number(trained.exactAttention) >= 0.95, `held-out exact match ${trained.exactAttention} at step ${trained.stepsAttention}`);
  if (trained.state === 'running') await byTestId(page, 'train-pause').click();
  await page.waitForFunction(() => ['paused', 'finished'].includes(document.querySelector('[data-testid="train-status"]').dataset.state));
  const paused = await status(page);
  console.log(`# paused at step ${paused.stepsAttention}: exact match ${paused.exactAttention} (attention), ${paused.exactFixed} (fixed)`);
  assert.ok(Number(paused.exactFixed) >= 0, 'the fixed-context twin was evaluated too');

  // A new probe: its output and heatmap come from the paused model.
  const probe = 'a b c d e f g h';
  await byTestId(page, 'train-probe-input').fill('');
  await byTestId(page, 'train-probe-input').fill(probe);
  const expected = probe.split(' ').reverse().join(' ');
  await page.waitForFunction((text) => document.querySelector('[data-testid="train-output-attention"]').textContent === text,
    expected, { timeout: 10_000 });
  const heatmap = await readHeatmap(byTestId(page, 'train-heatmap'));
  const length = probe.split(' ').length;
  assert.equal(heatmap.cols, length + 1, 'one column per symbol and <eos>');
  assert.equal(heatmap.rows, length + 1, 'one row per output symbol and <eos>');
  let mirrored = 0;
  for (let row = 0; row < length; row++) {
    const cells = heatmap.cells.filter((c) => c.row === row);
    const strongest = cells.reduce((a, b) => (b.weight > a.weight ? b : a));
    if (strongest.col === length - 1 - row) mirrored += 1;
    const sum = cells.reduce((a, c) => a + c.weight, 0);
    assert.ok(Math.abs(sum - 1) < 1e-3, `row ${row} sums to ${sum}`);
  }
  assert.ok(mirrored / length >= 0.9, `${mirrored} of ${length} rows look at the mirrored position`);

  // The fixed-context output is there, without a heatmap of its own.
  assert.notEqual((await byTestId(page, 'train-output-fixed').textContent()).trim(), '');
  await byTestId(page, 'train-loss-chart').locator('path[data-series]').first().waitFor();
  // Every label of the loss chart lies inside it (its log axis's ticks were cut to ").0001").
  const cut = await byTestId(page, 'train-loss-chart').locator('svg').evaluate((chart) => {
    const width = chart.viewBox.baseVal?.width || chart.getBoundingClientRect().width;
    return [...chart.querySelectorAll('text')].map((text) => ({ text: text.textContent, box: text.getBBox() }))
      .filter(({ box }) => box.x < 0 || box.x + box.width > width + 0.5).map(({ text }) => text);
  });
  assert.deepEqual(cut, [], 'labels cut at the chart\'s edge');
  const bars = await byTestId(page, 'train-accuracy-chart').locator('rect.bar').count();
  assert.ok(bars >= 2, 'accuracy by length is drawn for both models');
  await page.screenshot({ path: join(artifacts, 'train-reversal.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
});

test('the date task trains and probes by character; bad pairs are an error naming the line', async () => {
  const page = await browser.newPage('/web/train.html');
  await byTestId(page, 'train-task').selectOption('dates');
  await page.waitForFunction(() => !document.querySelector('[data-testid="train-start"]').disabled, null, { timeout: 30_000 });
  assert.equal(await byTestId(page, 'train-probe-input').inputValue(), 'december 2nd, 2026');
  await byTestId(page, 'train-start').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="train-status"]').dataset.stepsAttention) >= 30,
    null, { timeout: 60_000 });
  await byTestId(page, 'train-pause').click();
  const heatmap = await readHeatmap(byTestId(page, 'train-heatmap'));
  assert.equal(heatmap.cols, 'december2nd,2026'.length + 1, 'one column per character and <eos>');
  assert.match(page.url(), /task=dates/);

  await byTestId(page, 'train-task').selectOption('pairs');
  await byTestId(page, 'train-pairs').fill('one\tun\ntwo deux\nthree\ttrois\n');
  await page.waitForFunction(() => document.querySelector('[data-testid="train-status"]').dataset.state === 'error', null, { timeout: 10_000 });
  assert.match((await status(page)).text, /line 2 has no tab/);
  assert.ok(await byTestId(page, 'train-start').isDisabled());
  assert.deepEqual(page.problems, []);
});

test('dot-product scoring trains, and the step panel shows the model being trained', async () => {
  const page = await browser.newPage('/web/train.html');
  await byTestId(page, 'train-task').selectOption('reversal');
  await byTestId(page, 'train-scoring').selectOption('dot');
  assert.match(page.url(), /scoring=dot/);
  await page.waitForFunction(() => !document.querySelector('[data-testid="train-start"]').disabled, null, { timeout: 30_000 });
  await byTestId(page, 'train-start').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="train-status"]').dataset.stepsAttention) >= 60,
    null, { timeout: 60_000 });

  // Opened while training: the panel follows the run.
  await byTestId(page, 'train-step-open').click();
  const panel = byTestId(page, 'step-panel');
  // The trace comes from the training worker between its chunks of steps: on
  // a loaded machine that can take a while (a fresh-clone run once needed
  // more than 10 s).
  await page.locator('[data-testid="step-panel"][data-step="1"]').waitFor({ timeout: 30_000 });
  await byTestId(page, 'train-pause').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="train-status"]').dataset.state === 'paused');
  assert.equal(await panel.getAttribute('data-scoring'), 'dot', 'the trace is of the dot-product model');

  const readRows = () => panel.locator('[data-testid="step-source"]').evaluateAll((rows) =>
    rows.map((r) => ({ score: Number(r.dataset.score), weight: Number(r.dataset.weight) })));
  const probe = 'a b c d e f g h';
  for (const step of [1, 2]) {
    await page.locator(`[data-testid="step-panel"][data-step="${step}"]`).waitFor({ timeout: 10_000 });
    const rows = await readRows();
    assert.equal(rows.length, probe.split(' ').length + 1, 'one row per source symbol and <eos>');
    for (const row of rows) {
      assert.ok(Number.isFinite(row.score) && Number.isFinite(row.weight), `finite score and weight: ${JSON.stringify(row)}`);
    }
    const sum = rows.reduce((a, r) => a + r.weight, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `step ${step}: the weights sum to ${sum}`);
    const high = Math.max(...rows.map((r) => r.score));
    const exps = rows.map((r) => Math.exp(r.score - high));
    const total = exps.reduce((a, b) => a + b, 0);
    rows.forEach((r, i) => assert.ok(Math.abs(exps[i] / total - r.weight) < 1e-4, `step ${step}, row ${i}: softmax of the scores`));
    if (step === 1) await byTestId(page, 'step-next').click();
  }
  // A heatmap row opens its step too: a click on its label, Enter on a cell.
  await page.locator('[data-testid="train-heatmap"] [data-row-label="0"]').click();
  await page.locator('[data-testid="step-panel"][data-step="1"]').waitFor({ timeout: 10_000 });
  await page.locator('[data-testid="train-heatmap"] [data-row="0"][data-col="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="step-panel"][data-step="2"]').waitFor({ timeout: 10_000 });
  // The dot product's own formula and explanation, not the additive one's.
  assert.match(await panel.locator('[data-stage="scores"] .formula').textContent(), /s\s*t−1\s*·\s*h\s*i/);
  await page.screenshot({ path: join(artifacts, 'train-step-dot.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
});
