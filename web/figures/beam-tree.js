// Two small figures of the step-through section: the coverage row under the
// heatmap (Σ_t a_ti per source token, low ones flagged as possibly dropped)
// and the beam search tree (kept and pruned candidates per step with their
// scores; a kept node opens that hypothesis's attention row).
import { h, pieceLabel, svg, replaceChildren } from './dom.js';
import { colorFor, needsLightText } from './heatmap.js';
import { formatLog } from './step-math.js';
import { t } from './i18n/index.js';

/**
 * The coverage row: one cell per source token with its coverage Σ_t a_ti
 * (data-coverage), flagged (data-dropped="true") when the API lists it in
 * possiblyDropped; and a legend.
 */
export function renderCoverage(container, { sourceTokens, coverage, possiblyDropped }) {
  if (!coverage?.length) {
    container.hidden = true;
    replaceChildren(container);
    return;
  }
  container.hidden = false;
  // The list is C++'s (src/decode/dropped.h: coverage under
  // kPossiblyDroppedCoverage but for the words the target language leaves
  // untranslated, and numbers the translation does not write): the page
  // has no rule of its own.
  const low = new Set(possiblyDropped ?? []);
  const cells = sourceTokens.map((piece, i) => {
    const token = pieceLabel(piece);
    const value = coverage[i];
    const dropped = low.has(i);
    const shade = Math.min(1, value);
    return h('li', {
      class: `coverage-cell${dropped ? ' dropped' : ''}`, 'data-testid': 'coverage-cell', 'data-index': String(i),
      'data-coverage': String(value), 'data-dropped': String(dropped), tabindex: '0',
      title: t(dropped ? 'coverage.cellDropped' : 'coverage.cell', { token, value: value.toFixed(2) }),
      'aria-label': t(dropped ? 'coverage.cellDropped' : 'coverage.cell', { token, value: value.toFixed(2) }),
    },
    h('span', { class: 'coverage-token', translate: 'no' }, token),
    h('span', { class: 'coverage-value', style: `background:${colorFor(shade)};color:${needsLightText(shade) ? '#fff' : '#111'}` }, value.toFixed(2)),
    dropped ? h('span', { class: 'coverage-flag', 'aria-hidden': 'true' }, '⚠') : null);
  });
  // Drawn again (a new result, the fixed-context twin's arrival): a reader
  // on a cell keeps the focus there.
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset?.index : undefined;
  replaceChildren(container,
    h('h4', {}, t('coverage.heading')),
    h('ol', { class: 'coverage-row', 'data-testid': 'coverage-row' }, cells),
    h('p', { class: 'hint coverage-legend', 'data-testid': 'coverage-legend' }, '⚠ ', t('coverage.legend')));
  if (focused !== undefined) container.querySelector(`[data-index="${focused}"]`)?.focus({ preventScroll: true });
}

const COLUMN = 100;
const LABEL_SPACE = 62; // a node's circle and label, before its edges to the next step
const ROW = 34;

/**
 * The beam tree: `tree` is the API's beamTree (one array of candidates per
 * step; each { token, parent, score, kept, attention? }). Kept nodes are
 * buttons: onPick(step, index, node) when chosen. `selected` is the
 * [step, index] shown.
 */
