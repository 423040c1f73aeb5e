// The comparison with the fixed-context baseline (the same sentence through
// one fixed vector, beside the attention model's translation), and the BLEU
// chart by sentence length that both models' files record. The pair is the
// package's: the shipped model with `baselineOf` and its attention twin.
import { h, replaceChildren } from '../figures/dom.js';
import { comparisonScores, renderComparisonChart } from '../figures/compare-chart.js';
import { baselineOf, languageName, languagesOf, pickableModels } from '../figures/page-models.js';
import { decodeOptions, page, shownText, state, view } from './page-state.js';
import { t } from '../figures/i18n/index.js';

// The attention model and its fixed-context baseline: the reader's model
// when it has one (en-fr, en-zh), else the first model that does.
function comparedModels() {
  const attention = baselineOf(state.model) !== null
    ? state.model
    : pickableModels().find((name) => baselineOf(name) !== null);
  return { attention, fixed: baselineOf(attention) };
}

function nameModels(models) {
  view.compareAttentionName.textContent = models.attention;
  view.compareFixedName.textContent = models.fixed;
}

// The comparison needs the fixed-context model (a second model download), so it
// starts only when its section comes near the viewport; from then on it
// follows every translation.
let compareWanted = false;

/** Names the two models, and starts the comparison once its section comes near the viewport. */
export function watchCompare() {
  nameModels(comparedModels());
  const section = document.getElementById('compare');
  if (typeof IntersectionObserver !== 'function' || !section) {
    compareWanted = true;
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    // Out of view: the page has decided to wait (data-deferred says so, so
    // that a test can tell "not yet fetched" from "not fetched yet").
    section.dataset.deferred = String(!entries.some((entry) => entry.isIntersecting));
    if (section.dataset.deferred === 'true') return;
    observer.disconnect();
    compareWanted = true;
    if (state.result && view.compareView.dataset.text !== shownText()) compare(shownText(), page.serial);
  }, { rootMargin: '200px' });
  observer.observe(section);
}

/** Compares the two models on `text` if the reader has scrolled near the section; `request` is the translation's serial. */
export function compareIfWanted(text, request) {
  if (compareWanted) compare(text, request);
}

async function compare(text, request) {
  const models = comparedModels();
  nameModels(models);
  view.compareNote.hidden = state.model === models.attention;
  showCompareNote(models);
  const options = decodeOptions();
  // Each side on its own: a model that fails to load (or is not shipped)
  // leaves the other side's translation in place.
  const [attention, fixed] = await Promise.allSettled([
    state.model === models.attention && state.prefix.length === 0
      ? Promise.resolve(state.result)
      : page.translator.translate(models.attention, text, options).then((r) => r.value),
    page.translator.translate(models.fixed, text, options).then((r) => r.value),
  ]);
  if (request !== page.serial) return;
  view.compareView.dataset.text = text;
  outcomes = [attention, fixed];
  showOutcomes();
  showChart(models);
}

let outcomes = null; // the last comparison's two results (Promise.allSettled outcomes)

/** Empties the comparison's two translations (the input was cleared); the chart, about the models, stays. */
export function clearCompare() {
  outcomes = null;
  delete view.compareView.dataset.text;
  replaceChildren(view.compareAttention);
  replaceChildren(view.compareFixed);
}

function showCompareNote(models) {
  const language = languageName(languagesOf(models.fixed).targetLanguage);
  view.compareNote.textContent = t('compare.note', { language });
}

function showOutcomes() {
  const show = (target, outcome) => replaceChildren(target, outcome.status === 'fulfilled'
    ? outcome.value.text
    : h('span', { class: 'error block' }, t('compare.failed', { message: outcome.reason?.message ?? outcome.reason })));
  show(view.compareAttention, outcomes[0]);
  show(view.compareFixed, outcomes[1]);
}

/** Says the comparison and the chart again, in the page's language now. */
export function relabelCompare() {
  const models = comparedModels();
  showCompareNote(models);
  if (outcomes) showOutcomes();
  if (chartShown) {
    chartShown = null;
    showChart(models);
  }
}

let chartShown = null; // the attention model whose chart is shown (or being drawn)
let redraw = null; // draws the chart at the chart's width now (set once it is shown)
async function showChart(models) {
  if (chartShown === models.attention) return;
  chartShown = models.attention;
  delete view.chartCaption.dataset.missing;
  try {
    const scores = comparisonScores(await Promise.allSettled([page.translator.info(models.attention),
      page.translator.info(models.fixed)]));
    if (scores.fixedMissing) view.chartCaption.dataset.missing = 'fixed';
    const draw = () => replaceChildren(view.chart, renderComparisonChart(scores, { width: view.chart.clientWidth || 560 }));
    draw();
    if (!redraw) {
      let timer = 0;
      window.addEventListener('resize', () => {
        clearTimeout(timer);
        timer = setTimeout(() => redraw(), 150);
      });
    }
    redraw = draw;
    if (scores.caption) view.chartCaption.textContent = scores.caption;
  } catch (error) {
    chartShown = null;
    replaceChildren(view.chart, h('p', { class: 'error' }, t('compare.scoresFailed', { message: error.message })));
  }
}
