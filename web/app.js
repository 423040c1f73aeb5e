// The demo page: wires the sentence box and options to the translation
// worker and draws what comes back (translation, attention heatmap, beam
// hypotheses, the "what if" alternatives, the fixed-context comparison and
// the model's provenance). The view is a function of `state`, which is also
// kept in the URL so that a link reproduces it.
import { h, replaceChildren, tokenKind, download, UNKNOWN_TOKEN } from './dom.js';
import { renderHeatmap, HEATMAP_CSS, colorFor, needsLightText, svgBlob, pngBlob } from './heatmap.js';
import { renderAlignment, ALIGNMENT_CSS } from './alignment.js';
import { renderBleuChart } from './chart.js';
import { missingFeatures } from './features.js';
import { getTranslator } from './translator.js';

const MODELS = {
  'en-fr': {
    label: 'English → French', target: 'French', lang: 'fr',
    reading: 'A diagonal means both languages keep the same word order; a French adjective after its noun shows up as a crossing.',
  },
  'en-zh': {
    label: 'English → Chinese', target: 'Chinese', lang: 'zh',
    reading: 'The Chinese output is one character per row, so one English word often lights up a short run of rows: 汤姆 (two characters) for “tom”.',
  },
};
const COMPARE_MODELS = { attention: 'en-fr', fixed: 'en-fr-fixed' };
const EXAMPLES = [
  'i love deep learning .',
  'go .',
  'i lost .',
  "he's calm .",
  "i'm home .",
  'i think that the weather will be better tomorrow , so we can go to the beach with our friends .',
];
const DEFAULTS = { model: 'en-fr', beam: 1, view: 'heatmap' };
const DEBOUNCE_MS = 300; // long enough to skip most keystrokes, short enough to feel live
const ALTERNATIVES = 8; // top-k words offered at each output position
const MAX_OUTPUT_TOKENS = 150; // bounds the heatmap's rows for runaway outputs

const $ = (id) => document.getElementById(id);
const view = {
  source: $('source'),
  model: $('model'),
  beam: $('beam'),
  translateButton: $('translate'),
  examples: $('examples'),
  status: $('status'),
  notices: $('notices'),
  result: $('result'),
  translation: $('translation'),
  meta: $('meta'),
  sourceTokens: $('source-tokens'),
  targetTokens: $('target-tokens'),
  targetLabel: $('target-label'),
  whatIf: $('whatif'),
  heatmap: $('heatmap'),
  readout: $('readout'),
  hypotheses: $('hypotheses'),
  compareNote: $('compare-note'),
  compareView: document.querySelector('[data-testid="compare-view"]'),
  compareAttention: $('compare-attention'),
  compareFixed: $('compare-fixed'),
  chart: $('chart'),
  chartCaption: $('chart-caption'),
  about: $('about-list'),
};

const state = {
  text: '',
  model: DEFAULTS.model,
  beam: DEFAULTS.beam,
  hyp: 0, // the selected beam hypothesis
  prefix: [], // target tokens forced by a "what if"
  whatIf: null, // the output position whose alternatives are open
  view: DEFAULTS.view, // 'heatmap' or 'lines'
  result: null, // the last translation (the API's plain object)
  ms: 0,
};

let translator = null;
let heatmap = null; // { element, highlight, clear } of the shown figure (heatmap or lines)
let serial = 0; // the latest translation request; older answers are dropped
const loadedModels = new Set();

// ---------------------------------------------------------------------------
// The URL: ?text=…&model=en-zh&beam=4&hyp=1&prefix=je+vois&view=lines (defaults omitted)

function readUrl() {
  const params = new URLSearchParams(location.search);
  const model = params.get('model');
  if (model && MODELS[model]) state.model = model;
  const beam = Number(params.get('beam'));
  if (Number.isInteger(beam) && beam >= 1 && beam <= 8) state.beam = beam;
  const hyp = Number(params.get('hyp'));
  if (Number.isInteger(hyp) && hyp >= 0 && hyp < 8) state.hyp = hyp;
  const prefix = params.get('prefix');
  if (prefix) state.prefix = prefix.split(' ').filter(Boolean);
  if (params.get('view') === 'lines') state.view = 'lines';
  return params.has('text') ? params.get('text') : null;
}

