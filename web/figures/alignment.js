// The same attention matrix drawn as the alignment figures of Bahdanau et
// al. (2015) and Seq2Seq-Vis: source words along the top, output words along
// the bottom, and a line from output word t to source word i whose strength
// is a_ti. Pointing at a word keeps only its lines.
import { hoverLabel, svg, tokenKind } from './dom.js';
import { lang, tIn } from './i18n/index.js';

const FONT_SIZE = 16;
const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif';
const GAP = 22; // px between words
const HEIGHT = 170;
const SOURCE_Y = 22; // baseline of the source words
const TARGET_Y = HEIGHT - 12; // baseline of the output words
const MIN_WEIGHT = 0.03; // lines below this are not drawn: they would only add noise
const LINE_COLOR = '#4338ca';

let context = null;
function textWidth(text) {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * FONT_SIZE * 0.6;
  context.font = `${FONT_SIZE}px ${FONT_FAMILY}`;
  return context.measureText(text).width;
}

// Centres of words laid out left to right, centred in `width`.
function layout(tokens, width) {
  const widths = tokens.map(textWidth);
  const total = widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, tokens.length - 1);
  let x = (width - total) / 2;
  return widths.map((w) => {
    const center = x + w / 2;
    x += w + GAP;
    return center;
  });
}

function rowWidth(tokens) {
  return tokens.reduce((sum, token) => sum + textWidth(token), 0) + GAP * Math.max(0, tokens.length - 1);
}

/**
 * data: { sourceTokens, targetTokens, attention }; options.onLabel(axis, index | null), options.label,
 * options.language (of its own words; default the page's)
 * Returns { element, highlight({ row, col }), clear() } like renderHeatmap.
 */
export function renderAlignment({ sourceTokens, targetTokens, attention }, options = {}) {
  const width = Math.ceil(Math.max(rowWidth(sourceTokens), rowWidth(targetTokens), 280) + 24);
  const sourceX = layout(sourceTokens, width);
  const targetX = layout(targetTokens, width);
  const root = svg('svg', {
    class: 'alignment', 'data-testid': 'attention-lines', width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`,
    'font-family': FONT_FAMILY, 'font-size': FONT_SIZE, role: 'img',
    'aria-label': options.label ?? tIn(options.language ?? lang(), 'alignment.label'),
  });
  root.append(svg('rect', { class: 'background', x: 0, y: 0, width, height: HEIGHT, fill: '#ffffff' }));
  const lines = svg('g', { class: 'lines', fill: 'none', stroke: LINE_COLOR, 'stroke-linecap': 'round' });
  attention.forEach((row, i) => row.forEach((weight, j) => {
    if (weight < MIN_WEIGHT) return;
    const x1 = sourceX[j];
    const x2 = targetX[i];
    const y1 = SOURCE_Y + 8;
    const y2 = TARGET_Y - FONT_SIZE - 2;
    const middle = (y1 + y2) / 2;
    lines.append(svg('path', {
      d: `M ${x1} ${y1} C ${x1} ${middle}, ${x2} ${middle}, ${x2} ${y2}`,
      'stroke-opacity': Math.min(1, 0.15 + weight).toFixed(3),
      'stroke-width': (0.5 + 4 * weight).toFixed(2),
      'data-row': i, 'data-col': j,
    }));
  }));
  root.append(lines);

  const label = (token, x, y, axis, index) => {
    const { kind, title } = tokenKind(token, options.language);
    const text = svg('text', {
      x, y, 'text-anchor': 'middle', class: `label ${kind}`, [`data-${axis}-label`]: index,
      fill: kind === 'unk' ? '#b45309' : kind === 'eos' ? '#6b7280' : '#1f2937', 'font-style': kind ? 'italic' : null,
    }, token);
    if (title) text.append(svg('title', {}, title));
    hoverLabel(text, axis, index, { highlight, clear, onLabel: options.onLabel });
    return text;
  };
  const sourceLabels = sourceTokens.map((token, j) => label(token, sourceX[j], SOURCE_Y, 'col', j));
  const targetLabels = targetTokens.map((token, i) => label(token, targetX[i], TARGET_Y, 'row', i));
  root.append(svg('g', { translate: 'no' }, sourceLabels), svg('g', { translate: 'no' }, targetLabels));

  function clear() {
    root.classList.remove('focused');
    root.querySelectorAll('.on').forEach((element) => element.classList.remove('on'));
  }

  function highlight({ row = null, col = null } = {}) {
    clear();
    if (row === null && col === null) return;
    root.classList.add('focused');
    for (const path of lines.children) {
      const matches = (row === null || Number(path.dataset.row) === row) && (col === null || Number(path.dataset.col) === col);
      if (matches) path.classList.add('on');
    }
    if (row !== null) targetLabels[row]?.classList.add('on');
    if (col !== null) sourceLabels[col]?.classList.add('on');
  }

  return { element: root, highlight, clear };
}

export const ALIGNMENT_CSS = `
.alignment { display: block; }
.alignment .label { cursor: default; }
.alignment.focused .lines path:not(.on) { stroke-opacity: 0.06; }
.alignment.focused .lines path.on { stroke: #d97706; }
.alignment .label.on { font-weight: 700; fill: #b45309; }
`;
