// `npm run bench:kernels`: the decoder step's kernels one by one
// (bench/kernels.cpp, en-fr's sizes, 1 and 4 hypotheses), built three ways
// by CMake (target bench_kernels, linked with s2s_model, so with exactly the
// library's flags) and run side by side:
//   - the native preset, -O3 -march=native (here AVX-512 for Eigen's float
//     code and AVX2 for the int8 kernel);
//   - the native-sse preset, -O3 -msse4.2 (128-bit vectors and no FMA, as in
//     WebAssembly);
//   - the wasm preset, em++ -O3 -msimd128, in Node.
// It shows where the WASM build's time goes against native, kernel by
// kernel: `npm run bench` gives the whole translation. Writes
// bench/kernels.md and bench/kernels.json. Nothing is timed as a test.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args, env = process.env) {
  const r = spawnSync(command, args, { encoding: 'utf8', env, cwd: root, maxBuffer: 1 << 26 });
  if (r.error?.code === 'ENOENT') {
    console.error(`bench:kernels: ${command} is not installed; run \`bash scripts/setup.sh\``);
    process.exit(2);
  }
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return r.stdout;
}

// Each preset's build folder is configured by its build script, then only
// the benchmark target is built there.
const wasmEnv = { ...process.env, NODE_PATH: `/usr/share/nodejs${process.env.NODE_PATH ? `:${process.env.NODE_PATH}` : ''}` };
const builds = [
  {
    label: 'native (-march=native)', exe: join(root, 'build', 'native', 'bench_kernels'),
    compile: () => { run('bash', ['scripts/build-native.sh']); run('cmake', ['--build', 'build/native', '--target', 'bench_kernels']); },
  },
  {
    label: 'native (-msse4.2)', exe: join(root, 'build', 'native-sse', 'bench_kernels'),
    compile: () => { run('bash', ['scripts/build-native.sh', 'native-sse']); run('cmake', ['--build', 'build/native-sse', '--target', 'bench_kernels']); },
  },
  {
    label: 'WASM (Node)', exe: join(root, 'build', 'wasm', 'bench_kernels.cjs'), node: true,
    compile: () => { run('bash', ['scripts/build-wasm.sh']); run('cmake', ['--build', 'build/wasm', '--target', 'bench_kernels'], wasmEnv); },
  },
];

for (const b of builds) {
  process.stderr.write(`building ${b.label}\n`);
  b.compile();
}
// Round-robin, three rounds, and the median of each kernel: the machine is shared.
const rounds = [];
for (let round = 0; round < 3; ++round) {
  for (const b of builds) {
    process.stderr.write(`round ${round + 1}: ${b.label}\n`);
    const text = b.node ? run(process.execPath, [b.exe, b.label]) : run(b.exe, [b.label]);
    rounds.push({ label: b.label, ...JSON.parse(text) });
  }
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const names = [...new Set(rounds[0].kernels.map((k) => `${k.k}|${k.name}`))];
const table = names.map((key) => {
  const [k, name] = key.split('|');
  const us = Object.fromEntries(builds.map((b) => [b.label, median(rounds.filter((r) => r.label === b.label)
    .map((r) => r.kernels.find((x) => `${x.k}|${x.name}` === key).us))]));
  return { k: Number(k), name, us };
});

const [nativeLabel, sseLabel, wasmLabel] = builds.map((b) => b.label);
const fmt = (x, d) => x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
const lines = ['# The decoder step, kernel by kernel', ''];
lines.push(`Run ${new Date().toISOString()} by \`npm run bench:kernels\` (bench/kernels.mjs, bench/kernels.cpp) on ${cpus()[0].model}, ${cpus().length} cores; Node ${process.version}. Microseconds per call, the median of 3 rounds (each at least 0.2 s per kernel), en-fr's sizes, a 20-word source; "hyps" is the number of hypotheses (1: greedy, 4: beam 4).`, '');
lines.push(`| hyps | kernel | ${nativeLabel} | ${sseLabel} | ${wasmLabel} | WASM / native | WASM / SSE4.2 |`);
lines.push('|---:|---|---:|---:|---:|---:|---:|');
for (const row of table) {
  const n = row.us[nativeLabel], s = row.us[sseLabel], w = row.us[wasmLabel];
  lines.push(`| ${row.k} | ${row.name} | ${fmt(n, 1)} | ${fmt(s, 1)} | ${fmt(w, 1)} | ${fmt(w / n, 2)} | ${fmt(w / s, 2)} |`);
}
for (const k of [1, 4]) {
  const rows = table.filter((r) => r.k === k);
  const sum = (label) => rows.reduce((t, r) => t + r.us[label], 0);
  lines.push(`| ${k} | **all of the above** | **${fmt(sum(nativeLabel), 1)}** | **${fmt(sum(sseLabel), 1)}** | **${fmt(sum(wasmLabel), 1)}** | **${fmt(sum(wasmLabel) / sum(nativeLabel), 2)}** | **${fmt(sum(wasmLabel) / sum(sseLabel), 2)}** |`);
}
const markdown = lines.join('\n');
writeFileSync(join(root, 'bench', 'kernels.md'), `${markdown}\n`);
writeFileSync(join(root, 'bench', 'kernels.json'), `${JSON.stringify({ date: new Date().toISOString(), cpu: cpus()[0].model, node: process.version, table }, null, 2)}\n`);
console.log(markdown);