function writeUrl() {
  const params = new URLSearchParams();
  if (state.text) params.set('text', state.text);
  if (state.model !== DEFAULTS.model) params.set('model', state.model);
  if (state.beam !== DEFAULTS.beam) params.set('beam', String(state.beam));
  if (state.hyp > 0) params.set('hyp', String(state.hyp));
  if (state.prefix.length) params.set('prefix', state.prefix.join(' '));
  if (state.view !== DEFAULTS.view) params.set('view', state.view);
  const query = params.toString();
  const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
}

// ---------------------------------------------------------------------------
// Status, notices, errors

function setStatus(text, { busy = false } = {}) {
  view.status.textContent = text;
  view.status.classList.toggle('busy', busy);
}

function showNotices(notices) {
  replaceChildren(view.notices, notices.map(({ testid, text, kind = 'notice' }) =>
    h('p', { class: kind, 'data-testid': testid, role: kind === 'error' ? 'alert' : null }, text)));
}

function showError(error) {
  view.result.dataset.state = 'error';
  setStatus('');
  showNotices([{ testid: 'error', kind: 'error', text: `Something went wrong: ${error?.message ?? error}` }]);
}

function showFatal(message) {
  for (const control of [view.source, view.model, view.beam, view.translateButton]) control.disabled = true;
  view.result.dataset.state = 'error';
  showNotices([{ testid: 'error', kind: 'error', text: message }]);
  replaceChildren(view.translation, 'The translator cannot run in this browser.');
}

// ---------------------------------------------------------------------------
// Translating

function clearResult(message) {
  state.result = null;
  view.result.dataset.state = 'empty';
  replaceChildren(view.translation, message);
  for (const name of ['text', 'model', 'beam', 'hyp', 'prefix']) view.translation.removeAttribute(`data-${name}`);
  replaceChildren(view.meta);
  replaceChildren(view.sourceTokens);
  replaceChildren(view.targetTokens);
  replaceChildren(view.heatmap);
  replaceChildren(view.hypotheses);
  replaceChildren(view.readout, '\u00a0');
  view.whatIf.hidden = true;
  heatmap = null;
}

async function translate() {
  const text = view.source.value;
  state.text = text;
  const request = ++serial;
  if (text.trim() === '') {
    clearResult('Type an English sentence above (or pick an example) to see its translation.');
    showNotices([]);
    setStatus('');
    writeUrl();
    return;
  }
  const { model, beam, prefix } = state;
  view.result.dataset.state = 'busy';
  setStatus(loadedModels.has(model) ? 'Translating…' : `Loading the ${MODELS[model].label} model…`, { busy: true });
  const options = { beamSize: beam, alternatives: ALTERNATIVES, maxLength: MAX_OUTPUT_TOKENS };
  if (prefix.length) options.prefix = prefix;
  try {
    const { value, ms } = await translator.translate(model, text, options);
    if (request !== serial) return;
    loadedModels.add(model);
    state.result = value;
    state.ms = ms;
    if (state.hyp >= value.hypotheses.length) state.hyp = 0;
    performance.mark('s2s:result-received');
    render();
    performance.mark('s2s:rendered');
    writeUrl();
    setStatus(`Translated in ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms, in your browser.`);
    showAbout(model);
    if (compareWanted) compare(text, request);
  } catch (error) {
    if (request !== serial) return;
    showError(error);
  }
}

let debounceTimer = 0;
function translateSoon() {
  clearTimeout(debounceTimer);
  debounceTimer = setTimeout(translate, DEBOUNCE_MS);
}
function translateNow() {
  clearTimeout(debounceTimer);
  translate();
}

// ---------------------------------------------------------------------------
// Drawing a result

function selectedHypothesis() {
  const { result } = state;
  return result.hypotheses[state.hyp] ?? result.hypotheses[0] ?? result;
}

function alternativesAt(position) {
  const hypothesis = selectedHypothesis();
  const alternatives = hypothesis.alternatives ?? (state.hyp === 0 ? state.result.alternatives : null);
  return alternatives?.[position] ?? null;
}

