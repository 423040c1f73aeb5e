// The Chinese interface (web/figures/i18n/) in a real Chromium: with ?lang=zh-CN no
// English UI string is left on the page (the model's output, what the reader
// typed and what a model file records are marked translate="no" and skipped;
// formulas, names and numbers are on a short allow-list), the toggle goes
// back to English and updates the URL, the page fits a 375 px screen, and
// the embed element speaks Chinese from its own lang attribute.
//
// Each test's pages open in a browser context of their own
// (useBrowser({ isolated: true })): a language choice saved by one test (the
// toggle writes it to localStorage) never reaches another, even when that
// test fails before switching back (issue 45).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, useBrowser, waitForTranslation } from './helpers.mjs';

const browser = useBrowser({ isolated: true });

// Latin words that may stay in the Chinese page: names, formulas' symbols,
// file formats and metrics, the model names, the package's function names (in code), the switch back to English.
const ALLOWED = [
  'English', 'WebAssembly', 'Bahdanau', 'Cho', 'Bengio', 'Wu', 'Tatoeba', 'manythings.org', 'anki', 'CC-BY', 'FR',
  'GRU', 'BLEU', 'BLEU-4', 'chrF2', 'sacreBLEU', 'zh', 'softmax', 'log', 'min', 'tanh', 'cos', 'PNG', 'SVG', 'seq2seq-attention',
  'en-fr', 'en-zh', 'en-fr-fixed', 'C++', 'Adam', 'Web', 'Worker', 'Workers', 'npm', 'train', 'ISO', 'CPU',
  'Tab', 'ti', 'unk', 'eos', 'BPE-dropout', 'createTrainerWorker',
];
// A run's name as a model file records it (the Chinese page opens on en-zh,
// whose record names the runs it was averaged with, e.g. en-zh-nodrop).
const RUN_NAME = /^en-(fr|zh)(-[a-z0-9]+)+$/;
// The example in the sentence box's placeholder is English on purpose.
const EXAMPLE = 'I love deep learning.';

