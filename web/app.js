// The demo page: wires the sentence box and options to the translation
// worker and draws what comes back (translation, attention heatmap, beam
// hypotheses, the "what if" alternatives, the fixed-context comparison and
// the model's provenance). The view is a function of `state`, which is also
// kept in the URL so that a link reproduces it.
//
// Subword models read and write pieces ("▁deep ▁learn ing"): the page shows
// a piece without its marker, a piece that continues a word as "·ing", and
// switches the figure between pieces and words (the package's wordAttention:
// a word's columns summed, its rows averaged).
import { h, replaceChildren, tokenKind, download, pieceLabel, UNKNOWN_TOKEN, WORD_MARKER } from './dom.js';
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
const LANGUAGES = { en: 'English', fr: 'French', zh: 'Chinese' };
const DEFAULTS = { model: 'en-fr', beam: 1, view: 'heatmap', unit: 'pieces' };
const DEBOUNCE_MS = 300; // long enough to skip most keystrokes, short enough to feel live
const ALTERNATIVES = 8; // top-k words offered at each output position
const MAX_OUTPUT_TOKENS = 150; // bounds the heatmap's rows for runaway outputs

// From the package, plain modules with no WebAssembly (loaded in start()):
// the options' ranges and defaults (optionRanges) and wordAttention.
let optionRanges = null;
let wordAttention = null;

const $ = (id) => document.getElementById(id);
const view = {
  source: $('source'),
  model: $('model'),
  beam: $('beam'),
  alpha: $('alpha'),
  beta: $('beta'),
  unitHint: $('unit-hint'),
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
  model: DEFAULTS.model, // a shipped name, or the absolute URL of ?model-url=
  beam: DEFAULTS.beam,
  alpha: null, // beam search's length penalty; null = the package's default
  beta: null, // and its coverage penalty
  hyp: 0, // the selected beam hypothesis
  prefix: [], // target tokens forced by a "what if"
  whatIf: null, // the output position whose alternatives are open
  view: DEFAULTS.view, // 'heatmap' or 'lines'
  unit: DEFAULTS.unit, // the figure's rows and columns: 'pieces' (tokens) or 'words'
  urlWarning: null, // a part of the URL the page could not follow
  result: null, // the last translation (the API's plain object)
  ms: 0,
};

let translator = null;
let heatmap = null; // { element, highlight, clear } of the shown figure (heatmap or lines)
let shown = null; // what the figure and the chips show: { source: Unit[], target: Unit[], attention } (see figureData)
const infos = new Map(); // model -> its info (from the worker), once loaded
let serial = 0; // the latest translation request; older answers are dropped

// ---------------------------------------------------------------------------
// Models: the shipped ones, or your own file by URL.
//
// ?model-url=PATH opens the page with the model file at PATH (relative to the
// page, or absolute) instead of a shipped one: a model you trained with
// `seq2seq train`, served next to the page. Only URLs on the page's own
// origin are accepted, so a link can never make the page fetch another
// site's file. The browser tests open a small subword model this way.

function isShipped(model) {
  return Object.hasOwn(MODELS, model);
}

// What the page says about a model: MODELS for the shipped ones; for a model
// by URL, its file name and the target language its info records.
function describeModel(model) {
  if (isShipped(model)) return MODELS[model];
  const lang = infos.get(model)?.targetLanguage ?? '';
  return {
    label: `your model (${fileName(model)})`, target: LANGUAGES[lang] ?? (lang || 'Output'), lang,
    reading: 'Each row is what the model looked at while writing that output token.',
  };
}

