// The parts of a <seq2seq-attention-demo> card (embed.js): each element,
// with the test ids and ARIA roles the tests and readers rely on, and the
// card that holds them in reading order. The element fills them and binds
// their events.
import { h } from '../figures/dom.js';
import { bindStepKeys } from '../figures/step-panel.js';

/** A new card's parts, empty and not yet in a card (assembleCard). */
export function createParts() {
  const parts = {
    label: h('span'),
    head: h('span'),
    input: h('input', { type: 'text', 'data-testid': 'source-input', spellcheck: 'false', autocomplete: 'off' }),
    status: h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }),
    translation: h('p', { class: 'translation', 'data-testid': 'translation-output', 'aria-live': 'polite', translate: 'no' }),
    heatmap: h('div', { class: 'scroll' }),
    readout: h('p', { class: 'readout', 'aria-live': 'polite' }),
    step: h('div', { class: 'step-panel', 'data-testid': 'step-panel', tabindex: '0', role: 'region' }),
    prev: h('button', { type: 'button', 'data-testid': 'step-prev' }),
    next: h('button', { type: 'button', 'data-testid': 'step-next' }),
    stepNav: null,
    foot: h('div', { class: 'foot' }),
    // Attribute values the element cannot use, and what it shows instead.
    note: h('p', { class: 'note', 'data-testid': 'attribute-note', hidden: '' }),
    // compare: the fixed-context twin's translation and both models' BLEU by length.
    compare: h('section', { class: 'compare', 'data-testid': 'compare', hidden: '' }),
    compareLabel: h('p', { class: 'compare-label' }),
    compareOutput: h('p', { class: 'translation', 'data-testid': 'compare-fixed-output', translate: 'no' }),
    chartHeading: h('h3'),
    chart: h('div', { class: 'chart-box', 'data-testid': 'compare-chart' }),
    chartCaption: h('p', { class: 'caption' }),
    card: null,
  };
  parts.compare.append(parts.compareLabel, parts.compareOutput, parts.chartHeading, parts.chart, parts.chartCaption);
  // Previous/Next of the step panel (view="step").
  parts.stepNav = h('div', { class: 'step-nav', hidden: '' }, parts.prev, parts.next);
  return parts;
}

/** The card holding `parts` in reading order (its theme is a class: dark). */
export function assembleCard(parts) {
  return h('div', { class: 'card', part: 'card' },
    h('div', { class: 'head' }, parts.label, parts.head),
    parts.note, parts.input, parts.status, parts.translation, parts.heatmap, parts.readout, parts.stepNav, parts.step, parts.compare, parts.foot);
}

/**
 * The reader's ways to pick a step, which set the element's step attribute
 * (and so draw again): Previous/Next, ←/→ and Home/End on the step panel
 * (step-panel.js's keys, as on the page; focus stays on the panel), and a
 * click on a heatmap row (a cell or its label) or Enter on a focused cell.
 * `shown()`: the translation drawn, or null.
 */
export function bindStepInput(element, parts, shown) {
  bindStepKeys({ prev: parts.prev, next: parts.next, panel: parts.step }, (delta) => {
    const steps = shown()?.trace?.steps.length ?? 0;
    if (!steps) return;
    const next = Math.max(1, Math.min(steps, (element.step ?? 1) + delta));
    // The redraw replaces a focused strip: keep the keyboard on the panel.
    const inPanel = parts.step.contains(element.shadowRoot.activeElement);
    element.setAttribute('step', String(next));
    if (inPanel) parts.step.focus({ preventScroll: true });
  });
  const pickRow = (event) => {
    const target = event.target.closest?.('[data-row-label], [data-row]');
    const result = shown();
    if (!target || !result) return;
    const row = Number(target.getAttribute('data-row-label') ?? target.getAttribute('data-row'));
    if (!Number.isInteger(row)) return;
    // A row of the words figure is a word: its step is its first piece's.
    const words = element.unit === 'words' ? result.targetWords : null;
    element.setAttribute('step', String((words ? words[row]?.start ?? row : row) + 1));
    // Enter on a cell of a step view takes the reader to that step's panel.
    if (event.type === 'keydown' && element.isStepView && !parts.step.hidden) parts.step.focus();
  };
  parts.heatmap.addEventListener('click', pickRow);
  parts.heatmap.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') pickRow(event);
  });
}

/**
 * Until the first result, the figure's box holds about the height the
 * heatmap will take (a row per output word, about 1.3 per English word,
 * plus labels and legend), so the tutorial does not jump when it comes; the
 * comparison's box likewise (its translation and the chart's height).
 */
export function holdHeights(parts, { sentence, shown, compare, compared }) {
  if (!shown) {
    const words = sentence.trim().split(/\s+/).filter(Boolean).length;
    parts.heatmap.style.minHeight = words ? `${Math.min(1200, Math.round((words * 1.3 + 2) * 34 + 140))}px` : '';
  }
  parts.compare.hidden = !compare;
  parts.compare.style.minHeight = compare && !compared ? '400px' : '';
}
