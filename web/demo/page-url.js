// The demo page's state in its URL, so that a link reproduces the view:
//   ?text=…&model=en-zh&beam=4&tau=0.5&alpha=0.6&beta=0&shortlist=off&hyp=1&prefix=je+vois&view=lines&unit=words&step=3&part=2&lang=zh-CN
// (defaults omitted), or model-url=PATH instead of model. `sentence=` is
// read as another name for `text=` (the embed element's attribute); `step=N`
// selects output row N (1-based) of the figure, as if pointed at, until the
// reader points elsewhere, and the step-through panel opens at it;
// `view=step` shows the heatmap and scrolls to the step panel (step-view.js).
// `part=K` shows sentence K (1-based) of a text of several sentences.
// `tau=` is the attention softmax's temperature (omitted at 1).
// `shortlist=off` decodes without the model's lexical shortlist (every
// output piece scored); omitted when it is on, the default.
// `lang` (en or zh-CN) is written when it differs from what the reader's
// browser asks for (web/figures/i18n/index.js reads it).
//
// ?model-url=PATH opens the page with the model file at PATH (relative to the
// page, or absolute) instead of a shipped one: a model you trained with
// `seq2seq train`, served next to the page. Only URLs on the page's own
// origin are accepted, so a link can never make the page fetch another
// site's file. The browser tests open a small subword model this way.
import { defaultModel, isShipped, languagesOf, pageBeam, pickableModels, stepFromText, PAGE_MAX_BEAM } from '../figures/page-models.js';
import { DEFAULTS, page, state } from './page-state.js';
import { browserLang, lang } from '../figures/i18n/index.js';
import { tauFromText } from '../figures/step-math.js';

/**
 * The model the page opens with when the URL names none: the package's
 * default, but in the Chinese interface the first model into Chinese (en-zh),
 * which a reader of d2l-zh can check by eye.
 */
export function startModel() {
  const chinese = lang() === 'zh-CN' ? pickableModels().find((model) => languagesOf(model).targetLanguage === 'zh') : null;
  return chinese ?? defaultModel();
}

/** Sets `state` from the URL; returns its text, or null when it has none. */
export function readUrl() {
  const params = new URLSearchParams(location.search);
  const model = params.get('model');
  if (model && pickableModels().includes(model)) state.model = model;
  const modelUrl = params.get('model-url');
  if (modelUrl) {
    let url = null;
    try {
      url = new URL(modelUrl, document.baseURI);
    } catch {
      // not a URL: reported below
    }
    if (url?.origin === location.origin) state.model = url.href;
    else state.urlWarning = { key: 'error.modelUrl', params: { origin: location.origin, given: url?.origin ?? JSON.stringify(modelUrl) } };
  }
  state.beam = pageBeam(params.get('beam')) ?? state.beam;
  state.alpha = penaltyFromText(params.get('alpha'), 'lengthPenalty');
  state.beta = penaltyFromText(params.get('beta'), 'coveragePenalty');
  state.shortlist = params.get('shortlist') !== 'off';
  if (params.get('unit') === 'words') state.unit = 'words';
  const part = Number(params.get('part'));  // of a text of several sentences, the one shown (1-based)
  if (Number.isInteger(part) && part >= 1) state.part = part - 1;
  const hyp = Number(params.get('hyp'));
  if (Number.isInteger(hyp) && hyp >= 0 && hyp < PAGE_MAX_BEAM) state.hyp = hyp;
  const prefix = params.get('prefix');
  if (prefix) state.prefix = prefix.split(' ').filter(Boolean);
  if (params.get('view') === 'lines') state.view = 'lines';
  if (params.get('view') === 'step') state.stepView = true;
  const { min, max } = page.optionRanges.temperature;
  state.tau = tauFromText(params.get('tau'), min, max);
  if (state.tau === 1) state.tau = null;
  state.step = stepFromText(params.get('step'));
  if (params.has('text')) return params.get('text');
  return params.has('sentence') ? params.get('sentence') : null;
}

/** Writes `state` into the URL (replacing the history entry). */
export function writeUrl() {
  const params = new URLSearchParams();
  if (state.text) params.set('text', state.text);
  if (!isShipped(state.model)) params.set('model-url', relativeUrl(state.model));
  // Named whenever the language picks another start (in Chinese), so that the link opens the same model for everyone.
  else if (state.model !== defaultModel() || startModel() !== defaultModel()) params.set('model', state.model);
  if (state.beam !== DEFAULTS.beam) params.set('beam', String(state.beam));
  if (state.alpha !== null) params.set('alpha', String(state.alpha));
  if (state.beta !== null) params.set('beta', String(state.beta));
  if (!state.shortlist) params.set('shortlist', 'off');
  if (state.sentences && state.part > 0) params.set('part', String(state.part + 1));
  if (state.hyp > 0) params.set('hyp', String(state.hyp));
  if (state.prefix.length) params.set('prefix', state.prefix.join(' '));
  if (state.tau !== null) params.set('tau', String(state.tau));
  if (state.view !== DEFAULTS.view) params.set('view', state.view);
  else if (state.stepView) params.set('view', 'step');
  if (state.unit !== DEFAULTS.unit) params.set('unit', state.unit);
  if (state.step !== null) params.set('step', String(state.step));
  if (lang() !== browserLang()) params.set('lang', lang());
  const query = params.toString();
  const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
}

// A same-origin URL as the path a link needs.
function relativeUrl(href) {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

/**
 * A beam search penalty (GNMT's alpha or beta) from the URL or an input: a
 * number in its range (the package's optionRanges), else null, which means
 * "the default": then it is not sent and not kept in the URL.
 */
export function penaltyFromText(text, name) {
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  const { min, max } = page.optionRanges[name];
  return Number.isFinite(value) && value >= min && value <= max ? value : null;
}
