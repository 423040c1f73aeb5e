// Node's event loop while createTranslator translates one long input: 153
// words (the first four inputs of bench/sentences.json's "40" bucket, one
// text) at beam 8, en-fr. A setTimeout(0) chain on the main thread (a tick
// every ~1 ms when idle) records the longest gap between two ticks while:
//   - idle: nothing translates, for 500 ms (the floor: what the machine's
//     other work costs);
//   - worker: createTranslator(model, { worker: true }), the worker_threads
//     backend;
//   - control: createTranslator(model, { worker: false }), the same call on
//     this thread (it blocks for the whole decode).
// The three alternate within each round, in a rotating order, in one
// process. Figures, not a pass or a fail (docs/performance.md, "Node servers").
//
//   node bench/event-loop.mjs [--rounds 5]
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTranslator } from '../dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const ROUNDS = Number(options.rounds);
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1)) throw new Error(`--rounds takes a whole number from 1, got ${options.rounds}`);
const BEAM = 8;
const { buckets } = JSON.parse(readFileSync(join(root, 'bench', 'sentences.json'), 'utf8'));
const TEXT = buckets.at(-1).sentences.slice(0, 4).join(' ');
const WORDS = TEXT.split(/\s+/).length;
const model = join(root, 'models', 'en-fr.s2s');

// The chain: every tick's time; measure() reads the longest gap in a window.
const ticks = [];
let ticking = true;
(function tick() { ticks.push(performance.now()); if (ticking) setTimeout(tick, 0); })();
const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function measure(work) {
  await pause(100);
  ticks.length = 0;
  const from = performance.now();
  const result = await work();
  const to = performance.now();
  await pause(20);  // the first tick after `to` closes the last gap
  const edges = [from, ...ticks.filter((t) => t > from && t < to), ticks.find((t) => t >= to) ?? to];
  let gap = 0;
  for (let i = 1; i < edges.length; ++i) gap = Math.max(gap, edges[i] - edges[i - 1]);
  return { ms: to - from, gapMs: gap, result };
}

const inWorker = await createTranslator(model, { worker: true });
const inThread = await createTranslator(model, { worker: false });
if (inWorker.backend !== 'worker') throw new Error(`{ worker: true } gave the ${inWorker.backend} backend`);
const modes = {
  idle: () => pause(500).then(() => null),
  worker: () => inWorker.translate(TEXT, { beamSize: BEAM }),
  control: () => inThread.translate(TEXT, { beamSize: BEAM }),
};
// Warm-up: each backend translates the input once, unmeasured.
await inWorker.translate(TEXT, { beamSize: BEAM });
await inThread.translate(TEXT, { beamSize: BEAM });
const names = Object.keys(modes);
const runs = Object.fromEntries(names.map((n) => [n, []]));
const outputs = new Set();
for (let round = 0; round < ROUNDS; ++round) {
  for (let k = 0; k < names.length; ++k) {
    const name = names[(round + k) % names.length];
    const { ms, gapMs, result } = await measure(modes[name]);
    runs[name].push({ ms, gapMs });
    if (result) outputs.add(result.targetTokens.join(' '));
    process.stderr.write(`round ${round + 1}: ${name} ${ms.toFixed(0)} ms, longest gap ${gapMs.toFixed(1)} ms\n`);
  }
}
ticking = false;
await inWorker.dispose();
await inThread.dispose();

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const f = (x) => x.toFixed(1);
const label = { idle: 'idle (no translation, 500 ms)', worker: '`{ worker: true }` (worker_threads)', control: '`{ worker: false }` (this thread)' };
console.log(`# Node's event loop during one ${WORDS}-word beam-${BEAM} translation (en-fr)\n`);
console.log(`${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(', ')} at the end; ${ROUNDS} rounds, the modes alternating.\n`);
console.log('| mode | translation, ms (median) | longest gap between setTimeout(0) ticks, ms: worst | median | min |');
console.log('|---|--:|--:|--:|--:|');
for (const name of names) {
  const gaps = runs[name].map((r) => r.gapMs);
  console.log(`| ${label[name]} | ${name === 'idle' ? '–' : f(median(runs[name].map((r) => r.ms)))} | ${f(Math.max(...gaps))} | ${f(median(gaps))} | ${f(Math.min(...gaps))} |`);
}
console.log(`\nOutput: ${outputs.size === 1 ? 'the same translation from both backends in every round' : `${outputs.size} different translations (they should agree)`}.`);
