// The reader's choices in the demo page's result (result-view.js and
// figure-view.js draw the rest): the beam's hypotheses, each of which can
// be shown, and the "what if" alternatives at an output position, each of
// which can be forced.
// app.js decides what a pick does (onPicks): both translate again or change
// the URL.
import { h, replaceChildren, tokenKind, pieceLabel, WORD_MARKER } from '../figures/dom.js';
import { selectedHypothesis, pieceUnits, tokensAsWords } from './figure-data.js';
import { describeModel, state, targetIsSubword, tokenNoun, view } from './page-state.js';
import { formatLog, possibleChoices } from '../figures/step-math.js';
import { t } from '../figures/i18n/index.js';

let picks = { hypothesis: () => {}, alternative: () => {} }; // set by app.js (onPicks)

/**
 * What the reader's picks do: hypothesis(k) for a beam hypothesis,
 * alternative(position, token) for a "what if" (alternative(null): back to
 * the model's own translation).
 */
export function onPicks(handlers) {
  picks = handlers;
}

/**
 * The way back after a "what if" pick, shown at once beside the result
 * line (result-view.js), not only in the alternatives, which close when the
 * pick is decoded.
 */
export function backButton() {
  return h('button', { type: 'button', class: 'back-to-model', 'data-testid': 'whatif-back', onclick: () => picks.alternative(null) }, t('whatif.reset'));
}

function alternativesAt(position) {
  const hypothesis = selectedHypothesis();
  const alternatives = hypothesis.alternatives ?? (state.hyp === 0 ? state.result.alternatives : null);
  return alternatives?.[position] ?? null;
}

// ---------------------------------------------------------------------------
// Beam hypotheses

export function renderHypotheses() {
  const { hypotheses } = state.result;
  if (hypotheses.length <= 1) {
    replaceChildren(view.hypotheses);
    return;
  }
  replaceChildren(view.hypotheses,
    h('h3', {}, t('beam.listHeading', { n: hypotheses.length })),
    h('p', { class: 'hint' }, t('beam.hint')),
    h('ol', {}, hypotheses.map((hypothesis, k) => h('li', {}, h('button', {
      type: 'button', class: 'hypothesis', 'data-testid': 'hypothesis', 'data-index': k,
      'aria-pressed': String(k === state.hyp),
      onclick: () => picks.hypothesis(k),
    }, h('span', { class: 'rank' }, `${k + 1}.`), h('span', { lang: describeModel(state.model).lang, translate: 'no' }, hypothesis.text || t('beam.empty')),
    h('span', { class: 'score' }, formatLog(hypothesis.score)))))));
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

export function renderWhatIf() {
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
  // With the model's shortlist, a piece outside this sentence's candidates
  // has probability 0: it is not a choice (possibleChoices), only counted.
  const offered = alternativesAt(position);
  const alternatives = possibleChoices(offered);
  const impossible = (offered?.length ?? 0) - alternatives.length;
  const body = alternatives.length
    ? h('div', { class: 'whatif-options', role: 'group', 'aria-label': t('whatif.listLabel', { noun: tokenNoun(true) }) }, alternatives.map(({ token, probability }) => {
      const isCurrent = token === current;
      const label = alternativeLabel(token);
      return h('button', {
        type: 'button', class: `alternative${isCurrent ? ' current' : ''}`, 'data-testid': 'alternative', 'data-token': token,
        'aria-current': isCurrent ? 'true' : null,
        title: isCurrent ? t('whatif.current') : t('whatif.force', { label }),
        onclick: () => picks.alternative(position, token),
      }, h('span', { lang: describeModel(state.model).lang, translate: 'no' }, label), h('span', { class: 'prob' }, percentText(probability)),
      h('span', { class: 'bar', style: `width: ${Math.max(1, probability * 100).toFixed(1)}%` }));
    }))
    : h('p', {}, t('whatif.none'));
  replaceChildren(view.whatIf,
    h('h3', {}, t('whatif.heading', { Noun: `${noun[0].toUpperCase()}${noun.slice(1)}`, position: position + 1, label: currentLabel })),
    body,
    impossible > 0 ? h('p', { class: 'hint', 'data-testid': 'whatif-impossible' }, t('whatif.impossible', { count: impossible, nouns: tokenNoun(true) })) : null,
    h('div', { class: 'whatif-foot' },
      h('span', {}, t('whatif.foot', { noun, nouns: tokenNoun(true) })),
      h('span', {},
        state.prefix.length ? h('button', { type: 'button', 'data-testid': 'whatif-reset', onclick: () => picks.alternative(null) }, t('whatif.reset')) : null,
        ' ',
        h('button', { type: 'button', onclick: () => openWhatIf(null) }, t('whatif.close')))));
  view.whatIf.hidden = false;
}

// Opens (or, for the open one, closes) the alternatives at `position`, an
// output token (a word's first piece in the words view); null closes them.
export function openWhatIf(position) {
  state.whatIf = state.whatIf === position ? null : position;
  [...view.targetTokens.children].forEach((element) => {
    const selected = state.whatIf !== null && Number(element.dataset.start) === state.whatIf;  // a chip's first token
    element.classList.toggle('selected', selected);
    element.setAttribute('aria-expanded', String(selected));
  });
  renderWhatIf();
}

// A probability as the list shows it: one decimal, and "<0.1%" for a piece
// the model can write but almost never would (never "0.0%", which reads as
// impossible: those pieces are not listed at all).
export function percentText(probability) {
  const percent = probability * 100;
  return percent > 0 && percent < 0.05 ? '<0.1%' : `${percent.toFixed(1)}%`;
}
