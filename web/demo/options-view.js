// The beam search's options on the demo page (α, β, the shortlist and the
// notes on how the beam ranks its translations), folded under a disclosure
// so that the translation and its figure come first (issue 46). Its summary
// names the values in use, so nothing is hidden without a word; it opens
// itself when they start to matter: when the reader picks a beam above 1, or
// when a link names a beam above 1 with the options. A penalty out of its
// range (the package's optionRanges) is refused with a message beside the
// inputs that names the range, kept until a good value is entered; one in
// the URL is said the same way. app.js calls these.
import { infos, page, state } from './page-state.js';
import { t } from '../figures/i18n/index.js';

const details = document.getElementById('decoding-notes');
const values = document.getElementById('option-values');
const error = document.getElementById('penalty-error');
const inputs = { lengthPenalty: document.getElementById('alpha'), coveragePenalty: document.getElementById('beta') };

let problem = null; // { name, key, params } of the message shown, or null

const formatValue = (value) => value.toFixed(1);

/** The summary's values: "α 0.6 · β 0.2 · shortlist on", or that greedy decoding uses none of them. */
export function showOptionValues(alpha, beta) {
  if (state.beam === 1) {
    values.textContent = t('decoding.valuesGreedy');
    return;
  }
  const shortlist = infos.get(state.model)?.shortlist ? t(state.shortlist ? 'decoding.shortlistOn' : 'decoding.shortlistOff') : '';
  values.textContent = t('decoding.values', { alpha: formatValue(alpha), beta: formatValue(beta), shortlist });
}

/** Opens the options when the beam is above 1 (a pick of the reader's, or a link that names them). */
export function openOptionsForBeam() {
  if (state.beam > 1) details.open = true;
}

/**
 * At the start: a link that names a beam above 1 and decoding options opens
 * them; a penalty in it out of range is said (the default is used).
 */
export function optionsFromUrl(params) {
  const named = ['beam', 'alpha', 'beta', 'shortlist'].some((name) => params.has(name));
  if (named) openOptionsForBeam();
  for (const [parameter, name, symbol] of [['alpha', 'lengthPenalty', 'α'], ['beta', 'coveragePenalty', 'β']]) {
    const given = params.get(parameter);
    if (given === null || given.trim() === '' || state[parameter] !== null) continue;
    const { min, max } = page.optionRanges[name];
    const value = Number(given);
    if (Number.isFinite(value) && value >= min && value <= max) continue;  // in range: the default's own value
    sayProblem(name, 'controls.penaltyRangeUrl', { parameter, given, symbol, min, max });
    details.open = true;
  }
}

/** A penalty typed out of its range: said beside the inputs, with the range and the value kept. */
export function refusePenalty(name, symbol, kept) {
  const { min, max } = page.optionRanges[name];
  sayProblem(name, 'controls.penaltyRange', { symbol, min, max, value: formatValue(kept) });
}

/** A good value for `name` was entered: its message (if any) goes. */
export function acceptPenalty(name) {
  inputs[name].removeAttribute('aria-invalid');
  if (problem?.name !== name) return;
  problem = null;
  error.hidden = true;
  error.textContent = '';
}

/** Says the message again in the page's language (after the toggle). */
export function relabelOptions() {
  if (problem) error.textContent = t(problem.key, problem.params);
}

function sayProblem(name, key, params) {
  problem = { name, key, params };
  for (const [other, input] of Object.entries(inputs)) {
    if (other === name) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  error.textContent = t(key, params);
  error.hidden = false;
}
