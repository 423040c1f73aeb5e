// The demo page's controls that come from the package and the chosen
// model: the model menu (the package's list, and a model given by URL), the
// beam menu, the beam search penalties (their ranges and defaults,
// optionRanges; a penalty of null means "the default", which is then not
// sent and not kept in the URL), the shortlist switch, and the page stopped
// before it can run (showFatal). app.js calls these as it starts, after each
// result and when the language changes.
import { h, replaceChildren } from '../figures/dom.js';
import { PAGE_MAX_BEAM, isShipped, modelLabel, pickableModels } from '../figures/page-models.js';
import { describeModel, fileName, infos, page, penaltyDefault, showNotices, state, view } from './page-state.js';
import { showOptionValues } from './options-view.js';
import { formatCount, setRich, t } from '../figures/i18n/index.js';


export function setUpModelMenu() {
  const chosen = view.model.value;
  replaceChildren(view.model, pickableModels().map((model) => h('option', { value: model }, modelLabel(model))));
  if (chosen) {
    addModelOption(chosen);
    view.model.value = chosen;
  }
}

// A model given by URL (?model-url=) gets its own entry.
export function addModelOption(model) {
  if (isShipped(model) || [...view.model.options].some((option) => option.value === model)) return;
  view.model.append(h('option', { value: model }, t('controls.yourModel', { file: fileName(model) })));
}

export function setUpBeamMenu() {
  const sizes = Array.from({ length: PAGE_MAX_BEAM }, (_, k) => k + 1);
  const chosen = view.beam.value;
  replaceChildren(view.beam, sizes.map((beam) => h('option', { value: beam }, beam === 1 ? t('controls.greedy', { beam }) : String(beam))));
  if (chosen) view.beam.value = chosen;
}

export function setUpPenalties() {
  const { optionRanges } = page;
  for (const [input, name] of [[view.alpha, 'lengthPenalty'], [view.beta, 'coveragePenalty']]) {
    const { min, max } = optionRanges[name];
    Object.assign(input, { min: String(min), max: String(max) });
  }
  showPenaltyHint();
}

// The hint under the penalties, with the chosen model's defaults (penaltyDefault) and the range.
export function showPenaltyHint() {
  const { lengthPenalty } = page.optionRanges;
  const number = (name, text) => h('span', { [`data-${name}`]: 'lengthPenalty' }, text);
  for (const [input, name] of [[view.alpha, 'lengthPenalty'], [view.beta, 'coveragePenalty']]) {
    input.placeholder = formatPenalty(penaltyDefault(name));
  }
  setRich(document.getElementById('penalty-hint'), 'penalty.hint', {
    alpha: h('span', { 'data-default': 'lengthPenalty' }, formatPenalty(penaltyDefault('lengthPenalty'))),
    beta: h('span', { 'data-default': 'coveragePenalty' }, formatPenalty(penaltyDefault('coveragePenalty'))),
    min: number('min', String(lengthPenalty.min)),
    max: number('max', String(lengthPenalty.max)),
  });
}

const formatPenalty = (value) => value.toFixed(1);


// The shortlist switch: shown only for a model whose file has a lexical
// shortlist (its info, once loaded); checked = the API's default, the
// shortlist on; unchecked sends { shortlist: false } (decodeOptions).
export function showShortlist() {
  const info = infos.get(state.model);
  const shortlist = info?.shortlist ?? null;
  view.shortlistControl.hidden = shortlist === null;
  view.shortlistHint.hidden = shortlist === null;
  view.shortlist.checked = state.shortlist;
  if (shortlist === null) return;
  const model = describeModel(state.model);
  const hint = t('shortlist.hint', {
    target: model.lang ? model.target : t('model.output').toLowerCase(),
    always: formatCount(shortlist.always),
    vocabulary: formatCount(info.targetVocabularySize),
  });
  view.shortlistHint.textContent = hint;
  view.shortlistControl.title = hint;
}

// The inputs show the state; they are used (and enabled) for beam search only.
export function showPenalties() {
  const greedy = state.beam === 1;
  for (const [input, value, name] of [[view.alpha, state.alpha, 'lengthPenalty'], [view.beta, state.beta, 'coveragePenalty']]) {
    input.value = formatPenalty(value ?? penaltyDefault(name));
    input.disabled = greedy;
    input.title = greedy ? t('controls.penaltyTitle') : '';
  }
  showOptionValues(state.alpha ?? penaltyDefault('lengthPenalty'), state.beta ?? penaltyDefault('coveragePenalty'));
}

// `problem` is a message, or { key, params } of the catalogue (redrawn in the
// other language when the reader switches).
export function showFatal(problem) {
  for (const control of [view.source, view.model, view.beam, view.alpha, view.beta, view.shortlist, view.translateButton]) control.disabled = true;
  view.result.dataset.state = 'error';
  showNotices([{ testid: 'error', kind: 'error', ...(typeof problem === 'string' ? { text: problem } : problem) }]);
  replaceChildren(view.translation, t('status.cannotRun'));
}
