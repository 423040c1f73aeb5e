// Model parse in Node, old build against new, side by side in one run:
//
//   node bench/model-parse.mjs --old DIR [--rounds 5] [--loads 10]
//
// DIR is a built copy of the repository to compare against (its dist/; see
// bench/cold-start.mjs for how to make one). Each round starts a fresh Node
// process per build (old and new in turn, the order flipped every round)
// that loads a model file --loads times with loadModel(bytes): each build
// its own models/en-fr.s2s (the same model, in the file format that build
// writes), or both S2S_COLD_MODEL=PATH. Printed per build: the first load of
// each process (median over rounds: what a cold start pays, with each
// WebAssembly function compiled on its first call) and the later loads
// (median of all: the work itself, in optimized code).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// --child DIR MODEL LOADS: one process's loads (JSON out).
if (process.argv[2] === '--child') {
  const [dir, modelPath, loads] = process.argv.slice(3);
  const api = await import(pathToFileURL(join(dir, 'dist', 'index.js')));
  const diagnostics = await import(pathToFileURL(join(dir, 'dist', 'diagnostics.js')));
  await diagnostics.preloadRuntime();
  const bytes = new Uint8Array(readFileSync(modelPath));
  const times = [];
  for (let i = 0; i < Number(loads); ++i) {
    const t0 = performance.now();
    const model = await api.loadModel(bytes);
    times.push(performance.now() - t0);
    model.dispose?.();
  }
  console.log(JSON.stringify(times));
  process.exit(0);
}

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const oldRoot = option('--old', undefined);
if (!oldRoot) {
  console.error('model-parse: give --old DIR, a built copy of the repository to compare against');
  process.exit(2);
}
const rounds = Number(option('--rounds', 5));
const loads = Number(option('--loads', 10));
const modelOf = (dir) => resolve(process.env.S2S_COLD_MODEL ?? join(dir, 'models', 'en-fr.s2s'));
const builds = [{ name: 'old', dir: resolve(oldRoot), first: [], later: [] }, { name: 'new', dir: root, first: [], later: [] }];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
for (let r = 0; r < rounds; ++r) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', b.dir, modelOf(b.dir), String(loads)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`the ${b.name} build failed: ${run.stderr}`);
    const times = JSON.parse(run.stdout.trim().split('\n').pop());
    b.first.push(times[0]);
    b.later.push(...times.slice(1));
  }
}
const [o, n] = builds;
const row = (label, a, b) => console.log(`| ${label} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)} |`);
console.log(`Model parse in Node (old: ${modelOf(o.dir)}, new: ${modelOf(n.dir)}), ${rounds} rounds of ${loads} loads per build`);
console.log('| ms (median) | old | new | old / new |\n|---|---:|---:|---:|');
row('first load in a fresh process', median(o.first), median(n.first));
row('later loads in the same process', median(o.later), median(n.later));
