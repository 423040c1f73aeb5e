// The page thread while a bundled app translates: for each bundler the
// README names (Vite, webpack 5, Rollup with its two plugins, esbuild with
// the README's `cp`), one small app built from the packed tarball (as
// tests/js/bundlers.test.mjs builds them) translates an 80-word input at
// beam 8 with createTranslator, in Debian's Chromium (playwright-core, never
// a downloaded browser). What the page's own thread went through meanwhile:
//   - its longest task (PerformanceObserver 'longtask': Chromium reports
//     only tasks over 50 ms, so "none" means every task was shorter);
//   - the longest gap between two ticks of a setTimeout(0) chain, a finer
//     figure of the same thing (the chain ticks every 4 ms when idle);
// and, as the control, the same input translated by loadModel's synchronous
// API on that thread. The figures, not a pass or a fail: the tests only
// require that the translation runs in a worker (the machine is shared, so
// a clock decides nothing there).
//
//   node bench/bundlers.mjs [--runs 5] [--out bench/bundlers.md]
//
// Writes the Markdown report to --out (default bench/bundlers.md) and prints it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { serveFolder } from '../tests/js/helpers/static-server.mjs';
import { builders, packedApp } from '../tests/js/helpers/bundled-app.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '5' }, out: { type: 'string', default: join(root, 'bench', 'bundlers.md') } } });
const RUNS = Number(options.runs);
if (!(Number.isInteger(RUNS) && RUNS >= 1)) throw new Error(`--runs takes a whole number from 1, got ${options.runs}`);
const BEAM = 8;
const started = performance.now();
const log = (message) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);

// The input: two of the benchmark's longest development sentences
// (bench/sentences.json, the "40" bucket), 43 + 37 words.
const { buckets } = JSON.parse(readFileSync(join(root, 'bench', 'sentences.json'), 'utf8'));
const longest = buckets.at(-1).sentences;
const TEXT = `${longest[0]} ${longest[2]}`;
const WORDS = TEXT.split(/\s+/).length;

// The app: the README's bundler lines, then the measurement; its result in window.__bench.
const MAIN = `import { createTranslator, loadModel } from 'seq2seq-attention';
import enFr from 'seq2seq-attention/models/en-fr';

const TEXT = ${JSON.stringify(TEXT)};
const longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push({ start: e.startTime, end: e.startTime + e.duration }); })
  .observe({ type: 'longtask', buffered: true });
const ticks = [];
(function tick() { ticks.push(performance.now()); setTimeout(tick, 0); })();
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

// The page thread between from and to: its longest task (0: none over 50 ms)
// and the longest gap between two timer ticks.
function pageThread(from, to) {
  const tasks = longTasks.filter((e) => e.end > from && e.start < to).map((e) => e.end - e.start);
  const inside = ticks.filter((t) => t >= from && t <= to);
  const edges = [from, ...inside, ticks.find((t) => t > to) ?? to];
  let gap = 0;
  for (let i = 1; i < edges.length; ++i) gap = Math.max(gap, edges[i] - edges[i - 1]);
  return { longestTaskMs: tasks.length ? Math.max(...tasks) : 0, longTasks: tasks.length, longestGapMs: gap };
}

async function measure(translate) {
  await settle();
  const from = performance.now();
  const result = await translate();
  const to = performance.now();
  await settle();  // the long task entries of the window arrive
  return { ms: to - from, tokens: result.targetTokens.length, text: result.text, ...pageThread(from, to) };
}

async function main() {
  const translator = await createTranslator(enFr);
  await translator.translate('Warm up.', { beamSize: 4 });
  // The floor: the page thread doing nothing for as long as a translation takes.
  const idle = await measure(async () => { await new Promise((resolve) => setTimeout(resolve, 500)); return { targetTokens: [], text: '' }; });
  const runs = [];
  for (let i = 0; i < ${RUNS}; ++i) runs.push(await measure(() => translator.translate(TEXT, { beamSize: ${BEAM} })));
  const backend = translator.backend;
  await translator.dispose();
  // The control: the synchronous API on the page's thread.
  const model = await loadModel(enFr);
  model.translate('Warm up.', { beamSize: 4 });
  const control = [];
  for (let i = 0; i < ${RUNS}; ++i) control.push(await measure(async () => model.translate(TEXT, { beamSize: ${BEAM} })));
  model.dispose();
  return { backend, idle, runs, control };
}
main().then((result) => { window.__bench = result; }, (error) => { window.__bench = { error: String(error?.stack ?? error) }; });
`;
const page = (script) => `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>app</title></head>
<body><script type="module" src="${script}"></script></body></html>
`;

// Each bundler as tests/js/bundlers.test.mjs runs it (esbuild: with the README's step).
const BUILDS = {
  Vite: (app, outDir) => builders.vite(app, outDir),
  'webpack 5': (app, outDir) => builders.webpack(app, outDir, page('main.js')),
  Rollup: (app, outDir) => builders.rollup(app, outDir, page('main.js')),
  esbuild: (app, outDir) => builders.esbuild(app, outDir, page('main.js')),
};

