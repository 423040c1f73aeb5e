// `npm run bench`: one run, every performance figure side by side.
//
//   node bench/run.mjs            (npm run bench builds what is missing first)
//   S2S_BENCH_SECONDS=0.5         shortest timed run per cell (default 1)
//   S2S_BENCH_LOADS=7             cold page loads (default 7)
//   S2S_DATA_DIR=...              the folder holding fra-eng.txt (default ../shared/data)
//
// It measures, for the sentences of bench/sentences.json (about 5, 10, 20
// and 40 words) at beam 1 and 4, with models/en-fr.s2s:
//   - the native CLI (`seq2seq bench`), this project's WASM build in Node and
//     in headless Chromium, and the TF.js peer (bench/tfjs-model.mjs: the
//     same model and weights) on TF.js's cpu and wasm backends in Node and
//     in Chromium, and checks that every engine's translations agree with
//     the WASM build's;
//   - the cold page load to the first heatmap cell (fresh browser contexts);
//   - the payload (raw and gzip) and peak memory;
//   - the trainer's tokens/s and GFLOPS against the machine's GEMM peak
//     (`seq2seq bench --gemm-only` and `--train-data`).
// It prints a Markdown report (bench/report.mjs) and writes it to
// bench/results.md, with every number in bench/results.json. Nothing here is timed as a test: the
// machines are shared, so the ratios measured in one run are the figures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cell, fmt, report, targets } from './report.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'bench');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
// The same CLI built for WebAssembly's vector width (SSE4.2: 128-bit, no FMA;
// the native-sse preset): a second native column, so that the cost of
// running as WebAssembly shows apart from the cost of narrower vectors.
// Optional: measured when it exists (npm run bench builds it).
const cliSse = process.env.S2S_CLI_SSE ?? join(root, 'build', 'native-sse', 'seq2seq');
const modelPath = join(root, 'models', 'en-fr.s2s');
const sentencesPath = join(benchDir, 'sentences.json');
const minSeconds = Number(process.env.S2S_BENCH_SECONDS ?? 1);
const coldLoads = Number(process.env.S2S_BENCH_LOADS ?? 7);
const dataDir = process.env.S2S_DATA_DIR ?? join(root, '..', 'shared', 'data');
const BEAMS = [1, 4];
const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 's2s-bench-'));

for (const [file, fix] of [[cli, 'npm run build:native'], [join(root, 'dist', 'index.js'), 'npm run build:wasm'],
  [join(root, 'dist', 's2s-core.wasm'), 'npm run build:wasm'], [modelPath, 'the shipped model models/en-fr.s2s (npm run train:en-fr)'],
  [join(root, 'node_modules', '@tensorflow', 'tfjs'), 'npm ci --ignore-scripts']]) {
  if (!existsSync(file)) {
    console.error(`bench: ${file} is missing; ${fix}`);
    process.exit(2);
  }
}