// The file name of a model given by URL: "tiny-subword.s2s".
function fileName(model) {
  const last = new URL(model).pathname.split('/').pop() || 'model';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function addModelOption(model) {
  if (isShipped(model) || [...view.model.options].some((option) => option.value === model)) return;
  view.model.append(h('option', { value: model }, `Your model: ${fileName(model)}`));
}

// The model's info, asked of the worker once (after the model has loaded).
async function modelInfo(model) {
  if (!infos.has(model)) infos.set(model, await translator.info(model));
  return infos.get(model);
}

// True when the model writes subword pieces (the page then marks pieces
// that continue a word, in the "what if" too).
function targetIsSubword() {
  return infos.get(state.model)?.targetTokenizer === 'bpe';
}

// ---------------------------------------------------------------------------
// The URL: ?text=…&model=en-zh&beam=4&alpha=0.6&beta=0&hyp=1&prefix=je+vois&view=lines&unit=words
// (defaults omitted), or model-url=PATH instead of model.

function readUrl() {
  const params = new URLSearchParams(location.search);
  const model = params.get('model');
  if (model && MODELS[model]) state.model = model;
  const modelUrl = params.get('model-url');
  if (modelUrl) {
    let url = null;
    try {
      url = new URL(modelUrl, document.baseURI);
    } catch {
      // not a URL: reported below
    }
    if (url?.origin === location.origin) state.model = url.href;
    else state.urlWarning = `model-url must be a file on this site (${location.origin}), not ${url?.origin ?? JSON.stringify(modelUrl)}; the page opened a shipped model instead.`;
  }
  const beam = Number(params.get('beam'));
  if (Number.isInteger(beam) && beam >= 1 && beam <= 8) state.beam = beam;
  state.alpha = penaltyFromText(params.get('alpha'), 'lengthPenalty');
  state.beta = penaltyFromText(params.get('beta'), 'coveragePenalty');
  if (params.get('unit') === 'words') state.unit = 'words';
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
  if (!isShipped(state.model)) params.set('model-url', relativeUrl(state.model));
  else if (state.model !== DEFAULTS.model) params.set('model', state.model);
  if (state.beam !== DEFAULTS.beam) params.set('beam', String(state.beam));
  if (state.alpha !== null) params.set('alpha', String(state.alpha));
  if (state.beta !== null) params.set('beta', String(state.beta));
  if (state.hyp > 0) params.set('hyp', String(state.hyp));
  if (state.prefix.length) params.set('prefix', state.prefix.join(' '));
  if (state.view !== DEFAULTS.view) params.set('view', state.view);
  if (state.unit !== DEFAULTS.unit) params.set('unit', state.unit);
  const query = params.toString();
  const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
}

// A same-origin URL as the path a link needs.
function relativeUrl(href) {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

// ---------------------------------------------------------------------------
// Beam search's penalties (GNMT's alpha and beta): their ranges and defaults
// come from the package (optionRanges); null means "the default", which is
// then not sent and not kept in the URL.

// A penalty from the URL or an input: a number in its range, else null.
function penaltyFromText(text, name) {
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  const { min, max } = optionRanges[name];
  return Number.isFinite(value) && value >= min && value <= max ? value : null;
}

function setUpPenalties() {
  for (const [input, name] of [[view.alpha, 'lengthPenalty'], [view.beta, 'coveragePenalty']]) {
    const { min, max } = optionRanges[name];
    Object.assign(input, { min: String(min), max: String(max) });
    input.placeholder = formatPenalty(optionRanges[name].default);
  }
  document.querySelectorAll('[data-default]').forEach((element) => {
    element.textContent = formatPenalty(optionRanges[element.dataset.default].default);
  });
  document.querySelectorAll('[data-max]').forEach((element) => {
    element.textContent = String(optionRanges[element.dataset.max].max);
  });
}

const formatPenalty = (value) => value.toFixed(1);

// The inputs show the state; they are used (and enabled) for beam search only.
function showPenalties() {
  const greedy = state.beam === 1;
  for (const [input, value, name] of [[view.alpha, state.alpha, 'lengthPenalty'], [view.beta, state.beta, 'coveragePenalty']]) {
    input.value = formatPenalty(value ?? optionRanges[name].default);
    input.disabled = greedy;
    input.title = greedy ? 'Used by beam search: choose a beam size above 1' : '';
  }
}

// The options of every translation the page asks for. The penalties steer
// beam search only (greedy decoding writes the same tokens whatever they
// are), but every score is computed with them, so they are always sent:
// the score shown is the one the inputs describe.
function decodeOptions(extra = {}) {
  const options = { beamSize: state.beam, maxLength: MAX_OUTPUT_TOKENS, ...extra };
  if (state.alpha !== null) options.lengthPenalty = state.alpha;
  if (state.beta !== null) options.coveragePenalty = state.beta;
  return options;
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
  for (const control of [view.source, view.model, view.beam, view.alpha, view.beta, view.translateButton]) control.disabled = true;
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
  const { model, prefix } = state;
  view.result.dataset.state = 'busy';
  const loading = isShipped(model) ? `Loading the ${MODELS[model].label} model…` : `Loading your model (${fileName(model)})…`;
  setStatus(infos.has(model) ? 'Translating…' : loading, { busy: true });
  const options = decodeOptions({ alternatives: ALTERNATIVES });
  if (prefix.length) options.prefix = prefix;
  try {
    // The info says how the model cuts text (words or pieces); asked once.
    const [{ value, ms }] = await Promise.all([translator.translate(model, text, options), modelInfo(model)]);
    if (request !== serial) return;
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
// not line up with the model's tokens (always for subword pieces), no word
// is named.
function originalWords(text, sourceTokens) {
  const words = text.toLowerCase().replace(/[\u202f\u00a0]/g, ' ').replace(/([,.!?])/g, ' $1 ').split(/\s+/).filter(Boolean);
  const tokens = sourceTokens.at(-1) === '<eos>' ? sourceTokens.slice(0, -1) : sourceTokens;
  if (words.length !== tokens.length) return null;
  return tokens.every((token, k) => token === UNKNOWN_TOKEN || token === words[k]) ? words : null;
}

// Every token its own word: results without word spans (none today).
const tokensAsWords = (tokens) => tokens.map((text, k) => ({ text, start: k, end: k + 1 }));

// A row or column of the figure (and its chip). Pieces view: one token, with
// `token` the piece as the model wrote it. Words view: one word, with
// `token` its text. Either way [start, end) are its tokens, and `label` is
// what the page shows: a piece without its marker, "·ing" inside a word.
//   { token, label, start, end, continuation }
function pieceUnits(tokens, words) {
  const starts = new Set(words.map((word) => word.start));
  return tokens.map((token, k) => ({
    token, label: pieceLabel(token, !starts.has(k)), start: k, end: k + 1, continuation: !starts.has(k),
  }));
}

function wordUnits(words) {
  return words.map(({ text, start, end }) => ({ token: text, label: text, start, end, continuation: false }));
}

// What the figure and the chips show, in the current unit (state.unit).
function figureData() {
  const { result } = state;
  const hypothesis = selectedHypothesis();
  const sourceWords = result.sourceWords ?? tokensAsWords(result.sourceTokens);
  const targetWords = hypothesis.targetWords ?? tokensAsWords(hypothesis.targetTokens);
  const attention = hypothesis.attention ?? [];
  if (state.unit === 'words') {
    const words = wordAttention({ sourceWords, targetWords, attention });
    return { source: wordUnits(words.sourceWords), target: wordUnits(words.targetWords), attention: words.attention };
  }
  return { source: pieceUnits(result.sourceTokens, sourceWords), target: pieceUnits(hypothesis.targetTokens, targetWords), attention };
}

// The noun for one token of this model: pieces for subword models.
function tokenNoun(plural = false) {
  const subword = infos.get(state.model)?.sourceTokenizer === 'bpe';
  return subword ? (plural ? 'pieces' : 'piece') : (plural ? 'words' : 'word');
}

function chip(unit, { index, testid, title, button = false }) {
  const { kind, title: kindTitle } = tokenKind(unit.token);
  return h(button ? 'button' : 'span', {
    class: `chip ${kind}${unit.continuation ? ' cont' : ''}`,
    type: button ? 'button' : null,
    tabindex: button ? null : 0,
    'data-testid': testid,
    'data-index': index,
    'data-token': unit.token,
    'data-start': unit.start,
    'data-end': unit.end,
    title: title ?? (unit.continuation ? `Part of a word: this piece continues the one before it` : kindTitle),
  }, unit.label);
}

function render() {
  const { result } = state;
  const hypothesis = selectedHypothesis();
  const info = describeModel(state.model);
  view.result.dataset.state = 'ready';

  // Attributes the tests (and curious readers of the DOM) can rely on: what
  // this output is the translation of.
  Object.assign(view.translation.dataset, {
    text: state.text, model: state.model, beam: String(state.beam), hyp: String(state.hyp), prefix: state.prefix.join(' '),
    unit: state.unit,
  });
  view.translation.lang = info.lang;
  replaceChildren(view.translation, hypothesis.text || '(empty translation)');
  const finished = hypothesis.finished !== false;
  replaceChildren(view.meta,
    `Score ${hypothesis.score.toFixed(3)} (log-probability with the length and coverage penalties)`,
    result.hypotheses.length > 1 ? ` · hypothesis ${state.hyp + 1} of ${result.hypotheses.length}` : '',
    state.prefix.length ? ` · first ${state.prefix.length} ${tokenNoun(state.prefix.length > 1)} chosen by you` : '');

  const notices = [];
  if (state.urlWarning) notices.push({ testid: 'notice-url', text: state.urlWarning });
  if (result.truncated) {
    const noun = tokenNoun() === 'piece' ? 'pieces' : 'words and punctuation marks';
    notices.push({ testid: 'notice-truncated', text: `Your text is long: the model reads at most ${result.sourceTokens.length - 1} ${noun}, so only the beginning was translated.` });
  }
  if (!finished) {
    notices.push({ testid: 'notice-unfinished', text: `The translation was cut at ${hypothesis.targetTokens.length} ${tokenNoun(true)} before the model ended it.` });
  }
  showNotices(notices);

  view.targetLabel.textContent = info.target;
  $('explainer-language').textContent = info.reading;
  view.targetTokens.lang = info.lang;
  renderFigure();
  renderHypotheses();
  renderWhatIf();
}

// The chips of both sentences, in the figure's unit: the source (focusable
// spans) and the target (buttons that open the "what if" at the unit's first
// token).
function renderChips() {
  const words = originalWords(state.text, state.result.sourceTokens);
  replaceChildren(view.sourceTokens, shown.source.map((unit, j) => chip(unit, {
    index: j, testid: 'source-token',
    title: unit.token === UNKNOWN_TOKEN && words && unit.end - unit.start === 1
      ? `Unknown word “${words[unit.start]}”: not in the model’s vocabulary, so the model sees only <unk>` : undefined,
  })));
  replaceChildren(view.targetTokens, shown.target.map((unit, i) => {
    const element = chip(unit, { index: i, testid: 'target-token', button: true });
    if (unit.start < state.prefix.length) {
      element.classList.add('forced');
      element.title = `${element.title ? `${element.title}. ` : ''}Chosen by you (what if)`;
    }
    const selected = state.whatIf !== null && unit.start === state.whatIf;
    element.classList.toggle('selected', selected);
    element.setAttribute('aria-expanded', String(selected));
    element.setAttribute('aria-controls', 'whatif');
    return element;
  }));
}

// The attention, as a heatmap or as lines (the view switch), between pieces
// or words (the unit switch).
function renderFigure() {
  document.querySelectorAll('.view-switch [data-view]').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.view === state.view));
  });
  document.querySelectorAll('.unit-switch [data-unit]').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.unit === state.unit));
  });
  view.translation.dataset.unit = state.unit;
  shown = figureData();
  renderChips();
  showUnitHint();
  replaceChildren(view.readout, '\u00a0');
  if (shown.attention.length) {
    const data = { sourceTokens: shown.source.map((u) => u.label), targetTokens: shown.target.map((u) => u.label), attention: shown.attention };
    const onLabel = (axis, index) => (index === null ? clearHighlights() : axis === 'row' ? showRow(index) : showColumn(index));
    heatmap = state.view === 'lines'
      ? renderAlignment(data, { onLabel })
      : renderHeatmap(data, {
        onHover: (cell) => (cell ? showCell(cell) : clearHighlights()),
        onLabel,
        label: `Attention between ${state.unit}: ${data.targetTokens.length} output ${state.unit} (rows) by ${data.sourceTokens.length} source ${state.unit} (columns). Use the arrow keys to move between cells.`,
      });
    heatmap.element.dataset.unit = state.unit;
    replaceChildren(view.heatmap, heatmap.element);
  } else {
    heatmap = null;
    replaceChildren(view.heatmap, h('p', { class: 'hint' }, 'This model has no attention: it reads one fixed summary of the sentence at every step.'));
  }
}