export function renderBeamTree(container, tree, { onPick, selected = null }) {
  if (!tree?.length) {
    container.hidden = true;
    replaceChildren(container);
    return;
  }
  container.hidden = false;
  const rows = Math.max(...tree.map((column) => column.length));
  const width = COLUMN * (tree.length + 1) + 20;
  const height = ROW * rows + 20;
  const y = (index) => 16 + index * ROW;
  const x = (step) => 10 + COLUMN * (step + 1);
  const edges = [];
  const nodes = [svg('g', { class: 'beam-root' }, svg('circle', { cx: 10, cy: y(0), r: 5 }),
    svg('text', { x: 18, y: y(0) + 4 }, '<bos>'))];
  tree.forEach((column, step) => column.forEach((node, index) => {
    const parentY = node.parent < 0 ? y(0) : y(node.parent);
    const parentX = node.parent < 0 ? 10 : x(step - 1);
    // From the right of the parent's label (tokens are cut to 9 characters) to the node, clear of the text.
    const start = parentX + LABEL_SPACE;
    edges.push(svg('path', {
      d: `M${start} ${parentY} L${x(step) - 6} ${y(index)}`, fill: 'none', class: node.kept ? 'kept' : 'pruned',
    }));
    const isSelected = selected && selected[0] === step && selected[1] === index;
    const shown = pieceLabel(node.token);
    const visible = shown.length > 9 ? `${shown.slice(0, 8)}…` : shown;
    // The accessible name starts with the text on screen (token, score), so
    // that a reader who speaks what they see finds the node.
    const label = t(node.kept ? 'beam.nodeKept' : 'beam.nodePruned', { token: visible, full: shown, score: formatLog(node.score, 2), step: step + 1 });
    const group = svg('g', {
      // The model's own output (tokens and scores) leads its name: not for a translator of the page.
      translate: 'no',
      class: `beam-node ${node.kept ? 'kept' : 'pruned'}${isSelected ? ' selected' : ''}`, 'data-testid': 'beam-node',
      'data-step': String(step), 'data-index': String(index), 'data-kept': String(node.kept), 'data-score': String(node.score),
      tabindex: node.kept && node.attention ? '0' : null, role: node.kept && node.attention ? 'button' : null, 'aria-label': label,
    },
    svg('title', {}, label),
    svg('circle', { cx: x(step), cy: y(index), r: 5 }),
    svg('text', { x: x(step) + 8, y: y(index) + 4 }, visible),
    svg('text', { x: x(step) + 8, y: y(index) + 15, class: 'beam-score' }, formatLog(node.score, 2)));
    if (node.kept && node.attention) {
      const pick = () => onPick(step, index, node);
      group.addEventListener('click', pick);
      group.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          pick();
        }
      });
    }
    nodes.push(group);
  }));
  const figure = svg('svg', {
    class: 'beam-tree', width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': t('beam.treeLabel', { steps: tree.length }),
    'data-testid': 'beam-tree',
  },
  // The tokens are the model's output (translate="no"); the nodes' titles say what they are.
  svg('g', { class: 'edges' }, edges), svg('g', { translate: 'no' }, nodes));
  replaceChildren(container, h('h4', {}, t('beam.heading')), h('p', { class: 'hint' }, t('beam.explain')),
    h('div', { class: 'beam-scroll' }, figure));
}

/** The attention row of one beam node, as bars over the source tokens. */
export function renderNodeAttention(container, { node, step, sourceTokens }) {
  if (!node) {
    container.hidden = true;
    replaceChildren(container);
    return;
  }
  container.hidden = false;
  replaceChildren(container,
    h('p', {}, t('beam.nodeAttention', { token: pieceLabel(node.token), step: step + 1, score: formatLog(node.score, 2) })),
    h('ol', { class: 'node-attention', 'data-testid': 'beam-node-attention' }, sourceTokens.map((token, i) =>
      h('li', { 'data-weight': String(node.attention[i]) },
        h('span', { class: 'step-token', translate: 'no' }, pieceLabel(token)),
        h('span', { class: 'step-bar', 'aria-hidden': 'true' }, h('span', { class: 'bar-fill', style: `width:${(node.attention[i] * 100).toFixed(2)}%` })),
        h('span', { class: 'step-weight' }, node.attention[i].toFixed(3))))));
}

export const BEAM_CSS = `
.coverage-row { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0; margin: .3rem 0; }
.coverage-cell { display: flex; flex-direction: column; align-items: center; border: 1px solid #e5e7eb; border-radius: 3px; padding: 2px 4px; font-size: .8rem; }
.coverage-cell.dropped { border: 2px dashed #b91c1c; }
.coverage-cell:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.coverage-value { padding: 0 3px; border-radius: 2px; font-variant-numeric: tabular-nums; }
.coverage-flag { color: #b91c1c; }
.beam-scroll { overflow-x: auto; max-width: 100%; }
.beam-tree path.kept { stroke: #1d4ed8; stroke-width: 1.5; }
.beam-tree path.pruned { stroke: #d1d5db; stroke-dasharray: 3 2; }
.beam-tree text { font-size: 11px; fill: #111827; }
.beam-tree .beam-score { font-size: 9px; fill: #6b7280; }
.beam-node.kept circle, .beam-root circle { fill: #1d4ed8; }
.beam-node.pruned circle { fill: #fff; stroke: #9ca3af; }
.beam-node.pruned text { fill: #9ca3af; }
.beam-node[role="button"] { cursor: pointer; }
.beam-node.selected circle { stroke: #111827; stroke-width: 3; }
.node-attention { list-style: none; padding: 0; }
.node-attention li { display: flex; align-items: center; gap: .4rem; }
`;
