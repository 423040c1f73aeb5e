// The GNMT beam-search penalties (Wu et al., 2016, eq. 14), chosen on a
// development split: BLEU and chrF2 of beam search over a grid of length
// normalization alpha and coverage penalty beta, on all sentences and on
// those of 12+ English words (where clauses get dropped).
//   node scripts/penalty-grid.mjs --model models/en-fr.s2s --data DEV.tsv [--beam 4] [--out FILE.md]
// DEV.tsv: the model's development split (`seq2seq split`, as train splits it).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    data: { type: 'string' },
    beam: { type: 'string', default: '4' },
    alphas: { type: 'string', default: '0,0.6,1,1.4' },
    betas: { type: 'string', default: '0,0.2,0.4,1' },
    out: { type: 'string' },
  },
});
if (!values.model || !values.data) {
  console.error('usage: node scripts/penalty-grid.mjs --model PATH --data DEV.tsv [--beam 4] [--alphas 0,0.6,1] [--betas 0,0.2] [--out FILE.md]');
  process.exit(2);
}
const cli = join(root, 'build', 'native', 'seq2seq');

function evaluate(alpha, beta, minWords) {
  const args = ['eval', '--model', values.model, '--data', values.data, '--beam', values.beam,
    '--length-penalty', String(alpha), '--coverage-penalty', String(beta), '--json'];
  if (minWords) args.push('--min-words', String(minWords));
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`seq2seq ${args.join(' ')} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout).overall;
}

const alphas = values.alphas.split(',').map(Number);
const betas = values.betas.split(',').map(Number);
const rows = [];
for (const alpha of alphas) {
  for (const beta of betas) {
    const all = evaluate(alpha, beta, 0);
    const long = evaluate(alpha, beta, 12);
    rows.push({ alpha, beta, bleu: all.bleu, chrf2: all.chrf2, bleu12: long.bleu, chrf12: long.chrf2,
      sentences: all.sentences, sentences12: long.sentences });
    console.error(`alpha ${alpha} beta ${beta}: BLEU ${all.bleu.toFixed(2)} (12+ words ${long.bleu.toFixed(2)})`);
  }
}
const best = rows.reduce((a, b) => (b.bleu12 + b.bleu > a.bleu12 + a.bleu ? b : a));
const md = [
  `Beam ${values.beam}, \`${values.model}\` on \`${values.data}\` (${rows[0].sentences} sentences, ${rows[0].sentences12} of 12+ words);`,
  'BLEU sacreBLEU-compatible (13a, or zh for Chinese), lowercased; chrF2 beside it.',
  '',
  '| α (length) | β (coverage) | BLEU | chrF2 | BLEU 12+ words | chrF2 12+ |',
  '|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.alpha} | ${r.beta} | ${r.bleu.toFixed(2)} | ${r.chrf2.toFixed(2)} | ${r.bleu12.toFixed(2)} | ${r.chrf12.toFixed(2)} |` +
    (r === best ? ' ← best sum' : '')),
  '',
].join('\n');
if (values.out) writeFileSync(values.out, md);
console.log(md);