function showUnitHint() {
  const subword = infos.get(state.model)?.sourceTokenizer === 'bpe' || infos.get(state.model)?.targetTokenizer === 'bpe';
  view.unitHint.textContent = !subword
    ? 'This model reads and writes whole words, so pieces and words are the same.'
    : state.unit === 'pieces'
      ? `The model reads and writes subword pieces; “·” marks a piece that continues the word before it.`
      : 'Words: a word’s columns are its pieces’ weights summed, its row the mean of its pieces’ rows, so each row still sums to 1.';
}

function weightsOfRow(row) {
  return shown?.attention[row] ?? [];
}
function weightsOfColumn(col) {
  return (shown?.attention ?? []).map((row) => row[col]);
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

const quoted = (unit) => h('b', {}, `“${unit.label}”`);

function showCell({ row, col }) {
  const weight = shown.attention[row][col];
  tint(view.sourceTokens, weightsOfRow(row), col);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, 'Writing ', quoted(shown.target[row]), ', the model gave ',
    quoted(shown.source[col]), ` a weight of ${weight.toFixed(3)} (${Math.round(weight * 100)}% of its attention).`);
}

function showRow(row) {
  const weights = weightsOfRow(row);
  const top = weights.indexOf(Math.max(...weights));
  heatmap?.highlight({ row });
  tint(view.sourceTokens, weights);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, 'Writing ', quoted(shown.target[row]), ', the model looked most at ',
    quoted(shown.source[top]), ` (${weights[top].toFixed(2)}).`);
}

