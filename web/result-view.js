// The demo page's result, drawn from `state` (page-state.js): the
// translation and its notices, the chips of both sentences, the attention
// figure (a heatmap or lines, between pieces or words) with its highlights,
// and what pointing at them shows. app.js calls render() when a new result
// or view arrives. What the figure holds (its units) is figure-data.js; the
// beam's hypotheses and the "what if" alternatives, which the reader picks,
// are what-if.js.
//
// Subword models read and write pieces ("▁deep ▁learn ing"): the page shows
// a piece without its marker, a piece that continues a word as "·ing", and
// switches the figure between pieces and words (the package's wordAttention:
// a word's columns summed, its rows averaged).
import { h, replaceChildren, tokenKind, UNKNOWN_TOKEN } from './dom.js';
import { renderHeatmap, colorFor, needsLightText } from './heatmap.js';
import { renderAlignment } from './alignment.js';
import { figureData, originalWords, selectedHypothesis } from './figure-data.js';
import { describeModel, infos, showNotices, state, tokenNoun, view } from './page-state.js';
import { openWhatIf, renderHypotheses, renderWhatIf } from './what-if.js';

let figure = null; // { element, highlight, clear } of the shown figure (heatmap or lines)
let shown = null; // what the figure and the chips show: { source: Unit[], target: Unit[], attention } (see figureData)

/** The figure's SVG element, or null (nothing drawn, or a model without attention): what the downloads export. */
export function figureElement() {
  return figure?.element ?? null;
}

/** Empties the result, with `message` where the translation goes. */
export function clearResult(message) {
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
    tabindex: button ? null : 0,
    'data-testid': testid,
    'data-index': index,
    'data-token': unit.token,
    'data-start': unit.start,
    'data-end': unit.end,
    title: title ?? (unit.continuation ? `Part of a word: this piece continues the one before it` : kindTitle),
  }, unit.label);
}

/** Draws state.result: the translation, its notices, the figure, the hypotheses, the "what if". */
export function render() {
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
  view.explainerLanguage.textContent = info.reading;
  view.targetTokens.lang = info.lang;
  renderFigure();
  renderHypotheses();
  renderWhatIf();
}

// The chips of both sentences, in the figure's unit: the source (focusable
// spans) and the target (buttons that open the "what if" at the unit's first

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
export function renderFigure() {
  showSwitches();
  view.translation.dataset.unit = state.unit;
  shown = figureData();
  renderChips();
  showUnitHint();
  replaceChildren(view.readout, '\u00a0');
  if (shown.attention.length) {
    const data = { sourceTokens: shown.source.map((u) => u.label), targetTokens: shown.target.map((u) => u.label), attention: shown.attention };
    const onLabel = (axis, index) => (index === null ? clearHighlights() : axis === 'row' ? showRow(index) : showColumn(index));
    figure = state.view === 'lines'
      ? renderAlignment(data, { onLabel })
      : renderHeatmap(data, {
        onHover: (cell) => (cell ? showCell(cell) : clearHighlights()),
        onLabel,
        label: `Attention between ${state.unit}: ${data.targetTokens.length} output ${state.unit} (rows) by ${data.sourceTokens.length} source ${state.unit} (columns). Use the arrow keys to move between cells.`,
      });
    figure.element.dataset.unit = state.unit;
    replaceChildren(view.heatmap, figure.element);
  } else {
    figure = null;
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
  figure?.clear();
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
  figure?.highlight({ row });
  tint(view.sourceTokens, weights);
  tint(view.targetTokens, null, row);
  replaceChildren(view.readout, 'Writing ', quoted(shown.target[row]), ', the model looked most at ',
    quoted(shown.source[top]), ` (${weights[top].toFixed(2)}).`);
}

function showColumn(col) {
  const weights = weightsOfColumn(col);
  const top = weights.indexOf(Math.max(...weights));
  figure?.highlight({ col });
  tint(view.targetTokens, weights);
  tint(view.sourceTokens, null, col);
  replaceChildren(view.readout, quoted(shown.source[col]), ' drew the most attention when the model wrote ',
    quoted(shown.target[top]), ` (${weights[top].toFixed(2)}).`);
}

/** Pointing at (or focusing) a chip highlights its row or column; clicking an output chip opens its "what if". */
export function wireFigure() {
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
}
