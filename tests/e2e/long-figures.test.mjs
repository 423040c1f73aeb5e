// Long sentences on a phone and a wide screen (issue 46, items 4 and 9's
// exports), in Debian's Chromium on the real page: the heatmap keeps its
// source words (column labels) in sight while its rows scroll by and its
// output words (row labels) while its columns do, says that it scrolls (a
// shade on the edge, a line of text the figure names as its description),
// and fits its box on request (remembered for the session); the Lines view
// fits its box at 375 and 1280 px, every label whole; the beam tree at
// beam 8 folds its pruned candidates; the downloaded SVG and PNG carry the
// sentence, its translation, the axes' titles and the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { artifacts, useBrowser, waitForTranslation } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');
// 26 words: more columns than a phone shows, more rows than a screen holds.
const LONG = 'When the old fisherman finally returned to the small village after many years at sea, his children and grandchildren were waiting for him near the harbour.';
const PHONE = { width: 375, height: 812 };
const WIDE = { width: 1280, height: 900 };

const browser = useBrowser({ isolated: true });

async function open(query, viewport) {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(LONG)}&${query}`, viewport);
  await waitForTranslation(page, LONG);
  return page;
}

const heatmapDrawn = (page) => page.locator('#heatmap > svg.heatmap[data-complete="true"]').waitFor();

// axe-core over the parts this file is about: the figure with its switch
// and hint, and the beam tree's box.
async function axeViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const include = ['.heatmap-figure', '.beam-tree-box'].filter((selector) => document.querySelector(selector)).map((selector) => [selector]);
    // eslint-disable-next-line no-undef
    const result = await axe.run({ include }, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help}; e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

// Whether a label is on screen and on top: the element at its centre is
// the label itself (not a cell drawn over it).
const labelInSight = (page, selector) => page.evaluate((selector) => {
  const label = document.querySelector(selector);
  const box = label.getBoundingClientRect();
  const scroller = document.getElementById('heatmap').getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return { top: box.top, left: box.left, boxLeft: scroller.left, onTop: !!hit && label.contains(hit),
    inWindow: y >= 0 && y <= innerHeight && x >= scroller.left && x <= scroller.right };
}, selector);

for (const lang of ['en', 'zh-CN']) {
  test(`${lang}, 375×812: the heatmap says it scrolls, keeps its labels in sight, and fits on request`, async () => {
    const page = await open(`lang=${lang}`, PHONE);
    await heatmapDrawn(page);
    // Wider than its box: a shade on the right, a line of text, and the switch.
    const cue = await page.evaluate(() => {
      const box = document.getElementById('heatmap');
      const after = getComputedStyle(document.getElementById('figure-frame'), '::after');
      const hint = document.getElementById('scroll-hint');
      return { overflow: box.scrollWidth - box.clientWidth, more: document.getElementById('figure-frame').dataset.more,
        shade: Number(after.opacity), hint: hint.hidden ? null : hint.textContent, hintShown: hint.getBoundingClientRect().height > 0,
        describedBy: box.querySelector('svg').getAttribute('aria-describedby'), toggle: document.getElementById('fit-toggle').hidden ? null : document.getElementById('fit-toggle').textContent };
    });
    assert.ok(cue.overflow > 100, `the figure is ${cue.overflow} px wider than its box`);
    assert.equal(cue.more, 'right');
    assert.ok(cue.shade > 0.9, 'the right edge is shaded');
    assert.ok(cue.hintShown && cue.hint.length > 10, `the hint shows: ${cue.hint}`);
    assert.match(cue.hint, lang === 'en' ? /scroll sideways/ : /左右滑动/);
    assert.equal(cue.describedBy, 'scroll-hint', 'the figure names the hint as its description');
    assert.equal(cue.toggle, lang === 'en' ? 'Fit to width' : '适应宽度');
    assert.deepEqual(await axeViolations(page), []);

    // Rows scroll by under the window's top: the source words stay at the top.
    const firstColumn = '#heatmap .col-labels [data-col-label="0"]';
    await page.evaluate(() => window.scrollBy(0, document.querySelector('#heatmap > svg').getBoundingClientRect().top));
    assert.equal((await labelInSight(page, firstColumn)).onTop, true);
    await page.evaluate(() => window.scrollBy(0, document.querySelector('#heatmap > svg').getBoundingClientRect().top + 400));
    // labelsMoved may already be true from the first scroll: wait for this
    // scroll's move, the label brought back to the window's top.
    await page.waitForFunction((selector) => document.querySelector('#heatmap > svg').dataset.labelsMoved === 'true'
      && document.querySelector(selector).getBoundingClientRect().top >= -1, firstColumn);
    const column = await labelInSight(page, firstColumn);
    assert.ok(column.top >= -1 && column.inWindow && column.onTop, `the first column's label after scrolling down: ${JSON.stringify(column)}`);
    // Columns scroll by in the box: the output words stay at its left.
    const lastRow = await page.evaluate(() => document.querySelector('#heatmap > svg').dataset.rows - 1);
    const rowLabel = `#heatmap .row-labels [data-row-label="${lastRow}"]`;
    await page.evaluate(() => { document.getElementById('heatmap').scrollLeft = 300; });
    await page.waitForFunction(() => document.getElementById('figure-frame').dataset.more === 'both');
    await page.locator(rowLabel).scrollIntoViewIfNeeded(); // scrolls the window (the box is already scrolled)
    await page.waitForFunction((selector) => {
      const label = document.querySelector(selector).getBoundingClientRect();
      return label.left >= document.getElementById('heatmap').getBoundingClientRect().left - 1;
    }, rowLabel);
    const row = await labelInSight(page, rowLabel);
    assert.ok(row.inWindow && row.onTop, `the last row's label with the box scrolled 300 px: ${JSON.stringify(row)}`);
    await page.screenshot({ path: join(artifacts, `long-heatmap-scrolled-${lang}.png`) });

    // Fit to width: the whole matrix in the box, shortened labels whole in their tooltips.
    await page.locator('#fit-toggle').click();
    await page.locator('#heatmap > svg[data-fit="true"][data-complete="true"]').waitFor();
    const fitted = await page.evaluate(() => {
      const box = document.getElementById('heatmap');
      const svg = box.querySelector('svg');
      const labels = [...svg.querySelectorAll('.col-labels .label, .row-labels .label')].map((g) => ({
        shown: g.querySelector('text').textContent, title: g.querySelector('title')?.textContent ?? '' }));
      return { overflow: box.scrollWidth - box.clientWidth, more: document.getElementById('figure-frame').dataset.more,
        pressed: document.getElementById('fit-toggle').getAttribute('aria-pressed'), focused: document.activeElement?.id, labels,
        cells: svg.querySelectorAll('.cell').length, rows: Number(svg.dataset.rows), cols: Number(svg.dataset.cols),
        columns: [...svg.querySelectorAll('.col-labels text')].map((text) => { const r = text.getBoundingClientRect(); return (r.left + r.right) / 2; }),
        cellWidth: Number(svg.dataset.cellWidth), columnFont: Number(svg.querySelector('.col-labels text').getAttribute('font-size')),
        scale: svg.getBoundingClientRect().width / Number(svg.getAttribute('width')) };
    });
    assert.ok(fitted.overflow <= 1, `fitted, the figure overflows its box by ${fitted.overflow} px`);
    assert.equal(fitted.more, 'none');
    assert.equal(fitted.pressed, 'true');
    assert.equal(fitted.focused, 'fit-toggle', 'the switch keeps the focus');
    assert.equal(fitted.cells, fitted.rows * fitted.cols);
    // Upright, the column labels stand side by side, one per column, each
    // in a font whose ink (0.85 em, capitals and descenders) fits its column.
    assert.ok(fitted.cellWidth >= fitted.columnFont * 0.85, `columns ${fitted.cellWidth} px wide, labels ${fitted.columnFont} px`);
    for (let k = 1; k < fitted.columns.length; k += 1) {
      const pitch = fitted.columns[k] - fitted.columns[k - 1];
      assert.ok(Math.abs(pitch - fitted.cellWidth * fitted.scale) < 0.5, `column labels ${k - 1} and ${k} are ${pitch} px apart`);
    }
    for (const label of fitted.labels.filter((l) => l.shown.endsWith('…'))) assert.ok(label.title.startsWith(label.shown.slice(0, -1)), `${label.shown}: its tooltip ${label.title}`);
    await page.locator('#figure-frame').screenshot({ path: join(artifacts, `long-heatmap-fitted-${lang}.png`) });
    assert.deepEqual(await axeViolations(page), []);
    // Remembered for the session: a reload draws it fitted again.
    await page.reload();
    await waitForTranslation(page, LONG);
    await page.locator('#heatmap > svg[data-fit="true"]').waitFor();
    assert.equal(await page.locator('#fit-toggle').getAttribute('aria-pressed'), 'true');
    assert.deepEqual(page.problems, []);
  });
}