// The user's own words for the source tokens, so an unknown word's tooltip
// can name it. The tokenizer's rules (README, "Tokenization"): lowercase,
// `, . ! ?` split off, apostrophes kept. When this simple copy of them does
// not line up with the model's tokens, no word is named.
function originalWords(text, sourceTokens) {
  const words = text.toLowerCase().replace(/[\u202f\u00a0]/g, ' ').replace(/([,.!?])/g, ' $1 ').split(/\s+/).filter(Boolean);
  const tokens = sourceTokens.at(-1) === '<eos>' ? sourceTokens.slice(0, -1) : sourceTokens;
  if (words.length !== tokens.length) return null;
  return tokens.every((token, k) => token === UNKNOWN_TOKEN || token === words[k]) ? words : null;
}

function chip(token, { index, testid, title, button = false }) {
  const { kind, title: kindTitle } = tokenKind(token);
  return h(button ? 'button' : 'span', {
    class: `chip ${kind}`,
    type: button ? 'button' : null,
    tabindex: button ? null : 0,
    'data-testid': testid,
    'data-index': index,
    'data-token': token,
    title: title ?? kindTitle,
  }, token);
}

function render() {
  const { result } = state;
  const hypothesis = selectedHypothesis();
  const info = MODELS[state.model];
  view.result.dataset.state = 'ready';

  // Attributes the tests (and curious readers of the DOM) can rely on: what
  // this output is the translation of.
  Object.assign(view.translation.dataset, {
    text: state.text, model: state.model, beam: String(state.beam), hyp: String(state.hyp), prefix: state.prefix.join(' '),
  });
  view.translation.lang = info.lang;
  replaceChildren(view.translation, hypothesis.text || '(empty translation)');
  const finished = hypothesis.finished !== false;
  replaceChildren(view.meta,
    `Score ${hypothesis.score.toFixed(3)} (mean log-probability per word)`,
    result.hypotheses.length > 1 ? ` · hypothesis ${state.hyp + 1} of ${result.hypotheses.length}` : '',
    state.prefix.length ? ` · first ${state.prefix.length} word${state.prefix.length > 1 ? 's' : ''} chosen by you` : '');

  const notices = [];
  if (result.truncated) {
    notices.push({ testid: 'notice-truncated', text: `Your text is long: the model reads at most ${result.sourceTokens.length - 1} words and punctuation marks, so only the beginning was translated.` });
  }
  if (!finished) {
    notices.push({ testid: 'notice-unfinished', text: `The translation was cut at ${hypothesis.targetTokens.length} words before the model ended it.` });
  }
  showNotices(notices);

  // Token chips: the source (focusable spans) and the target (buttons that
  // open the "what if").
  const words = originalWords(state.text, result.sourceTokens);
  replaceChildren(view.sourceTokens, result.sourceTokens.map((token, j) => chip(token, {
    index: j, testid: 'source-token',
    title: token === UNKNOWN_TOKEN && words ? `Unknown word “${words[j]}”: not in the model’s vocabulary, so the model sees only <unk>` : undefined,
  })));
  view.targetLabel.textContent = info.target;
  $('explainer-language').textContent = info.reading;
  replaceChildren(view.targetTokens, hypothesis.targetTokens.map((token, i) => {
    const element = chip(token, { index: i, testid: 'target-token', button: true });
    if (i < state.prefix.length) {
      element.classList.add('forced');
      element.title = `${element.title ? `${element.title}. ` : ''}Chosen by you (what if)`;
    }
    if (i === state.whatIf) element.classList.add('selected');
    element.setAttribute('aria-expanded', String(i === state.whatIf));
    element.setAttribute('aria-controls', 'whatif');
    return element;
  }));
  view.targetTokens.lang = info.lang;

  renderFigure();
  renderHypotheses();
  renderWhatIf();
}

