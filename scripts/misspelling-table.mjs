// How much one misspelt word per sentence costs a model: chrF2 (and BLEU)
// on a development split as written and with one English word of every
// sentence misspelt (scripts/noise-pairs.mjs --development: two neighbouring
// letters swapped, one dropped or one doubled), and chrF2 on the misspelt
// sentences as a share of chrF2 on the clean ones (models/README.md,
// "Misspellings").
//
//   node scripts/misspelling-table.mjs --model models/en-zh.s2s --data DEV.tsv [--data ...]
//        [--beam 4] [--seed 1] [--json]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { random } from './concat-pairs.mjs';
import { readPairs } from './domain-data.mjs';
import { misspeltDevelopment } from './noise-pairs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');

/** The misspelt copy of a development file: one word of each distinct English sentence, the same for all its references. */
export function misspeltCopy(path, seed = 1) {
  return misspeltDevelopment(readPairs(path), random(seed)).map(([en, ref]) => `${en}\t${ref}\n`).join('');
}

/** `seq2seq eval --json` of `model` on `path` (`extra`: more of eval's flags). */
export function evaluate(model, path, beam = 4, extra = []) {
  const r = spawnSync(cli, ['eval', '--model', model, '--data', path, '--beam', String(beam), '--json', '--threads', '1', ...extra],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`seq2seq eval failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** { clean, misspelt, ratio } of chrF2 (and BLEU) for `model` on `path`. */
export function misspellingCost(model, path, { beam = 4, seed = 1 } = {}) {
  const work = mkdtempSync(join(tmpdir(), 's2s-misspelt-'));
  try {
    const noisy = join(work, basename(path));
    writeFileSync(noisy, misspeltCopy(path, seed));
    const clean = evaluate(model, path, beam).overall;
    const typed = evaluate(model, noisy, beam).overall;
    return { clean: { bleu: clean.bleu, chrf: clean.chrf2 }, misspelt: { bleu: typed.bleu, chrf: typed.chrf2 }, ratio: typed.chrf2 / clean.chrf2 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({ options: {
    model: { type: 'string', multiple: true }, data: { type: 'string', multiple: true },
    beam: { type: 'string', default: '4' }, seed: { type: 'string', default: '1' }, json: { type: 'boolean', default: false },
  } });
  if (!values.model?.length || !values.data?.length) {
    console.error('usage: node scripts/misspelling-table.mjs --model models/NAME.s2s [--model ...] --data DEV.tsv [--data ...] [--beam 4] [--seed 1] [--json]');
    process.exit(2);
  }
  const rows = [];
  for (const model of values.model) {
    for (const data of values.data) {
      rows.push({ model, data, ...misspellingCost(model, data, { beam: Number(values.beam), seed: Number(values.seed) }) });
    }
  }
  if (values.json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log('| model | split | chrF2 clean | chrF2 misspelt | share | BLEU clean | BLEU misspelt |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${basename(r.model)} | ${basename(r.data)} | ${r.clean.chrf.toFixed(2)} | ${r.misspelt.chrf.toFixed(2)} | ${r.ratio.toFixed(3)} | ${r.clean.bleu.toFixed(2)} | ${r.misspelt.bleu.toFixed(2)} |`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
