// The attention matrix as an SVG heatmap: one column per source token, one
// row per target token, one <rect> per cell whose colour is the weight a_ti
// (Bahdanau et al. 2015, eq. 6) the decoder gave source word i when it wrote
// target word t. Each row is a softmax, so it sums to 1.
//
// Shared by the page (app.js) and the embeddable element (embed.js). Colours,
// fonts and label styles are SVG attributes, not CSS, so an exported SVG or
// PNG looks the same as the page; CSS only adds the hover/focus highlight.
import {
  CELL, FONT_FAMILY, FONT_SIZE, LEGEND_BAR, LEGEND_CAPTION_SIZE, SPECIAL_COLOR, TEXT_COLOR, attentionColor, colourBarShapes,
} from '../../dist/figure.js';
import { hoverLabel, svg, tokenKind } from './dom.js';
import { lang, tIn } from './i18n/index.js';

// The measures, inks and colour bar are the package's static figure's
// (dist/figure.js), so the page and the downloaded SVG look alike.
const LABEL_GAP = 8; // px between a label and the grid
const LEGEND_HEIGHT = 46;
const MIN_SCALE = 0.6; // a figure wider than its box shrinks to fit down to this scale, then the box scrolls
const SYNC_CELLS = 3000; // cells drawn at once (a 50 x 60 matrix, beyond most sentences)
const CHUNK_CELLS = 2000; // then this many per animation frame
const UNKNOWN_COLOR = '#b45309';
// "Fit to width" (options.fitWidth): cells shrink to this, no smaller (past
// it the box scrolls again); rows keep a readable height; labels longer
// than FIT_CHARS are cut with "…" (the whole token in their tooltip).
const MIN_FIT_CELL = 6.5;
const MIN_FIT_FONT = 7; // px, the column labels' smallest
const INK = 0.85; // the height of a line's ink (capitals and descenders), in ems: upright labels this wide fit their column
const FIT_ROW = 18;
const FIT_CHARS = 8;

// The colour scale is the package's (dist/figure.js, which also draws the
// static figure the "Download SVG" button saves), so the page and the
// downloaded figure colour a weight alike.
/** The colour of an attention weight in [0, 1], as a CSS rgb() string. */
export const colorFor = attentionColor;

// WCAG's relative luminance of an "rgb(r, g, b)" colour.
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+/g).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
/** The dark text on a light cell (black: the scale's middle shades need all of its contrast). */
export const DARK_TEXT = '#000';
const DARK_TEXT_LUMINANCE = 0;

/**
 * Whether text on a cell of this weight should be white: whichever of white
 * and black contrasts more with the cell's own colour (WCAG's ratio; at
 * least 4.8:1 at every weight, tests/js/figure-contrast.test.mjs), so no
 * shade in the middle of the scale gets text it cannot carry.
 */
export function needsLightText(weight) {
  const l = luminance(colorFor(weight));
  return 1.05 / (l + 0.05) > (l + 0.05) / (DARK_TEXT_LUMINANCE + 0.05);
}

let measureContext = null;
function textWidth(text) {
  measureContext ??= document.createElement('canvas').getContext('2d');
  if (!measureContext) return text.length * FONT_SIZE * 0.62;
  measureContext.font = `${FONT_SIZE}px ${FONT_FAMILY}`;
  return measureContext.measureText(text).width;
}