// Every visible text node and every title / aria-label / placeholder of the
// page (or of the shadow root of `host`), shadow roots included, as the
// English words found in them.
function englishLeft({ allowed, runName, example, host = null }) {
  const allow = new Set(allowed);
  const run = new RegExp(runName);
  const found = [];
  const words = (text) => (text.replaceAll(example, '').replace(/“[^”]*”/g, '')
    .match(/[A-Za-z][A-Za-z0-9+]*(?:[-.'][A-Za-z0-9]+)*/g) ?? []).filter((w) => w.length > 1 && !allow.has(w) && !run.test(w));
  const skipped = (element) => element.closest('[translate="no"], noscript, script, style, title, template');
  const visible = (element) => {
    const box = element.localName === 'option' ? element.closest('select') : element;
    return box.getClientRects().length > 0 && getComputedStyle(box).visibility !== 'hidden';
  };
  const visit = (root, where) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || skipped(parent) || !visible(parent)) continue;
      const english = words(node.textContent);
      if (english.length) found.push(`${where}${parent.localName}: "${node.textContent.trim().slice(0, 80)}" (${english.join(', ')})`);
    }
    for (const element of root.querySelectorAll('*')) {
      if (element.getAttribute('translate') !== 'no') {
        // Content shown inside the element under translate="no" (a model
        // map part's tokens) and repeated in its name, as an accessible name
        // must, is content: its words are not UI strings.
        const content = new Set();
        for (const shown of element.querySelectorAll('[translate="no"]')) for (const w of words(shown.textContent)) content.add(w);
        for (const name of ['title', 'aria-label', 'placeholder']) {
          const value = element.getAttribute(name);
          const english = value ? words(value).filter((w) => !content.has(w)) : [];
          if (english.length) found.push(`${where}${element.localName}[${name}]: "${value.slice(0, 80)}" (${english.join(', ')})`);
        }
      }
      if (element.shadowRoot) visit(element.shadowRoot, `${where}${element.localName}>>`);
    }
  };
  if (host) {
    visit(document.querySelector(host).shadowRoot, `${host}>>`);
    return found;
  }
  visit(document.body, '');
  for (const word of words(document.title)) found.push(`<title>: ${word}`);
  return found;
}

async function englishOnPage(page) {
  return page.evaluate(englishLeft, { allowed: ALLOWED, runName: RUN_NAME.source, example: EXAMPLE });
}

test('?lang=zh-CN leaves no English UI string on the page, with the result, beam, what-if, comparison and about shown', async () => {
  const page = await browser.newPage(`/web/?lang=zh-CN&beam=4&text=${encodeURIComponent(EXAMPLE)}`, { width: 1200, height: 900 });
  await waitForTranslation(page, EXAMPLE, { beam: 4 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  // Open the "what if" of the first output word, and bring the comparison, its chart and "about" in.
  await page.locator('[data-testid="target-token"]').first().click();
  await page.locator('[data-testid="alternative"]').first().waitFor();
  await page.locator('#compare').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="bleu-chart"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="about-bleu"]').waitFor({ state: 'attached', timeout: 30_000 });  // in the folded record
  await page.waitForFunction(() => document.querySelector('[data-testid="compare-fixed-output"]').textContent !== '');
  // Point at a cell: the readout speaks too.
  await page.locator('[data-testid="attention-heatmap"] [data-row="0"][data-col="0"]').hover();
  assert.match(await page.locator('#readout').textContent(), /注意力权重/);
  assert.deepEqual(await englishOnPage(page), []);
  // The other drawing (lines) and the word view say nothing in English either.
  await page.locator('[data-testid="view-lines"]').click();
  await page.locator('.unit-switch [data-unit="words"]').click();
  assert.deepEqual(await englishOnPage(page), []);
  assert.match(await page.locator('h1').textContent(), /\p{Script=Han}/u);
  assert.match(await page.title(), /\p{Script=Han}/u);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the check above finds English when it is there (the English page fails it)', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent(EXAMPLE)}`, { width: 1200, height: 900 });
  await waitForTranslation(page, EXAMPLE);
  const found = await englishOnPage(page);
  assert.ok(found.some((line) => line.includes('Where does a translator look?')), found.join('\n'));
  assert.ok(found.length > 30, `only ${found.length} English strings found on the English page`);
  await page.close();
});

test('the toggle switches to English and back without a reload, redrawing the result and the URL', async () => {
  const page = await browser.newPage(`/web/?lang=zh-CN&text=${encodeURIComponent(EXAMPLE)}`, { width: 1200, height: 900 });
  await waitForTranslation(page, EXAMPLE);
  const marker = await page.evaluate(() => {
    window.notReloaded = true;
    return document.querySelector('[data-testid="translation-output"]').textContent;
  });
  const toggle = page.locator('[data-testid="lang-toggle"]');
  assert.equal((await toggle.textContent()).trim(), 'English');
  await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal((await page.locator('h1').textContent()).trim(), 'Where does a translator look?');
  assert.match(await page.locator('#meta').textContent(), /^Score /);
  assert.match(await page.locator('[data-testid="status"]').textContent(), /Translated in/);
  assert.equal((await toggle.textContent()).trim(), '中文');
  assert.equal(new URL(page.url()).searchParams.get('lang'), null);
  assert.equal(await page.evaluate(() => window.notReloaded), true);
  assert.equal(await page.locator('[data-testid="translation-output"]').textContent(), marker);
  await toggle.click();
  assert.equal(new URL(page.url()).searchParams.get('lang'), 'zh-CN');
  assert.match(await page.locator('#meta').textContent(), /^得分 /);
  assert.equal((await page.locator('#model option').first().textContent()).trim(), '英语 → 法语');
  // The choice is remembered: the page opened without ?lang= in the same browser is Chinese now, until switched back.
  const again = await browser.newPage('/web/', { width: 1200, height: 900 }, { beside: page });
  assert.equal(await again.evaluate(() => document.documentElement.lang), 'zh-CN');
  await again.locator('[data-testid="lang-toggle"]').click();
  assert.equal(await again.evaluate(() => document.documentElement.lang), 'en');
  assert.deepEqual([...page.problems, ...again.problems], []);
  await again.close();
  await page.close();
});

test('in Chinese at 375 px the page fits without scrolling sideways', async () => {
  const page = await browser.newPage(`/web/?lang=zh-CN&beam=4&text=${encodeURIComponent(EXAMPLE)}`, { width: 375, height: 800 });
  await waitForTranslation(page, EXAMPLE, { beam: 4 });
  await page.locator('[data-testid="target-token"]').first().click();
  await page.locator('#compare').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="bleu-chart"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="about-bleu"]').waitFor({ state: 'attached', timeout: 30_000 });  // in the folded record
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `the page is ${scroll} px wide in a ${client} px window`);
  await page.screenshot({ path: join(artifacts, 'page-zh-CN-375.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('?step=N selects that output row; the URL keeps step and lang', async () => {
  const page = await browser.newPage(`/web/?lang=zh-CN&step=2&text=${encodeURIComponent(EXAMPLE)}`, { width: 1200, height: 900 });
  await waitForTranslation(page, EXAMPLE);
  await page.waitForFunction(() => document.getElementById('readout').dataset.step === '2');
  assert.match(await page.locator('#readout').textContent(), /^第 2 步/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('step'), '2');
  assert.equal(url.searchParams.get('lang'), 'zh-CN');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the train page in Chinese has no English UI string, and fits 375 px', async () => {
  const page = await browser.newPage('/web/train.html?lang=zh-CN', { width: 375, height: 800 });
  await page.locator('[data-testid="train-probe-example"]').first().waitFor({ timeout: 30_000 });
  // The probe's inputs and the training task's symbols are data, not UI.
  await page.evaluate(() => document.querySelectorAll('#probe, #pairs, [data-testid="train-probe-example"]').forEach((e) => e.setAttribute('translate', 'no')));
  const found = (await englishOnPage(page)).filter((line) => !/december 2nd, 2026|2 dec 2026|wednesday|ISO 8601/.test(line));
  assert.deepEqual(found, []);
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `the train page is ${scroll} px wide in a ${client} px window`);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('an embedded demo with lang="zh-CN" speaks Chinese on an English page, and opens at its step', async () => {
  const page = await browser.newPage('/web/embed-example.html', { width: 900, height: 900 });
  await page.evaluate(() => {
    const demo = document.createElement('seq2seq-attention-demo');
    Object.entries({ id: 'zh-demo', lang: 'zh-CN', sentence: 'I love deep learning.', model: 'en-fr', step: '2', view: 'step' })
      .forEach(([name, value]) => demo.setAttribute(name, value));
    document.body.append(demo);
  });
  const demo = page.locator('#zh-demo');
  await demo.locator('[data-testid="attention-heatmap"]').waitFor({ timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  const text = await demo.locator('.card').textContent();
  assert.match(text, /注意力：行是输出词/);
  assert.match(await demo.locator('.readout').textContent(), /^第 2 步/);
  assert.equal(await demo.locator('[data-testid="source-input"]').getAttribute('placeholder'), '输入一句英文');
  assert.match(await demo.locator('.head b').textContent(), /英语 → 法语/);
  // The other demos on the page stay English.
  assert.match(await page.locator('seq2seq-attention-demo').first().locator('.head').textContent(), /Attention: rows are output words/);
  assert.deepEqual(await page.evaluate(englishLeft, { allowed: ALLOWED, runName: RUN_NAME.source, example: EXAMPLE, host: '#zh-demo' }), []);
  // Its lang attribute switches it to English and back.
  await demo.evaluate((element) => element.setAttribute('lang', 'en'));
  assert.match(await demo.locator('.head').textContent(), /Attention: rows are output words/);
  assert.match(await demo.locator('.readout').textContent(), /^Step 2/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('on a page written in Chinese, a demo without lang speaks Chinese (an English browser) and the page keeps its lang', async () => {
  const page = await browser.newPage('/web/embed-example.html', { width: 900, height: 900 });
  assert.equal(await page.evaluate(() => navigator.language.startsWith('en')), true, 'an English browser');
  const first = page.locator('seq2seq-attention-demo').first();
  await first.locator('[data-testid="attention-heatmap"]').waitFor({ timeout: 30_000 });
  assert.match(await first.locator('.head').textContent(), /Attention: rows are output words/, 'lang="en" on <html>: English');
  // The host becomes a Chinese page: the demos without their own lang follow it.
  await page.evaluate(() => { document.documentElement.lang = 'zh-CN'; });
  await page.waitForFunction(() => /注意力：行是输出词/.test(document.querySelector('seq2seq-attention-demo').shadowRoot.querySelector('.head').textContent));
  // A demo added inside a section of the page with its own lang takes the nearest one.
  await page.evaluate(() => {
    const section = document.createElement('section');
    section.lang = 'en';
    const demo = document.createElement('seq2seq-attention-demo');
    Object.entries({ id: 'inner', sentence: 'Go.', model: 'en-fr' }).forEach(([name, value]) => demo.setAttribute(name, value));
    section.append(demo);
    document.body.append(section);
  });
  await page.locator('#inner').scrollIntoViewIfNeeded();  // a lazy demo starts near the viewport
  await page.locator('#inner [data-testid="attention-heatmap"]').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#inner .head').textContent(), /Attention: rows are output words/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN', 'the element never writes the host page\'s lang');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the page\'s own error messages are Chinese too, and switch with the toggle', async () => {
  const page = await browser.newPage(null);
  await page.addInitScript('delete globalThis.WebAssembly');
  await page.goto(`${browser.server.origin}/web/?lang=zh-CN`);
  const error = page.locator('[data-testid="error"]');
  await error.waitFor();
  assert.match(await error.textContent(), /这个浏览器不支持 WebAssembly/);
  assert.match(await page.locator('[data-testid="translation-output"]').textContent(), /翻译器无法在这个浏览器中运行/);
  await page.locator('[data-testid="lang-toggle"]').click();
  assert.match(await error.textContent(), /no WebAssembly/);
  assert.match(await page.locator('[data-testid="translation-output"]').textContent(), /cannot run in this browser/);
  await page.close();
});