// The attention, as a heatmap or as lines (the view switch).
function renderFigure() {
  const { result } = state;
  const hypothesis = selectedHypothesis();
  document.querySelectorAll('.view-switch [data-view]').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.view === state.view));
  });
  replaceChildren(view.readout, '\u00a0');
  if (hypothesis.attention?.length) {
    const data = { sourceTokens: result.sourceTokens, targetTokens: hypothesis.targetTokens, attention: hypothesis.attention };
    const onLabel = (axis, index) => (index === null ? clearHighlights() : axis === 'row' ? showRow(index) : showColumn(index));
    heatmap = state.view === 'lines'
      ? renderAlignment(data, { onLabel })
      : renderHeatmap(data, { onHover: (cell) => (cell ? showCell(cell) : clearHighlights()), onLabel });
    replaceChildren(view.heatmap, heatmap.element);
  } else {
    heatmap = null;
    replaceChildren(view.heatmap, h('p', { class: 'hint' }, 'This model has no attention: it reads one fixed summary of the sentence at every step.'));
  }
}

function weightsOfRow(row) {
  return selectedHypothesis().attention?.[row] ?? [];
}
function weightsOfColumn(col) {
  return (selectedHypothesis().attention ?? []).map((row) => row[col]);
}

// Tints chips by weight (the column of a target word or the row of a source
// word), with the weight written under each chip.
function tint(container, weights, activeIndex = null) {
  container.classList.toggle('showing-weights', weights !== null);
  [...container.children].forEach((element, k) => {
    const weight = weights?.[k];
    element.classList.toggle('active', k === activeIndex);
    if (weight === undefined) {
      element.style.backgroundColor = '';
      element.style.color = '';
      delete element.dataset.shownWeight;
      return;
    }
    element.style.backgroundColor = colorFor(weight);
    element.style.color = needsLightText(weight) ? '#fff' : '';
    element.dataset.shownWeight = weight.toFixed(2);
  });
}

function clearHighlights() {
  tint(view.sourceTokens, null);
  tint(view.targetTokens, null);
  heatmap?.clear();
  replaceChildren(view.readout, '\u00a0');
}

const quoted = (token) => h('b', {}, `“${token}”`);

function showCell({ row, col }) {
  const hypothesis = selectedHypothesis();
  const weight = hypothesis.attention[row][col];
  tint(view.sourceTokens, weightsOfRow(row), col);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, 'Writing ', quoted(hypothesis.targetTokens[row]), ', the model gave ',
    quoted(state.result.sourceTokens[col]), ` a weight of ${weight.toFixed(3)} (${Math.round(weight * 100)}% of its attention).`);
}

function showRow(row) {
  const hypothesis = selectedHypothesis();
  const weights = weightsOfRow(row);
  const top = weights.indexOf(Math.max(...weights));
  heatmap?.highlight({ row });
  tint(view.sourceTokens, weights);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, 'Writing ', quoted(hypothesis.targetTokens[row]), ', the model looked most at ',
    quoted(state.result.sourceTokens[top]), ` (${weights[top].toFixed(2)}).`);
}

function showColumn(col) {
  const weights = weightsOfColumn(col);
  const hypothesis = selectedHypothesis();
  const top = weights.indexOf(Math.max(...weights));
  heatmap?.highlight({ col });
  tint(view.targetTokens, weights);
  tint(view.sourceTokens, null, col);
  replaceChildren(view.readout, quoted(state.result.sourceTokens[col]), ' drew the most attention when the model wrote ',
    quoted(hypothesis.targetTokens[top]), ` (${weights[top].toFixed(2)}).`);
}

// ---------------------------------------------------------------------------
// Beam hypotheses

function renderHypotheses() {
  const { hypotheses } = state.result;
  if (hypotheses.length <= 1) {
    replaceChildren(view.hypotheses);
    return;
  }
  replaceChildren(view.hypotheses,
    h('h3', {}, `The beam’s ${hypotheses.length} hypotheses`),
    h('p', { class: 'hint' }, 'Beam search keeps the best few partial translations at every step. Pick one to see its own attention.'),
    h('ol', {}, hypotheses.map((hypothesis, k) => h('li', {}, h('button', {
      type: 'button', class: 'hypothesis', 'data-testid': 'hypothesis', 'data-index': k,
      'aria-pressed': String(k === state.hyp),
      onclick: () => {
        state.hyp = k;
        state.whatIf = null;
        render();
        writeUrl();
      },
    }, h('span', { class: 'rank' }, `${k + 1}.`), h('span', { lang: MODELS[state.model].lang }, hypothesis.text || '(empty)'),
    h('span', { class: 'score' }, hypothesis.score.toFixed(3)))))));
}