const work = mkdtempSync(join(tmpdir(), 's2s-bench-bundlers-'));
const rows = [];
let chromium;
let version;
try {
  log('npm pack, and the app installed from the tarball');
  const app = packedApp(work, { 'src/main.js': MAIN, 'index.html': page('/src/main.js') });

  chromium = await launchChromium();
  version = chromium.browser.version();
  for (const [bundler, build] of Object.entries(BUILDS)) {
    log(`${bundler}: build`);
    const outDir = join(work, `out-${bundler.split(' ')[0].toLowerCase()}`);
    await build(app, outDir);
    log(`${bundler}: ${RUNS} translation(s) of ${WORDS} words at beam ${BEAM} in Chromium, then the control`);
    const server = await serveFolder(outDir);
    const context = await chromium.browser.newContext();
    const tab = await context.newPage();
    const problems = [];
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    tab.on('console', (message) => { if (['error', 'warning'].includes(message.type())) problems.push(`console: ${message.text()}`); });
    tab.on('response', (response) => { if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`); });
    try {
      await tab.goto(`${server.url}/`);
      await tab.waitForFunction(() => window.__bench !== undefined, null, { timeout: 600_000, polling: 200 });
      const result = await tab.evaluate(() => window.__bench);
      if (result.error) throw new Error(`${bundler}: ${result.error}`);
      rows.push({ bundler, ...result, problems });
    } finally {
      await context.close();
      await server.close();
    }
  }
} finally {
  await chromium?.close();
  rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------
// The report.

const ms = (x) => `${Math.round(x).toLocaleString('en')}`;
const task = (x) => (x > 0 ? ms(x) : 'none > 50');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'unknown';
const dirty = (spawnSync('git', ['status', '--porcelain', '--', 'src/wasm'], { cwd: root, encoding: 'utf8' }).stdout ?? '').trim() !== '';
const outputs = new Set(rows.flatMap((r) => [...r.runs, ...r.control].map((x) => x.text)));
const lines = [
  '# The page thread while a bundled app translates',
  '',
  `Written by \`node bench/bundlers.mjs --runs ${RUNS}\` on ${new Date().toISOString()}: this checkout (${commit}${dirty ? ', with uncommitted changes under src/wasm' : ''}), packed with \`npm pack\`, installed into a fresh folder and built by each bundler as the README says (the app of \`tests/js/bundlers.test.mjs\`); Chromium ${version} (Debian's, headless), ${cpus().length} cores shared with other work (load average ${loadavg().map((x) => x.toFixed(2)).join(', ')} at the end).`,
  '',
  `Each app warms up with one short sentence, then translates ${WORDS} words (two sentences of \`bench/sentences.json\`'s longest bucket) at beam ${BEAM} with \`createTranslator\`, ${RUNS} time${RUNS > 1 ? 's' : ''}; then the control: the same input as many times with \`loadModel\`'s synchronous API on the page's thread. For each translation: the page thread's longest task (PerformanceObserver \`longtask\`, which reports only tasks over 50 ms) and the longest gap between two ticks of a \`setTimeout(0)\` chain on that thread (4 ms when nothing else runs; the floor column: the same gap over 500 ms of the page doing nothing, which is what the machine's other work costs). Worst and median over the runs.`,
  '',
  '| bundler | backend | translation in the worker, ms (median) | longest task, ms (worst / median) | longest timer gap, ms (worst / median) | floor: timer gap idle, ms | control on the page thread: translation = longest task, ms (worst / median) | problems (404s, console errors) |',
  '|---|---|--:|--:|--:|--:|--:|---|',
];
for (const r of rows) {
  const tasks = r.runs.map((x) => x.longestTaskMs);
  log(`${r.bundler}: worker translations ${r.runs.map((x) => ms(x.ms)).join(', ')} ms; control ${r.control.map((x) => ms(x.ms)).join(', ')} ms`);
  const gaps = r.runs.map((x) => x.longestGapMs);
  lines.push(`| ${r.bundler} | ${r.backend} | ${ms(median(r.runs.map((x) => x.ms)))} | ${task(Math.max(...tasks))} / ${task(median(tasks))} | ${ms(Math.max(...gaps))} / ${ms(median(gaps))} | ${ms(r.idle.longestGapMs)} | ${task(Math.max(...r.control.map((x) => x.longestTaskMs)))} / ${task(median(r.control.map((x) => x.longestTaskMs)))} | ${r.problems.length ? r.problems.join('; ') : 'none'} |`);
}
lines.push('', `Output: ${rows[0]?.runs[0].tokens} target tokens; ${outputs.size === 1 ? 'the same translation from every app, run and control' : `${outputs.size} different translations (they should agree)`}.`, '');
const markdown = lines.join('\n');
writeFileSync(options.out, markdown);
console.log(markdown);
if (rows.some((r) => r.backend !== 'worker' || r.problems.length)) process.exitCode = 1;