function showColumn(col) {
  const weights = weightsOfColumn(col);
  const top = weights.indexOf(Math.max(...weights));
  heatmap?.highlight({ col });
  tint(view.targetTokens, weights);
  tint(view.sourceTokens, null, col);
  replaceChildren(view.readout, quoted(shown.source[col]), ' drew the most attention when the model wrote ',
    quoted(shown.target[top]), ` (${weights[top].toFixed(2)}).`);
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
    }, h('span', { class: 'rank' }, `${k + 1}.`), h('span', { lang: describeModel(state.model).lang }, hypothesis.text || '(empty)'),
    h('span', { class: 'score' }, hypothesis.score.toFixed(3)))))));
}

// ---------------------------------------------------------------------------
// What if: the top-k tokens at one output position; picking one re-decodes
// with the tokens before it and the pick forced (the API's `prefix`). For a
// subword model these are pieces, sent as the model wrote them (with their
// word marker: the prefix is looked up in the target vocabulary as is).

// How an alternative is shown. Without word spans to go by: a subword piece
// without the marker continues the word before it, unless it is punctuation
// or a special token.
function alternativeLabel(token) {
  const continuation = targetIsSubword() && !token.startsWith(WORD_MARKER) && tokenKind(token).kind === '' &&
    !/^[\p{P}\p{S}]+$/u.test(token);
  return pieceLabel(token, continuation);
}

