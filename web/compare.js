// The comparison with the fixed-context baseline (the same sentence through
// one fixed vector, beside the attention model's translation), and the BLEU
// chart by sentence length that both models' files record. The pair is the
// package's: the shipped model with `baselineOf` and its attention twin.
import { h, replaceChildren } from './dom.js';
import { renderBleuChart } from './chart.js';
import { LANGUAGES, baselineOf, languagesOf, pickableModels } from './page-models.js';
import { decodeOptions, page, state, view } from './page-state.js';
import { recordedScores, scorerLabel } from './scores.js';

// The attention model that has a fixed-context baseline, and that baseline.
function comparedModels() {
  const attention = pickableModels().find((name) => baselineOf(name) !== null);
  return { attention, fixed: baselineOf(attention) };
}

// The comparison needs the fixed-context model (a second model download), so it
// starts only when its section comes near the viewport; from then on it
// follows every translation.
let compareWanted = false;

/** Names the two models, and starts the comparison once its section comes near the viewport. */
export function watchCompare() {
  const models = comparedModels();
  view.compareAttentionName.textContent = models.attention;
  view.compareFixedName.textContent = models.fixed;
  const section = document.getElementById('compare');
  if (typeof IntersectionObserver !== 'function' || !section) {
    compareWanted = true;
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    compareWanted = true;
    if (state.result && view.compareView.dataset.text !== state.text) compare(state.text, page.serial);
  }, { rootMargin: '200px' });
  observer.observe(section);
}

/** Compares the two models on `text` if the reader has scrolled near the section; `request` is the translation's serial. */
export function compareIfWanted(text, request) {
  if (compareWanted) compare(text, request);
}

async function compare(text, request) {
  const models = comparedModels();
  const language = LANGUAGES[languagesOf(models.fixed).targetLanguage];
  view.compareNote.hidden = state.model === models.attention;
  view.compareNote.textContent = `The fixed-context baseline translates into ${language}, so this comparison uses the ${language} models whatever the model above.`;
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
  const show = (target, outcome) => replaceChildren(target, outcome.status === 'fulfilled'
    ? outcome.value.text
    : h('span', { class: 'error block' }, `Could not run this model: ${outcome.reason?.message ?? outcome.reason}`));
  show(view.compareAttention, attention);
  show(view.compareFixed, fixed);
  showChart(models);
}

let chartShown = false;
async function showChart(models) {
  if (chartShown) return;
  chartShown = true;
  try {
    const [attention, fixed] = await Promise.allSettled([page.translator.info(models.attention),
      page.translator.info(models.fixed)]);
    const series = [
      { label: 'with attention', color: '#4338ca', info: attention },
      { label: 'fixed context', color: '#94a3b8', info: fixed },
    ].filter((s) => s.info.status === 'fulfilled').map((s) => ({ ...s, devBleu: recordedScores(s.info.value) }));
    if (series.length === 0) throw attention.reason;
    if (fixed.status !== 'fulfilled') {
      view.chartCaption.dataset.missing = 'fixed';
    }
    const draw = () => replaceChildren(view.chart, renderBleuChart(series, { width: view.chart.clientWidth || 560 }));
    draw();
    let timer = 0;
    window.addEventListener('resize', () => {
      clearTimeout(timer);
      timer = setTimeout(draw, 150);
    });
    const scores = series[0].devBleu;
    const sentences = scores?.sentences;
    const metric = scores ? `Corpus BLEU-4, ${scorerLabel(scores)}${scores.chrf2 !== null ? ' (chrF2 beside it)' : ''}; ${scores.decoding}` : 'Corpus BLEU-4';
    if (fixed.status !== 'fulfilled') {
      view.chartCaption.textContent = `${metric}, of the attention model on ${sentences?.toLocaleString('en') ?? 'its'} held-out Tatoeba sentences, by the number of English words. The fixed-context model could not be loaded (see above), so its bars are missing.`;
    } else if (sentences) {
      view.chartCaption.textContent = `${metric}, on ${sentences.toLocaleString('en')} held-out Tatoeba sentences (never seen in training), grouped by the number of English words. Both models have the same data, sizes and training budget.`;
    }
  } catch (error) {
    chartShown = false;
    replaceChildren(view.chart, h('p', { class: 'error' }, `Could not read the models’ scores: ${error.message}`));
  }
}
