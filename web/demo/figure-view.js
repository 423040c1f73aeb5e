// The demo page's attention figure and the chips of both sentences, drawn
// from `state` (page-state.js) in the figure's unit (figure-data.js): a
// heatmap or lines, between pieces or words, with the view and unit
// switches; what pointing at a cell, a label or a chip shows (the weights
// tinted and the readout); "write it step by step"; and the figure as the
// downloads export it. result-view.js calls renderFigure() for each result;
// clicking an output chip opens its "what if" (what-if.js).
//
// Subword models read and write pieces ("▁deep ▁learn ing"): the page shows
// a piece without its marker, a piece that continues a word as "·ing", and
// switches the figure between pieces and words (the package's wordAttention:
// a word's columns summed, its rows averaged).
import { h, replaceChildren, tokenKind, UNKNOWN_TOKEN } from '../figures/dom.js';
import { renderHeatmap, colorFor, DARK_TEXT, needsLightText } from '../figures/heatmap.js';
import { renderAlignment } from '../figures/alignment.js';
import { copiedWordsOf, figureData, selectedHypothesis, unsureWordsOf, writtenText } from './figure-data.js';
import { infos, page, shownText, state, view } from './page-state.js';
import { openWhatIf } from './what-if.js';
import { applyStatic, lang, rich, t } from '../figures/i18n/index.js';
import { figureLabels, heatmapSvg } from '../../dist/figure.js';
import { drawHeatmap, figureRoom, followFigure, hideFitToggle, watchFigureScroll } from './figure-scroll.js';

let figure = null; // { element, highlight, clear } of the shown figure (heatmap or lines)
let shown = null; // what the figure and the chips show: { source: Unit[], target: Unit[], attention } (see figureData)

/** The first output piece (0-based) of the figure's row `row`: the row itself for pieces, a word's first piece for words. */
export function firstPieceOfRow(row) {
  return shown?.target[row]?.start ?? row;
}

/** The figure's SVG element, or null (nothing drawn, or a model without attention): what the downloads export. */
export function figureElement() {
  return figure?.element ?? null;
}

/**
 * The heatmap as shown (pieces or words, the selected hypothesis) as a
 * standalone SVG document, drawn by the package's heatmapSvg, the code the
 * bin's `figure` uses: with the sentence, its translation, the axes and the
 * model's data credit. Null in the lines view or without attention.
 */
export function figureSvg() {
  if (!shown?.attention.length || state.view === 'lines') return null;
  const data = { sourceTokens: shown.source.map((u) => u.label), targetTokens: shown.target.map((u) => u.label), attention: shown.attention };
  return heatmapSvg(data, figureLabels({ info: infos.get(state.model), source: shownText(), translation: selectedHypothesis().text,
    lang: lang() === 'zh-CN' ? 'zh-CN' : 'en' }));
}

/** Empties the figure, the chips and the readout. */
export function clearFigure() {
  replaceChildren(view.sourceTokens);
  replaceChildren(view.targetTokens);
  replaceChildren(view.heatmap);
  hideFitToggle();
  followFigure();
  replaceChildren(view.readout, '\u00a0');
  figure = null;
}

/** The view and unit switches show state.view and state.unit. */
export function showSwitches() {
  document.querySelectorAll('.view-switch [data-view]').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.view === state.view));
  });
  document.querySelectorAll('.unit-switch [data-unit]').forEach((button) => {
    button.setAttribute('aria-pressed', String(button.dataset.unit === state.unit));
  });
}

function chip(unit, { index, testid, title, button = false }) {
  const { kind, title: kindTitle } = tokenKind(unit.token);
  return h(button ? 'button' : 'span', {
    class: `chip ${kind}${unit.continuation ? ' cont' : ''}`,
    type: button ? 'button' : null,
    tabindex: '-1', // the row is one tab stop (keys.js)
    'data-testid': testid,
    'data-index': index,
    'data-token': unit.token,
    'data-start': unit.start,
    'data-end': unit.end,
    title: title ?? (unit.continuation ? t('token.continuation') : kindTitle),
  }, unit.label);
}

// A chip of the output covering tokens [start, end) is marked when one of the
// words it shows (or is part of) was a guess of the model's: its probability
// is the lowest of those words'.
function unsureProbability(unsure, { start, end }) {
  let lowest = null;
  for (const word of unsure) {
    if (word.start < end && start < word.end) lowest = lowest === null ? word.probability : Math.min(lowest, word.probability);
  }
  return lowest;
}

