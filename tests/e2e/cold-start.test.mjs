// The demo page's fast start (issue 19) in Chromium: index.html starts the
// package's translation worker (one bundled file, dist/model-worker.bundle.js)
// and compiles s2s-core.wasm itself (WebAssembly.compileStreaming, while the
// model downloads); the page hands both to createTranslator, which posts the
// module to the worker. Checked: the page boots through that path,
// and still boots when compileStreaming is missing or the server sends the
// .wasm with another MIME type (it compiles from the bytes instead); the
// first result draws the heatmap first and the panels that are not on
// screen after the next paint (the step panel at once with ?view=step).
//
// Every boot is a first visit: each page opens in a browser context of its
// own (useBrowser({ isolated: true })), with no HTTP cache, Cache API or
// ETags left by another test, whatever ran before it (issue 45).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const browser = useBrowser({ isolated: true });

// Opens the page with `prepare(page)` run first; returns what it fetched,
// the page's and the worker's performance marks, and its problems.
async function boot(prepare = async () => {}) {
  const page = await browser.newPage(null);
  const { problems } = page;
  const requests = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  const workers = [];
  page.on('worker', (worker) => workers.push(worker));
  await prepare(page);
  await page.goto(`${browser.server.origin}/web/?text=${encodeURIComponent('I love deep learning.')}`);
  await waitForTranslation(page, 'I love deep learning.');
  await page.locator('#result [data-testid="attention-heatmap"] [data-row]').first().waitFor();
  const marks = (target) => target.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));
  const preloaded = await page.evaluate(() => [...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => new URL(l.href).pathname));
  const result = { page, problems, requests, preloaded, workers: workers.map((w) => new URL(w.url()).pathname),
    pageMarks: await marks(page), workerMarks: workers.length ? await marks(workers[0]) : [] };
  await page.close();
  return result;
}

const count = (list, path) => list.filter((p) => p === path).length;

test('the page boots through the compiled-module path: one bundled worker, the page\'s module posted to it', async () => {
  const r = await boot();
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.workers, ['/dist/model-worker.bundle.js']);
  assert.ok(r.pageMarks.includes('s2s:wasm-compiled'), `page marks: ${r.pageMarks}`);
  assert.ok(r.workerMarks.includes('s2s:wasm-received'), `worker marks: ${r.workerMarks}`);
  // Fetched once, by the page: the worker instantiated the posted module.
  assert.equal(count(r.requests, '/dist/s2s-core.wasm'), 1, r.requests.join('\n'));
  // The bundle holds the runtime: the worker fetched no module graph, and
  // the page, which imports createTranslator (dist/translator.js) and
  // dist/'s plain-data modules, no runtime glue.
  for (const file of ['/dist/index.js', '/dist/load-model.js', '/dist/runtime.js', '/dist/s2s-core.js', '/dist/model-worker.js']) {
    assert.equal(count(r.requests, file), 0, `${file} was fetched:\n${r.requests.join('\n')}`);
  }
  // Every module the page imported as it started was asked for at once by
  // the start script (web/demo/page-boot.js's modulepreload list, built from the
  // import graph), not discovered level by level.
  const scripts = new Set(['/web/demo/page-boot.js', '/web/demo/app.js', '/dist/model-worker.bundle.js']);
  const late = [...new Set(r.requests)].filter((p) => p.endsWith('.js') && !scripts.has(p) && !r.preloaded.includes(p));
  assert.deepEqual(late, [], `fetched without a modulepreload link (rebuild: npm run build:wasm): ${late}`);
  assert.ok(r.preloaded.includes('/web/figures/dom.js') && r.preloaded.includes('/dist/translator.js'), `preloaded: ${r.preloaded}`);
});

