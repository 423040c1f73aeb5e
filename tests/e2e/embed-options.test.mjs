// The element's compare and tau attributes, its naming of values it cannot
// use, and its errors that name their cause (issue 43): a model missing on
// another origin says "not found" (with the status when the host sends CORS
// headers on its 404, without it when it does not), and a worker blocked by
// the page's Content Security Policy says CSP and the directive. Every wait
// is for an event or a state of the DOM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { startServer } from '../../scripts/serve.mjs';
import { artifacts, readHeatmap, useBrowser } from './helpers.mjs';

const browser = useBrowser();

// A tutorial page on another origin (127.0.0.1, the demo's host being
// localhost) loading the element from `host` (default the demo's server).
async function onTutorialPage(body, use, host = browser.server.origin) {
  const folder = mkdtempSync(join(tmpdir(), 's2s-e2e-options-'));
  writeFileSync(join(folder, 'lesson.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
    <script type="module" src="${host}/web/embed.js"></script>
    ${body}`);
  const site = await startServer({ root: folder, port: 0 });
  try {
    await use(`http://127.0.0.1:${site.port}/lesson.html`);
  } finally {
    await site.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

// Resolves when the element `id` shows a heatmap, or rejects with its status line.
const heatmapOf = (page, id) => page.waitForFunction((id) => document.getElementById(id)?.shadowRoot
  ?.querySelector('[data-testid="attention-heatmap"]'), id, { timeout: 60_000 })
  .catch(async (error) => {
    const status = await page.evaluate((id) => document.getElementById(id)?.shadowRoot?.querySelector('.status')?.textContent, id);
    throw new Error(`${error.message}; #${id} says: ${status}`);
  });

test('compare: the fixed-context twin translates the same sentence beside the attention model, with both models\' BLEU by length', async () => {
  // web/embed.html on the demo's own origin: the query's compare reaches the
  // element (the frame passes on the element's observedAttributes), and
  // the package can be asked directly on the same page.
  const page = await browser.newPage('/web/embed.html?sentence=I%20see%20the%20cat.&model=en-fr&compare', { width: 800, height: 900 });
  const compare = page.locator('seq2seq-attention-demo [data-testid="compare"]');
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo')?.shadowRoot
    ?.querySelector('[data-testid="compare"]')?.dataset.text === 'I see the cat.', null, { timeout: 60_000 });
  assert.equal(await compare.getAttribute('data-model'), 'en-fr-fixed');
  const shown = (await compare.locator('[data-testid="compare-fixed-output"]').textContent()).trim();
  // The twin's own translation, from the package on this page, as the element asks for it.
  const expected = await page.evaluate(async () => {
    const { createTranslator } = await import('/dist/translator.js');
    const translator = await createTranslator('en-fr-fixed');
    try {
      const result = await translator.translate('I see the cat.', { beamSize: 4, maxLength: 150 });
      return { text: result.text, info: translator.info };
    } finally {
      await translator.dispose();
    }
  });
  assert.equal(shown, expected.text);
  assert.notEqual(shown, '');
  assert.equal(await compare.locator('[data-testid="compare-fixed-output"]').getAttribute('lang'), 'fr');
  // The chart: both models' bars, the fixed model's being the figures its file records.
  const bars = await compare.locator('[data-testid="compare-chart"] rect.bar').evaluateAll((rects) => rects.map((r) => ({
    model: r.dataset.model, bucket: r.dataset.bucket, bleu: Number(r.dataset.bleu) })));
  assert.deepEqual([...new Set(bars.map((b) => b.model))], ['with attention', 'fixed context']);
  const evaluations = expected.info.provenance.evaluations ?? {};
  const report = evaluations['dev-beam4'] ?? evaluations['dev-greedy'] ?? expected.info.provenance.dev_bleu;
  const recorded = report.by_length.filter((b) => b.sentences > 0).map((b) => ({ bucket: b.bucket, bleu: b.bleu }));
  assert.deepEqual(bars.filter((b) => b.model === 'fixed context').map(({ bucket, bleu }) => ({ bucket, bleu })), recorded);
  assert.match(await compare.locator('.caption').textContent(), /held-out Tatoeba sentences/);
  await page.screenshot({ path: join(artifacts, 'embed-compare.png'), fullPage: true });
  // In the element's other language, the same comparison in Chinese (the chart's words too).
  await page.evaluate(() => document.querySelector('seq2seq-attention-demo').setAttribute('lang', 'zh-CN'));
  assert.match(await compare.locator('.compare-label').textContent(), /^固定上下文变量 · en-fr-fixed$/);
  assert.match(await compare.locator('.chart-legend').textContent(), /有注意力（总体 BLEU [\d.]+.*固定上下文（总体 BLEU/);
  assert.match(await compare.locator('.caption').textContent(), /留出的 Tatoeba 句子/);
  await page.evaluate(() => document.querySelector('seq2seq-attention-demo').setAttribute('lang', 'en'));
  // Turned off, the comparison goes; on again, it comes back for the same sentence.
  await page.evaluate(() => document.querySelector('seq2seq-attention-demo').removeAttribute('compare'));
  assert.equal(await compare.isVisible(), false);
  await page.evaluate(() => document.querySelector('seq2seq-attention-demo').setAttribute('compare', ''));
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo').shadowRoot
    .querySelector('[data-testid="compare"]').dataset.text === 'I see the cat.');
  assert.equal((await compare.locator('[data-testid="compare-fixed-output"]').textContent()).trim(), shown);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('tau: the attention softmax\'s temperature changes the figure as the page\'s slider does (0.05 nearly hard, 20 nearly uniform)', async () => {
  const sentence = 'Tom went to the station to meet his friend.'; // step.test.mjs's: τ = 0.05 is nearly hard at every step
  await onTutorialPage(`<seq2seq-attention-demo id="sharp" loading="eager" model="en-fr" tau="0.05" sentence="${sentence}"></seq2seq-attention-demo>
    <seq2seq-attention-demo id="plain" loading="eager" model="en-fr" sentence="${sentence}"></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.newPage(url);
    await heatmapOf(page, 'sharp');
    await heatmapOf(page, 'plain');
    const rowsOf = ({ rows, cells }) => Array.from({ length: rows }, (_, r) => cells.filter((c) => c.row === r).map((c) => c.weight));
    const sharp = rowsOf(await readHeatmap(page.locator('#sharp [data-testid="attention-heatmap"]')));
    const plain = rowsOf(await readHeatmap(page.locator('#plain [data-testid="attention-heatmap"]')));
    for (const row of sharp) assert.ok(Math.max(...row) >= 0.9, `τ = 0.05: a row's largest weight ${Math.max(...row)}`);
    assert.notDeepEqual(sharp, plain);
    assert.match(await page.locator('#sharp .head').textContent(), /τ = 0\.05/);
    assert.doesNotMatch(await page.locator('#plain .head').textContent(), /τ/);
    // The attribute changed: decoded again (an s2s-translated event), now nearly uniform.
    const translated = page.evaluate(() => new Promise((resolve) => document.getElementById('plain')
      .addEventListener('s2s-translated', () => resolve(), { once: true })));
    await page.evaluate(() => document.getElementById('plain').setAttribute('tau', '20'));
    await translated;
    const flat = rowsOf(await readHeatmap(page.locator('#plain [data-testid="attention-heatmap"]')));
    for (const row of flat) {
      for (const weight of row) assert.ok(Math.abs(weight - 1 / row.length) < 0.05, `τ = 20: ${row.map((w) => w.toFixed(3))}`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

test('values the element cannot use (tau, compare, loading, model) warn on the console and show why in the card, in its language', async () => {
  await onTutorialPage(`<seq2seq-attention-demo id="en" loading="eager" model="en-fr-fixed" tau="0" compare="false" sentence="I see the cat."></seq2seq-attention-demo>
    <seq2seq-attention-demo id="zh" lang="zh-CN" loading="soon" tau="hot" model="en-zh" sentence="I see the cat."></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.context.newPage();
    const warnings = [];
    page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
    await page.goto(url);
    await heatmapOf(page, 'en');
    const note = (id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('[data-testid="attribute-note"]').textContent, id);
    const en = await note('en');
    assert.match(en, /model="en-fr-fixed" is not one of en-fr, en-zh: showing en-fr instead\./);
    assert.match(en, /tau="0" is not one of 0\.05–20: showing 1 instead\./);
    assert.match(en, /compare="false": compare is on whenever it is present, whatever its value; remove the attribute to turn it off\./);
    const zh = await note('zh');
    assert.match(zh, /loading="soon" 不在可选值 lazy, eager 之中：改为显示 lazy。/);
    assert.match(zh, /tau="hot" 不在可选值 0\.05–20 之中：改为显示 1。/);
    for (const expected of [/model="en-fr-fixed" is not one of en-fr, en-zh; showing en-fr instead/, /tau="0" is not one of 0\.05–20; showing 1 instead/,
      /compare="false": compare is on whenever it is present/, /loading="soon" is not one of lazy, eager; showing lazy instead/, /tau="hot"/]) {
      assert.ok(warnings.some((w) => expected.test(w)), `${expected}: ${warnings.join('\n')}`);
    }
    // The model shown is the one the note names, not the fixed twin.
    assert.equal(await page.locator('#en [data-testid="translation-output"]').getAttribute('lang'), 'fr');
    assert.match(await page.locator('#en .head').textContent(), /English → French/);
    await page.close();
  });
});

test('a model missing on another origin is reported as not found: with its status when the host\'s 404 has a CORS header, and without it', async () => {
  // Two demo hosts whose models/ folder is empty: one sends CORS headers on
  // every response (as npm start does), one only on the files it has.
  const empty = mkdtempSync(join(tmpdir(), 's2s-e2e-no-models-'));
  const withCors = await startServer({ port: 0, mounts: { '/models/': empty } });
  const without = await startServer({ port: 0, mounts: { '/models/': empty }, cors: (path) => !path.startsWith('/models/') });
  const element = '<seq2seq-attention-demo id="d" loading="eager" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>';
  let shots = 0;
  const problemOf = async (url) => {
    const page = await browser.context.newPage();
    // The first s2s-error, listened for before any script of the page runs.
    await page.addInitScript(() => {
      window.firstError = new Promise((resolve) => document.addEventListener('s2s-error',
        (event) => resolve({ message: event.detail.message, cause: event.detail.cause }), { once: true }));
    });
    await page.goto(url);
    const detail = await page.evaluate(() => window.firstError);
    const box = page.locator('#d [data-testid="embed-problem"]');
    const seen = { ...detail, card: await box.textContent(), dataCause: await box.getAttribute('data-cause') };
    // One box: the message and the package's detail inside it, never split across lines as inline boxes.
    seen.display = await box.evaluate((e) => getComputedStyle(e).display);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('#d').screenshot({ path: join(artifacts, `embed-not-found-${detail.cause}-${shots++}.png`) });
    await page.close();
    return seen;
  };
  try {
    await onTutorialPage(element, async (url) => {
      const seen = await problemOf(url);
      assert.equal(seen.cause, 'not-found');
      assert.equal(seen.dataCause, 'not-found');
      assert.match(seen.card, /The model file was not found \(HTTP 404\): http:\/\/localhost:\d+\/models\/en-fr\.s2s\./);
      assert.doesNotMatch(seen.card.split('Could not translate')[0], /CORS|Access-Control-Allow-Origin/);
      assert.equal(seen.message, seen.card);
      assert.equal(seen.display, 'block');
    }, withCors.origin);
    await onTutorialPage(element, async (url) => {
      const seen = await problemOf(url);
      assert.equal(seen.cause, 'not-found');
      assert.match(seen.card, /^The model file was not found: localhost:\d+ answered http:\/\/localhost:\d+\/models\/en-fr\.s2s with an error \(most likely 404\)/);
    }, without.origin);
  } finally {
    await Promise.all([withCors.close(), without.close()]);
    rmSync(empty, { recursive: true, force: true });
  }
});

// A tutorial page sent with the Content Security Policy `policy`, by a
// server of its own on 127.0.0.1 (a page Playwright fulfils counts as a
// public address, which may not load from localhost); `use(url)` runs while
// it is served.
async function onPolicyPage(policy, use) {
  const host = browser.server.origin;
  const lesson = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy });
    response.end(`<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>CSP lesson</title><link rel="icon" href="data:,">
<script type="module" src="${host}/web/embed.js"></script>
<seq2seq-attention-demo id="d" loading="eager" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>`);
  });
  await new Promise((resolve) => lesson.listen(0, '127.0.0.1', resolve));
  try {
    await use(`http://127.0.0.1:${lesson.address().port}/lesson.html`);
  } finally {
    await new Promise((resolve) => lesson.close(resolve));
  }
}

test('a worker blocked by the page\'s Content Security Policy is reported as CSP, naming the directive and what to add', async () => {
  // The tutorial's policy lets the element's scripts in from the demo's host
  // but not a blob: worker (no blob: in script-src, and no worker-src, which
  // then falls back to script-src).
  const host = browser.server.origin;
  const policy = `default-src 'none'; script-src ${host} 'wasm-unsafe-eval'; connect-src ${host}; style-src 'unsafe-inline'; img-src ${host} data:`;
  await onPolicyPage(policy, async (url) => {
    const page = await browser.context.newPage();
    await page.goto(url);
    const box = page.locator('#d [data-testid="embed-problem"]');
    await box.waitFor({ timeout: 60_000 });
    assert.equal(await box.getAttribute('data-cause'), 'csp');
    const text = await box.textContent();
    // In the element's language (the page's lang, zh-CN): CSP, the directive, what to add.
    assert.match(text, /^被本页的内容安全策略（CSP）阻止：它的 script-src 指令不允许 blob:。请把 blob: 加进 script-src/);
    assert.doesNotMatch(text.split('无法翻译')[0], /workerUrl/);
    // In English, when the element is told to speak it.
    await page.evaluate(() => document.getElementById('d').setAttribute('lang', 'en'));
    assert.match(await box.textContent(), /^Blocked by this page’s Content Security Policy \(CSP\): its script-src directive does not allow blob:\. Add blob: to script-src/);
    await page.close();
  });
});

test('a download refused by the page\'s connect-src is reported as CSP too, naming connect-src and the host to add', async () => {
  // The worker may start (blob: allowed), but nothing may be fetched from the demo's host.
  const host = browser.server.origin;
  const policy = `default-src 'none'; script-src ${host} blob: 'wasm-unsafe-eval'; connect-src 'self'; style-src 'unsafe-inline'; img-src ${host} data:`;
  await onPolicyPage(policy, async (url) => {
    const page = await browser.context.newPage();
    await page.goto(url);
    const box = page.locator('#d [data-testid="embed-problem"]');
    await box.waitFor({ timeout: 60_000 });
    assert.equal(await box.getAttribute('data-cause'), 'csp');
    assert.match(await box.textContent(), new RegExp(`^被本页的内容安全策略（CSP）阻止：它的 connect-src 指令不允许 ${host}/.*。请把 ${host} 加进 connect-src`));
    await page.close();
  });
});

test('a network failure says network, not CORS', async () => {
  await onTutorialPage('<seq2seq-attention-demo id="d" loading="eager" model="en-zh" sentence="I see the cat."></seq2seq-attention-demo>', async (url) => {
    const page = await browser.context.newPage();
    await page.route('**/models/*.s2s', (route) => route.abort('internetdisconnected'));
    await page.goto(url);
    const box = page.locator('#d [data-testid="embed-problem"]');
    await box.waitFor({ timeout: 60_000 });
    assert.equal(await box.getAttribute('data-cause'), 'network');
    assert.match(await box.textContent(), /^Could not reach localhost:\d+ to download the model \(http:\/\/localhost:\d+\/models\/en-zh\.s2s\): a network error\./);
    await page.close();
  });
});
