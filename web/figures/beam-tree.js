// Two small figures of the step-through section: the coverage row under the
// heatmap (Σ_t a_ti per source token, low ones flagged as possibly dropped)
// and the beam search tree (kept and pruned candidates per step with their
// scores; a kept node opens that hypothesis's attention row).
import { h, pieceLabel, svg, replaceChildren } from './dom.js';
import { colorFor, DARK_TEXT, needsLightText } from './heatmap.js';
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
    h('span', { class: 'coverage-value', style: `background:${colorFor(shade)};color:${needsLightText(shade) ? '#fff' : DARK_TEXT}` }, value.toFixed(2)),
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

// Which folds of pruned candidates the reader opened, per tree (a result's);
// ALL: every pruned candidate shown, no folds (the "show every candidate" switch).
const opened = new WeakMap();
const ALL = 'all';

// The rows of each step: a parent's children together, in the order of
// their parents' rows (so that edges seldom cross), each group's kept
// candidates first, then its pruned ones folded into one row "+N pruned"
// (unless the reader opened it, or there is just one). A beam of 8 weighs
// 64 candidates a step, 56 of them pruned: folded, a step takes about 16
// rows instead of 64. Returns per step { rows: [{ index } | { fold }], at:
// Map(index → row) }.
function layoutRows(tree, open) {
  const steps = [];
  tree.forEach((column, step) => {
    const parentRow = (parent) => (parent < 0 ? 0 : steps[step - 1].at.get(parent) ?? Infinity);
    const groups = new Map();
    column.forEach((node, index) => {
      if (!groups.has(node.parent)) groups.set(node.parent, { kept: [], pruned: [] });
      groups.get(node.parent)[node.kept ? 'kept' : 'pruned'].push(index);
    });
    const rows = [];
    const at = new Map();
    const place = (index) => {
      at.set(index, rows.length);
      rows.push({ index });
    };
    for (const [parent, { kept, pruned }] of [...groups].sort((a, b) => parentRow(a[0]) - parentRow(b[0]))) {
      kept.forEach(place);
      if (pruned.length < 2 || open.has(ALL)) {
        pruned.forEach(place);
        continue;
      }
      const key = `${step}:${parent}`;
      const isOpen = open.has(key);
      rows.push({ fold: { key, parent, nodes: pruned, open: isOpen } });
      if (isOpen) pruned.forEach(place);
    }
    steps.push({ rows, at });
  });
  return steps;
}

/**
 * The beam tree: `tree` is the API's beamTree (one array of candidates per
 * step; each { token, parent, score, kept, attention? }). Kept nodes are
 * buttons: onPick(step, index, node) when chosen. `selected` is the
 * [step, index] shown. Pruned siblings are folded (layoutRows): their row
 * is a button that opens (and closes) the fold.
 */
