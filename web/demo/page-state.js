// The demo page's shared state: what it shows (`state`, which the URL
// mirrors: page-url.js), its elements (`view`), what it loaded at start
// (`page`), what it knows of each model, and its status line. The page's
// other modules draw from these (result-view.js, compare.js, about.js);
// app.js changes them in response to the reader.
import { h, replaceChildren } from '../figures/dom.js';
import { DEFAULT_BEAM, MAX_OUTPUT_TOKENS, isShipped, languageName, languagesOf, modelLabel } from '../figures/page-models.js';
import { rich, t } from '../figures/i18n/index.js';

export const EXAMPLES = [
  'I love deep learning.',
  'Go.',
  'I lost.',
  "He's calm.",
  "I'm home.",
  'I think that the weather will be better tomorrow, so we can go to the beach with our friends.',
];
// Into Chinese, sentences whose translations a reader of d2l-zh knows at a
// glance (I love deep learning. → 我爱深度学习。, Hi. → 你好。).
export const EXAMPLES_ZH = [
  'I love deep learning.',
  'Hi.',
  'Thank you.',
  "I'm home.",
  'I think that the weather will be better tomorrow, so we can go to the beach with our friends.',
];
/** The example sentences offered for `model`: the Chinese ones for a shipped model into Chinese. */
export const examplesFor = (model) => (isShipped(model) && languagesOf(model).targetLanguage === 'zh' ? EXAMPLES_ZH : EXAMPLES);
// What the URL leaves out; the default model and beam are the package's (page-models.js).
export const DEFAULTS = { beam: DEFAULT_BEAM, view: 'heatmap', unit: 'pieces' };
export const ALTERNATIVES = 8; // top-k words offered at each output position

const $ = (id) => document.getElementById(id);
export const view = {
  source: $('source'),
  sentences: $('sentences'),
  sentencesHint: $('sentences-hint'),
  sentenceItems: $('sentence-items'),
  model: $('model'),
  beam: $('beam'),
  alpha: $('alpha'),
  beta: $('beta'),
  shortlist: $('shortlist'),
  shortlistControl: $('shortlist-control'),
  shortlistHint: $('shortlist-hint'),
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
  explainerLanguage: $('explainer-language'),
  explainerRows: $('explainer-rows'),
  explainerContext: $('explainer-context'),
  whatIf: $('whatif'),
  heatmap: $('heatmap'),
  readout: $('readout'),
  play: $('play'),
  hypotheses: $('hypotheses'),
  compareNote: $('compare-note'),
  compareView: document.querySelector('[data-testid="compare-view"]'),
  compareAttention: $('compare-attention'),
  compareFixed: $('compare-fixed'),
  compareAttentionName: $('compare-attention-name'),
  compareFixedName: $('compare-fixed-name'),
  chart: $('chart'),
  chartCaption: $('chart-caption'),
  about: $('about-list'),
};

export const state = {
  text: '',
  model: null, // a shipped name (the package's default until the URL says otherwise), or the absolute URL of ?model-url=
  beam: DEFAULTS.beam,
  alpha: null, // beam search's length penalty; null = the package's default
  beta: null, // and its coverage penalty
  shortlist: true, // use the model's lexical shortlist when it has one (info.shortlist); false: score every output piece (?shortlist=off)
  hyp: 0, // the selected beam hypothesis
  prefix: [], // target tokens forced by a "what if"
  whatIf: null, // the output position whose alternatives are open
  view: DEFAULTS.view, // 'heatmap' or 'lines'
  unit: DEFAULTS.unit, // the figure's rows and columns: 'pieces' (tokens) or 'words'
  step: null, // the output step (1-based): the figure's row selected (?step=) and the step panel's step
  stepView: false, // true when the step panel was opened (?view=step, or a click on an output word)
  tau: null, // the attention softmax's temperature; null = 1, the trained model (not sent, not in the URL)
  urlWarning: null, // a part of the URL the page could not follow: { key, params } of the catalogue
  result: null, // the translation shown (the API's Translation): of the whole text, or of its sentence `part`
  sentences: null, // a text of several sentences: [{ source, start, end, translation }] (translateText's); else null
  part: 0, // the sentence shown (0-based; ?part= is 1-based)
  ms: 0,
};

/** The sentence the result shows: the whole text, or the selected one of several. */
export function shownText() {
  return state.sentences ? state.sentences[state.part].source : state.text;
}

/**
 * What the reader picked in the last result (a beam hypothesis, an open
 * "what if", forced tokens) stops applying when the input or an option
 * changes: the one reset for all of them. `prefix` and `step` stay unless
 * given (a new beam size or penalty keeps the forced tokens and the URL's
 * step; a new sentence or model drops them).
 */
