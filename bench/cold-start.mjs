// Cold start, old build against new, side by side in one run, and against
// a floor page measured in the same run:
//
//   node bench/cold-start.mjs [--old DIR] [--loads 7] [--network MBIT[,RTT_MS]] [--out FILE]
//
// The floor page does only what no version of the demo can avoid: it starts
// a module worker, which compiles dist/s2s-core.wasm (compileStreaming) and
// fetches the model, then draws one SVG rectangle. The demo's cold and
// repeat-visit figures are also given as ratios to it (the target: at most 1.5).
// Without --old only the new build and the floor are measured.
// --network 50,20 loads every page (floor, old and new alike, their workers'
// requests too) over an emulated link of 50 Mbit/s down and up with a
// 20 ms round trip (Chromium's network emulation, CDP
// Network.emulateNetworkConditions), as a visitor would rather than from
// localhost; the Node and loadModel figures are unaffected.
// --out FILE: where the report goes (default bench/cold-start.md).
//
// DIR is a copy of the repository at the commit to compare against, built
// (its web/, dist/ and models/; scripts/serve.mjs when it has one). Make one
// with: git worktree add /tmp/s2s-old REV && (cd /tmp/s2s-old && npm ci &&
// bash scripts/build-wasm.sh && ln -sfn "$OLDPWD/models" models), or copy
// web/ and dist/ of a build. Each loads its own models/en-fr.s2s (the same
// model in the file format that build writes), or both S2S_COLD_MODEL=PATH. Each figure alternates old and new load by load (the order
// flipped every round), so a machine that gets busier or quieter affects both
// alike; medians of --loads each:
//   - the demo page's cold load (a fresh browser context: empty cache, new
//     worker) to the first heatmap cell, with its step marks, and a repeat
//     visit (the same context, loaded again);
//   - in Chromium: the runtime's start and loadModel(bytes) (model parse);
//   - in Node (a fresh process each): runtime start, model parse, ready to
//     translate (import of the API to a loaded model), first translation;
//   - the first load's payload: every file the page (and its workers)
//     requested before the first heatmap cell on the first cold load, with
//     its size on disk, raw and gzipped (node:zlib, level 9), old against new.
// Writes bench/cold-start.md and prints it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COLD_STEPS } from './report.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// --child ROOT MODEL: one Node measurement in this fresh process (JSON out).
if (process.argv[2] === '--child') {
  const [dir, modelPath] = process.argv.slice(3);
  const t0 = performance.now();
  const [api, diagnostics] = await Promise.all([import(pathToFileURL(join(dir, 'dist', 'index.js'))),
    import(pathToFileURL(join(dir, 'dist', 'diagnostics.js')))]);
  const t1 = performance.now();
  await diagnostics.preloadRuntime();
  const t2 = performance.now();
  const bytes = new Uint8Array(readFileSync(modelPath));
  const t3 = performance.now();
  const model = await api.loadModel(bytes);
  const t4 = performance.now();
  model.translate('I love deep learning.');
  const t5 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, runtimeMs: t2 - t1, parseMs: t4 - t3, readyMs: t4 - t0 - (t3 - t2), firstTranslationMs: t5 - t4 }));
  process.exit(0);
}

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const oldRoot = option('--old', process.env.S2S_OLD_ROOT);
const loads = Number(option('--loads', 7));
const network = option('--network', null);
const [mbit, rttMs = 20] = network === null ? [] : network.split(',').map(Number);
if (network !== null && !(mbit > 0 && rttMs >= 0)) {
  console.error('cold-start: --network takes MBIT[,RTT_MS], for example --network 50,20');
  process.exit(2);
}
const outFile = resolve(option('--out', join(root, 'bench', 'cold-start.md')));
const modelOf = (dir) => resolve(process.env.S2S_COLD_MODEL ?? join(dir, 'models', 'en-fr.s2s'));
const modelPath = modelOf(root);
if (oldRoot && (!existsSync(join(oldRoot, 'dist', 'index.js')) || !existsSync(join(oldRoot, 'web', 'index.html')))) {
  console.error('cold-start: --old DIR must be a built copy of the repository to compare against (web/ and dist/; see this file\'s header)');
  process.exit(2);
}
for (const file of [join(root, 'dist', 'model-worker.bundle.js'), modelPath]) {
  if (!existsSync(file)) {
    console.error(`cold-start: ${file} is missing; build with \`bash scripts/build-wasm.sh\``);
    process.exit(2);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const builds = oldRoot ? [{ name: 'old', dir: resolve(oldRoot) }, { name: 'new', dir: root }] : [{ name: 'new', dir: root }];
const newBuild = builds.at(-1);
const log = (message) => process.stderr.write(`cold-start: ${message}\n`);
// Both orders in turn: round i runs old first when i is even.
const inTurn = (i) => (i % 2 ? [...builds].reverse() : builds);

// The floor page: a module worker that compiles the runtime and fetches the
// model, then one SVG rectangle where the heatmap's first cell would be.
const FLOOR_WORKER = `const [module, bytes] = await Promise.all([
  WebAssembly.compileStreaming(fetch('/dist/s2s-core.wasm')),
  fetch('/models/en-fr.s2s').then((r) => r.arrayBuffer()),
]);
postMessage({ exports: WebAssembly.Module.exports(module).length, bytes: bytes.byteLength });`;
const FLOOR_PAGE = `<!doctype html><meta charset="utf-8"><title>floor</title><div id="out"></div>
<script type="module">
const worker = new Worker('/__floor-worker.js', { type: 'module' });
worker.onmessage = () => {
  document.getElementById('out').innerHTML =
    '<svg data-testid="attention-heatmap" width="20" height="20"><rect data-row="0" data-col="0" width="20" height="20" fill="#4338ca"/></svg>';
};
</script>`;

// ---------------------------------------------------------------------------
// Node: a fresh process per measurement.
for (const b of builds) b.node = [];
for (let i = 0; i < loads; ++i) {
  for (const b of inTurn(i)) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', b.dir, modelOf(b.dir)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`the Node measurement of ${b.name} failed: ${r.stderr}`);
    b.node.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
}
log('Node done');

// ---------------------------------------------------------------------------
// Chromium.
const { launchChromium } = await import('../tests/js/helpers/chromium.mjs');
for (const b of builds) {
  const serve = existsSync(join(b.dir, 'scripts', 'serve.mjs')) ? join(b.dir, 'scripts', 'serve.mjs') : join(root, 'scripts', 'serve.mjs');
  const { startServer } = await import(pathToFileURL(serve));
  b.server = await startServer({ root: b.dir, port: 0, mounts: { '/models/': dirname(modelOf(b.dir)) } });
  b.page = [];
  b.repeat = [];
  b.chromium = [];
}
const { browser, close } = await launchChromium();
const floor = {};

// In the page, before its own scripts: a MutationObserver records when the
// first heatmap cell enters the DOM, and window.__s2sFirstCell is a promise
// of that time, which pageLoad awaits (no polling from outside, which would
// add work to the page's main thread and quantize the wait).
const FIRST_CELL = () => {
  const cell = '[data-testid="attention-heatmap"] [data-row]';
  window.__s2sFirstCell = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (document.querySelector(cell)) {
        observer.disconnect();
        resolve(performance.now());
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
};

// `requested` (URLs, filled by the caller's request listener, which sees its
// workers' requests too) is copied as the first cell appears: the first load.
async function pageLoad(page, url, workers, requested = []) {
  await page.goto(url);
  const firstCellMs = await page.evaluate(() => Promise.race([window.__s2sFirstCell ?? Promise.reject(new Error('FIRST_CELL did not run')),
    new Promise((resolve, reject) => setTimeout(() => reject(new Error('no heatmap cell within 60 s')), 60_000))]));
  const firstLoad = [...requested];
  const timing = await page.evaluate(() => ({ timeOrigin: performance.timeOrigin,
    marks: Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])) }));
  const worker = workers.at(-1);
  if (worker) {
    try {
      const w = await worker.evaluate(() => ({ timeOrigin: performance.timeOrigin,
        marks: Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])) }));
      for (const [name, t] of Object.entries(w.marks)) timing.marks[name] ??= t + w.timeOrigin - timing.timeOrigin;
    } catch {
      // the worker is gone: its marks are missing from this load
    }
  }
  return { firstCellMs, firstLoad, ...timing };
}