const { buckets } = JSON.parse(readFileSync(sentencesPath, 'utf8'));
const log = (message) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.error}`);
  return r.stdout;
}

// ---------------------------------------------------------------------------
// The machine.

function machineInfo() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const flags = /flags\s*:\s*(.*)/.exec(cpuinfo)?.[1].split(' ') ?? [];
  // Other processes using a core while the benchmark runs (the machine is shared).
  const busy = spawnSync('ps', ['-eo', 'pcpu,comm', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' }).stdout
    ?.split('\n').map((l) => l.trim().split(/\s+/)).filter(([cpu, comm]) => Number(cpu) >= 50 && comm !== 'ps').map(([cpu, comm]) => `${comm} (${cpu}% CPU)`) ?? [];
  return {
    cpu: model,
    cores: cpus().length,
    simd: ['avx2', 'avx512f', 'fma'].filter((f) => flags.includes(f)),
    memoryGiB: +(totalmem() / 2 ** 30).toFixed(1),
    kernel: release(),
    node: process.version,
    loadAverage: loadavg().map((x) => +x.toFixed(2)),
    // What was measured: the commit, uncommitted changes under src/, and when each build was made.
    commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'unknown',
    uncommittedSourceFiles: (spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: root, encoding: 'utf8' }).stdout ?? '').split('\n').filter(Boolean).length,
    nativeBuilt: statSync(cli).mtime.toISOString(),
    wasmBuilt: statSync(join(root, 'dist', 's2s-core.wasm')).mtime.toISOString(),
    otherBusyProcesses: busy,
  };
}

// ---------------------------------------------------------------------------
// Translation engines.

function nativeEngine(cli) {
  const cells = [];
  let peakRss = 0;
  for (const beam of BEAMS) {
    for (const bucket of buckets) {
      const file = join(work, `bucket-${bucket.name}.txt`);
      writeFileSync(file, `${bucket.sentences.join('\n')}\n`);
      const bench = (repeat) => JSON.parse(run(cli, ['bench', '--model', modelPath, '--sentences', file, '--beam', String(beam), '--repeat', String(repeat), '--json']));
      const probe = bench(1);
      const repeat = Math.max(1, Math.ceil((minSeconds * 1000) / (probe.ms_per_sentence * bucket.sentences.length)));
      const r = bench(repeat);
      peakRss = Math.max(peakRss, r.peak_rss_bytes);
      cells.push({ bucket: bucket.name, beam, translations: r.sentences * r.repeat, seconds: (r.ms_per_sentence * r.sentences * r.repeat) / 1000,
        msPerSentence: r.ms_per_sentence, wordsPerSecond: r.words_per_second });
    }
  }
  // The translations, for the agreement check.
  const all = buckets.flatMap((b) => b.sentences);
  const outputs = {};
  for (const beam of BEAMS) {
    outputs[beam] = run(cli, ['translate', '--model', modelPath, '--json', '--beam', String(beam)], { input: `${all.join('\n')}\n` })
      .trim().split('\n').map((line) => JSON.parse(line));
  }
  const runtime = cli === cliSse ? 'native CLI (gcc -O3 -msse4.2: 128-bit vectors, no FMA, Eigen)' : 'native CLI (gcc -O3 -march=native, Eigen)';
  return { engine: 'native', runtime, cells, peakRssBytes: peakRss, nativeOutputs: outputs };
}

function nodeEngine(engine) {
  const out = join(work, `${engine}.json`);
  run(process.execPath, [join(benchDir, 'engine-node.mjs'), engine, modelPath, sentencesPath, out, String(minSeconds)]);
  return JSON.parse(readFileSync(out, 'utf8'));
}

// Target tokens per (beam, sentence) in bucket order, from measured cells.
function outputsOf(result) {
  if (result.nativeOutputs) {
    return Object.fromEntries(BEAMS.map((beam) => [beam, result.nativeOutputs[beam].map((r) => ({ sourceTokens: r.sourceTokens, targetTokens: r.targetTokens }))]));
  }
  const byBeam = {};
  for (const beam of BEAMS) {
    byBeam[beam] = buckets.flatMap((b) => result.cells.find((c) => c.bucket === b.name && c.beam === beam).outputs);
  }
  return byBeam;
}

function agreement(result, reference) {
  const mine = outputsOf(result);
  const theirs = outputsOf(reference);
  const out = { same: 0, total: 0, sameSource: 0, differing: [] };
  const all = buckets.flatMap((b) => b.sentences);
  for (const beam of BEAMS) {
    mine[beam].forEach((r, i) => {
      out.total += 1;
      if (JSON.stringify(r.sourceTokens) === JSON.stringify(theirs[beam][i].sourceTokens)) out.sameSource += 1;
      if (JSON.stringify(r.targetTokens) === JSON.stringify(theirs[beam][i].targetTokens)) out.same += 1;
      else out.differing.push({ beam, sentence: all[i], tokens: r.targetTokens.join(' '), reference: theirs[beam][i].targetTokens.join(' ') });
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Chromium: the engines in a page, and the demo page's cold load.

async function chromiumRuns() {
  const { launchChromium } = await import('../tests/js/helpers/chromium.mjs');
  // web/, dist/, models/, bench/, and the TF.js peer at /tfjs/ (bench/server.mjs).
  const { startBenchServer } = await import('./server.mjs');
  const server = await startBenchServer();
  const { browser, close } = await launchChromium();
  const results = { version: browser.version(), engines: [], loads: [], requests: [] };
  try {
    for (const engine of ['wasm', 'tfjs-wasm', 'tfjs-cpu']) {
      log(`Chromium: ${engine}`);
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.origin}/bench/browser.html`);
      await page.waitForFunction(() => typeof window.benchEngine === 'function', null, { timeout: 60_000 });
      try {
        const r = await page.evaluate(([e, b, s]) => window.benchEngine(e, b, s), [engine, buckets, minSeconds]);
        r.runtime = `Chromium ${results.version}`;
        results.engines.push(r);
      } catch (error) {
        results.engines.push({ engine, error: `${error.message} ${errors.join('; ')}`.slice(0, 500) });
      }
      await context.close();
    }

    // Cold loads: a fresh context each time (empty cache, new worker), from
    // navigation start to the first heatmap cell in the DOM. The text comes
    // in the URL, as in a shared link, so no typing is timed.
    const text = 'I love deep learning.';
    const url = `${server.url}?text=${encodeURIComponent(text)}`;
    for (let i = 0; i < coldLoads; ++i) {
      log(`Chromium: cold load ${i + 1}/${coldLoads}`);
      const context = await browser.newContext();
      const page = await context.newPage();
      const requests = [];
      page.on('requestfinished', (request) => requests.push(request.url()));
      let worker = null;
      page.on('worker', (w) => { worker ??= w; });
      await page.addInitScript(() => {
        const cell = '[data-testid="attention-heatmap"] [data-row]';
        const record = () => {
          if (window.__s2sFirstCell === undefined && document.querySelector(cell)) {
            window.__s2sFirstCell = performance.now();
            observer.disconnect();
          }
        };
        const observer = new MutationObserver(record);
        observer.observe(document, { childList: true, subtree: true });
      });
      await page.goto(url);
      await page.waitForFunction(() => window.__s2sFirstCell !== undefined, null, { timeout: 60_000, polling: 50 });
      const timing = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const marks = Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]));
        return { firstCellMs: window.__s2sFirstCell, domContentLoadedMs: nav?.domContentLoadedEventEnd, loadMs: nav?.loadEventEnd,
          timeOrigin: performance.timeOrigin, marks };
      });
      // The steps inside the translation worker (the package's model-worker.js marks them),
      // moved to the page's clock.
      if (worker) {
        const w = await worker.evaluate(() => ({ timeOrigin: performance.timeOrigin,
          marks: Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])) }));
        timing.workerOriginMs = w.timeOrigin - timing.timeOrigin;
        for (const [name, t] of Object.entries(w.marks)) timing.marks[name] ??= t + timing.workerOriginMs;
      }
      results.loads.push(timing);
      if (i === 0) results.requests = requests;
      await context.close();
    }
  } finally {
    await close();
    await server.close();
  }
  return results;
}

