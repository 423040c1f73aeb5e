// Training data for en-zh by sequence-level knowledge distillation (Kim and
// Rush, 2016): cmn-eng's own pairs, followed by a teacher model's beam-4
// Chinese for English sentences that cmn-eng does not have.
//
//   node scripts/distill.mjs --teacher MODEL.s2s --output OUT.tsv [--keep F] [--data-dir DIR]
//
// The English comes from fra-eng's en-fr training split (the sentences the
// en-fr models train on), without any sentence cmn-eng has, and only those
// that en-zh's own split (--dev-fraction 0.05 --split-seed 1, a hash of each
// English sentence) puts in training. So en-zh's development split stays
// exactly checkpoints/en-zh-dev.tsv, and no English of either model's
// development split, or of a test, becomes a training sentence. --keep F
// keeps only the share F of the teacher's translations with the best
// (length-normalized) scores (default 1: all). An experiment, not part of
// a shipped model's recipe: students at en-fr's decoder sizes trained on
// this data stayed below 42 BLEU (models/README.md, "A smaller en-zh by
// distillation").
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    teacher: { type: 'string' },
    output: { type: 'string' },
    keep: { type: 'string', default: '1' },
    'data-dir': { type: 'string', default: process.env.S2S_DATA_DIR ?? join(root, '..', 'shared', 'data') },
    processes: { type: 'string', default: '2' },
  },
});
const keep = Number(values.keep);
if (!values.teacher || !values.output || !(keep > 0 && keep <= 1)) {
  console.error('usage: node scripts/distill.mjs --teacher MODEL.s2s --output OUT.tsv [--keep F, 0 < F <= 1] [--data-dir DIR] [--processes N]');
  process.exit(2);
}
const cli = join(root, 'build', 'native', 'seq2seq');
const dataDir = values['data-dir'];
const work = mkdtempSync(join(tmpdir(), 's2s-distill-'));

function run(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`seq2seq ${args.join(' ')} failed:\n${r.stderr}`);
}
const english = (text) => text.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]);
const englishOf = (path) => english(readFileSync(path, 'utf8'));

try {
  // en-zh's development split, then the en-fr training split without it (as train.sh makes them).
  const zhDev = join(work, 'en-zh-dev.tsv');
  run(['split', '--data', join(dataDir, 'cmn-eng.txt'), '--dev-fraction', '0.05', '--split-seed', '1', '--dev-output', zhDev]);
  const frTrain = join(work, 'en-fr-train.tsv');
  run(['split', '--data', join(dataDir, 'fra-eng.txt'), '--dev-fraction', '0.04', '--split-seed', '1',
    '--exclude-sources', zhDev, '--dev-output', join(work, 'en-fr-dev.tsv'), '--train-output', frTrain]);
  const own = readFileSync(join(dataDir, 'cmn-eng.txt'), 'utf8');
  const cmn = new Set(english(own));
  const candidates = [...new Set(englishOf(frTrain))].filter((s) => !cmn.has(s));
  // Only the sentences en-zh's split would train on.
  const dummy = join(work, 'candidates.tsv');
  writeFileSync(dummy, candidates.map((s) => `${s}\tx\n`).join(''));
  const kept = join(work, 'candidates-train.tsv');
  run(['split', '--data', dummy, '--dev-fraction', '0.05', '--split-seed', '1', '--dev-output', join(work, 'c-dev.tsv'), '--train-output', kept]);
  const sources = englishOf(kept);

  // The teacher's beam-4 translations (its own penalties), round-robin over processes.
  const processes = Math.max(1, Number(values.processes));
  const shards = Array.from({ length: processes }, (_, p) => sources.filter((_, i) => i % processes === p));
  const translate = (shard) => new Promise((resolve, reject) => {
    const child = spawn(cli, ['translate', '--model', values.teacher, '--beam', '4', '--json'], { stdio: ['pipe', 'pipe', 'inherit'] });
    // Line by line: each JSON line also holds the attention and the beam's hypotheses.
    const results = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === '') return;
      const { text, score } = JSON.parse(line);
      results.push({ text, score });
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`seq2seq translate exited with ${code}`));
      if (results.length !== shard.length) return reject(new Error(`${results.length} translations for ${shard.length} sentences`));
      resolve(shard.map((source, i) => ({ source, ...results[i] })));
    });
    child.stdin.end(shard.map((s) => `${s}\n`).join(''));
  });
  let pairs = (await Promise.all(shards.map(translate))).flat().filter((p) => p.text !== '');
  if (keep < 1) {
    pairs = pairs.map((p, i) => ({ ...p, i })).sort((a, b) => b.score - a.score || a.i - b.i).slice(0, Math.round(pairs.length * keep));
  }
  writeFileSync(values.output, (own.endsWith('\n') ? own : `${own}\n`) + pairs.map((p) => `${p.source}\t${p.text}\n`).join(''));
  console.error(`distill: ${sources.length} English sentences translated by ${values.teacher}; ` +
    `wrote ${values.output}: cmn-eng's pairs and ${pairs.length} of the teacher's`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
