// The same attention matrix drawn as the alignment figures of Bahdanau et
// al. (2015) and Seq2Seq-Vis: source words along the top, output words along
// the bottom, and a line from output word t to source word i whose strength
// is a_ti. Pointing at a word keeps only its lines. A sentence too long for
// one line of its box (options.width) is drawn standing: the source words
// down the left, the output words down the right, the lines across, so that
// every word stays readable at any width (a phone, a 26-word sentence).
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
const MARGIN = 12; // px kept clear at each side, so no label touches the edge
const ROW = 24; // px per word when standing
const MIDDLE = 90; // px at least between the two columns of words when standing
const MIDDLE_MAX = 360; // and at most

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

// Lying (the paper's figure): both sentences on one line each, centred.
function lying(sourceTokens, targetTokens, width) {
  const sourceX = layout(sourceTokens, width);
  const targetX = layout(targetTokens, width);
  const y1 = SOURCE_Y + 8;
  const y2 = TARGET_Y - FONT_SIZE - 2;
  const middle = (y1 + y2) / 2;
  return {
    height: HEIGHT,
    source: (j) => ({ x: sourceX[j], y: SOURCE_Y, anchor: 'middle' }),
    target: (i) => ({ x: targetX[i], y: TARGET_Y, anchor: 'middle' }),
    path: (i, j) => `M ${sourceX[j]} ${y1} C ${sourceX[j]} ${middle}, ${targetX[i]} ${middle}, ${targetX[i]} ${y2}`,
  };
}

// Standing: each sentence down one side, spread over the same height.
function standing(sourceTokens, targetTokens, width) {
  const height = Math.max(sourceTokens.length, targetTokens.length, 2) * ROW + 12;
  const sourceRight = MARGIN + Math.max(0, ...sourceTokens.map(textWidth));
  const targetLeft = width - MARGIN - Math.max(0, ...targetTokens.map(textWidth));
  const yOf = (k, n) => 6 + (k + 0.5) * ((height - 12) / n);
  const x1 = sourceRight + 6;
  const x2 = targetLeft - 6;
  const middle = (x1 + x2) / 2;
  return {
    height,
    source: (j) => ({ x: sourceRight, y: yOf(j, sourceTokens.length) + FONT_SIZE * 0.35, anchor: 'end' }),
    target: (i) => ({ x: targetLeft, y: yOf(i, targetTokens.length) + FONT_SIZE * 0.35, anchor: 'start' }),
    path: (i, j) => {
      const ys = yOf(j, sourceTokens.length);
      const yt = yOf(i, targetTokens.length);
      return `M ${x1} ${ys} C ${middle} ${ys}, ${middle} ${yt}, ${x2} ${yt}`;
    },
  };
}

/**
 * data: { sourceTokens, targetTokens, attention }; options.onLabel(axis, index | null), options.label,
 * options.language (of its own words; default the page's), options.width
 * (px: the box's room; a sentence wider than it stands, see the top)
 * Returns { element, highlight({ row, col }), clear() } like renderHeatmap.
 */
export function renderAlignment({ sourceTokens, targetTokens, attention }, options = {}) {
  const lyingWidth = Math.ceil(Math.max(rowWidth(sourceTokens), rowWidth(targetTokens), 280) + 2 * MARGIN);
  const room = Number.isFinite(options.width) && options.width > 0 ? Math.floor(options.width) : Infinity;
  const stands = lyingWidth > room;
  // Standing, as wide as its room, up to a middle of MIDDLE_MAX: no wider
  // than needed, never narrower than the words and MIDDLE between them.
  const words = 2 * MARGIN + Math.max(0, ...sourceTokens.map(textWidth)) + Math.max(0, ...targetTokens.map(textWidth));
  const width = stands ? Math.ceil(Math.max(words + MIDDLE, Math.min(room, words + MIDDLE_MAX))) : lyingWidth;
  const shape = stands ? standing(sourceTokens, targetTokens, width) : lying(sourceTokens, targetTokens, width);
  const { height } = shape;
  const root = svg('svg', {
    class: 'alignment', 'data-testid': 'attention-lines', 'data-layout': stands ? 'standing' : 'lying',
    width, height, viewBox: `0 0 ${width} ${height}`,
    'font-family': FONT_FAMILY, 'font-size': FONT_SIZE, role: 'img',
    'aria-label': options.label ?? tIn(options.language ?? lang(), 'alignment.label'),
  });
  root.append(svg('rect', { class: 'background', x: 0, y: 0, width, height, fill: '#ffffff' }));
  const lines = svg('g', { class: 'lines', fill: 'none', stroke: LINE_COLOR, 'stroke-linecap': 'round' });
  attention.forEach((row, i) => row.forEach((weight, j) => {
    if (weight < MIN_WEIGHT) return;
    lines.append(svg('path', {
      d: shape.path(i, j),
      'stroke-opacity': Math.min(1, 0.15 + weight).toFixed(3),
      'stroke-width': (0.5 + 4 * weight).toFixed(2),
      'data-row': i, 'data-col': j,
    }));
  }));
  root.append(lines);

  const label = (token, { x, y, anchor }, axis, index) => {
    const { kind, title } = tokenKind(token, options.language);
    const text = svg('text', {
      x, y, 'text-anchor': anchor, class: `label ${kind}`, [`data-${axis}-label`]: index,
      fill: kind === 'unk' ? '#b45309' : kind === 'eos' ? '#6b7280' : '#1f2937', 'font-style': kind ? 'italic' : null,
    }, token);
    if (title) text.append(svg('title', {}, title));
    hoverLabel(text, axis, index, { highlight, clear, onLabel: options.onLabel });
    return text;
  };
  const sourceLabels = sourceTokens.map((token, j) => label(token, shape.source(j), 'col', j));
  const targetLabels = targetTokens.map((token, i) => label(token, shape.target(i), 'row', i));
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