// ---------------------------------------------------------------------------
// What if: the top-k words at one output position; picking one re-decodes
// with the words before it and the pick forced (the API's `prefix`).

function renderWhatIf() {
  const position = state.whatIf;
  if (position === null || !state.result) {
    view.whatIf.hidden = true;
    replaceChildren(view.whatIf);
    return;
  }
  const hypothesis = selectedHypothesis();
  const current = hypothesis.targetTokens[position];
  const alternatives = alternativesAt(position);
  const body = alternatives?.length
    ? h('div', { class: 'whatif-options', role: 'group', 'aria-label': 'Alternative words' }, alternatives.map(({ token, probability }) => {
      const isCurrent = token === current;
      return h('button', {
        type: 'button', class: `alternative${isCurrent ? ' current' : ''}`, 'data-testid': 'alternative', 'data-token': token,
        'aria-current': isCurrent ? 'true' : null,
        title: isCurrent ? 'What the model wrote' : `Make the model write “${token}” here and continue from it`,
        onclick: () => choose(position, token),
      }, h('span', { lang: MODELS[state.model].lang }, token), h('span', { class: 'prob' }, `${(probability * 100).toFixed(1)}%`),
      h('span', { class: 'bar', style: `width: ${Math.max(1, probability * 100).toFixed(1)}%` }));
    }))
    : h('p', {}, 'No alternatives were reported for this position.');
  replaceChildren(view.whatIf,
    h('h3', {}, `Word ${position + 1}: the model wrote “${current}”. What if it had written…`),
    body,
    h('div', { class: 'whatif-foot' },
      h('span', {}, 'Probabilities of the next word given the words before it. The rest is decoded again after your pick.'),
      h('span', {},
        state.prefix.length ? h('button', { type: 'button', 'data-testid': 'whatif-reset', onclick: () => choose(null) }, 'Back to the model’s own translation') : null,
        ' ',
        h('button', { type: 'button', onclick: () => openWhatIf(null) }, 'Close'))));
  view.whatIf.hidden = false;
}

function openWhatIf(position) {
  state.whatIf = state.whatIf === position ? null : position;
  [...view.targetTokens.children].forEach((element, k) => {
    element.classList.toggle('selected', k === state.whatIf);
    element.setAttribute('aria-expanded', String(k === state.whatIf));
  });
  renderWhatIf();
}

function choose(position, token) {
  state.prefix = position === null ? [] : [...selectedHypothesis().targetTokens.slice(0, position), token];
  state.hyp = 0;
  state.whatIf = null;
  translateNow();
}

// ---------------------------------------------------------------------------
// The comparison with the fixed-context model, and the BLEU chart

// The comparison needs the fixed-context model (another 3.3 MB), so it
// starts only when its section comes near the viewport; from then on it
// follows every translation.
let compareWanted = false;
function watchCompare() {
  const section = document.getElementById('compare');
  if (typeof IntersectionObserver !== 'function' || !section) {
    compareWanted = true;
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    compareWanted = true;
    if (state.result && view.compareView.dataset.text !== state.text) compare(state.text, serial);
  }, { rootMargin: '200px' });
  observer.observe(section);
}

async function compare(text, request) {
  view.compareNote.hidden = state.model === COMPARE_MODELS.attention;
  view.compareNote.textContent = `The fixed-context baseline translates into French, so this comparison uses the French models whatever the model above.`;
  const options = { beamSize: state.beam, maxLength: MAX_OUTPUT_TOKENS };
  // Each side on its own: a model that fails to load (or is not shipped)
  // leaves the other side's translation in place.
  const [attention, fixed] = await Promise.allSettled([
    state.model === COMPARE_MODELS.attention && state.prefix.length === 0
      ? Promise.resolve(state.result)
      : translator.translate(COMPARE_MODELS.attention, text, options).then((r) => r.value),
    translator.translate(COMPARE_MODELS.fixed, text, options).then((r) => r.value),
  ]);
  if (request !== serial) return;
  view.compareView.dataset.text = text;
  const show = (target, outcome) => replaceChildren(target, outcome.status === 'fulfilled'
    ? outcome.value.text
    : h('span', { class: 'error block' }, `Could not run this model: ${outcome.reason?.message ?? outcome.reason}`));
  show(view.compareAttention, attention);
  show(view.compareFixed, fixed);
  showChart();
}

