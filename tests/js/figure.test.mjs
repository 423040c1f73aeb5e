// The static figure (src/wasm/figure.js: heatmapSvg, figureLabels,
// dataCredit; the bin's `figure`): a standalone SVG document with one cell
// per weight, coloured by the page's scale, every label escaped, the
// sentence, the axes and the model's data credit; the bin draws the API's
// own word attention; the file opens as an image in Chromium. (The page's
// "Download SVG" is the same code: tests/e2e/figure.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { distIndex, requireDist, root } from './helpers/models.mjs';
import { launchChromium } from './helpers/chromium.mjs';

requireDist();
const api = await import(pathToFileURL(distIndex).href);
const { attentionColor } = await import(pathToFileURL(join(root, 'dist', 'figure.js')).href);

const cells = (svg) => [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="33" height="33" fill="([^"]+)" data-row="(\d+)" data-col="(\d+)" data-weight="([\d.]+)"/g)]
  .map(([, fill, row, col, weight]) => ({ fill, row: Number(row), col: Number(col), weight: Number(weight) }));

test('heatmapSvg: one cell per weight in the page\'s colours, labels escaped, the options\' text shown', () => {
  const data = { sourceTokens: ['<b>x</b>', 'a&b', '<eos>'], targetTokens: ['"y"', '<eos>'],
    attention: [new Float32Array([0.7, 0.2, 0.1]), [0, 0, 1]] };
  const svg = api.heatmapSvg(data, { title: 'T & "t"', cols: 'columns', rows: 'rows', footer: 'credit <here>', lang: 'zh-CN' });
  assert.match(svg, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  const found = cells(svg);
  assert.equal(found.length, 6);
  for (const cell of found) {
    const weight = Number(data.attention[cell.row][cell.col]);
    assert.ok(Math.abs(cell.weight - weight) < 1e-4);
    assert.equal(cell.fill, attentionColor(weight));
  }
  assert.doesNotMatch(svg, /<b>|a&b|credit <here>/, 'no label becomes markup');
  for (const text of ['&lt;b&gt;x&lt;/b&gt;', 'a&amp;b', '&quot;y&quot;', 'T &amp; &quot;t&quot;', 'columns', 'rows', 'credit &lt;here&gt;', 'lang="zh-CN"']) {
    assert.ok(svg.includes(text), text);
  }
  assert.equal(attentionColor(0), 'rgb(248, 250, 252)');
  assert.equal(attentionColor(1), 'rgb(30, 27, 75)');
  assert.equal(attentionColor(Number.NaN), attentionColor(0));
});

test('dataCredit and figureLabels name the model\'s data and licences, in English and Chinese', async () => {
  const model = await api.loadModel('en-zh');
  try {
    assert.equal(api.dataCredit(model.info.provenance),
      'Tatoeba Project (CC-BY 2.0 France); seq2seq-attention project (CC BY 4.0); CC-CEDICT (CC BY-SA 4.0)');
    const en = api.figureLabels({ info: model.info, source: 'I love deep learning.', translation: '我爱深度学习。' });
    assert.equal(en.title, '“I love deep learning.” → “我爱深度学习。”');
    assert.match(en.cols, /English/);
    assert.match(en.rows, /Chinese/);
    assert.match(en.footer, /^en-zh, seq2seq-attention · trained on Tatoeba Project \(CC-BY 2\.0 France\)/);
    const zh = api.figureLabels({ info: model.info, lang: 'zh-CN' });
    assert.match(zh.cols, /英语/);
    assert.match(zh.rows, /中文/);
    assert.match(zh.footer, /训练数据：Tatoeba Project/);
    assert.equal(api.dataCredit(null), 'not recorded');
  } finally {
    model.dispose();
  }
});

test('the bin\'s figure draws the API\'s word attention, and the file opens as an image in Chromium', async () => {
  const work = mkdtempSync(join(tmpdir(), 's2s-figure-'));
  try {
    const out = join(work, 'fig.svg');
    const sentence = 'The context vector changes at every step.';
    const r = spawnSync(process.execPath, [join(root, 'bin', 'seq2seq-attention.js'), 'figure', '--model', 'en-fr', '--out', out, sentence],
      { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const svg = readFileSync(out, 'utf8');
    const model = await api.loadModel('en-fr');
    const words = api.wordAttention(model.translate(sentence));
    model.dispose();
    const found = cells(svg);
    assert.equal(found.length, words.sourceWords.length * words.targetWords.length);
    for (const cell of found) assert.ok(Math.abs(cell.weight - words.attention[cell.row][cell.col]) < 1e-4);
    assert.ok(svg.includes('Le vecteur de contexte change à chaque étape.'));
    assert.match(svg, /trained on Tatoeba Project \(CC-BY 2\.0 France\); seq2seq-attention project \(CC BY 4\.0\)/);
    const fixed = spawnSync(process.execPath, [join(root, 'bin', 'seq2seq-attention.js'), 'figure', '--model', 'en-fr-fixed', 'Hi.'], { encoding: 'utf8' });
    assert.equal(fixed.status, 2);
    assert.match(fixed.stderr, /no attention \(the fixed-context baseline\): there is no heatmap to draw/);

    const { browser, close } = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent('<img>');
      const size = await page.evaluate(async (text) => {
        const img = document.querySelector('img');
        img.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight };
      }, svg);
      assert.equal(size.width, Number(/width="(\d+)"/.exec(svg)[1]));
      assert.ok(size.height > 200);
    } finally {
      await close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
