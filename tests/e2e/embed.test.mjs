// The embeddable element (web/embed.js) on its example page: two
// <seq2seq-attention-demo> elements, each drawing its own heatmap in its
// own Shadow DOM, sharing one worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { artifacts, readHeatmap, useBrowser } from './helpers.mjs';

const browser = useBrowser();

// Playwright's CSS locators pierce open shadow roots.
const heatmapsOf = (page) => page.locator('seq2seq-attention-demo [data-testid="attention-heatmap"]');

test('the embed example renders two demos, each with a heatmap', async () => {
  const page = await browser.newPage('/web/embed-example.html', { width: 900, height: 900 });
  const heatmaps = heatmapsOf(page);
  await page.waitForFunction(() => [...document.querySelectorAll('seq2seq-attention-demo')]
    .every((demo) => demo.shadowRoot?.querySelector('[data-testid="attention-heatmap"]')), null, { timeout: 30_000 });
  assert.equal(await page.locator('seq2seq-attention-demo').count(), 2);
  assert.equal(await heatmaps.count(), 2);
  for (let k = 0; k < 2; k += 1) {
    const { rows, cols, cells } = await readHeatmap(heatmaps.nth(k));
    assert.ok(rows >= 1 && cols >= 2);
    assert.equal(cells.length, rows * cols);
  }
  // The first one translates "I love deep learning." into French.
  const first = page.locator('seq2seq-attention-demo').first();
  assert.equal(await first.locator('[data-testid="translation-output"]').getAttribute('data-text'), 'I love deep learning.');
  assert.equal(await first.locator('[data-testid="translation-output"]').getAttribute('lang'), 'fr');
  // The element's styles stay inside it: the host page's <p> margins and
  // fonts are untouched by the element's CSS, and vice versa.
  assert.equal(await page.locator('body > p').first().evaluate((p) => getComputedStyle(p).fontFamily.includes('Charter')), true);
  await page.screenshot({ path: join(artifacts, 'embed-example.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('an embedded demo translates again when its attribute or its box changes', async () => {
  const page = await browser.newPage('/web/embed-example.html', { width: 900, height: 900 });
  const first = page.locator('seq2seq-attention-demo').first();
  const output = first.locator('[data-testid="translation-output"]');
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo')?.shadowRoot
    ?.querySelector('[data-testid="translation-output"]')?.dataset.text === 'I love deep learning.');
  await first.evaluate((demo) => demo.setAttribute('text', 'I see the cat.'));
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo').shadowRoot
    .querySelector('[data-testid="translation-output"]').dataset.text === 'I see the cat.');
  await first.locator('[data-testid="source-input"]').fill('<b>we</b> drink water .');
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo').shadowRoot
    .querySelector('[data-testid="translation-output"]').dataset.text === '<b>we</b> drink water .');
  assert.equal(await output.locator('*').count(), 0); // text only: no <b> element was made
  assert.notEqual((await output.textContent()).trim(), '');
  assert.deepEqual(page.problems, []);
  await page.close();
});

