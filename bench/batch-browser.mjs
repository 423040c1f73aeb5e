// A batch against a plain loop in Chromium: 200 short sentences (the first
// 200 distinct English sides of 6 words or fewer in tests/fixtures/
// en-fr-dev.tsv), greedy, en-fr, translated in one page by
//   - loop: loadModel's synchronous API, a plain for loop (no pause);
//   - batch: translator.translate(array) with createTranslator(model,
//     { worker: false }), which pauses between sentences (platform.js
//     nextTask: a MessageChannel message here) on the same thread: the cost
//     of the pause alone, as issue 47 measured it;
//   - batch in a worker: the same with the default worker backend (its loop
//     pauses the same way in the worker, plus the results' trip back).
// Several rounds, the three alternating in a rotating order; sentences/s
// each, and each batch's ratio to the loop of its round. Debian's Chromium
// through playwright-core (never a downloaded browser), the bench server
// (bench/server.mjs). Figures, not a pass or a fail (docs/performance.md).
//
//   node bench/batch-browser.mjs [--rounds 7]
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { startBenchServer } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const ROUNDS = Number(options.rounds);
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1)) throw new Error(`--rounds takes a whole number from 1, got ${options.rounds}`);
const english = readFileSync(join(root, 'tests', 'fixtures', 'en-fr-dev.tsv'), 'utf8').split('\n').map((line) => line.split('\t')[0].trim());
const TEXTS = [...new Set(english)].filter((s) => s && s.split(/\s+/).length <= 6).slice(0, 200);
if (TEXTS.length !== 200) throw new Error(`only ${TEXTS.length} short sentences`);

const server = await startBenchServer();
const chromium = await launchChromium();
const rows = [];
let version;
try {
  version = chromium.browser.version();
  const tab = await chromium.browser.newPage();
  // An empty page on the server's origin, so that /dist/ imports resolve.
  await tab.route('**/batch-bench.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>batch</title>' }));
  await tab.goto(`${server.origin}/batch-bench.html`);
  const backend = await tab.evaluate(async (texts) => {
    const { createTranslator, loadModel } = await import('/dist/index.js');
    const bytes = new Uint8Array(await (await fetch('/models/en-fr.s2s')).arrayBuffer());
    const model = await loadModel(bytes);
    const inThread = await createTranslator(bytes, { worker: false });
    const inWorker = await createTranslator(bytes);
    const options = { beamSize: 1 };
    window.runs = {
      loop: async () => texts.map((text) => model.translate(text, options)),
      batch: () => inThread.translate(texts, options),
      'batch in a worker': () => inWorker.translate(texts, options),
    };
    window.measure = async (name) => {
      await new Promise((resolve) => { setTimeout(resolve, 100); });
      const from = performance.now();
      const results = await window.runs[name]();
      const ms = performance.now() - from;
      if (results.length !== texts.length) throw new Error(`${name}: ${results.length} results`);
      return { ms, output: results.map((r) => r.targetTokens.join(' ')).join('\n') };
    };
    for (const name of Object.keys(window.runs)) await window.measure(name);  // warm-up
    return inWorker.backend;
  }, TEXTS);
  if (backend !== 'worker') throw new Error(`the default translator ran on the ${backend} backend`);
  const names = ['loop', 'batch', 'batch in a worker'];
  for (let round = 0; round < ROUNDS; ++round) {
    const row = {};
    for (let k = 0; k < names.length; ++k) {
      const name = names[(round + k) % names.length];
      row[name] = await tab.evaluate((n) => window.measure(n), name);
      process.stderr.write(`round ${round + 1}: ${name} ${row[name].ms.toFixed(0)} ms\n`);
    }
    rows.push(row);
  }
} finally {
  await chromium.close();
  await server.close();
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const rate = (r) => TEXTS.length / (r.ms / 1000);
const spread = (xs, digits) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
console.log(`# ${TEXTS.length} short sentences in Chromium: translator.translate(array) against a plain loop\n`);
console.log(`${new Date().toISOString()}, Chromium ${version} (Debian's, headless), ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(', ')} at the end; greedy, en-fr, ${ROUNDS} rounds, the three alternating.\n`);
console.log('| in the page | sentences/s, median (min–max) | × the loop of the same round, median (min–max) |');
console.log('|---|--:|--:|');
for (const name of ['loop', 'batch', 'batch in a worker']) {
  const ratios = rows.map((row) => rate(row[name]) / rate(row.loop));
  console.log(`| ${name === 'loop' ? 'plain loop, `model.translate` (sync)' : name === 'batch' ? '`translate(array)`, `{ worker: false }`' : '`translate(array)`, worker (default)'} | ${spread(rows.map((row) => rate(row[name])), 0)} | ${name === 'loop' ? '1' : spread(ratios, 2)} |`);
}
const outputs = new Set(rows.flatMap((row) => Object.values(row).map((r) => r.output)));
console.log(`\nOutput: ${outputs.size === 1 ? 'the same 200 translations from all three in every round' : `${outputs.size} different sets of translations (they should agree)`}.`);
