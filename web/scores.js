// The development scores a model file records, as the page shows them: in
// the BLEU chart (compare.js) and "About this model" (about.js).
// `npm run compare` stores evaluations/dev-greedy and
// evaluations/dev-beam4 (`seq2seq eval --record`); `seq2seq train` stores
// dev_bleu at the end of training. A report written by the
// sacreBLEU-compatible scorer carries its signature and chrF2; earlier ones
// (today's shipped files) have neither, and are labelled as what they are.
// Returns { overall, chrf2, sentences, byLength, decoding, sacrebleu } or null.
export function recordedScores(info, keys = ['dev-beam4', 'dev-greedy']) {
  const provenance = info?.provenance ?? {};
  const report = keys.map((key) => provenance.evaluations?.[key]).find((r) => r?.overall);
  if (report) return scoresOf(report, report.beam > 1 ? `beam ${report.beam}` : 'greedy');
  return provenance.dev_bleu?.overall ? scoresOf(provenance.dev_bleu, 'greedy, at the end of training') : null;
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

const SACREBLEU_LABEL = 'sacreBLEU-compatible (13a, or zh for Chinese), lowercased';
export const scorerLabel = (scores) => (scores.sacrebleu
  ? SACREBLEU_LABEL
  : 'measured on the model’s own tokens (the earlier scorer, not sacreBLEU-compatible)');