// A token label: text plus, for <unk>, a dashed box so it stands out even in
// an exported grey-scale image, and a <title> tooltip explaining it.
function tokenLabel(token, { anchor, index, axis, language, shown = token, fontSize = null }) {
  const { kind, title } = tokenKind(token, language);
  const width = textWidth(shown) * ((fontSize ?? FONT_SIZE) / FONT_SIZE);
  const group = svg('g', { class: `label ${axis}-label ${kind}`, [`data-${axis}-label`]: index });
  if (kind === 'unk') {
    const x = anchor === 'end' ? -width - 3 : -3;
    group.append(svg('rect', {
      x, y: -FONT_SIZE + 1, width: width + 6, height: FONT_SIZE + 5, rx: 3,
      fill: '#fffbeb', stroke: UNKNOWN_COLOR, 'stroke-dasharray': '3 2',
    }));
  }
  group.append(svg('text', {
    'text-anchor': anchor,
    fill: kind === 'unk' ? UNKNOWN_COLOR : kind === 'eos' ? SPECIAL_COLOR : TEXT_COLOR,
    'font-style': kind ? 'italic' : null,
    'font-size': fontSize,
  }, shown));
  // A shortened label (fit to width) says its whole token in its tooltip.
  const tooltip = [shown !== token ? token : null, title].filter(Boolean).join(' · ');
  if (tooltip) group.append(svg('title', {}, tooltip));
  return group;
}

/**
 * Draws the heatmap of one translation.
 * data: { sourceTokens: string[S], targetTokens: string[T], attention: number[T][S] }
 * options: {
 *   label: accessible description,
 *   onHover(cell | null): cell = { row, col, weight } when a cell is hovered or focused,
 *   onLabel(axis, index | null): a row or column label is hovered,
 *   testid: data-testid of the <svg> (default 'attention-heatmap'),
 *   language: of its own words (legend, tooltips; default the page's, web/figures/i18n/),
 *   fitWidth: px; when given, the cells shrink so the whole matrix fits this
 *     width (down to MIN_FIT_CELL), the column labels stand upright and long
 *     labels are shortened, their whole token in a tooltip ("fit to width"),
 * }
 * The label groups are drawn over the cells, each on a white backdrop, so
 * that they can be kept in sight while the figure scrolls (figure-scroll.js
 * moves them; the svg's data-grid-* attributes give it the geometry).
 * Returns { element, highlight({row, col}) , clear() }.
 */
