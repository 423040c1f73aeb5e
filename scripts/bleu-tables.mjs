// The quality tables of README.md and docs/models.md, written from the
// evaluations each model file records in its provenance (`npm run compare`:
// `seq2seq eval --record KEY`) and from models/baselines.json, so that the
// figures have one owner, the files themselves:
//
//   node scripts/bleu-tables.mjs           rewrites the tables in place
//   node scripts/bleu-tables.mjs --check   exits 1 when a table differs
//                                           from the model files (a test)
//
// In the documents each table sits between <!-- table:NAME --> and
// <!-- /table -->: `tatoeba` (the Tatoeba development splits, dev-greedy and
// dev-beam4), `domain` (the in-domain split, domain-greedy and
// domain-beam4) and `gap` (attention against the fixed context on
// Tatoeba's longest sentences and on the long corpus's split, long-beam4).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const DOCUMENTS = ['README.md', 'docs/models.md'];
const BUCKETS = ['1-4', '5-7', '8-11', '12+'];

const { shippedModels, modelCatalog } = await import(pathToFileURL(join(root, 'src', 'wasm', 'models.js')).href);

function modelInfo(name) {
  const r = spawnSync(cli, ['info', '--model', join(root, 'models', `${name}.s2s`), '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`bleu-tables: seq2seq info failed for models/${name}.s2s (${r.stderr.trim()}); build the CLI: npm run build:native`);
  return JSON.parse(r.stdout);
}

const two = (x) => (x === undefined || x === null ? '–' : x.toFixed(2));
const bold = (x) => (x === undefined || x === null ? '–' : `**${x.toFixed(2)}**`);
const bucket = (report, name) => report?.by_length.find((b) => b.bucket === name);
const terms = (report) => (report?.terms ? `${report.terms.accuracy.toFixed(1)}%` : '–');

function describe(name, info) {
  const parts = [info.config.attention === 'none' ? 'no attention' : 'attention'];
  if (info.target_shortlist) parts.push('shortlist');
  if (info.target_tokenizer.kind === 'characters' && info.target_tokenizer.language === 'zh') parts.push('Chinese characters');
  return `\`${name}\` (${parts.join(', ')})`;
}

const DTYPES = { i8: 'int8', f16: 'float16', f32: 'float32' };

function tatoebaTable(models, baselines) {
  const lines = ['| model | file | BLEU greedy | BLEU beam 4 | chrF2 | terms | 1–4 words | 5–7 | 8–11 | 12+ |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const language of ['fr', 'zh']) {
    for (const { name, info } of models.filter((m) => modelCatalog[m.name].targetLanguage === language)) {
      const greedy = info.provenance.evaluations?.['dev-greedy'];
      const beam = info.provenance.evaluations?.['dev-beam4'];
      lines.push(`| ${describe(name, info)} | ${(info.file_bytes / 1e6).toFixed(2)} MB, ${DTYPES[info.stored_dtype] ?? info.stored_dtype} | ` +
        `${two(greedy?.overall.bleu)} | ${bold(beam?.overall.bleu)} | ${two(beam?.overall.chrf2)} | ${terms(beam)} | ` +
        `${BUCKETS.map((b) => two(bucket(beam, b)?.bleu)).join(' | ')} |`);
    }
    const memory = baselines[`en-${language}`];
    if (memory) {
      lines.push(`| translation memory, en-${language} | — | ${two(memory.overall.bleu)} | | ${two(memory.overall.chrf2)} | | ` +
        `${BUCKETS.map((b) => two(bucket(memory, b)?.bleu)).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

function domainTable(models) {
  const lines = ['| model | BLEU greedy | BLEU beam 4 | chrF2 | terms | 12+ words |', '|---|---:|---:|---:|---:|---:|'];
  for (const { name, info } of models) {
    const greedy = info.provenance.evaluations?.['domain-greedy'];
    const beam = info.provenance.evaluations?.['domain-beam4'];
    lines.push(`| \`${name}\` | ${two(greedy?.overall.bleu)} | ${bold(beam?.overall.bleu)} | ${two(beam?.overall.chrf2)} | ` +
      `${terms(beam)} | ${two(bucket(beam, '12+')?.bleu)} |`);
  }
  return lines.join('\n');
}

// Attention against its fixed-context twin on the Tatoeba split's longest
// sentences (beam 4), per language, and on the long corpus's split
// (long-beam4) when every model records it.
function gapSentence(models) {
  const byName = Object.fromEntries(models.map((m) => [m.name, m.info]));
  const gaps = [];
  for (const { name } of models) {
    const of = modelCatalog[name].baselineOf;
    if (!of || !byName[of]) continue;
    const attention = byName[of].provenance.evaluations?.['dev-beam4'];
    const fixed = byName[name].provenance.evaluations?.['dev-beam4'];
    if (!attention || !fixed) continue;
    const everyLength = BUCKETS.every((b) => bucket(attention, b).bleu > bucket(fixed, b).bleu);
    const longA = byName[of].provenance.evaluations?.['long-beam4'];
    const longF = byName[name].provenance.evaluations?.['long-beam4'];
    gaps.push({ language: modelCatalog[of].targetLanguage, everyLength, gap: bucket(attention, '12+').bleu - bucket(fixed, '12+').bleu,
      sentences: bucket(attention, '12+').sentences,
      long: longA && longF ? { attention: longA.overall.bleu, fixed: longF.overall.bleu, sentences: longA.overall.sentences } : null });
  }
  const names = { fr: 'French', zh: 'Chinese' };
  const every = gaps.every((g) => g.everyLength) ? ' at every sentence length;' : '';
  const short = `Attention beats the fixed context${every} on the development sentences of 12+ words by ` +
    gaps.map((g) => `${g.gap.toFixed(1)} BLEU in ${names[g.language] ?? g.language} (${g.sentences} sentences)`).join(' and ') + '.';
  if (!gaps.length || gaps.some((g) => !g.long)) return short;
  const sentences = [...new Set(gaps.map((g) => g.long.sentences.toLocaleString('en-US')))].join(' / ');
  return `${short} On the long corpus's ${sentences} development sentences (12 to 40 words) it leads by ` +
    gaps.map((g, k) => `${(g.long.attention - g.long.fixed).toFixed(2)}${k ? '' : ' BLEU'} in ${names[g.language] ?? g.language} ` +
      `(${g.long.attention.toFixed(2)} against ${g.long.fixed.toFixed(2)})`).join(' and ') + ', names kept.';
}

// The records the tables read: each must have been measured on the file as
// it is now (its model_fingerprint the file's, `seq2seq info --json`), so a
// model changed after `npm run compare` (retrained, converted, a shortlist
// added) cannot keep its old figures.
export const RECORDS = ['dev-greedy', 'dev-beam4', 'domain-greedy', 'domain-beam4', 'long-beam4'];

/** The records of `models` not measured on the file as it is: [{ name, key, recorded, file }]. */
export function staleRecords(models) {
  const stale = [];
  for (const { name, info } of models) {
    for (const key of RECORDS) {
      const record = info.provenance.evaluations?.[key];
      if (record && record.model_fingerprint !== info.fingerprint) {
        stale.push({ name, key, recorded: record.model_fingerprint ?? null, file: info.fingerprint });
      }
    }
  }
  return stale;
}

export function tables() {
  const models = shippedModels.map((name) => ({ name, info: modelInfo(name) }));
  const stale = staleRecords(models);
  if (stale.length) {
    throw new Error(`bleu-tables: ${stale.map((r) => `models/${r.name}.s2s's ${r.key} (measured on ${r.recorded ?? 'an unrecorded model'}, the file is ${r.file})`).join('; ')}: not measured on the file as it is; run npm run compare`);
  }
  const baselines = JSON.parse(readFileSync(join(root, 'models', 'baselines.json'), 'utf8'));
  return { tatoeba: tatoebaTable(models, baselines), domain: domainTable(models), gap: gapSentence(models) };
}

function fill(text, generated, file) {
  return text.replace(/(<!-- table:([a-z]+) -->\n)([\s\S]*?)(\n<!-- \/table -->)/g, (all, open, name, body, close) => {
    if (!(name in generated)) throw new Error(`bleu-tables: ${file} has a table '${name}' this script does not write`);
    return `${open}${generated[name]}${close}`;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const generated = tables();
  let stale = [];
  for (const file of DOCUMENTS) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const next = fill(text, generated, file);
    if (next === text) continue;
    if (check) stale.push(file);
    else writeFileSync(path, next);
  }
  if (check && stale.length) {
    console.error(`bleu-tables: the tables in ${stale.join(', ')} are not the model files' figures; run node scripts/bleu-tables.mjs`);
    process.exit(1);
  }
  if (!check) console.log(`bleu-tables: ${DOCUMENTS.join(', ')} written from the models' provenance`);
}
