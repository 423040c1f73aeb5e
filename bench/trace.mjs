// What the decoder trace costs (the budget: nothing when off, at most +25%
// when on), in Node through the package's API (dist/index.js), side by side
// in one process: trace off, trace on, and (with --before DIR) the same
// translations by another build's dist/ folder, the code before the trace
// existed. The modes take turns pass by pass (a pass = every sentence of a
// bucket once), in a rotating order, so that a slower minute of this shared
// machine falls on all of them; each cell is the median of the passes.
//   node bench/trace.mjs [--model PATH] [--rounds N] [--before OLD_DIST_DIR]
// Prints a Markdown table (ms per sentence) and the ratios to trace off.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const { values } = parseArgs({
  options: {
    model: { type: 'string', default: join(root, 'models', 'en-fr.s2s') },
    rounds: { type: 'string', default: '15' },
    before: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const bytes = readFileSync(values.model);
const buckets = JSON.parse(readFileSync(join(root, 'bench', 'sentences.json'), 'utf8')).buckets
  .filter((b) => ['10', '20'].includes(b.name));

async function engine(distDir) {
  const api = await import(pathToFileURL(join(distDir, 'index.js')).href);
  return api.loadModel(new Uint8Array(bytes));
}

const current = await engine(join(root, 'dist'));
const modes = [
  { name: 'trace off', model: current, options: {} },
  { name: 'trace on', model: current, options: { trace: true } },
];
if (values.before) modes.unshift({ name: 'before (no trace code)', model: await engine(resolve(values.before)), options: {} });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function pass(mode, sentences, beamSize) {
  const start = performance.now();
  for (const sentence of sentences) mode.model.translate(sentence, { ...mode.options, beamSize });
  return (performance.now() - start) / sentences.length;
}

const rows = [];
for (const beamSize of [1, 4]) {
  for (const bucket of buckets) {
    // Warm-up: every mode a few passes (WebAssembly tiers up, the JIT warms).
    for (let i = 0; i < 3; i += 1) for (const mode of modes) pass(mode, bucket.sentences, beamSize);
    const times = modes.map(() => []);
    for (let r = 0; r < rounds; r += 1) {
      for (let k = 0; k < modes.length; k += 1) {
        const m = (k + r) % modes.length;  // rotate who goes first
        times[m].push(pass(modes[m], bucket.sentences, beamSize));
      }
    }
    rows.push({ beamSize, bucket: bucket.name, medians: times.map(median) });
  }
}

const off = modes.findIndex((m) => m.name === 'trace off');
console.log(`Model ${values.model}, ${rounds} rounds, Node ${process.version}; ms per sentence (median of passes)\n`);
console.log(`| beam | words | ${modes.map((m) => m.name).join(' | ')} | ${modes.filter((_, i) => i !== off).map((m) => `${m.name} / off`).join(' | ')} |`);
console.log(`|---|---|${modes.map(() => '---:').join('|')}|${modes.filter((_, i) => i !== off).map(() => '---:').join('|')}|`);
for (const { beamSize, bucket, medians } of rows) {
  const ratios = medians.filter((_, i) => i !== off).map((ms) => (ms / medians[off]).toFixed(3));
  console.log(`| ${beamSize} | ~${bucket} | ${medians.map((ms) => ms.toFixed(2)).join(' | ')} | ${ratios.join(' | ')} |`);
}
// Why the floats are not JSON numbers: the size of the trace as JSON text,
// and what JSON.parse alone takes for it (the C++ side would also print it),
// against the translation without a trace.
const bucket20 = buckets.find((b) => b.name === '20');
let numbers = 0;
let chars = 0;
let parseMs = 0;
let plainMs = 0;
const asArrays = (key, value) => (value instanceof Float32Array ? Array.from(value) : value);
for (const sentence of bucket20.sentences) {
  const text = JSON.stringify(current.translate(sentence, { trace: true }).trace, asArrays);
  JSON.parse(text, (key, value) => { if (typeof value === 'number') numbers += 1; return value; });
  chars += text.length;
  let t = performance.now();
  for (let i = 0; i < rounds; i += 1) JSON.parse(text);
  parseMs += (performance.now() - t) / rounds;
  t = performance.now();
  for (let i = 0; i < rounds; i += 1) current.translate(sentence);
  plainMs += (performance.now() - t) / rounds;
}
const n = bucket20.sentences.length;
console.log(`\nThe ~20-word trace as JSON text: ${Math.round(numbers / n)} numbers, ${Math.round(chars / n / 1000)} kB per sentence; ` +
  `JSON.parse alone ${(parseMs / n).toFixed(2)} ms against ${(plainMs / n).toFixed(2)} ms for the translation without a trace (means).`);
for (const mode of modes) mode.model.dispose();