// The chips of both sentences, in the figure's unit: the source (focusable
// spans) and the target (buttons that open the "what if" at the unit's first
// token).
function renderChips() {
  // An unknown piece names what the reader typed there (the core's offsets).
  const typed = (unit) => (unit.token === UNKNOWN_TOKEN && unit.end - unit.start === 1
    ? page.sourceText(state.result, shownText(), unit.start) : null);
  replaceChildren(view.sourceTokens, shown.source.map((unit, j) => chip(unit, {
    index: j, testid: 'source-token',
    title: typed(unit) ? t('token.unknownWord', { word: typed(unit) }) : undefined,
  })));
  const unsure = unsureWordsOf(selectedHypothesis());
  const copied = copiedWordsOf(selectedHypothesis());
  replaceChildren(view.targetTokens, shown.target.map((unit, i) => {
    const element = chip(unit, { index: i, testid: 'target-token', button: true });
    const doubt = unsureProbability(unsure, unit);
    if (doubt !== null) {
      element.classList.add('unsure');
      element.dataset.unsure = String(doubt);
      element.title = `${element.title ? `${element.title}. ` : ''}${t('token.unsure', { p: doubt.toFixed(2) })}`;
    }
    const copy = copied.find((word) => word.start < unit.end && unit.start < word.end);
    if (copy) {
      element.classList.add('copied');
      element.dataset.copied = copy.text;
      element.title = `${element.title ? `${element.title}. ` : ''}${t('token.copied', { word: copy.text })}`;
    }
    if (unit.start < state.prefix.length) {
      element.classList.add('forced');
      element.title = `${element.title ? `${element.title}. ` : ''}${t('token.forced')}`;
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
export function renderFigure() {
  stopPlaying();
  showSwitches();
  view.translation.dataset.unit = state.unit;
  shown = figureData();
  renderChips();
  showUnitHint();
  replaceChildren(view.readout, '\u00a0');
  // The explanation of the figure shown: rows and dark cells, or lines.
  const explainers = state.view === 'lines' ? ['explainer.linesRows', 'explainer.linesContext'] : ['explainer.rows', 'explainer.context'];
  for (const [element, wanted] of [[view.explainerRows, explainers[0]], [view.explainerContext, explainers[1]]]) {
    if (element && element.dataset.i18n !== wanted) {
      element.dataset.i18n = wanted;
      applyStatic(element);
    }
  }
  if (view.play) view.play.hidden = shown.attention.length === 0;
  if (shown.attention.length) {
    const data = { sourceTokens: shown.source.map((u) => u.label), targetTokens: shown.target.map((u) => u.label), attention: shown.attention };
    const onLabel = (axis, index) => (index === null ? clearHighlights() : axis === 'row' ? showRow(index) : showColumn(index));
    // Both fit their room (figure-scroll.js): the lines stand when a
    // sentence is too long for one line; the heatmap shrinks if asked.
    figure = state.view === 'lines'
      ? renderAlignment(data, { onLabel, width: figureRoom() })
      : drawHeatmap((extra) => renderHeatmap(data, {
        onHover: (cell) => (cell ? showCell(cell) : clearHighlights()),
        onLabel,
        label: t('figure.label', { unit: t(`switch.${state.unit}`), rows: data.targetTokens.length, cols: data.sourceTokens.length }),
        ...extra,
      }));
    if (state.view === 'lines') hideFitToggle();
    figure.element.dataset.unit = state.unit;
    replaceChildren(view.heatmap, figure.element);
    followFigure();
    // The lines have nothing to focus: their box, which scrolls sideways on
    // a narrow screen, is itself a named stop for the keyboard. (The
    // heatmap's cells are its stop: the box is not one more.)
    if (state.view === 'lines') {
      Object.assign(view.heatmap, { tabIndex: 0 });
      view.heatmap.setAttribute('role', 'region');
      view.heatmap.setAttribute('aria-label', t('figure.linesRegion'));
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) view.heatmap.removeAttribute(name);
    }
    showStep();
  } else {
    figure = null;
    hideFitToggle();
    replaceChildren(view.heatmap, h('p', { class: 'hint' }, t('figure.noAttention')));
    followFigure();
  }
}

// "Write it step by step": the translation appears one output token at a
// time, as the decoder wrote it, each with its heatmap row lit and the
// source words it looked at tinted (the dynamic context of the chapter,
// seen happening). The rows and tokens not written yet are dimmed.
const PLAY_STEP_MS = 700;
let playTimer = 0;

function playStep(row) {
  const rows = shown?.attention.length ?? 0;
  if (!figure || row >= rows) {
    stopPlaying();
    return;
  }
  view.heatmap.dataset.playStep = String(row + 1);
  for (const element of figure.element.querySelectorAll('[data-row], [data-row-label]')) {
    const r = Number(element.getAttribute('data-row') ?? element.getAttribute('data-row-label'));
    element.classList.toggle('unwritten', r > row);
  }
  [...view.targetTokens.children].forEach((chipElement, k) => chipElement.classList.toggle('unwritten', k > row));
  // The line above shows what is written so far, not the translation to come.
  view.translation.textContent = writtenText(selectedHypothesis(), shown.target[row]?.end ?? row + 1);
  showRow(row);
  describeStep(row);
  playTimer = setTimeout(() => playStep(row + 1), PLAY_STEP_MS);
}

function stopPlaying() {
  clearTimeout(playTimer);
  if (view.heatmap.dataset.playStep !== undefined && state.result) {
    view.translation.textContent = selectedHypothesis().text || t('result.empty');
    view.translation.style.minHeight = '';
    view.translation.removeAttribute('aria-busy');
  }
  playTimer = 0;
  delete view.heatmap.dataset.playStep;
  for (const element of document.querySelectorAll('.unwritten')) element.classList.remove('unwritten');
  if (view.play) {
    view.play.setAttribute('aria-pressed', 'false');
    view.play.textContent = t('figure.play');
  }
}

function togglePlay() {
  if (playTimer) {
    stopPlaying();
    clearHighlights();
    return;
  }
  if (!figure || !shown?.attention.length) return;
  view.play.setAttribute('aria-pressed', 'true');
  view.play.textContent = t('figure.stop');
  view.translation.style.minHeight = `${view.translation.offsetHeight}px`;  // the line keeps its height as it fills
  view.translation.setAttribute('aria-busy', 'true');  // read out once written, not piece by piece
  playStep(0);
}

// The output row the URL selected (?step=N, 1-based), shown as if pointed at.
function showStep() {
  const row = stepRow();
  if (row === null) return;
  showRow(row);
  view.readout.dataset.step = String(row + 1);
  describeStep(row);
}

// The readout for output row `row`: the word written and where the model looked most.
function describeStep(row) {
  const weights = weightsOfRow(row);
  const top = weights.indexOf(Math.max(...weights));
  replaceChildren(view.readout, rich('readout.step', {
    step: row + 1, target: quoted(shown.target[row]), source: quoted(shown.source[top]), weight: weights[top].toFixed(2),
  }));
}

// state.step as a row of the shown figure (the last row when the step is past
// the end), or null.
function stepRow() {
  if (state.step === null || !shown?.attention.length) return null;
  return Math.min(state.step, shown.attention.length) - 1;
}

function showUnitHint() {
  const subword = infos.get(state.model)?.sourceTokenizer === 'bpe' || infos.get(state.model)?.targetTokenizer === 'bpe';
  view.unitHint.textContent = t(!subword ? 'unit.sameHint' : state.unit === 'pieces' ? 'unit.piecesHint' : 'unit.wordsHint');
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
    element.style.color = needsLightText(weight) ? '#fff' : DARK_TEXT;
    element.dataset.shownWeight = weight.toFixed(2);
  });
}

function clearHighlights() {
  tint(view.sourceTokens, null);
  tint(view.targetTokens, null);
  figure?.clear();
  delete view.readout.dataset.step;
  replaceChildren(view.readout, '\u00a0');
  showStep(); // the URL's step stays selected when nothing else is pointed at
}

const quoted = (unit) => h('b', {}, `“${unit.label}”`);

function showCell({ row, col }) {
  const weight = shown.attention[row][col];
  tint(view.sourceTokens, weightsOfRow(row), col);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, rich('readout.cell', {
    target: quoted(shown.target[row]), source: quoted(shown.source[col]), weight: weight.toFixed(3), percent: Math.round(weight * 100),
  }));
}

function showRow(row) {
  const weights = weightsOfRow(row);
  const top = weights.indexOf(Math.max(...weights));
  figure?.highlight({ row });
  tint(view.sourceTokens, weights);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, rich('readout.row', {
    target: quoted(shown.target[row]), source: quoted(shown.source[top]), weight: weights[top].toFixed(2),
  }));
}

function showColumn(col) {
  const weights = weightsOfColumn(col);
  const top = weights.indexOf(Math.max(...weights));
  figure?.highlight({ col });
  tint(view.targetTokens, weights);
  tint(view.sourceTokens, null, col);
  replaceChildren(view.readout, rich('readout.column', {
    source: quoted(shown.source[col]), target: quoted(shown.target[top]), weight: weights[top].toFixed(2),
  }));
}

/** Pointing at (or focusing) a chip highlights its row or column; clicking an output chip opens its "what if". */
export function wireFigure() {
  watchFigureScroll({ redraw: () => { if (state.result) renderFigure(); } });
  const chipIndex = (event) => {
    const element = event.target.closest?.('.chip');
    return element ? Number(element.dataset.index) : null;
  };
  for (const [container, show] of [[view.sourceTokens, showColumn], [view.targetTokens, showRow]]) {
    const enter = (event) => {
      const index = chipIndex(event);
      if (index !== null && state.result && figure) show(index);
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
  view.play?.addEventListener('click', togglePlay);
}