export function renderBeamTree(container, tree, { onPick, selected = null }) {
  if (!tree?.length) {
    container.hidden = true;
    replaceChildren(container);
    return;
  }
  container.hidden = false;
  if (!opened.has(tree)) opened.set(tree, new Set());
  const open = opened.get(tree);
  const layout = layoutRows(tree, open);
  const rows = Math.max(...layout.map((step) => step.rows.length));
  const width = COLUMN * (tree.length + 1) + 20;
  const height = ROW * rows + 20;
  const y = (row) => 16 + row * ROW;
  const x = (step) => 10 + COLUMN * (step + 1);
  const edges = [];
  const nodes = [svg('g', { class: 'beam-root' }, svg('circle', { cx: 10, cy: y(0), r: 5 }),
    svg('text', { x: 18, y: y(0) + 4 }, '<bos>'))];
  const parentPoint = (step, parent) => (parent < 0 ? [10, y(0)] : [x(step - 1), y(layout[step - 1].at.get(parent))]);
  const drawFold = (step, rowIndex, row) => {
    const { key, parent, nodes: folded, open: isOpen } = row.fold;
    const [parentX, parentY] = parentPoint(step, parent);
    if (!isOpen) edges.push(svg('path', { d: `M${parentX + LABEL_SPACE} ${parentY} L${x(step) - 6} ${y(rowIndex)}`, fill: 'none', class: 'pruned' }));
    const tokens = folded.slice(0, 4).map((index) => pieceLabel(tree[step][index].token)).join(', ') + (folded.length > 4 ? ', …' : '');
    // The name starts with the words on screen (axe-core's label-content-name-mismatch).
    const shown = t(isOpen ? 'beam.foldOpen' : 'beam.fold', { count: folded.length });
    const label = `${shown}: ${t('beam.foldLabel', { step: step + 1, tokens })}`;
    const toggle = () => {
      if (isOpen) open.delete(key);
      else open.add(key);
      renderBeamTree(container, tree, { onPick, selected }); // keeps the focus on this fold
    };
    const group = svg('g', {
      // The page's words (the count), unlike the nodes around it.
      translate: 'yes',
      class: `beam-fold${isOpen ? ' open' : ''}`, 'data-testid': 'beam-fold', 'data-fold': key, 'data-count': String(folded.length),
      tabindex: '0', role: 'button', 'aria-expanded': String(isOpen), 'aria-label': label,
    },
    svg('title', {}, label),
    svg('rect', { x: x(step) - 6, y: y(rowIndex) - 9, width: 12, height: 12, rx: 2 }),
    // A plus (folded) or a minus (open) drawn in the box.
    svg('path', { class: 'beam-fold-mark', d: `M${x(step) - 3} ${y(rowIndex) - 3}h6${isOpen ? '' : `M${x(step)} ${y(rowIndex) - 6}v6`}` }),
    svg('text', { x: x(step) + 10, y: y(rowIndex) + 4 }, shown));
    group.addEventListener('click', toggle);
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        toggle();
      }
    });
    return group;
  };
  const drawNode = (step, rowIndex, index) => {
    const node = tree[step][index];
    const [parentX, parentY] = parentPoint(step, node.parent);
    // From the right of the parent's label (tokens are cut to 9 characters) to the node, clear of the text.
    const start = parentX + LABEL_SPACE;
    edges.push(svg('path', {
      d: `M${start} ${parentY} L${x(step) - 6} ${y(rowIndex)}`, fill: 'none', class: node.kept ? 'kept' : 'pruned',
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
    svg('circle', { cx: x(step), cy: y(rowIndex), r: 5 }),
    svg('text', { x: x(step) + 8, y: y(rowIndex) + 4 }, visible),
    svg('text', { x: x(step) + 8, y: y(rowIndex) + 15, class: 'beam-score' }, formatLog(node.score, 2)));
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
    return group;
  };
  // Step by step, row by row: the keyboard meets them in the order they are seen.
  layout.forEach(({ rows: stepRows }, step) => stepRows.forEach((row, rowIndex) => {
    nodes.push(row.fold ? drawFold(step, rowIndex, row) : drawNode(step, rowIndex, row.index));
  }));
  const figure = svg('svg', {
    class: 'beam-tree', width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': t('beam.treeLabel', { steps: tree.length }),
    'data-testid': 'beam-tree', 'data-rows': String(rows),
  },
  // The tokens are the model's output (translate="no"); the nodes' titles say what they are.
  svg('g', { class: 'edges' }, edges), svg('g', { translate: 'no' }, nodes));
  // Drawn again (a fold opened, the twin's arrival, a pick): a reader on a
  // fold or a node keeps the focus there.
  const active = container.contains(document.activeElement) ? document.activeElement : null;
  const focused = active?.dataset?.fold ? `[data-fold="${active.dataset.fold}"]`
    : active?.dataset?.step ? `[data-step="${active.dataset.step}"][data-index="${active.dataset.index}"]` : null;
  const all = open.has(ALL);
  const showAll = h('button', { type: 'button', class: 'beam-all', 'data-testid': 'beam-show-all', 'aria-pressed': String(all) }, t('beam.showAll'));
  showAll.addEventListener('click', () => {
    if (all) open.clear();
    else open.add(ALL);
    renderBeamTree(container, tree, { onPick, selected });
    container.querySelector('[data-testid="beam-show-all"]')?.focus();
  });
  replaceChildren(container, h('h4', {}, t('beam.heading')), h('p', { class: 'hint' }, t('beam.explain')), showAll,
    h('div', { class: 'beam-scroll' }, figure));
  if (focused) container.querySelector(focused)?.focus({ preventScroll: true });
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
.beam-fold { cursor: pointer; }
.beam-all { font-size: 13px; margin: 0 0 6px; }
.beam-all[aria-pressed="true"] { background: #1d4ed8; color: #fff; }
.beam-fold rect { fill: #fff; stroke: #64748b; }
.beam-fold text { fill: #475569; }
.beam-fold .beam-fold-mark { fill: none; stroke: #475569; stroke-width: 1.5; }
.beam-fold:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.node-attention { list-style: none; padding: 0; }
.node-attention li { display: flex; align-items: center; gap: .4rem; }
`;