let chartShown = false;
async function showChart() {
  if (chartShown) return;
  chartShown = true;
  try {
    const [attention, fixed] = await Promise.allSettled([translator.info(COMPARE_MODELS.attention),
      translator.info(COMPARE_MODELS.fixed)]);
    const series = [
      { label: 'with attention', color: '#4338ca', info: attention },
      { label: 'fixed context', color: '#94a3b8', info: fixed },
    ].filter((s) => s.info.status === 'fulfilled').map((s) => ({ ...s, devBleu: s.info.value.devBleu }));
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
    const sentences = series[0].devBleu?.sentences;
    if (fixed.status !== 'fulfilled') {
      view.chartCaption.textContent = `Corpus BLEU-4 of the attention model on ${sentences?.toLocaleString('en') ?? 'its'} held-out Tatoeba sentences, by the number of English words. The fixed-context model could not be loaded (see above), so its bars are missing.`;
    } else if (sentences) {
      view.chartCaption.textContent = `Corpus BLEU-4 on ${sentences.toLocaleString('en')} held-out Tatoeba sentences (never seen in training), grouped by the number of English words. Both models have the same data, sizes and training budget.`;
    }
  } catch (error) {
    chartShown = false;
    replaceChildren(view.chart, h('p', { class: 'error' }, `Could not read the models’ scores: ${error.message}`));
  }
}

// ---------------------------------------------------------------------------
// About this model

let aboutModel = null; // the model the section describes (or is loading)

function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) return 'unknown';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return hours ? `${hours} h ${minutes} min` : minutes ? `${minutes} min` : `${Math.round(seconds)} s`;
}

async function showAbout(model) {
  if (aboutModel === model) return;
  aboutModel = model;
  let info;
  try {
    info = await translator.info(model);
  } catch (error) {
    aboutModel = null;
    replaceChildren(view.about, h('dd', {}, `Could not read the model’s details: ${error.message}`));
    return;
  }
  if (aboutModel !== model) return;
  const { config = {}, provenance = {} } = info;
  const training = provenance.training ?? {};
  const data = provenance.data ?? {};
  const split = provenance.split ?? {};
  const rows = [
    ['Model', `${info.name ?? model}: ${MODELS[model]?.label ?? ''}, ${info.hasAttention ? `${config.attention} attention (Bahdanau et al. 2015)` : 'no attention (fixed context)'}`],
    ['Network', `embeddings of ${config.embedding_size}, a bidirectional GRU encoder of 2 × ${config.encoder_hidden_size}, a GRU decoder of ${config.decoder_hidden_size}` +
      `${info.hasAttention ? `, attention of ${config.attention_size}` : ''}, a deep output of ${config.output_hidden_size}`],
    ['Vocabulary', `${info.sourceVocabularySize ?? config.source_vocab_size} English words, ${info.targetVocabularySize ?? config.target_vocab_size} ${info.targetLanguage === 'zh' ? 'Chinese characters' : 'French words'}`],
    ['Training', `${(training.steps ?? 0).toLocaleString('en')} steps${training.batch_size ? ` of ${training.batch_size} sentence pairs` : ''}, ${formatDuration(training.wall_seconds)} of training on a CPU` +
      `${split.train_pairs ? `, from ${split.train_pairs.toLocaleString('en')} training pairs` : ''}`],
    ['Development BLEU', info.devBleu?.overall != null
      ? `${info.devBleu.overall.toFixed(1)} on ${info.devBleu.sentences.toLocaleString('en')} held-out sentences` +
        ` (by length: ${info.devBleu.byLength.filter((b) => b.sentences > 0).map((b) => `${b.bucket} words ${b.bleu.toFixed(1)}`).join(', ')})`
      : 'not measured'],
    ['Data', `${data.source ?? 'Tatoeba Project (tatoeba.org), via manythings.org/anki'}; ${data.license ?? 'CC-BY 2.0 France'}; attribution: ${data.attribution ?? 'Tatoeba.org and manythings.org/anki'}` +
      `${data.file ? ` (file ${data.file}, FNV-1a ${data.fnv1a64})` : ''}`],
  ];
  if (provenance.created) rows.push(['Created', provenance.created]);
  replaceChildren(view.about, rows.map(([term, detail]) => [h('dt', {}, term), h('dd', {}, detail)]));
}