function renderWhatIf() {
  const position = state.whatIf;
  if (position === null || !state.result) {
    view.whatIf.hidden = true;
    replaceChildren(view.whatIf);
    return;
  }
  const hypothesis = selectedHypothesis();
  const current = hypothesis.targetTokens[position];
  const currentLabel = pieceUnits(hypothesis.targetTokens, hypothesis.targetWords ?? tokensAsWords(hypothesis.targetTokens))[position]?.label ?? current;
  const noun = tokenNoun();
  const alternatives = alternativesAt(position);
  const body = alternatives?.length
    ? h('div', { class: 'whatif-options', role: 'group', 'aria-label': `Alternative ${tokenNoun(true)}` }, alternatives.map(({ token, probability }) => {
      const isCurrent = token === current;
      const label = alternativeLabel(token);
      return h('button', {
        type: 'button', class: `alternative${isCurrent ? ' current' : ''}`, 'data-testid': 'alternative', 'data-token': token,
        'aria-current': isCurrent ? 'true' : null,
        title: isCurrent ? 'What the model wrote' : `Make the model write “${label}” here and continue from it`,
        onclick: () => choose(position, token),
      }, h('span', { lang: describeModel(state.model).lang }, label), h('span', { class: 'prob' }, `${(probability * 100).toFixed(1)}%`),
      h('span', { class: 'bar', style: `width: ${Math.max(1, probability * 100).toFixed(1)}%` }));
    }))
    : h('p', {}, 'No alternatives were reported for this position.');
  replaceChildren(view.whatIf,
    h('h3', {}, `${noun[0].toUpperCase()}${noun.slice(1)} ${position + 1}: the model wrote “${currentLabel}”. What if it had written…`),
    body,
    h('div', { class: 'whatif-foot' },
      h('span', {}, `Probabilities of the next ${noun} given the ${tokenNoun(true)} before it. The rest is decoded again after your pick.`),
      h('span', {},
        state.prefix.length ? h('button', { type: 'button', 'data-testid': 'whatif-reset', onclick: () => choose(null) }, 'Back to the model’s own translation') : null,
        ' ',
        h('button', { type: 'button', onclick: () => openWhatIf(null) }, 'Close'))));
  view.whatIf.hidden = false;
}