// ---------------------------------------------------------------------------
// Payload.

function payload(requests) {
  const size = (file) => {
    const bytes = readFileSync(join(root, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const core = ['dist/s2s-core.wasm', 'dist/s2s-core.js', 'dist/index.js', 'models/en-fr.s2s'].map(size);
  // What the demo page fetched on its first cold load, besides the core files.
  const coreSet = new Set(core.map((c) => c.file));
  const page = [...new Set(requests.map((u) => new URL(u).pathname.slice(1)))]
    .filter((file) => !coreSet.has(file) && existsSync(join(root, file)) && !file.endsWith('/'))
    .sort().map(size);
  const sum = (list, key) => list.reduce((a, b) => a + b[key], 0);
  return { core, page, coreRaw: sum(core, 'raw'), coreGzip: sum(core, 'gzip'), pageRaw: sum(page, 'raw'), pageGzip: sum(page, 'gzip') };
}

// ---------------------------------------------------------------------------
// Training against the GEMM peak.

function training() {
  const out = { gemm: [], train: [] };
  let data = join(dataDir, 'fra-eng.txt');
  out.data = 'fra-eng.txt (all pairs of 40 words or fewer, tokenized with en-fr.s2s\'s vocabularies)';
  if (!existsSync(data)) {
    data = join(root, 'tests', 'fixtures', 'en-fr-dev.tsv');
    out.data = `tests/fixtures/en-fr-dev.tsv (${data} fallback: ../shared/data/fra-eng.txt is missing)`;
  }
  const gemm = (threads) => JSON.parse(run(cli, ['bench', '--gemm-only', '--gemm-size', '1024', '--threads', String(threads), '--json'])).gemm_gflops;
  for (const threads of [1, 2]) {
    // The peak just before and just after the training run, under the same
    // load, and their mean as the reference.
    log(`GEMM peak and training, ${threads} thread(s)`);
    const before = gemm(threads);
    out.train.push(JSON.parse(run(cli, ['bench', '--model', modelPath, '--train-data', data, '--steps', '100', '--threads', String(threads), '--json'])));
    const after = gemm(threads);
    out.gemm.push({ threads, gemm_gflops: (before + after) / 2, before, after });
  }
  return out;
}

// ---------------------------------------------------------------------------

const results = { date: new Date().toISOString(), machine: machineInfo(), minSeconds, buckets };
const info = JSON.parse(run(cli, ['info', '--model', modelPath, '--json']));
results.modelInfo = `${(info.file_bytes / 1e6).toFixed(1)} MB, ${info.parameters.toLocaleString('en')} parameters stored as ${info.stored_dtype}`;
results.tfjsVersion = JSON.parse(readFileSync(join(root, 'node_modules', '@tensorflow', 'tfjs', 'package.json'), 'utf8')).version;

const engines = [];
log('native CLI');
engines.push({ label: 'native', ...nativeEngine(cli) });
if (existsSync(cliSse)) {
  log('native CLI, SSE4.2');
  engines.push({ label: 'native, SSE4.2', ...nativeEngine(cliSse) });
}
for (const [engine, label] of [['wasm', 'WASM, Node'], ['tfjs-wasm', 'TF.js wasm, Node'], ['tfjs-cpu', 'TF.js cpu, Node']]) {
  log(label);
  try {
    engines.push({ label, ...nodeEngine(engine) });
  } catch (error) {
    engines.push({ label, engine, error: error.message.slice(0, 500) });
  }
}
log('Chromium');
results.chromium = await chromiumRuns();
for (const e of results.chromium.engines) {
  const label = { wasm: 'WASM, Chromium', 'tfjs-wasm': 'TF.js wasm, Chromium', 'tfjs-cpu': 'TF.js cpu, Chromium' }[e.engine];
  engines.push({ label, ...e });
}
const reference = engines.find((e) => e.label === 'WASM, Node');
for (const e of engines) if (e.cells && e !== reference && reference?.cells) e.agreement = agreement(e, reference);
results.engines = engines;
results.payload = payload(results.chromium.requests);
log('training');
results.training = training();
results.seconds = (performance.now() - started) / 1000;

results.ratio = (a, b, bucket, beam) => {
  const ea = engines.find((e) => e.label === a);
  const eb = engines.find((e) => e.label === b);
  const ca = cell(ea, bucket, beam);
  const cb = cell(eb, bucket, beam);
  return ca && cb ? ca.msPerSentence / cb.msPerSentence : undefined;
};
results.targets = targets(results, BEAMS);
const markdown = report(results, BEAMS);
delete results.ratio;
for (const e of engines) {
  for (const c of e.cells ?? []) delete c.outputs;  // the translations stay out of the JSON; agreement holds the differences
  delete e.nativeOutputs;
}
// The sections after the generated report's Targets (other benchmarks'
// results added by hand: cold start old/new, the trace, subword against
// word-level) are kept, not overwritten.
const resultsPath = join(benchDir, 'results.md');
const kept = existsSync(resultsPath) ? sectionsAfterTargets(readFileSync(resultsPath, 'utf8')) : '';
writeFileSync(resultsPath, `${markdown}\n${kept ? `\n${kept}` : ''}`);
writeFileSync(join(benchDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
console.log(markdown);
log(`done: bench/results.md and bench/results.json (${fmt(results.seconds / 60, 1)} min)`);

// From the first "## " heading after "## Targets" to the end ('' if none).
function sectionsAfterTargets(text) {
  const targets = text.indexOf('\n## Targets');
  const next = targets < 0 ? -1 : text.indexOf('\n## ', targets + 1);
  return next < 0 ? '' : text.slice(next + 1);
}