// ---------------------------------------------------------------------------
// Export and sharing

function fileStem() {
  const slug = state.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'sentence';
  return `${state.view === 'lines' ? 'alignment' : 'attention'}-${state.model}-${slug}`;
}

async function exportHeatmap(kind) {
  if (!heatmap) {
    setStatus('There is no heatmap to download yet.');
    return;
  }
  try {
    const blob = kind === 'svg' ? svgBlob(heatmap.element) : await pngBlob(heatmap.element);
    download(blob, `${fileStem()}.${kind}`);
  } catch (error) {
    showError(error);
  }
}

async function copyLink() {
  writeUrl();
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus('Link copied: it opens this sentence with these options.');
  } catch {
    setStatus('Copy the address from the address bar: it holds this view.');
  }
}

// ---------------------------------------------------------------------------
// Start

function wire() {
  view.source.addEventListener('input', () => {
    state.prefix = [];
    state.hyp = 0;
    state.whatIf = null;
    translateSoon();
  });
  view.source.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      translateNow();
    }
  });
  view.translateButton.addEventListener('click', translateNow);
  view.model.addEventListener('change', () => {
    state.model = view.model.value;
    state.prefix = [];
    state.hyp = 0;
    state.whatIf = null;
    translateNow();
  });
  view.beam.addEventListener('change', () => {
    state.beam = Number(view.beam.value);
    state.hyp = 0;
    state.whatIf = null;
    translateNow();
  });
  for (const sentence of EXAMPLES) {
    view.examples.append(h('button', {
      type: 'button', class: 'example', 'data-testid': 'example', title: sentence.length > 40 ? sentence : null,
      onclick: () => {
        view.source.value = sentence;
        state.prefix = [];
        state.hyp = 0;
        state.whatIf = null;
        translateNow();
      },
    }, sentence.length > 40 ? `${sentence.slice(0, 38)}…` : sentence));
  }

  // Chips: point or focus to highlight; click a target word for "what if".
  const chipIndex = (event) => {
    const element = event.target.closest?.('.chip');
    return element ? Number(element.dataset.index) : null;
  };
  for (const [container, show] of [[view.sourceTokens, showColumn], [view.targetTokens, showRow]]) {
    const enter = (event) => {
      const index = chipIndex(event);
      if (index !== null && state.result && heatmap) show(index);
    };
    container.addEventListener('pointerover', enter);
    container.addEventListener('focusin', enter);
    container.addEventListener('pointerleave', clearHighlights);
    container.addEventListener('focusout', (event) => {
      if (!container.contains(event.relatedTarget)) clearHighlights();
    });
  }
  view.targetTokens.addEventListener('click', (event) => {
    const index = chipIndex(event);
    if (index !== null) openWhatIf(index);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && state.whatIf !== null) openWhatIf(null);
  });

  document.querySelectorAll('.view-switch [data-view]').forEach((button) => button.addEventListener('click', () => {
    state.view = button.dataset.view;
    if (state.result) renderFigure();
    else document.querySelectorAll('.view-switch [data-view]').forEach((b) => b.setAttribute('aria-pressed', String(b === button)));
    writeUrl();
  }));
  $('export-png').addEventListener('click', () => exportHeatmap('png'));
  $('export-svg').addEventListener('click', () => exportHeatmap('svg'));
  $('copy-link').addEventListener('click', copyLink);
}

function start() {
  // Errors nobody caught still reach the page, never a silent blank.
  window.addEventListener('error', (event) => showError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => showError(event.reason));

  document.head.append(h('style', {}, HEATMAP_CSS + ALIGNMENT_CSS));
  const missing = missingFeatures();
  if (missing) {
    showFatal(missing);
    return;
  }
  const text = readUrl();
  view.source.value = text ?? EXAMPLES[0];
  view.model.value = state.model;
  view.beam.value = String(state.beam);
  document.querySelectorAll('.view-switch [data-view]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.view === state.view)));
  translator = getTranslator();
  wire();
  watchCompare();
  translateNow();
}

start();