// position: an output token (a word's first piece in the words view).
function openWhatIf(position) {
  state.whatIf = state.whatIf === position ? null : position;
  [...view.targetTokens.children].forEach((element, k) => {
    const selected = state.whatIf !== null && shown?.target[k]?.start === state.whatIf;
    element.classList.toggle('selected', selected);
    element.setAttribute('aria-expanded', String(selected));
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
  const options = decodeOptions();
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

// The development scores a model file records, for the chart and "About
// this model": `npm run compare` stores evaluations/dev-greedy and
// evaluations/dev-beam4 (`seq2seq eval --record`); `seq2seq train` stores
// dev_bleu at the end of training. A report written by the
// sacreBLEU-compatible scorer carries its signature and chrF2; earlier ones
// (today's shipped files) have neither, and are labelled as what they are.
// Returns { overall, chrf2, sentences, byLength, decoding, sacrebleu } or null.
function recordedScores(info, keys = ['dev-beam4', 'dev-greedy']) {
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
const scorerLabel = (scores) => (scores.sacrebleu
  ? SACREBLEU_LABEL
  : 'measured on the model’s own tokens (the earlier scorer, not sacreBLEU-compatible)');

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
    info = await modelInfo(model);
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
  const tokens = (kind) => (kind === 'bpe' ? 'subword pieces' : kind === 'characters' ? 'characters' : 'words');
  const language = (code) => LANGUAGES[code] ?? code ?? '';
  const rows = [
    ['Model', `${info.name ?? model}: ${describeModel(model).label}, ${info.hasAttention ? `${config.attention} attention (Bahdanau et al. 2015)` : 'no attention (fixed context)'}`],
    ['Network', `embeddings of ${config.embedding_size}, a bidirectional GRU encoder of 2 × ${config.encoder_hidden_size}, a GRU decoder of ${config.decoder_hidden_size}` +
      `${info.hasAttention ? `, attention of ${config.attention_size}` : ''}, a deep output of ${config.output_hidden_size}`],
    ['Vocabulary', `${info.sourceVocabularySize ?? config.source_vocab_size} ${language(info.sourceLanguage)} ${tokens(info.sourceTokenizer)}, ` +
      `${info.targetVocabularySize ?? config.target_vocab_size} ${language(info.targetLanguage)} ${tokens(info.targetTokenizer)}`],
    ['Training', `${(training.steps ?? 0).toLocaleString('en')} steps${training.batch_size ? ` of ${training.batch_size} sentence pairs` : ''}, ${formatDuration(training.wall_seconds)} of training on a CPU` +
      `${split.train_pairs ? `, from ${split.train_pairs.toLocaleString('en')} training pairs` : ''}`],
    ['Development BLEU', aboutScores(info)],
    ['Data', `${data.source ?? 'Tatoeba Project (tatoeba.org), via manythings.org/anki'}; ${data.license ?? 'CC-BY 2.0 France'}; attribution: ${data.attribution ?? 'Tatoeba.org and manythings.org/anki'}` +
      `${data.file ? ` (file ${data.file}, FNV-1a ${data.fnv1a64})` : ''}`],
  ];
  if (provenance.created) rows.push(['Created', provenance.created]);
  replaceChildren(view.about, rows.map(([term, detail]) => [h('dt', {}, term),
    h('dd', { 'data-testid': term === 'Development BLEU' ? 'about-bleu' : null }, detail)]));
}

// "BLEU 39.8 greedy, 42.1 beam 4, chrF2 60.8 (beam 4), on 3,775 held-out
// sentences, sacreBLEU-compatible (…); by length (beam 4): …"
function aboutScores(info) {
  const greedy = recordedScores(info, ['dev-greedy']);
  const best = recordedScores(info);
  if (!best) return 'not measured';
  const both = greedy && greedy.decoding !== best.decoding ? [greedy, best] : [best];
  const chrf2 = best.chrf2 !== null ? `, chrF2 ${best.chrf2.toFixed(1)} (${best.decoding})` : '';
  const byLength = best.byLength.filter((b) => b.sentences > 0)
    .map((b) => `${b.bucket} words ${b.bleu.toFixed(1)}${b.chrf2 !== null ? ` (chrF2 ${b.chrf2.toFixed(1)})` : ''}`).join(', ');
  return `BLEU ${both.map((s) => `${s.overall.toFixed(1)} ${s.decoding}`).join(', ')}${chrf2}, on ` +
    `${best.sentences.toLocaleString('en')} held-out sentences; ${scorerLabel(best)}` +
    `${byLength ? `. By length (${best.decoding}): ${byLength}` : ''}.`;
}

// ---------------------------------------------------------------------------
// Export and sharing

function fileStem() {
  const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  const model = isShipped(state.model) ? state.model : slug(fileName(state.model).replace(/\.s2s$/, '')) || 'model';
  return `${state.view === 'lines' ? 'alignment' : 'attention'}-${model}${state.unit === 'words' ? '-words' : ''}-${slug(state.text) || 'sentence'}`;
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
    showPenalties();
    translateNow();
  });
  for (const [input, key, name, symbol] of [[view.alpha, 'alpha', 'lengthPenalty', 'α'], [view.beta, 'beta', 'coveragePenalty', 'β']]) {
    input.addEventListener('change', () => {
      const value = penaltyFromText(input.value, name);
      if (value === null && input.value.trim() !== '') {
        const { min, max } = optionRanges[name];
        setStatus(`${symbol} must be a number from ${min} to ${max}; it is back to ${formatPenalty(state[key] ?? optionRanges[name].default)}.`);
        showPenalties();
        return;
      }
      state[key] = value === optionRanges[name].default ? null : value;
      state.hyp = 0;
      state.whatIf = null;
      showPenalties();
      translateNow();
    });
  }
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
    if (index !== null && shown?.target[index]) openWhatIf(shown.target[index].start);
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
  document.querySelectorAll('.unit-switch [data-unit]').forEach((button) => button.addEventListener('click', () => {
    state.unit = button.dataset.unit;
    if (state.result) renderFigure();
    else document.querySelectorAll('.unit-switch [data-unit]').forEach((b) => b.setAttribute('aria-pressed', String(b === button)));
    writeUrl();
  }));
  $('export-png').addEventListener('click', () => exportHeatmap('png'));
  $('export-svg').addEventListener('click', () => exportHeatmap('svg'));
  $('copy-link').addEventListener('click', copyLink);
}

async function start() {
  // Errors nobody caught still reach the page, never a silent blank.
  window.addEventListener('error', (event) => showError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => showError(event.reason));

  document.head.append(h('style', {}, HEATMAP_CSS + ALIGNMENT_CSS));
  const missing = missingFeatures();
  if (missing) {
    showFatal(missing);
    return;
  }
  try {
    [{ optionRanges }, { wordAttention }] = await Promise.all([import('../dist/options.js'), import('../dist/word-attention.js')]);
  } catch (error) {
    showFatal(`Could not load the package’s modules (../dist/): ${error?.message ?? error}. Build them with npm run build:wasm ` +
      '(or npm start), and serve the repository root so that /web/ and /dist/ are siblings.');
    return;
  }
  setUpPenalties();
  const text = readUrl();
  view.source.value = text ?? EXAMPLES[0];
  addModelOption(state.model);
  view.model.value = state.model;
  view.beam.value = String(state.beam);
  showPenalties();
  document.querySelectorAll('.view-switch [data-view]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.view === state.view)));
  document.querySelectorAll('.unit-switch [data-unit]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.unit === state.unit)));
  translator = getTranslator();
  wire();
  watchCompare();
  translateNow();
}

start();
