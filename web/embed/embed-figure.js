// The figures of <seq2seq-attention-demo> (embed.js): the attention figure
// (heatmap or lines, pieces or words) with its readout, the step-through
// panel under it (view="step"), and the fixed-context twin's comparison
// (compare). Each draws into the element's parts from what the element
// reads off its attributes (`how`), and holds no state of its own.
import { h, pieceLabels, replaceChildren } from '../figures/dom.js';
import { renderHeatmap } from '../figures/heatmap.js';
import { renderAlignment } from '../figures/alignment.js';
import { renderStepPanel } from '../figures/step-panel.js';
import { rich } from '../figures/i18n/index.js';
import { comparisonScores, renderComparisonChart } from '../figures/compare-chart.js';
import { languagesOf } from '../figures/page-models.js';

/**
 * The attention figure of `result` and, on a step view, its step panel.
 * how: { view: 'heatmap'|'lines', unit: 'pieces'|'words', step (1-based or
 * null), isStepView, shortlist, language, t(key, params), wordAttention }.
 */
export function drawFigure(parts, result, how) {
  const { language, t } = how;
  replaceChildren(parts.readout, '\u00a0');
  if (!result.attention.length) {
    replaceChildren(parts.heatmap);
    return;
  }
  // Subword pieces without their word marker; a piece inside a word as
  // "·ing"; or, with unit="words", words and the attention between them.
  const pieceSource = pieceLabels(result.sourceTokens, result.sourceWords);
  const pieceTarget = pieceLabels(result.targetTokens, result.targetWords);
  const words = how.unit === 'words' ? how.wordAttention(result) : null;
  const sourceTokens = words ? words.sourceWords.map((word) => word.text) : pieceSource;
  const targetTokens = words ? words.targetWords.map((word) => word.text) : pieceTarget;
  const attention = words ? words.attention : result.attention;
  const data = { sourceTokens, targetTokens, attention };
  const readCell = (row, col) => t('embed.readout', {
    target: targetTokens[row], source: sourceTokens[col], weight: attention[row][col].toFixed(3),
  });
  // The selected step (an output piece): its row lit (the word holding it,
  // in the words figure), and where that row looked most in the readout.
  const step = how.step === null ? null : Math.min(how.step, pieceTarget.length) - 1;
  const row = step === null || !words ? step : Math.max(0, result.targetWords.findIndex((w) => step >= w.start && step < w.end));
  const showStep = () => {
    if (step === null) {
      replaceChildren(parts.readout, '\u00a0');
      return;
    }
    figure.highlight({ row });
    const weights = attention[row];
    const top = weights.indexOf(Math.max(...weights));
    replaceChildren(parts.readout, rich('readout.step', {
      step: step + 1, target: h('b', {}, `“${targetTokens[row]}”`), source: h('b', {}, `“${sourceTokens[top]}”`),
      weight: weights[top].toFixed(2),
    }, language));
  };
  const figure = how.view === 'lines'
    ? renderAlignment(data, { language, onLabel: (axis, index) => (index === null ? showStep() : null) })
    : renderHeatmap(data, {
      language,
      onHover: (cell) => (cell ? replaceChildren(parts.readout, readCell(cell.row, cell.col)) : showStep()),
    });
  parts.heatmap.dataset.step = step === null ? '' : String(step + 1);
  replaceChildren(parts.heatmap, figure.element);
  showStep();
  drawStepPanel(parts, result, pieceTarget, pieceSource, how);
}

// view="step": the step-through panel at the step attribute (default 1).
function drawStepPanel(parts, result, targetTokens, sourceTokens, how) {
  const panel = parts.step;
  if (!how.isStepView || !result.trace?.steps.length) {
    replaceChildren(panel);
    panel.hidden = true;
    parts.stepNav.hidden = true;
    return;
  }
  panel.hidden = false;
  parts.stepNav.hidden = false;
  const step = Math.min(how.step ?? 1, result.trace.steps.length) - 1;
  renderStepPanel(panel, { trace: result.trace, sourceTokens, targetTokens, step, shortlist: how.shortlist, language: how.language });
}

/**
 * compare: the fixed twin's translation and both models' BLEU by length, or
 * nothing while `compared` (the element's last comparison) is null.
 * how: { compare, language, t(key, params) }.
 */
export function drawComparison(parts, compared, how) {
  const { language, t } = how;
  parts.compare.hidden = !how.compare;
  if (!how.compare || !compared) {
    delete parts.compare.dataset.text;
    for (const part of [parts.compareLabel, parts.compareOutput, parts.chartHeading, parts.chart, parts.chartCaption]) replaceChildren(part);
    return;
  }
  parts.compare.dataset.text = compared.text;
  parts.compare.dataset.model = compared.fixed ?? '';
  if (!compared.fixed) {
    replaceChildren(parts.compareLabel, t('embed.noTwin', { model: compared.model }));
    return;
  }
  replaceChildren(parts.compareLabel, t('compare.fixed'), ' · ', h('b', { translate: 'no' }, compared.fixed));
  parts.compareOutput.lang = languagesOf(compared.fixed).targetLanguage;
  replaceChildren(parts.compareOutput, compared.outcome.status === 'fulfilled'
    ? compared.outcome.value.text
    : h('span', { class: 'error' }, t('compare.failed', { message: compared.outcome.reason?.message ?? compared.outcome.reason })));
  replaceChildren(parts.chartHeading, t('compare.chartHeading'));
  try {
    const scores = comparisonScores(compared.infos, language);
    const width = Math.min(620, (parts.compare.clientWidth || 560) - 18);
    replaceChildren(parts.chart, renderComparisonChart(scores, { width, language }));
    replaceChildren(parts.chartCaption, scores.caption ?? t('compare.chartCaption'));
  } catch (error) {
    replaceChildren(parts.chart);
    replaceChildren(parts.chartCaption, h('span', { class: 'error' }, t('compare.scoresFailed', { message: error?.message ?? error })));
  }
}