export function renderHeatmap({ sourceTokens, targetTokens, attention }, options = {}) {
  const S = sourceTokens.length;
  const T = targetTokens.length;
  const language = options.language ?? lang();
  const fit = Number.isFinite(options.fitWidth) && options.fitWidth > 0;
  const short = (token) => (fit && [...token].length > FIT_CHARS ? `${[...token].slice(0, FIT_CHARS - 1).join('')}…` : token);
  const sourceShown = sourceTokens.map(short);
  const targetShown = targetTokens.map(short);
  const rowLabelWidth = Math.max(24, ...targetShown.map(textWidth)) + (fit ? LABEL_GAP : LABEL_GAP + 8);
  const legendTitle = tIn(language, 'heatmap.legend');
  const legendWidth = LEGEND_BAR + 10 + textWidth(legendTitle) * (LEGEND_CAPTION_SIZE / FONT_SIZE) + 4;
  const left = rowLabelWidth;
  // Cells: CELL square, or (fit) as wide as the box allows and FIT_ROW tall.
  const cellW = fit ? Math.max(MIN_FIT_CELL, Math.min(CELL, Math.floor((8 * (options.fitWidth - left - 4)) / Math.max(1, S)) / 8)) : CELL;
  const cellH = fit ? Math.max(cellW, FIT_ROW) : CELL;
  // Column labels are rotated -45°: their height and their overhang to the
  // right are both width / √2 (plus the glyphs' own height, which the
  // rotation tips up and right too). Fitted, they stand upright (-90°), in
  // a font no taller than a column is wide, and overhang nothing.
  const colFont = fit ? Math.max(MIN_FIT_FONT, Math.min(FONT_SIZE, Math.floor(cellW / INK))) : null;
  const colLabelWidth = Math.max(24, ...sourceShown.map(textWidth)) * ((colFont ?? FONT_SIZE) / FONT_SIZE) + 8;
  const diagonal = fit ? colLabelWidth : colLabelWidth / Math.SQRT2 + FONT_SIZE * 0.7;
  const overhang = fit ? 2 : diagonal;
  const top = diagonal + LABEL_GAP + 6;
  const gridWidth = S * cellW;
  const gridHeight = T * cellH;
  // The colour bar starts under the grid, or further left when a fitted
  // figure would otherwise be wider than its box.
  const legendX = fit ? Math.max(4, Math.min(left, options.fitWidth - legendWidth - 4)) : left;
  const width = Math.ceil(Math.max(left + gridWidth + overhang, legendX + legendWidth) + (fit ? 0 : 8));
  const height = Math.ceil(top + gridHeight + LEGEND_HEIGHT + 8);

  const root = svg('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    class: 'heatmap',
    'data-testid': options.testid ?? 'attention-heatmap',
    'data-rows': T,
    'data-cols': S,
    width, height, viewBox: `0 0 ${width} ${height}`,
    // Natural size, or the box's width when narrower (a phone), down to
    // MIN_SCALE; past that the box scrolls, so a long sentence's cells stay
    // readable.
    style: `width: min(100%, ${width}px); min-width: ${Math.ceil(width * (fit ? 1 : MIN_SCALE))}px; height: auto;`,
    'data-fit': String(fit),
    'data-grid-left': left, 'data-grid-top': top, 'data-grid-width': gridWidth, 'data-grid-height': gridHeight,
    'data-cell-width': cellW, 'data-cell-height': cellH,
    'font-family': FONT_FAMILY,
    'font-size': FONT_SIZE,
    role: 'group',
    'aria-label': options.label ?? tIn(language, 'heatmap.label', { rows: T, cols: S }),
  });
  root.append(svg('rect', { class: 'background', x: 0, y: 0, width, height, fill: '#ffffff' }));

  const columnLabels = sourceTokens.map((token, j) => {
    const label = tokenLabel(token, { anchor: 'start', index: j, axis: 'col', language, shown: sourceShown[j], fontSize: colFont });
    label.setAttribute('transform', fit
      ? `translate(${left + j * cellW + cellW / 2 + colFont * 0.35}, ${top - LABEL_GAP}) rotate(-90)`
      : `translate(${left + j * cellW + cellW / 2 + 4}, ${top - LABEL_GAP}) rotate(-45)`);
    return label;
  });
  const rowLabels = targetTokens.map((token, i) => {
    const label = tokenLabel(token, { anchor: 'end', index: i, axis: 'row', language, shown: targetShown[i] });
    label.setAttribute('transform', `translate(${left - LABEL_GAP}, ${top + i * cellH + cellH / 2 + FONT_SIZE * 0.35})`);
    return label;
  });
  // The tokens are the model's and the reader's: translate="no" (the i18n
  // tests skip them). Each group on a white backdrop, drawn over the cells
  // below (appended after them), with a corner over both.
  const backdrop = (x, y, w, hgt) => svg('rect', { class: 'label-backdrop', x, y, width: w, height: hgt, fill: '#ffffff' });
  const rowGroup = svg('g', { class: 'row-labels', translate: 'no' }, [backdrop(0, top - 1, left - 1, gridHeight + 2), ...rowLabels]);
  const colGroup = svg('g', { class: 'col-labels', translate: 'no' }, [backdrop(0, 0, width, top - 2), ...columnLabels]);
  const corner = svg('rect', { class: 'label-corner', x: 0, y: 0, width: left - 1, height: top - 2, fill: '#ffffff' });

  // Cells, row by row. Few attributes per cell, since a long input makes tens
  // of thousands; the tab stop and the spoken label are added as focus moves.
  // Past SYNC_CELLS the remaining rows are added a chunk per frame, so a huge
  // matrix never freezes the page; data-complete marks the end.
  const cells = [];
  // Out of the tab order itself (Chromium made the group a stop of its own,
  // unnamed, before the first cell): the cells are the grid's one stop.
  const grid = svg('g', { class: 'cells', tabindex: '-1' });
  const addRow = (i) => {
    const row = [];
    for (let j = 0; j < S; j += 1) {
      const weight = attention[i]?.[j] ?? 0;
      const cell = svg('rect', {
        class: 'cell',
        x: left + j * cellW, y: top + i * cellH, width: cellW - 1, height: cellH - 1,
        fill: colorFor(weight),
        'data-row': i, 'data-col': j, 'data-weight': weight,
      });
      row.push(cell);
    }
    cells.push(row);
    grid.append(...row);
  };
  let nextRow = 0;
  while (nextRow < T && (nextRow + 1) * S <= SYNC_CELLS) addRow(nextRow++);
  if (nextRow === 0 && T > 0) addRow(nextRow++);
  const finish = () => {
    if (nextRow >= T) {
      root.setAttribute('data-complete', 'true');
      return;
    }
    const until = Math.min(T, nextRow + Math.max(1, Math.floor(CHUNK_CELLS / Math.max(1, S))));
    while (nextRow < until) addRow(nextRow++);
    requestAnimationFrame(finish);
  };
  if (nextRow >= T) root.setAttribute('data-complete', 'true');
  else requestAnimationFrame(finish);
  root.append(grid);
  const cellOf = (target) => (target?.classList?.contains('cell')
    ? { row: Number(target.dataset.row), col: Number(target.dataset.col), weight: attention[target.dataset.row]?.[target.dataset.col] ?? 0 }
    : null);
  const describe = (cell) => {
    const { row, col, weight } = cellOf(cell);
    cell.setAttribute('role', 'img');
    cell.setAttribute('aria-label', tIn(language, 'heatmap.cell', { target: targetTokens[row], source: sourceTokens[col], weight: weight.toFixed(2) }));
  };
  if (cells[0]?.[0]) {
    cells[0][0].setAttribute('tabindex', 0);
    describe(cells[0][0]);
  }

  // Highlight overlays: a translucent band over the row and the column and a
  // ring around the cell. They ignore the pointer so hovering still hits cells.
  const rowBand = svg('rect', { class: 'band', x: left - 2, width: gridWidth + 3, height: cellH + 1, visibility: 'hidden' });
  const colBand = svg('rect', { class: 'band', y: top - 2, width: cellW + 1, height: gridHeight + 3, visibility: 'hidden' });
  const ring = svg('rect', { class: 'ring', width: cellW + 1, height: cellH + 1, visibility: 'hidden' });
  root.append(rowBand, colBand, ring);
  root.append(rowGroup, colGroup, corner);

  root.append(legend(legendX, top + gridHeight + 14, legendTitle));

  function clear() {
    for (const element of [rowBand, colBand, ring]) element.setAttribute('visibility', 'hidden');
    root.querySelectorAll('.label.active').forEach((label) => label.classList.remove('active'));
  }

  /** Highlights a row, a column, or a cell (both). */
  function highlight({ row = null, col = null } = {}) {
    clear();
    if (row !== null && row < T) {
      rowBand.setAttribute('y', top + row * cellH - 1);
      rowBand.setAttribute('visibility', 'visible');
      rowLabels[row].classList.add('active');
    }
    if (col !== null && col < S) {
      colBand.setAttribute('x', left + col * cellW - 1);
      colBand.setAttribute('visibility', 'visible');
      columnLabels[col].classList.add('active');
    }
    if (row !== null && col !== null && row < T && col < S) {
      ring.setAttribute('x', left + col * cellW - 1);
      ring.setAttribute('y', top + row * cellH - 1);
      ring.setAttribute('visibility', 'visible');
    }
  }

  const show = (cell) => {
    if (cell) highlight(cell);
    else clear();
    options.onHover?.(cell);
  };

  grid.addEventListener('pointerover', (event) => show(cellOf(event.target)));
  grid.addEventListener('focusin', (event) => show(cellOf(event.target)));
  root.addEventListener('pointerleave', () => {
    // Back to the focused cell, if any (keyboard users keep their place).
    const focused = root.getRootNode().activeElement;
    show(grid.contains(focused) ? cellOf(focused) : null);
  });
  grid.addEventListener('focusout', (event) => {
    if (!grid.contains(event.relatedTarget)) show(null);
  });
  for (const [axis, labels] of [['row', rowLabels], ['col', columnLabels]]) {
    labels.forEach((label, index) => hoverLabel(label, axis, index, { highlight, clear, onLabel: options.onLabel }));
  }

  // Keyboard: one tab stop for the whole grid (roving tabindex); the arrow
  // keys move between cells, Home and End to the first and last cell of the
  // row, Ctrl+Home and Ctrl+End (⌘ on a Mac) to the first and last cell of
  // the grid, Page Up and Page Down to the first and last row (as an ARIA grid).
  grid.addEventListener('keydown', (event) => {
    const at = cellOf(event.target);
    if (!at || event.altKey) return;
    let { row, col } = at;
    const whole = event.ctrlKey || event.metaKey;
    switch (event.key) {
      case 'ArrowLeft': col = Math.max(0, col - 1); break;
      case 'ArrowRight': col = Math.min(S - 1, col + 1); break;
      case 'ArrowUp': row = Math.max(0, row - 1); break;
      case 'ArrowDown': row = Math.min(T - 1, row + 1); break;
      case 'Home': col = 0; if (whole) row = 0; break;
      case 'End': col = S - 1; if (whole) row = T - 1; break;
      case 'PageUp': row = 0; break;
      case 'PageDown': row = T - 1; break;
      default: return;
    }
    event.preventDefault();
    const next = cells[row]?.[col];
    if (!next) return; // a row still being drawn
    event.target.removeAttribute('tabindex');
    next.setAttribute('tabindex', 0);
    describe(next);
    next.focus();
  });

  return { element: root, highlight, clear };
}

