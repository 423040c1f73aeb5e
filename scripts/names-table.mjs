// How well a model keeps names it never saw (models/README.md, "Names and
// numbers"): the development pairs whose English names Tom, with Tom (in
// French) or 汤姆 (in Chinese) in the reference, the name swapped for one of
// NAMES (none of them in any training file; tests/js/names.test.mjs checks)
// on both sides: the reference then writes the new name as the English
// does, the way a translator keeps a name that has no usual form in the
// other language. Reported with the source's names kept (`--keep-names on`,
// src/decode/names.h) and without: the share of sentences whose
// translation writes the name exactly as the English does, chrF2 (which
// sees case) and BLEU (lowercased).
//
//   node scripts/names-table.mjs --model models/en-fr.s2s --data DEV.tsv [--model ...] [--beam 4] [--json]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readPairs } from './domain-data.mjs';
import { evaluate } from './misspelling-table.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');

/** Names of several languages, alone and with a family name (a span of two words to copy). */
export const NAMES = [
  'Ngozi', 'Wojciech Kowalczyk', 'Oluwaseun', 'Thandiwe Mahlangu', 'Siobhan', 'Yerlan Zhakupov', 'Aigerim',
  'Bogdan Dimitrescu', 'Radhika', 'Emeka Okonkwo', 'Anahera', 'Kalani Kealoha', 'Ximena', 'Dagny Haugen', 'Eamon',
  'Zeynep', 'Nkechi Adeyemi', 'Rangi', 'Ileana Castellanos', 'Mbali', 'Tavita Tuilagi', 'Svetlana', 'Joaquim Ferreira',
  'Ayodele', 'Lwazi', 'Leilani', 'Priyanka Ramaswamy', 'Astrid', 'Hamid', 'Aiyana Quispe',
];

// How each language's references write Tom.
const TOM = { fr: 'Tom', zh: '汤姆' };

/** The pairs of `pairs` ([English, reference]) with Tom in both, Tom swapped: one name per distinct English sentence, in order. */
export function namedPairs(pairs, language) {
  const tom = TOM[language];
  if (!tom) throw new Error(`names-table: no rule for references in '${language}' (fr or zh)`);
  const nameOf = new Map();
  const out = [];
  for (const [en, reference] of pairs) {
    if (!/\bTom\b/.test(en) || !reference.includes(tom)) continue;
    if (!nameOf.has(en)) nameOf.set(en, NAMES[nameOf.size % NAMES.length]);
    const name = nameOf.get(en);
    out.push([en.replace(/\bTom\b/g, name), reference.split(tom).join(name), name]);
  }
  return out;
}

/** The language a model writes (`seq2seq info --json`). */
function targetLanguage(model) {
  const r = spawnSync(cli, ['info', '--model', model, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`seq2seq info failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout).target_tokenizer.language;
}

/** True when `text` writes `name` as a whole word, cased as given (Chinese characters around it allowed). */
export function writesName(text, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{Script=Latin}\\p{Nd}])${escaped}($|[^\\p{Script=Latin}\\p{Nd}])`, 'u').test(text);
}

/** { sentences, on: { kept, chrf, bleu }, off: {...} } for `model` on the named copy of `path`. */
export function namesCost(model, path, { beam = 4 } = {}) {
  const language = targetLanguage(model);
  const named = namedPairs(readPairs(path), language);
  const work = mkdtempSync(join(tmpdir(), 's2s-names-'));
  try {
    const data = join(work, `named-${basename(path)}`);
    writeFileSync(data, named.map(([en, ref]) => `${en}\t${ref}\n`).join(''));
    const result = { sentences: new Set(named.map(([en]) => en)).size };
    for (const keep of ['on', 'off']) {
      const hypotheses = join(work, `hypotheses-${keep}.txt`);
      const report = evaluate(model, data, beam, ['--keep-names', keep, '--hypotheses', hypotheses]);
      const lines = readFileSync(hypotheses, 'utf8').split('\n');
      // eval writes one translation per distinct English sentence, in order.
      const names = [...new Map(named.map(([en, , name]) => [en, name])).values()];
      const kept = names.filter((name, i) => writesName(lines[i] ?? '', name)).length;
      result[keep] = { kept: kept / names.length, chrf: report.overall.chrf2, bleu: report.overall.bleu };
    }
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({ options: {
    model: { type: 'string', multiple: true }, data: { type: 'string', multiple: true },
    beam: { type: 'string', default: '4' }, json: { type: 'boolean', default: false },
  } });
  if (!values.model?.length || values.data?.length !== values.model.length) {
    console.error('usage: node scripts/names-table.mjs --model models/NAME.s2s --data DEV.tsv [--model ... --data ...] [--beam 4] [--json]\n(one --data per --model: its Tatoeba development split)');
    process.exit(2);
  }
  const rows = values.model.map((model, i) => ({ model, data: values.data[i], ...namesCost(model, values.data[i], { beam: Number(values.beam) }) }));
  if (values.json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log('| model | sentences | names kept, off → on | chrF2, off → on | BLEU, off → on |');
  console.log('|---|---:|---:|---:|---:|');
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  for (const r of rows) {
    console.log(`| ${basename(r.model)} | ${r.sentences} | ${pct(r.off.kept)} → **${pct(r.on.kept)}** | ${r.off.chrf.toFixed(2)} → ${r.on.chrf.toFixed(2)} | ${r.off.bleu.toFixed(2)} → ${r.on.bleu.toFixed(2)} |`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