// The emulated link, when --network is given: set on the page's target,
// it also applies to the requests of the page's workers.
async function throttle(context, page) {
  if (network === null) return;
  const cdp = await context.newCDPSession(page);
  const bytesPerSecond = (mbit * 1e6) / 8;
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: rttMs, downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond });
}

try {
  const url = (b) => `${b.server.url}?text=${encodeURIComponent('I love deep learning.')}`;
  const floorRoutes = async (context) => {
    await context.route('**/__floor.html', (route) => route.fulfill({ contentType: 'text/html', body: FLOOR_PAGE }));
    await context.route('**/__floor-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: FLOOR_WORKER }));
  };
  floor.page = [];
  floor.repeat = [];
  for (let i = 0; i < loads; ++i) {
    log(`page loads ${i + 1}/${loads}`);
    // The floor first in even rounds, last in odd ones, like the builds.
    const measureFloor = async () => {
      const context = await browser.newContext();
      await floorRoutes(context);
      const page = await context.newPage();
      await throttle(context, page);
      await page.addInitScript(FIRST_CELL);
      floor.page.push(await pageLoad(page, `${newBuild.server.origin}/__floor.html`, []));
      floor.repeat.push(await pageLoad(page, `${newBuild.server.origin}/__floor.html`, []));
      await context.close();
    };
    if (i % 2 === 0) await measureFloor();
    for (const b of inTurn(i)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const workers = [];
      const requested = [];
      page.on('worker', (w) => workers.push(w));
      page.on('request', (request) => requested.push(request.url()));
      await throttle(context, page);
      await page.addInitScript(FIRST_CELL);
      b.page.push(await pageLoad(page, url(b), workers, requested));
      b.repeat.push(await pageLoad(page, url(b), workers));  // a repeat visit: same context, its HTTP cache
      await context.close();
    }
    if (i % 2 === 1) await measureFloor();
  }
  for (let i = 0; i < loads; ++i) {
    log(`Chromium loadModel ${i + 1}/${loads}`);
    for (const b of inTurn(i)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.route('**/__cold-start.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>cold start</title>' }));
      await page.goto(`${b.server.origin}/__cold-start.html`);
      b.chromium.push(await page.evaluate(async () => {
        const t0 = performance.now();
        const [api, diagnostics] = await Promise.all([import('/dist/index.js'), import('/dist/diagnostics.js')]);
        await diagnostics.preloadRuntime();
        const t1 = performance.now();
        const bytes = new Uint8Array(await (await fetch('/models/en-fr.s2s')).arrayBuffer());
        const t2 = performance.now();
        const model = await api.loadModel(bytes);
        const t3 = performance.now();
        model.translate('I love deep learning.');
        return { runtimeMs: t1 - t0, parseMs: t3 - t2, firstTranslationMs: performance.now() - t3 };
      }));
      await context.close();
    }
  }
} finally {
  await close();
  for (const b of builds) await b.server.close();
}