// The colour scale's legend (the static figure's colour bar).
function legend(x, y, title) {
  return svg('g', { class: 'legend', transform: `translate(${x}, ${y})`, 'aria-hidden': 'true' },
    colourBarShapes(title).map(([tag, attributes, text]) => svg(tag, attributes, text)));
}

/** CSS for the heatmap's interactive states (page and Shadow DOM alike). */
export const HEATMAP_CSS = `
.heatmap { display: block; max-width: none; touch-action: pan-x pan-y; }
.heatmap .cell { cursor: crosshair; outline: none; }
.heatmap .band { fill: none; stroke: #f59e0b; stroke-width: 1.5; stroke-dasharray: 4 3; pointer-events: none; }
.heatmap .ring { fill: none; stroke: #f59e0b; stroke-width: 2.5; pointer-events: none; }
.heatmap .label { cursor: default; }
.heatmap .label.active text { font-weight: 700; fill: #b45309; }
.heatmap .cell:focus-visible { stroke: #111827; stroke-width: 2; }
`;

/** The heatmap as a standalone SVG file (a Blob), without highlight state. */
export function svgBlob(element) {
  const copy = element.cloneNode(true);
  copy.querySelectorAll('.band, .ring').forEach((overlay) => overlay.remove());
  copy.classList.remove('focused');
  copy.removeAttribute('style');  // the page's fit to its box
  copy.querySelectorAll('.active, .on').forEach((node) => node.classList.remove('active', 'on'));
  copy.querySelectorAll('[tabindex]').forEach((node) => node.removeAttribute('tabindex'));
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
  return new Blob([text], { type: 'image/svg+xml' });
}

/**
 * A figure rendered to a PNG Blob at `scale` × its size (sharp on high-DPI
 * screens): `figure` is the page's <svg> element, or a standalone SVG
 * document as text (the package's heatmapSvg, with its sentence and axes).
 */
export async function pngBlob(figure, scale = 2) {
  const text = typeof figure === 'string' ? figure : null;
  const size = (name) => Number(text ? text.match(new RegExp(`<svg[^>]*\\s${name}="([0-9.]+)"`))?.[1] : figure.getAttribute(name));
  const width = size('width');
  const height = size('height');
  const url = URL.createObjectURL(text ? new Blob([text], { type: 'image/svg+xml' }) : svgBlob(figure));
  try {
    const image = new Image();
    image.decoding = 'sync';
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error(tIn(lang(), 'error.pngDraw')));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext('2d');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise((resolve, reject) => canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error(tIn(lang(), 'error.pngEncode')))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
