// Two WASM builds, or two model files, side by side in one Node process, on
// bench/sentences.json, greedy and beam 4:
//   node bench/ab.mjs DIR_A DIR_B [ROUNDS]
//   node bench/ab.mjs --models MODEL_A.s2s MODEL_B.s2s [ROUNDS]
// DIR_A and DIR_B are checkouts whose dist/ is built (npm run build:wasm),
// e.g. a `git worktree` of the commit before and this one; both load
// models/en-fr.s2s of this checkout. With --models, this checkout's dist/
// loads each model file (e.g. a word-level and a subword en-fr). Rounds
// alternate A and B (the machine is shared); it prints each cell's median ms
// per sentence and B's speed-up.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const byModels = process.argv[2] === '--models';
const [argA, argB, roundsArg] = process.argv.slice(byModels ? 3 : 2);
if (!argA || !argB) {
  console.error('usage: node bench/ab.mjs DIR_A DIR_B [ROUNDS]  (each DIR a checkout with dist/ built)\n' +
    '       node bench/ab.mjs --models MODEL_A MODEL_B [ROUNDS]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 3);
const shipped = join(root, 'models', 'en-fr.s2s');
const sides = byModels
  ? { A: { dir: root, model: argA }, B: { dir: root, model: argB } }
  : { A: { dir: argA, model: shipped }, B: { dir: argB, model: shipped } };
const { buckets } = JSON.parse(readFileSync(join(root, 'bench', 'sentences.json'), 'utf8'));

async function open({ dir, model: path }) {
  // Two checkouts: separate module instances, each with its own runtime.
  const api = await import(pathToFileURL(join(resolve(dir), 'dist', 'index.js')).href);
  const model = await api.loadModel(new Uint8Array(readFileSync(path)));
  // Warm-up: every sentence at both beam sizes, for 1.5 s (WASM tiers up).
  const start = performance.now();
  while (performance.now() - start < 1500) {
    for (const b of buckets) for (const s of b.sentences) for (const beamSize of [1, 4]) model.translate(s, { beamSize });
  }
  return model;
}

function cell(model, bucket, beamSize) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 400) {
    for (const s of bucket.sentences) model.translate(s, { beamSize });
    n += bucket.sentences.length;
  }
  return (performance.now() - start) / n;
}

const models = { A: await open(sides.A), B: await open(sides.B) };
const times = {};
for (let round = 0; round < rounds; ++round) {
  for (const beamSize of [1, 4]) {
    for (const b of buckets) {
      for (const which of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        const key = `${beamSize}|${b.name}|${which}`;
        (times[key] ??= []).push(cell(models[which], b, beamSize));
      }
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`A: ${byModels ? argA : argA + ' (dist)'}\nB: ${byModels ? argB : argB + ' (dist)'}\n${rounds} rounds, median ms per sentence\n`);
console.log('| beam | words | A | B | A / B |\n|---|---|---:|---:|---:|');
for (const beamSize of [1, 4]) {
  for (const b of buckets) {
    const a = median(times[`${beamSize}|${b.name}|A`]);
    const bb = median(times[`${beamSize}|${b.name}|B`]);
    console.log(`| ${beamSize} | ~${b.name} | ${a.toFixed(2)} | ${bb.toFixed(2)} | ${(a / bb).toFixed(2)} |`);
  }
}
