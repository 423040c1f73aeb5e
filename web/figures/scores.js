// The development scores a model file records, as the page shows them: in
// the BLEU chart (compare.js) and "About this model" (about.js).
// `npm run compare` stores evaluations/dev-greedy and
// evaluations/dev-beam4 (`seq2seq eval --record`); `seq2seq train` stores
// dev_bleu at the end of training. A report written by the
// sacreBLEU-compatible scorer carries its signature and chrF2; earlier ones
// (today's shipped files) have neither, and are labelled as what they are.
// Returns { overall, chrf2, sentences, byLength, decoding, sacrebleu } or null;
// `decoding` and scorerLabel's words are in `language` (default the page's).
import { lang, tIn } from './i18n/index.js';

export function recordedScores(info, keys = ['dev-beam4', 'dev-greedy'], language = lang()) {
  const provenance = info?.provenance ?? {};
  const report = keys.map((key) => provenance.evaluations?.[key]).find((r) => r?.overall);
  if (report) return scoresOf(report, report.beam > 1 ? tIn(language, 'scores.beam', { beam: report.beam }) : tIn(language, 'scores.greedy'));
  return provenance.dev_bleu?.overall ? scoresOf(provenance.dev_bleu, tIn(language, 'scores.greedyEnd')) : null;
}

function scoresOf(report, decoding) {
  const chrf2 = (entry) => (typeof entry.chrf2 === 'number' ? entry.chrf2 : null);
  return {
    overall: report.overall.bleu,
    chrf2: chrf2(report.overall),
    sentences: report.overall.sentences ?? 0,
    byLength: (report.by_length ?? []).map((b) => ({ bucket: b.bucket, bleu: b.bleu, chrf2: chrf2(b), sentences: b.sentences })),
    decoding,
    sacrebleu: typeof report.overall.signature === 'string',
  };
}

export const scorerLabel = (scores, language = lang()) => (scores.sacrebleu ? tIn(language, 'scores.sacrebleu') : tIn(language, 'scores.ownTokens'));