test('the Lines view fits its box at 375 and 1280 px: every label whole and inside', async () => {
  for (const [name, viewport] of [['375', PHONE], ['1280', WIDE]]) {
    const page = await open('view=lines', viewport);
    await page.locator('#heatmap > svg[data-testid="attention-lines"]').waitFor();
    const { box, labels, overflow, pageOverflow } = await page.evaluate(() => {
      const scroller = document.getElementById('heatmap');
      const rect = scroller.getBoundingClientRect();
      return {
        box: { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom },
        labels: [...scroller.querySelectorAll('svg .label')].map((text) => {
          const r = text.getBoundingClientRect();
          return { text: text.textContent, axis: text.hasAttribute('data-col-label') ? 'col' : 'row', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }),
        overflow: scroller.scrollWidth - scroller.clientWidth,
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    assert.ok(overflow <= 0, `${name}: the lines overflow their box by ${overflow} px`);
    assert.ok(pageOverflow <= 0, `${name}: the page is ${pageOverflow} px too wide`);
    const words = LONG.split(/\s+/).length;
    assert.ok(labels.filter((l) => l.axis === 'col').length >= words, `${name}: ${labels.length} labels`);
    for (const label of labels) {
      assert.ok(label.left >= box.left && label.right <= box.right && label.top >= box.top && label.bottom <= box.bottom,
        `${name}: "${label.text}" (${label.left.toFixed(1)}–${label.right.toFixed(1)}) is cut by its box (${box.left}–${box.right})`);
    }
    // No two labels of one sentence overlap.
    for (const axis of ['col', 'row']) {
      const list = labels.filter((l) => l.axis === axis);
      for (let k = 1; k < list.length; k += 1) {
        const [a, b] = [list[k - 1], list[k]];
        const apart = a.right <= b.left + 0.5 || a.bottom <= b.top + 0.5;
        assert.ok(apart, `${name}: "${a.text}" and "${b.text}" overlap`);
      }
    }
    await page.locator('#figure-frame').screenshot({ path: join(artifacts, `long-lines-${name}.png`) });
    assert.deepEqual(page.problems, []);
  }
});

test('beam 8: the tree folds pruned candidates into "+N pruned" rows that open with Enter', async () => {
  const page = await open('beam=8&view=step&step=2', WIDE);
  const tree = page.locator('[data-testid="beam-tree"]');
  await tree.waitFor();
  const height = () => tree.evaluate((svg) => svg.getBoundingClientRect().height);
  const folded = await height();
  const folds = page.locator('[data-testid="beam-fold"]');
  const count = await folds.count();
  assert.ok(count > 0, 'some pruned candidates are folded');
  // Enter on a fold shows its candidates; Enter again folds them.
  const first = folds.first();
  const hidden = Number(await first.getAttribute('data-count'));
  const nodes = await page.locator('[data-testid="beam-node"]').count();
  await first.focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="beam-fold"][aria-expanded="true"]').waitFor();
  assert.equal(await page.locator('[data-testid="beam-node"]').count(), nodes + hidden);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'beam-fold', 'the focus stays on the fold');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="beam-fold"][aria-expanded="true"]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid="beam-node"]').count(), nodes);
  assert.deepEqual(await axeViolations(page), []);
  // Every candidate shown, unfolded: the tree as it was drawn before folds
  // (one row per candidate of the longest step).
  await page.locator('[data-testid="beam-show-all"]').click();
  await page.locator('[data-testid="beam-show-all"][aria-pressed="true"]').waitFor();
  assert.equal(await folds.count(), 0);
  const unfolded = await height();
  const longestStep = await page.evaluate(() => {
    const perStep = new Map();
    for (const node of document.querySelectorAll('[data-testid="beam-node"]')) perStep.set(node.dataset.step, (perStep.get(node.dataset.step) ?? 0) + 1);
    return Math.max(...perStep.values());
  });
  assert.equal(unfolded, 34 * longestStep + 20);
  console.log(`beam 8, ${longestStep} candidates in the longest step: the tree is ${folded} px tall folded, ${unfolded} px unfolded`);
  assert.ok(folded * 3 < unfolded, `folded ${folded} px, unfolded ${unfolded} px`);
  assert.ok(folded < 700, `folded, the tree is ${folded} px tall`);
  assert.deepEqual(page.problems, []);
});