// ---------------------------------------------------------------------------
// The first load's payload: the files behind the URLs of a build's first cold
// load (its server's mapping: /models/ is the mounted model's folder, a
// folder is its index.html), each once, with raw and gzipped bytes
// (node:zlib at level 9, within 1% of GNU gzip -9).
function firstLoadFiles(b) {
  const paths = new Set();
  for (const address of b.page[0].firstLoad) {
    const u = new URL(address);
    if (u.origin === new URL(b.server.origin).origin) paths.add(u.pathname.endsWith('/') ? `${u.pathname}index.html` : u.pathname);
  }
  return [...paths].sort().map((path) => {
    const file = path.startsWith('/models/') ? join(dirname(modelOf(b.dir)), path.slice('/models/'.length)) : join(b.dir, path);
    const bytes = readFileSync(file);
    return { path: path.slice(1), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}
for (const b of builds) b.files = firstLoadFiles(b);

// ---------------------------------------------------------------------------
// Report.
const fmt = (x) => (x === undefined || Number.isNaN(x) ? '–' : Math.round(x).toLocaleString('en'));
const med = (list, key) => median(list.map((x) => x[key]).filter((x) => x !== undefined));
const row = (label, pick) => {
  const values = builds.map(pick);
  const ratio = values.length === 2 && values[0] && values[1] ? (values[0] / values[1]).toFixed(2) : '–';
  return `| ${label} | ${values.map(fmt).join(' | ')} |${values.length === 2 ? ` ${ratio} |` : ''}`;
};
const markMedian = (b, list, mark) => {
  const xs = b[list].map((l) => l.marks[mark]).filter((x) => x !== undefined);
  return xs.length ? median(xs) : undefined;
};
// The old copy's commit, when it is a checkout of its own (not a folder inside this one).
const oldTop = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: builds[0].dir, encoding: 'utf8' }).stdout?.trim();
const oldCommit = oldTop === builds[0].dir ? spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: builds[0].dir, encoding: 'utf8' }).stdout?.trim() : '';
const newCommit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim();
// Changes to tracked files, but for this bench's own reports (a second run
// finds the first one's); untracked files (a node_modules link) are not the build's.
const newChanged = spawnSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/cold-start*.md'],
  { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
const names = builds.map((b) => b.name);
const header = `| ms (median) | ${names.join(' | ')} |${builds.length === 2 ? ' old / new |' : ''}`;
const rule = `|---|${names.map(() => '---:').join('|')}|${builds.length === 2 ? '---:|' : ''}`;
const floorCold = med(floor.page, 'firstCellMs');
const floorRepeat = med(floor.repeat, 'firstCellMs');
const newCold = med(newBuild.page, 'firstCellMs');
const newRepeat = med(newBuild.repeat, 'firstCellMs');
const lines = [
  oldRoot ? '# Cold start, old against new, and the floor' : '# Cold start against the floor',
  '',
  `Run ${new Date().toISOString()} by \`node bench/cold-start.mjs${oldRoot ? ` --old ${oldRoot}` : ''} --loads ${loads}${network === null ? '' : ` --network ${mbit},${rttMs}`}\`: ${oldRoot ? `old = ${builds[0].dir}${oldCommit ? ` (${oldCommit})` : ''}, ` : ''}new = this checkout (${newCommit}${newChanged ? ', with uncommitted changes' : ''}), model ${process.env.S2S_COLD_MODEL ?? 'models/en-fr.s2s of each'}.`,
  `Machine: ${cpus()[0]?.model} × ${cpus().length}, load average ${loadavg().map((x) => x.toFixed(2)).join(' / ')} at the end (another process may be busy on a core: compare within this run, not across runs).`,
  `Each figure is the median of ${loads}, the pages measured in turn (order flipped each round).`,
  network === null ? 'The pages load from a server on this machine (localhost): the model\'s download takes a few tens of ms.'
    : `The pages load over an emulated link of ${mbit} Mbit/s with a ${rttMs} ms round trip (Chromium's network emulation), the floor's too.`,
  '',
  '**Against the floor** (a page that starts a module worker, which compiles `dist/s2s-core.wasm` and fetches the model, then draws one SVG rectangle: what no version of the demo can avoid), measured in the same run:',
  '',
  '| to the first heatmap cell (ms, median) | floor | demo (new) | demo / floor |',
  '|---|---:|---:|---:|',
  `| cold load (a fresh browser context) | ${fmt(floorCold)} | ${fmt(newCold)} | ${(newCold / floorCold).toFixed(2)} |`,
  `| repeat visit (same context, its HTTP cache) | ${fmt(floorRepeat)} | ${fmt(newRepeat)} | ${(newRepeat / floorRepeat).toFixed(2)} |`,
  '',
  header,
  rule,
  row('**cold page load to the first heatmap cell**', (b) => med(b.page, 'firstCellMs')),
  row('repeat visit (same context) to the first heatmap cell', (b) => med(b.repeat, 'firstCellMs')),
  row('Chromium: start the runtime (import + compile + instantiate)', (b) => med(b.chromium, 'runtimeMs')),
  row('**Chromium: model parse** (loadModel of the bytes)', (b) => med(b.chromium, 'parseMs')),
  row('Chromium: first translation (~5 words)', (b) => med(b.chromium, 'firstTranslationMs')),
  row('Node: start the runtime', (b) => med(b.node, 'runtimeMs')),
  row('**Node: model parse**', (b) => med(b.node, 'parseMs')),
  row('**Node: ready to translate** (import → model loaded, without reading the file)', (b) => med(b.node, 'readyMs')),
  row('Node: first translation (~5 words)', (b) => med(b.node, 'firstTranslationMs')),
  '',
  "The cold page load step by step (median ms since navigation start; marks of web/index.html, web/figures/translator.js, web/demo/app.js and the package's model-worker.js):",
  '',
  `| step | ${names.join(' | ')} |`,
  `|---|${names.map(() => '---:').join('|')}|`,
  ...COLD_STEPS.map(([label, mark]) => `| ${label} | ${builds.map((b) => fmt(markMedian(b, 'page', mark))).join(' | ')} |`),
  `| the first heatmap cell is in the DOM | ${builds.map((b) => fmt(med(b.page, 'firstCellMs'))).join(' | ')} |`,
  '',
  `The first load's payload: every file requested before the first heatmap cell of the first cold load (the page's and its workers'), bytes on disk, raw / gzipped (zlib level 9)${builds.length === 2 ? '; – where that build did not request it' : ''}:`,
  '',
  `| file | ${names.map((n) => `${n} raw | ${n} gzip`).join(' | ')} |`,
  `|---|${names.map(() => '---:|---:').join('|')}|`,
  ...[...new Set(builds.flatMap((b) => b.files.map((f) => f.path)))].sort().map((path) => `| ${path} | ${builds.map((b) => {
    const f = b.files.find((x) => x.path === path);
    return f ? `${fmt(f.raw)} | ${fmt(f.gzip)}` : '– | –';
  }).join(' | ')} |`),
  `| **total** (${builds.map((b) => `${b.name}: ${b.files.length} files`).join(', ')}) | ${builds.map((b) => `${fmt(b.files.reduce((a, f) => a + f.raw, 0))} | ${fmt(b.files.reduce((a, f) => a + f.gzip, 0))}`).join(' | ')} |`,
  '',
  `All cold loads (ms): ${builds.map((b) => `${b.name} ${b.page.map((l) => fmt(l.firstCellMs)).join(', ')}`).join('; ')}; floor ${floor.page.map((l) => fmt(l.firstCellMs)).join(', ')}.`,
  '',
];
writeFileSync(outFile, `${lines.join('\n')}`);
console.log(lines.join('\n'));
