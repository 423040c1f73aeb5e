// The BLEU by sentence length of an attention model and its fixed-context
// twin, as the two model files record it (scores.js), drawn by chart.js with
// its caption. One owner for the page's comparison section (compare.js) and
// the element's `compare` attribute (embed.js): the series, their colours
// and the caption's words are made here only.
import { renderBleuChart } from './chart.js';
import { recordedScores, scorerLabel } from './scores.js';
import { formatCount, lang, tIn } from './i18n/index.js';

const SERIES = [
  { key: 'compare.seriesAttention', color: '#4338ca' },
  { key: 'compare.seriesFixed', color: '#94a3b8' },
];

/**
 * The comparison's scores from the two models' info, given as
 * Promise.allSettled outcomes [attention, fixed]. Returns { series (for
 * renderBleuChart), fixedMissing (the fixed model's info could not be had),
 * caption (null when the files record no sentence count: the static
 * caption, compare.chartCaption, stays) }; throws the attention model's
 * failure when neither is there.
 */
export function comparisonScores(outcomes, language = lang()) {
  const series = SERIES.map(({ key, color }, k) => ({ label: tIn(language, key), color, info: outcomes[k] }))
    .filter((s) => s.info.status === 'fulfilled')
    .map(({ label, color, info }) => ({ label, color, devBleu: recordedScores(info.value, undefined, language) }));
  if (series.length === 0) throw outcomes[0].reason;
  const fixedMissing = outcomes[1].status !== 'fulfilled';
  const scores = series[0].devBleu;
  const sentences = scores?.sentences;
  const metric = scores
    ? tIn(language, scores.chrf2 !== null ? 'compare.metricScoredChrf' : 'compare.metricScored', { scorer: scorerLabel(scores, language), decoding: scores.decoding })
    : tIn(language, 'compare.metric');
  let caption = null;
  if (fixedMissing) {
    caption = tIn(language, 'compare.captionFixedMissing', {
      metric, sentences: sentences == null ? tIn(language, 'compare.captionSentencesUnknown') : formatCount(sentences),
    });
  } else if (sentences) {
    caption = tIn(language, 'compare.caption', { metric, sentences: formatCount(sentences) });
  }
  return { series, fixedMissing, caption };
}

/** The chart of comparisonScores(…)'s series, `width` pixels wide, its words in `language`. */
export function renderComparisonChart({ series }, { width = 560, language = lang() } = {}) {
  return renderBleuChart(series, { width, language });
}