test('without WebAssembly.compileStreaming the page compiles from the bytes and still boots', async () => {
  const r = await boot((page) => page.addInitScript(() => { delete WebAssembly.compileStreaming; }));
  assert.deepEqual(r.problems, []);
  assert.ok(r.workerMarks.includes('s2s:wasm-received'), `worker marks: ${r.workerMarks}`);
  assert.equal(count(r.requests, '/dist/s2s-core.wasm'), 1, r.requests.join('\n'));
});

test('a .wasm served with the wrong MIME type: compileStreaming refuses it, the page compiles the bytes', async () => {
  let served = 0;
  const r = await boot((page) => page.route('**/dist/s2s-core.wasm', async (route) => {
    served += 1;
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
  }));
  assert.deepEqual(r.problems, []);
  assert.ok(served >= 2, `served ${served} times: compileStreaming's try, then the bytes`);
  assert.ok(r.workerMarks.includes('s2s:wasm-received'), `worker marks: ${r.workerMarks}`);
});

test('when the page cannot compile the module at all, the worker loads the file itself', async () => {
  let served = 0;
  const r = await boot((page) => page.route('**/dist/s2s-core.wasm', async (route) => {
    served += 1;
    // The page's two tries fail; the worker's own fetch (the third) works.
    if (served <= 2) await route.fulfill({ status: 503, body: 'busy' });
    else await route.continue();
  }));
  assert.deepEqual(r.problems.filter((p) => !p.includes('503')), []);
  assert.ok(!r.workerMarks.includes('s2s:wasm-received'), `worker marks: ${r.workerMarks}`);
  assert.ok(served >= 2, `served ${served} times`);
});

// What is on the page when app.js marks 's2s:rendered' (the first result
// drawn): the heatmap's cells, the step panel's positions, the About rows.
async function drawnAtFirstResult(query) {
  const page = await browser.newPage(null);
  const { problems } = page;
  await page.addInitScript(() => {
    const mark = performance.mark.bind(performance);
    performance.mark = (name, ...rest) => {
      if (name === 's2s:rendered') {
        window.__s2sAtRendered = {
          cells: document.querySelectorAll('#result [data-testid="attention-heatmap"] [data-row]').length,
          stepPositions: document.querySelectorAll('#step-panel [data-weight]').length,
          aboutRows: document.querySelectorAll('#about-list dt').length,
        };
      }
      return mark(name, ...rest);
    };
  });
  await page.goto(`${browser.server.origin}/web/?text=${encodeURIComponent('I love deep learning.')}${query}`);
  await waitForTranslation(page, 'I love deep learning.');
  await page.waitForFunction(() => performance.getEntriesByName('s2s:panels-rendered').length > 0);
  const result = await page.evaluate(() => ({
    atRendered: window.__s2sAtRendered,
    later: {
      stepPositions: document.querySelectorAll('#step-panel [data-weight]').length,
      aboutRows: document.querySelectorAll('#about-list dt').length,
    },
    order: ['s2s:rendered', 's2s:panels-rendered'].map((name) => performance.getEntriesByName(name)[0].startTime),
  }));
  await page.close();
  return { problems, ...result };
}

test('the first result draws the heatmap first, the step panel and About after the next paint; ?view=step draws the step panel at once', async () => {
  const plain = await drawnAtFirstResult('');
  assert.deepEqual(plain.problems, []);
  assert.ok(plain.atRendered.cells > 0, 'the heatmap is drawn with the result');
  assert.equal(plain.atRendered.stepPositions, 0, 'the step panel waits for the paint');
  assert.equal(plain.atRendered.aboutRows, 0, 'About this model waits for the paint');
  assert.ok(plain.later.stepPositions > 0 && plain.later.aboutRows > 0, 'both are drawn after it');
  assert.ok(plain.order[0] < plain.order[1]);

  const step = await drawnAtFirstResult('&view=step');
  assert.deepEqual(step.problems, []);
  assert.ok(step.atRendered.cells > 0);
  assert.ok(step.atRendered.stepPositions > 0, '?view=step: the step panel is drawn with the result');
  assert.equal(step.atRendered.aboutRows, 0);
});
