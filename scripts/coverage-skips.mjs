// Which source words the possibly-dropped mark should never flag, measured:
// the words a target language leaves untranslated (English articles into
// Chinese), and how often the mark is wrong or right before and after
// (kDroppedSkipWords, kPossiblyDroppedCoverage: src/decode/coverage.h).
//
//   node scripts/coverage-skips.mjs --dev DIR [--model models/en-zh.s2s ...]
//        [--beam 4] [--min-chrf 60] [--min-count 15] [--max-mean 0.6] [--json]
//
// DIR holds the development splits (English<TAB>reference, one line per
// reference): DIR/en-XX-dev.tsv (Tatoeba) and DIR/data/domain-dev.en-XX.tsv
// (in-domain), XX the model's target language; by default the attention
// models of models/ (the fixed-context twins have no attention, so no mark).
// The native CLI (S2S_CLI picks another build) reads each split: `seq2seq
// eval --per-sentence --json` groups its references by English sentence and
// gives each translation's own chrF2 (src/eval/chrf.h, the project's one
// chrF2), and `seq2seq translate --json` the same translations' coverage.
//
// A translation whose sentence chrF2 against its best reference is at least
// --min-chrf is *correct enough*: a source word flagged there is a false
// alarm. Per source word of one piece, the table gives how often it occurs
// in those translations, its mean coverage and how often its coverage is
// under the threshold (read from coverage, so the figures do not depend on
// the list in use). A word translated by one output token gets about 1: a
// word (letters) whose mean is under --max-mean over at least --min-count
// occurrences is one the target language leaves to the words around it, a
// word for the list (kNeverDropped).
//
// Detection: a number of the source (digits; not the minutes of "8:30")
// that a reference writes but the translation does not (as digits or as a
// number word of the target language: numberValues below) is a real drop;
// the report counts how many the mark flags, by coverage alone and as the
// CLI flags them (possiblyDropped). False alarms are counted both ways too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const THRESHOLD = 0.1;  // kPossiblyDroppedCoverage, as dist/options.js writes it

/**
 * The split's distinct English sentences, in the order of the file, as
 * `seq2seq eval --per-sentence` scores them: [{ source, references,
 * hypothesis, chrf2 }], chrf2 the translation's own sentence chrF2.
 */