// A tutorial's page on a second origin (a temporary folder served on
// 127.0.0.1) while the script, its worker, the WASM and the models come from
// the demo's server (on localhost): two origins, as with a CDN. `body` is
// the page's HTML after the element's script tag; `use(url)` runs while it
// is served.
async function onTutorialPage(body, use) {
  const folder = mkdtempSync(join(tmpdir(), 's2s-e2e-tutorial-'));
  writeFileSync(join(folder, 'lesson.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
    <script type="module" src="${browser.server.origin}/web/embed.js"></script>
    ${body}`);
  const tutorialServer = await startServer({ root: folder, port: 0 });
  try {
    await use(`http://127.0.0.1:${tutorialServer.port}/lesson.html`);
  } finally {
    await tutorialServer.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

test('a page on another origin embeds the demo with one script tag', async () => {
  await onTutorialPage(`<h1>Lesson 7: attention</h1>
    <seq2seq-attention-demo model="en-fr" text="I see the cat."></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.newPage(url);
    assert.notEqual(new URL(page.url()).origin, browser.server.origin);
    await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo')?.shadowRoot
      ?.querySelector('[data-testid="attention-heatmap"]'), null, { timeout: 30_000 });
    const { rows, cols } = await readHeatmap(heatmapsOf(page).first());
    assert.ok(rows >= 1);
    assert.equal(cols, 6); // I see the cat. <eos>
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

test('a click on a heatmap row selects that step, as on the page', async () => {
  const page = await browser.newPage('/web/embed-example.html', { width: 900, height: 900 });
  const element = page.locator('seq2seq-attention-demo').first();
  await heatmapsOf(page).first().waitFor();
  await element.locator('[data-testid="attention-heatmap"] [data-row="1"][data-col="0"]').click();
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo').getAttribute('step') === '2');
  await page.waitForFunction(() => document.querySelector('seq2seq-attention-demo').shadowRoot
    .querySelector('.scroll').dataset.step === '2');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('on a host whose files carry no CORS header, the reader is told why, and the snippet\'s fallback shows', async () => {
  // Two demo hosts that send no Access-Control-Allow-Origin: one for its
  // models only (the scripts load, the download fails), one for nothing
  // (the module script itself is refused), and a tutorial on a third origin.
  const noCorsModels = await startServer({ port: 0, cors: (path) => !path.startsWith('/models/') });
  const noCors = await startServer({ port: 0, cors: false });
  const folder = mkdtempSync(join(tmpdir(), 's2s-e2e-nocors-'));
  const lesson = (origin) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
    <script type="module" src="${origin}/web/embed.js"></script>
    <seq2seq-attention-demo model="en-fr" sentence="I see the cat."><p class="fallback">The interactive demo could not load here: <a href="${origin}/web/?text=I%20see%20the%20cat.">open it on its own page</a>.</p></seq2seq-attention-demo>`;
  writeFileSync(join(folder, 'models.html'), lesson(noCorsModels.origin));
  writeFileSync(join(folder, 'none.html'), lesson(noCors.origin));
  const tutorialServer = await startServer({ root: folder, port: 0 });
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${tutorialServer.port}/models.html`);
    // The model is there, sent without the header: a CORS problem, said as one (not "not found").
    const message = page.locator('seq2seq-attention-demo [data-testid="embed-problem"]');
    await message.waitFor({ timeout: 30_000 });
    assert.equal(await message.getAttribute('data-cause'), 'cross-origin');
    assert.match(await message.textContent(), /Access-Control-Allow-Origin/);
    assert.equal(await page.locator('seq2seq-attention-demo .fallback').isVisible(), false, 'the element is defined: its fallback is hidden');
    await page.close();
    const bare = await browser.context.newPage();
    // The load event comes after every module script has run or failed (a
    // module script is deferred): from then on, what is undefined stays so.
    await bare.goto(`http://127.0.0.1:${tutorialServer.port}/none.html`, { waitUntil: 'load' });
    assert.equal(await bare.evaluate(() => customElements.get('seq2seq-attention-demo') === undefined), true);
    assert.equal(await bare.locator('seq2seq-attention-demo .fallback').isVisible(), true);
    await bare.close();
  } finally {
    await Promise.all([tutorialServer.close(), noCorsModels.close(), noCors.close()]);
    rmSync(folder, { recursive: true, force: true });
  }
});

test('attribute values the element cannot use are named, in the card and on the console, not silently replaced', async () => {
  await onTutorialPage(`<seq2seq-attention-demo model="en-fr-fixed" beam="99" sentence="I see the cat."></seq2seq-attention-demo>
    <seq2seq-attention-demo model="en-zh" sentence="I see the cat." lang="zh-CN" view="grid"></seq2seq-attention-demo>
    <seq2seq-attention-demo model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.newPage(url);
    const warnings = [];
    page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
    await page.waitForFunction(() => [...document.querySelectorAll('seq2seq-attention-demo')]
      .every((e) => e.shadowRoot?.querySelector('[data-testid="attention-heatmap"]')), null, { timeout: 30_000 });
    const notes = await page.evaluate(() => [...document.querySelectorAll('seq2seq-attention-demo')].map((e) => {
      const note = e.shadowRoot.querySelector('[data-testid="attribute-note"]');
      return { hidden: note.hidden, text: note.textContent };
    }));
    assert.equal(notes[0].hidden, false);
    assert.match(notes[0].text, /model="en-fr-fixed" is not one of en-fr, en-zh: showing en-fr instead\./);
    assert.match(notes[0].text, /beam="99" is not one of 1–8: showing 4 instead\./);
    assert.equal(notes[1].hidden, false);
    assert.match(notes[1].text, /view="grid" 不在可选值 heatmap, lines, step 之中：改为显示 heatmap。/);
    assert.deepEqual(notes[2], { hidden: true, text: '' }, 'valid attributes: no note');
    assert.ok(warnings.some((w) => /model="en-fr-fixed" is not one of en-fr, en-zh; showing en-fr instead/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /view="grid"/.test(w)), warnings.join('\n'));
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

test('a demo far down the page downloads nothing until it nears the viewport; its box holds its height; the download shows its progress', async () => {
  await onTutorialPage(`<seq2seq-attention-demo id="top" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>
    <div style="height: 5000px"></div>
    <seq2seq-attention-demo id="far" model="en-zh" sentence="The students read the long chapter about attention twice."></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.newPage(url, { width: 900, height: 800 });
    const models = [];
    page.on('request', (request) => { if (/\/models\/.*\.s2s$/.test(request.url())) models.push(new URL(request.url()).pathname); });
    const shadow = (id, selector) => page.evaluate(([id, selector]) => {
      const node = document.getElementById(id).shadowRoot.querySelector(selector);
      return node ? { text: node.textContent, minHeight: node.style?.minHeight ?? '' } : null;
    }, [id, selector]);
    await page.waitForFunction(() => document.getElementById('top')?.shadowRoot?.querySelector('[data-testid="attention-heatmap"]'), null, { timeout: 30_000 });
    // The top demo has translated; the far one waits, having asked for nothing.
    assert.match((await shadow('far', '.status')).text, /starts when you scroll to it/);
    assert.ok(Number.parseInt((await shadow('far', '.scroll')).minHeight, 10) > 300, 'its box holds the heatmap\'s height');
    assert.deepEqual(models.filter((m) => m.endsWith('/en-zh.s2s')), [], `requested: ${models.join(', ')}`);
    const statuses = [];
    await page.exposeFunction('s2sStatus', (text) => statuses.push(text));
    await page.evaluate(() => {
      const status = document.getElementById('far').shadowRoot.querySelector('.status');
      new MutationObserver(() => window.s2sStatus(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await page.locator('#far').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.getElementById('far').shadowRoot.querySelector('[data-testid="attention-heatmap"]'), null, { timeout: 30_000 });
    assert.deepEqual(models.filter((m) => m.endsWith('/en-zh.s2s')).length, 1, 'downloaded once it neared the viewport');
    assert.ok(statuses.some((s) => /Downloading the model: \d+\.\d of \d+\.\d MB/.test(s)), statuses.join(' | '));
    assert.equal((await shadow('far', '.scroll')).minHeight, '', 'the reserved height is released once the figure is there');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

test('theme: the card is dark on a dark host and light on a light one, follows a host that switches, obeys theme="…", and passes axe-core on both', async () => {
  const { createRequire } = await import('node:module');
  const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  await onTutorialPage(`<style>body.slate { background: #1e2129; color: #e2e4e9; } body { background: #fff; }</style>
    <main class="slate-host">
    <seq2seq-attention-demo id="auto" loading="eager" model="en-fr" sentence="I see the cat." view="step" step="2"></seq2seq-attention-demo>
    <seq2seq-attention-demo id="light" loading="eager" theme="light" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>
    <seq2seq-attention-demo id="bad" loading="eager" theme="night" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>
    </main>`, async (url) => {
    const page = await browser.newPage(url);
    await page.evaluate(() => document.body.classList.add('slate'));
    await page.waitForFunction(() => [...document.querySelectorAll('seq2seq-attention-demo')]
      .every((e) => e.shadowRoot?.querySelector('[data-testid="attention-heatmap"]')), null, { timeout: 30_000 });
    const cards = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('seq2seq-attention-demo')].map((e) => {
      const card = e.shadowRoot.querySelector('.card');
      return [e.id, { dark: card.classList.contains('dark'), background: getComputedStyle(card).backgroundColor, ink: getComputedStyle(card).color }];
    })));
    let seen = await cards();
    assert.equal(seen.auto.dark, true, 'auto on a dark host is dark');
    assert.equal(seen.auto.background, 'rgb(17, 24, 39)');
    assert.equal(seen.light.dark, false, 'theme="light" stays light on a dark host');
    assert.equal(seen.light.background, 'rgb(255, 255, 255)');
    assert.equal(seen.bad.dark, true, 'an unknown theme is auto');
    const note = await page.evaluate(() => document.querySelector('#bad').shadowRoot.querySelector('[data-testid="attribute-note"]').textContent);
    assert.match(note, /theme="night" is not one of light, dark, auto: showing auto instead\./);

    // axe-core's contrast rules on the dark card (the step panel included).
    await page.addScriptTag({ path: axePath });
    const contrast = async () => page.evaluate(async () => {
      // eslint-disable-next-line no-undef
      const result = await axe.run({ include: [['#auto']] }, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
      return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`));
    });
    assert.deepEqual(await contrast(), []);

    // The host switches to its light theme: the auto card follows, then
    // theme="dark" makes it dark whatever the host.
    await page.evaluate(() => document.body.classList.remove('slate'));
    await page.waitForFunction(() => !document.querySelector('#auto').shadowRoot.querySelector('.card').classList.contains('dark'));
    seen = await cards();
    assert.equal(seen.auto.background, 'rgb(255, 255, 255)');
    assert.deepEqual(await contrast(), []);
    await page.evaluate(() => document.querySelector('#light').setAttribute('theme', 'dark'));
    seen = await cards();
    assert.equal(seen.light.dark, true);
    // A background the browser computes in another colour space (Tailwind's
    // oklch palette): read in sRGB, a near-white is light, a near-black dark.
    for (const [colour, dark] of [['oklch(0.985 0.002 247.8)', false], ['oklch(0.21 0.034 264.7)', true], ['color(display-p3 0.1 0.1 0.12)', true]]) {
      await page.evaluate((c) => { document.body.style.background = c; }, colour);
      await page.waitForFunction((d) => document.querySelector('#auto').shadowRoot.querySelector('.card').classList.contains('dark') === d, dark);
    }
    assert.deepEqual(page.problems.filter((p) => !/theme="night"/.test(p)), []);
    await page.close();
  });
});

test('events: s2s-translated with the result, s2s-step when the reader picks a row, s2s-error with the message, all reaching the host page', async () => {
  await onTutorialPage(`<seq2seq-attention-demo id="ok" loading="eager" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>
    <script>
      window.events = [];
      for (const type of ['s2s-translated', 's2s-step', 's2s-error']) {
        document.addEventListener(type, (e) => window.events.push({ type, id: e.target.id, text: e.detail.text, output: e.detail.result?.text,
          rows: e.detail.result?.attention.length, step: e.detail.step, message: e.detail.message }));
      }
    </script>`, async (url) => {
    const page = await browser.newPage(url);
    await page.waitForFunction(() => window.events?.some((e) => e.type === 's2s-translated'), null, { timeout: 30_000 });
    const translated = (await page.evaluate(() => window.events)).find((e) => e.type === 's2s-translated');
    assert.equal(translated.id, 'ok');
    assert.equal(translated.text, 'I see the cat.');
    const shown = await page.evaluate(() => document.querySelector('#ok').shadowRoot.querySelector('[data-testid="translation-output"]').textContent);
    assert.equal(translated.output, shown);
    assert.ok(translated.rows >= 2);
    // The reader clicks the second row: the step attribute and the event follow.
    await page.locator('#ok [data-row-label="1"]').click();
    await page.waitForFunction(() => window.events.some((e) => e.type === 's2s-step'));
    assert.deepEqual((await page.evaluate(() => window.events)).filter((e) => e.type === 's2s-step').map((e) => e.step), [2]);
    // A model whose download fails: an error event with the card's message.
    await page.route('**/models/en-zh.s2s', (route) => route.abort());
    await page.evaluate(() => {
      const demo = document.createElement('seq2seq-attention-demo');
      demo.id = 'broken';
      demo.setAttribute('loading', 'eager');
      demo.setAttribute('model', 'en-zh');
      demo.setAttribute('sentence', 'I see the cat.');
      document.body.append(demo);
    });
    await page.waitForFunction(() => window.events.some((e) => e.type === 's2s-error'), null, { timeout: 30_000 });
    const error = (await page.evaluate(() => window.events)).find((e) => e.type === 's2s-error');
    assert.equal(error.id, 'broken');
    const card = await page.evaluate(() => document.querySelector('#broken').shadowRoot.querySelector('.status').textContent);
    assert.ok(error.message && card.includes(error.message), `${error.message} / ${card}`);
    await page.close();
  });
});

test('keyboard in a step-view demo: a handful of tab stops, Enter on a cell opens its step with focus, Previous/Next, Home/End and ↑/↓ between strips', async () => {
  await onTutorialPage(`<seq2seq-attention-demo id="d" loading="eager" model="en-fr" view="step" step="1"
    sentence="The students who read the chapter understood why the decoder looks back at every word."></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.newPage(url);
    await page.waitForFunction(() => document.querySelector('#d').shadowRoot?.querySelector('[data-testid="step-panel"] .strip'), null, { timeout: 30_000 });
    // Tab from the sentence box until focus leaves the element: every stop on the way.
    await page.locator('#d [data-testid="source-input"]').focus();
    const stops = [];
    for (let i = 0; i < 40; ++i) {
      const where = await page.evaluate(() => {
        const inner = document.querySelector('#d').shadowRoot.activeElement;
        return document.activeElement?.id === 'd' && inner ? (inner.dataset.testid ?? inner.getAttribute('class') ?? inner.tagName) : null;
      });
      if (where === null) break;
      stops.push(where);
      await page.keyboard.press('Tab');
    }
    assert.ok(stops.length >= 5 && stops.length <= 8, `tab stops in the demo: ${stops.length} (${stops.join(', ')})`);
    const stepOf = () => page.evaluate(() => document.querySelector('#d').getAttribute('step'));
    // Enter on a heatmap cell of row 3 (reached by the arrow keys): step 3, focus on the panel.
    await page.locator('#d [data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await stepOf(), '3');
    assert.equal(await page.evaluate(() => document.querySelector('#d').shadowRoot.activeElement?.dataset.testid), 'step-panel');
    // ←/→, Home/End on the panel; the buttons.
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(), '4');
    await page.keyboard.press('End');
    const last = Number(await stepOf());
    assert.ok(last > 4);
    await page.keyboard.press('Home');
    assert.equal(await stepOf(), '1');
    await page.locator('#d [data-testid="step-next"]').click();
    assert.equal(await stepOf(), '2');
    await page.locator('#d [data-testid="step-prev"]').click();
    assert.equal(await stepOf(), '1');
    // ↓ moves between the strips, one tab stop among them.
    const strips = await page.evaluate(() => [...document.querySelector('#d').shadowRoot.querySelectorAll('.strip')].map((s) => s.getAttribute('tabindex')));
    assert.ok(strips.length > 5);
    assert.deepEqual(strips.filter((t) => t === '0').length, 1);
    await page.locator('#d .strip').first().focus();
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => {
      const root = document.querySelector('#d').shadowRoot;
      return [...root.querySelectorAll('.strip')].indexOf(root.activeElement);
    });
    assert.equal(focused, 1);
    // → on a focused strip moves the step; the redrawn panel keeps the keyboard.
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(), '2');
    assert.equal(await page.evaluate(() => document.querySelector('#d').shadowRoot.activeElement?.dataset.testid), 'step-panel');
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(), '3');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

test('unit="words": the figure between words (the package\'s wordAttention), each row still summing to 1; a row picks its word\'s first step', async () => {
  await onTutorialPage(`<seq2seq-attention-demo id="w" loading="eager" unit="words" model="en-fr" sentence="Backpropagation computes gradients."></seq2seq-attention-demo>
    <seq2seq-attention-demo id="p" loading="eager" model="en-fr" sentence="Backpropagation computes gradients."></seq2seq-attention-demo>
    <seq2seq-attention-demo id="bad" loading="eager" unit="letters" model="en-fr" sentence="I see the cat."></seq2seq-attention-demo>`, async (url) => {
    const page = await browser.newPage(url);
    await page.waitForFunction(() => [...document.querySelectorAll('seq2seq-attention-demo')]
      .every((e) => e.shadowRoot?.querySelector('[data-testid="attention-heatmap"]')), null, { timeout: 30_000 })
      .catch(async (error) => {
        const statuses = await page.evaluate(() => [...document.querySelectorAll('seq2seq-attention-demo')].map((e) => `${e.id}: ${e.shadowRoot?.querySelector('.status')?.textContent}`));
        throw new Error(`${error.message}; ${statuses.join(' | ')}; ${page.problems.join(' | ')}`);
      });
    const words = await readHeatmap(page.locator('#w [data-testid="attention-heatmap"]'));
    const pieces = await readHeatmap(page.locator('#p [data-testid="attention-heatmap"]'));
    assert.equal(words.cols, 5, 'Backpropagation computes gradients . <eos>');
    assert.ok(pieces.cols > words.cols && pieces.rows > words.rows, `${pieces.rows}×${pieces.cols} pieces, ${words.rows}×${words.cols} words`);
    const sums = Array.from({ length: words.rows }, (_, r) => words.cells.filter((c) => c.row === r).reduce((a, c) => a + c.weight, 0));
    for (const sum of sums) assert.ok(Math.abs(sum - 1) < 1e-3, `row sums ${sums}`);
    // The last word's row (<eos>): its step is the last piece's, the pieces figure's last row.
    await page.locator(`#w [data-row-label="${words.rows - 1}"]`).click();
    assert.equal(await page.evaluate(() => document.querySelector('#w').getAttribute('step')), String(pieces.rows));
    const note = await page.evaluate(() => document.querySelector('#bad').shadowRoot.querySelector('[data-testid="attribute-note"]').textContent);
    assert.match(note, /unit="letters" is not one of pieces, words: showing pieces instead\./);
    await page.close();
  });
});

test('web/embed.html: one element from the query in an iframe on another origin, its height and its translation told to the parent', async () => {
  await onTutorialPage(`<iframe id="f" style="width: 100%; height: 300px; border: 0" title="Attention demo"
      src="${browser.server.origin}/web/embed.html?sentence=I%20see%20the%20cat.&model=en-zh&lang=zh-CN&unit=words"></iframe>
    <script>
      window.frameMessages = [];
      addEventListener('message', (event) => {
        window.frameMessages.push(event.data);
        if (event.data?.type === 's2s-height') document.getElementById('f').style.height = event.data.height + 'px';
      });
    </script>`, async (url) => {
    const page = await browser.newPage(url);
    await page.waitForFunction(() => window.frameMessages?.some((m) => m.type === 's2s-translated'), null, { timeout: 30_000 });
    const frame = page.frameLocator('#f');
    const shown = await frame.locator('[data-testid="translation-output"]').textContent();
    const messages = await page.evaluate(() => window.frameMessages);
    const translated = messages.find((m) => m.type === 's2s-translated');
    assert.equal(translated.detail.translation, shown);
    assert.equal(translated.detail.model, 'en-zh');
    // The frame grew to the element's height once the figure came.
    await page.waitForFunction(() => document.getElementById('f').getBoundingClientRect().height > 300);
    const inner = await frame.locator('seq2seq-attention-demo').evaluate((e) => [e.shadowRoot.querySelector('.card').lang, document.documentElement.scrollHeight, innerHeight]);
    assert.equal(inner[0], 'zh-CN');
    assert.ok(inner[1] <= inner[2] + 2, `the frame shows all of its page (${inner[1]} px in ${inner[2]})`);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