// A PNG's width and height (its IHDR chunk).
const pngSize = (png) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

for (const [lang, model] of [['en', 'en-fr'], ['zh-CN', 'en-zh']]) {
  test(`${lang}: the heatmap's SVG and PNG carry the sentence, its translation, the axes' titles and the model`, async () => {
    const page = await open(`lang=${lang}&model=${model}`, WIDE);
    await heatmapDrawn(page);
    const translation = (await page.locator('[data-testid="translation-output"]').textContent()).trim();
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-svg"]').click()]);
    const svgText = await readFile(await svgDownload.path(), 'utf8');
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-png"]').click()]);
    const png = await readFile(await pngDownload.path());
    await pngDownload.saveAs(join(artifacts, `long-heatmap-export-${lang}.png`));
    const axes = lang === 'en' ? ['Source (English): the columns', `Translation (${model === 'en-zh' ? 'Chinese' : 'French'}): the rows`]
      : ['源句（英语）：列', `译文（${model === 'en-zh' ? '中文' : '法语'}）：行`];
    // The title, wrapped into lines no wider than the grid: the sentence and its translation, whole.
    const title = [...svgText.matchAll(/<text class="title"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(' ');
    const titleWidth = Number(svgText.match(/<svg[^>]*\swidth="([\d.]+)"/)[1]);
    for (const wanted of [LONG, translation]) {
      const words = wanted.split(/\s+/).join(' ');
      assert.ok(title.includes(words) || title.replace(/ /g, '').includes(words.replace(/ /g, '')), `the SVG's title says "${wanted}": ${title}`);
    }
    for (const wanted of [...axes, model]) assert.ok(svgText.includes(wanted), `the SVG says "${wanted}"`);
    // Each title line, measured in the browser, ends inside the figure.
    const overflowing = await page.evaluate((text) => {
      const holder = document.createElement('div');
      holder.innerHTML = text.replace(/^<\?xml[^>]*>/, '');
      document.body.append(holder);
      const svg = holder.querySelector('svg');
      const width = Number(svg.getAttribute('width'));
      const cut = [...svg.querySelectorAll('text.title')].filter((line) => Number(line.getAttribute('x')) + line.getComputedTextLength() > width)
        .map((line) => `${line.textContent} (${line.getComputedTextLength().toFixed(0)} px in ${width})`);
      holder.remove();
      return cut;
    }, svgText);
    assert.deepEqual(overflowing, [], `title lines cut at the figure's edge (${titleWidth} px)`);
    // The PNG is drawn from that SVG: the same size (×2), taller and wider
    // than the page's figure to hold the title, axes and footer.
    const svgSize = { width: Number(svgText.match(/<svg[^>]*\swidth="([\d.]+)"/)[1]), height: Number(svgText.match(/<svg[^>]*\sheight="([\d.]+)"/)[1]) };
    const shown = await page.evaluate(() => {
      const svg = document.querySelector('#heatmap > svg');
      return { width: Number(svg.getAttribute('width')), height: Number(svg.getAttribute('height')) };
    });
    const size = pngSize(png);
    assert.deepEqual(size, { width: Math.round(svgSize.width * 2), height: Math.round(svgSize.height * 2) });
    assert.ok(size.height > shown.height * 2 + 40, `the PNG (${size.height} px) is taller than the page's figure ×2 (${shown.height * 2})`);
    assert.deepEqual(page.problems, []);
  });
}