function scoreSplit(model, path, beam) {
  const r = spawnSync(cli, ['eval', '--model', model, '--data', path, '--beam', String(beam), '--per-sentence', '--json'],
    { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`seq2seq eval failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout).per_sentence;
}

function translateAll(model, sources, beam) {
  const r = spawnSync(cli, ['translate', '--model', model, '--beam', String(beam), '--json'],
    { input: `${sources.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`seq2seq translate failed (${r.status}): ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

// Number words of each target language, value -> words (lowercase): what a
// reference or a translation may write for a digit of the source.
const NUMBER_WORDS = {
  fr: ['zéro', 'un|une', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze',
    'treize', 'quatorze', 'quinze', 'seize', 'dix-sept', 'dix-huit', 'dix-neuf', 'vingt'],
  zh: ['零', '一', '二|两', '三', '四', '五', '六', '七', '八', '九', '十'],
};
const HAN_DIGITS = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const HAN_UNITS = { 十: 10, 百: 100, 千: 1000, 万: 10000 };

/** The value of a run of Chinese numerals (三, 十二, 二十, 三百五十), or NaN. */
export function hanNumber(run) {
  if (![...run].some((ch) => ch in HAN_UNITS)) return Number([...run].map((ch) => HAN_DIGITS[ch]).join(''));  // 一九七四
  let total = 0, section = 0, digit = -1;
  for (const ch of run) {
    if (ch in HAN_DIGITS) digit = HAN_DIGITS[ch];
    else if (ch in HAN_UNITS) {
      const unit = HAN_UNITS[ch];
      if (unit === 10000) { total = (total + section + Math.max(digit, 0)) * unit; section = 0; }
      else section += (digit < 0 ? 1 : digit) * unit;
      digit = -1;
    } else return NaN;
  }
  return total + section + Math.max(digit, 0);
}

/** Every number value a text writes, as digits or as the language's words. */
export function numberValues(text, language) {
  const values = new Set();
  for (const m of text.matchAll(/\d+(?:[.,\u00a0\u202f ]\d+)*/gu)) {
    values.add(Number(m[0].replace(/[.,\u00a0\u202f ]/gu, '')));
    for (const run of m[0].match(/\d+/gu)) values.add(Number(run));
  }
  if (language === 'zh') {
    for (const m of text.matchAll(/[零〇一二两三四五六七八九十百千万]+/gu)) {
      const v = hanNumber(m[0]);
      if (Number.isFinite(v)) values.add(v);
    }
  } else {
    const words = text.toLowerCase().match(/[\p{L}-]+/gu) ?? [];
    NUMBER_WORDS[language]?.forEach((forms, value) => {
      if (forms.split('|').some((w) => words.includes(w))) values.add(value);
    });
  }
  return values;
}

/** The measurement of one model on its splits. */
export function measure(model, splits, { beam = 4, minChrf = 60 } = {}) {
  const language = basename(model).match(/^en-(\w+)/)[1];
  const words = new Map();  // word -> { seen, low, sum }
  const out = { model: basename(model), language, sentences: 0, correct: 0, falseAlarms: 0, falseAlarmsCoverage: 0,
    articleAlarms: 0, articleAlarmsCoverage: 0, articleSentences: 0, articleAlarmsFirst50: 0, drops: 0, dropsFlagged: 0, dropsFlaggedCoverage: 0, dropExamples: [] };
  for (const path of splits) {
    const scored = scoreSplit(model, path, beam);
    const sources = scored.map((sentence) => sentence.source);
    const translations = translateAll(model, sources, beam);
    translations.forEach((t, k) => {
      const { references, hypothesis, chrf2 } = scored[k];
      // The score must be this translation's: eval and translate decode alike.
      if (t.text !== hypothesis) throw new Error(`${path}: eval wrote "${hypothesis}" and translate "${t.text}" for "${sources[k]}"`);
      out.sentences++;
      const low = new Set(t.coverage.map((c, i) => i).filter((i) => i + 1 < t.coverage.length && t.coverage[i] < THRESHOLD));
      const flagged = new Set(t.possiblyDropped);
      // Real drops: a source number the references keep and the translation does not.
      const written = numberValues(t.text, language);
      t.sourceWords.forEach((word, w) => {
        if (!/^\d+(?:[.,]\d+)*$/.test(word.text) || t.sourceWords[w - 1]?.text === ':') return;
        const value = Number(word.text.replace(/[.,]/gu, ''));
        if (!references.some((r) => numberValues(r, language).has(value)) || written.has(value)) return;
        out.drops++;
        const tokens = [];
        for (let i = word.start; i < word.end; i++) tokens.push(i);
        if (tokens.some((i) => low.has(i))) out.dropsFlaggedCoverage++;
        if (tokens.some((i) => flagged.has(i))) out.dropsFlagged++;
        if (out.dropExamples.length < 10) out.dropExamples.push(`${sources[k]} -> ${t.text}`);
      });
      if (chrf2 < minChrf) return;
      out.correct++;
      out.falseAlarms += flagged.size;
      out.falseAlarmsCoverage += low.size;
      const articles = t.sourceWords.filter((word) => ['the', 'a', 'an'].includes(word.text.toLowerCase()));
      if (articles.length && out.articleSentences++ < 50) out.articleAlarmsFirst50 += articles.filter((word) => flagged.has(word.start)).length;
      for (const word of t.sourceWords) {
        if (word.end - word.start !== 1 || word.text === '<eos>') continue;
        const key = word.text.toLowerCase();
        const entry = words.get(key) ?? { seen: 0, low: 0, sum: 0 };
        entry.seen++;
        entry.sum += t.coverage[word.start];
        if (low.has(word.start)) entry.low++;
        words.set(key, entry);
        if (['the', 'a', 'an'].includes(key)) {
          if (low.has(word.start)) out.articleAlarmsCoverage++;
          if (flagged.has(word.start)) out.articleAlarms++;
        }
      }
    });
  }
  out.words = [...words].map(([word, { seen, low, sum }]) => ({ word, seen, low, mean: sum / seen }))
    .sort((a, b) => a.mean - b.mean || a.word.localeCompare(b.word));
  return out;
}

function main() {
  const { values } = parseArgs({ options: {
    dev: { type: 'string', default: join(root, 'checkpoints', 'compare') },
    model: { type: 'string', multiple: true },
    beam: { type: 'string', default: '4' },
    'min-chrf': { type: 'string', default: '60' },
    'min-count': { type: 'string', default: '15' },
    'max-mean': { type: 'string', default: '0.6' },
    json: { type: 'boolean', default: false },
  } });
  const models = values.model ?? ['models/en-fr.s2s', 'models/en-zh.s2s'].map((m) => join(root, m));
  const minCount = Number(values['min-count']), maxMean = Number(values['max-mean']);
  const reports = models.map((model) => {
    const language = basename(model).match(/^en-(\w+)/)[1];
    const splits = [join(values.dev, `en-${language}-dev.tsv`), join(values.dev, 'data', `domain-dev.en-${language}.tsv`)];
    for (const s of splits) if (!existsSync(s)) throw new Error(`no development split ${s}`);
    const report = measure(model, splits, { beam: Number(values.beam), minChrf: Number(values['min-chrf']) });
    report.skips = report.words.filter((w) => /\p{L}/u.test(w.word) && w.seen >= minCount && w.mean < maxMean).map((w) => w.word);
    return report;
  });
  if (values.json) {
    console.log(JSON.stringify(reports, null, 2));
    return;
  }
  for (const r of reports) {
    console.log(`## ${r.model} (into ${r.language}): ${r.sentences} sentences, ${r.correct} with chrF2 >= ${values['min-chrf']}`);
    console.log(`false alarms in those: ${r.falseAlarmsCoverage} by coverage alone, ${r.falseAlarms} as flagged now` +
      ` (articles: ${r.articleAlarmsCoverage} -> ${r.articleAlarms}; in the first 50 sentences with an article, any` +
      ` chrF2: ${r.articleAlarmsFirst50} flagged now)`);
    console.log(`real drops (a number the references keep, the translation not): ${r.drops}; flagged by coverage alone ` +
      `${r.dropsFlaggedCoverage}, now ${r.dropsFlagged}`);
    for (const e of r.dropExamples) console.log(`  ${e}`);
    console.log('| word | in correct translations | mean coverage | coverage < 0.1 |');
    console.log('|---|---|---|---|');
    for (const w of r.words.filter((x) => x.seen >= minCount || x.low > 0).slice(0, 15)) {
      console.log(`| ${w.word} | ${w.seen} | ${w.mean.toFixed(2)} | ${w.low} |`);
    }
    console.log(`never flagged (words seen >= ${minCount} times, mean coverage < ${maxMean}): ${r.skips.join(' ') || '(none)'}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