export function resetPicks({ prefix = state.prefix, hyp = 0, step = state.step } = {}) {
  state.prefix = prefix;
  state.step = step;
  state.hyp = hyp;
  state.whatIf = null;
}

// Set once by app.js's start(): the translation worker, and from the
// package, plain modules with no WebAssembly: the options' ranges and
// defaults (optionRanges), wordAttention and sourceText.
export const page = {
  translator: null,
  optionRanges: null,
  wordAttention: null,
  sourceText: null,
  serial: 0, // the latest translation request; older answers are dropped
};

// The options of every translation the page asks for. The penalties steer
// beam search only (greedy decoding writes the same tokens whatever they
// are), but every score is computed with them, so they are always sent:
// the score shown is the one the inputs describe. The shortlist is sent
// only when the reader turned it off (`shortlist: false`: the output layer
// and its softmax over every target piece).
export function decodeOptions(extra = {}) {
  const options = { beamSize: state.beam, maxLength: MAX_OUTPUT_TOKENS, ...extra };
  if (state.tau !== null) options.temperature = state.tau;
  if (state.alpha !== null) options.lengthPenalty = state.alpha;
  if (state.beta !== null) options.coveragePenalty = state.beta;
  if (!state.shortlist) options.shortlist = false; // the API's default is true; a model without a shortlist ignores it
  return options;
}

// ---------------------------------------------------------------------------
// Models: the shipped ones, or your own file by URL (?model-url=, page-url.js).

export const infos = new Map(); // model -> its info (from the worker), once loaded

// What the page says about a model: for the shipped ones, their languages
// and how to read their attention; for a model by URL, its file name and the
// target language its info records.
const READINGS = new Set(['fr', 'zh']); // target languages with their own note (reading.fr, reading.zh)
export function describeModel(model) {
  if (isShipped(model)) {
    const lang = languagesOf(model).targetLanguage;
    return { label: modelLabel(model), target: languageName(lang), lang, reading: t(READINGS.has(lang) ? `reading.${lang}` : 'reading.any') };
  }
  const lang = infos.get(model)?.targetLanguage ?? '';
  return {
    label: t('model.yours', { file: fileName(model) }), target: lang ? languageName(lang) : t('model.output'), lang,
    reading: t('reading.any'),
  };
}

// The file name of a model given by URL: "tiny-subword.s2s".
export function fileName(model) {
  const last = new URL(model).pathname.split('/').pop() || 'model';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

// The model's info, asked of the worker once (after the model has loaded).
// The default of a beam penalty ('lengthPenalty' or 'coveragePenalty') for
// the chosen model: the one its file records once its info is here, else
// the package's.
export function penaltyDefault(name) {
  return infos.get(state.model)?.beamDefaults[name] ?? page.optionRanges[name].default;
}

export async function modelInfo(model) {
  if (!infos.has(model)) infos.set(model, await page.translator.info(model));
  return infos.get(model);
}

// True when the model writes subword pieces (the page then marks pieces
// that continue a word, in the "what if" too).
export function targetIsSubword() {
  return infos.get(state.model)?.targetTokenizer === 'bpe';
}

// The noun for one token of this model: pieces for subword models.
export function tokenNoun(plural = false) {
  // What the model writes: subword pieces (en-fr), Chinese characters (en-zh) or words (older files).
  const kind = infos.get(state.model)?.targetTokenizer;
  const [one, many] = kind === 'bpe' ? ['noun.piece', 'noun.pieces']
    : kind === 'characters' ? ['noun.character', 'noun.characters'] : ['noun.word', 'noun.words'];
  return t(plural ? many : one);
}

// ---------------------------------------------------------------------------
// Status, notices, errors

// The status line and the notices keep what they say as catalogue keys, so
// that relabel() can say it again in the other language.
let status = { key: '', params: {}, busy: false };
let notices = [];

/** The status line: `key` of the catalogue ('' for none) with its params. */
export function setStatus(key, params = {}, { busy = false } = {}) {
  status = { key, params, busy };
  view.status.textContent = key ? t(key, params) : '';
  view.status.classList.toggle('busy', busy);
}

/** Notices under the controls: each { testid, kind, key, params } (catalogue) or { testid, kind, text } (as is). */
export function showNotices(list) {
  notices = list;
  replaceChildren(view.notices, list.map(({ testid, text, key, params = {}, kind = 'notice' }) =>
    h('p', { class: kind, 'data-testid': testid, role: kind === 'error' ? 'alert' : null }, key ? rich(key, params) : text)));
}

/** Says the status line and the notices again, in the page's language now. */
export function relabelStatus() {
  setStatus(status.key, status.params, { busy: status.busy });
  showNotices(notices);
}

export function showError(error) {
  view.result.dataset.state = 'error';
  setStatus('');
  showNotices([{ testid: 'error', kind: 'error', key: 'error.generic', params: { message: error?.message ?? String(error) } }]);
}
