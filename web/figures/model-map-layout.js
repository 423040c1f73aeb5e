// Where the model map's parts go (model-map.js draws them): one column of
// boxes from the source tokens down to the output token, the query beside
// the score (on a phone: above it), a lane on the left for the values (the
// encoder states again, into the context; on a phone the keys too) and one
// on the right for the decoder's state, which becomes the next step's query. Text is measured and wrapped to the width
// given, so the map fits a phone (about 320 px) as well as a desktop.
// Pure geometry: no DOM except the measuring canvas of measureWith().

const PAD = 6;            // inside a box
const TITLE = { size: 13, weight: 600, line: 17 };
const NOTE = { size: 12, weight: 400, line: 16 };
const ARROW = 16;         // between two boxes
const LANE = 14;          // the values' lane on the left
const CHIP = { size: 12, height: 18, gap: 3, pad: 8 };
const MAX_CHIP_LINES = 2;

/**
 * A function measuring text in the page's font (a canvas), with a little
 * slack for the difference between canvas and SVG text; without a canvas,
 * an estimate.
 */
export function measureWith(fontFamily) {
  const context = globalThis.document?.createElement('canvas').getContext?.('2d');
  return (text, { size, weight }) => {
    if (!context) return text.length * size * 0.62;
    context.font = `${weight} ${size}px ${fontFamily}`;
    return Math.ceil(context.measureText(text).width * 1.04) + 1;
  };
}

// Breakable units: a CJK character, or a run of other characters with the spaces after it.
const UNITS = /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]+\s*|\s+/g;

/** `text` as lines no wider than `width` (a unit wider than that is cut by character). */
export function wrap(text, width, font, measure) {
  const lines = [];
  let line = '';
  for (const unit of text.match(UNITS) ?? []) {
    if (measure((line + unit).trimEnd(), font) <= width) {
      line += unit;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = '';
    for (const char of unit.trimEnd().length && measure(unit.trimEnd(), font) > width ? [...unit] : [unit]) {
      if (line && measure((line + char).trimEnd(), font) > width) {
        lines.push(line.trimEnd());
        line = '';
      }
      line += char;
    }
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

// The text lines of a part, placed from (x, y): its title, then its note on
// the same line when both fit, else on lines of their own.
function textLines(part, x, y, width, measure) {
  const lines = [];
  const titleWidth = measure(part.titleText, TITLE);
  const noteWidth = part.noteText ? measure(part.noteText, NOTE) : 0;
  if (part.noteText && titleWidth + 10 + noteWidth <= width) {
    lines.push({ text: part.titleText, title: true, x, y: y + TITLE.size });
    lines.push({ text: part.noteText, x: x + titleWidth + 10, y: y + TITLE.size, formula: part.formula });
    return { lines, height: TITLE.line };
  }
  let at = y;
  for (const text of wrap(part.titleText, width, TITLE, measure)) {
    lines.push({ text, title: true, x, y: at + TITLE.size });
    at += TITLE.line;
  }
  for (const text of part.noteText ? wrap(part.noteText, width, NOTE, measure) : []) {
    lines.push({ text, x, y: at + NOTE.size, formula: part.formula });
    at += NOTE.line;
  }
  return { lines, height: at - y };
}

// Squares and bars: one per item, as wide as the row allows (at most 12 px).
function gridCells(kind, count, x, y, width) {
  let gap = 2;
  let size = Math.min(12, (width + gap) / Math.max(1, count) - gap);
  if (size < 3) {
    gap = 0;
    size = width / Math.max(1, count);
  }
  const height = kind === 'bars' ? 16 : Math.max(6, Math.min(12, size));
  const cells = Array.from({ length: count }, (_, index) => ({ index, x: x + index * (size + gap), y, width: size, height }));
  return { cells, height };
}

// Chips: one per token, wrapped; when they need more than MAX_CHIP_LINES
// lines, a window of them around the lit one, with … for what is left out.
function chipCells(items, x, y, width, measure) {
  const widths = items.map((item) => Math.min(width, Math.max(14, measure(item.label, { size: CHIP.size, weight: 700 }) + CHIP.pad)));
  const gapWidth = 14;
  const flow = (lo, hi) => {
    const seq = [...(lo > 0 ? [{ gap: true, width: gapWidth }] : []),
      ...widths.slice(lo, hi + 1).map((w, k) => ({ index: lo + k, width: w })),
      ...(hi < items.length - 1 ? [{ gap: true, width: gapWidth }] : [])];
    let cx = x, line = 0;
    const cells = [];
    for (const cell of seq) {
      if (cx > x && cx + cell.width > x + width) {
        cx = x;
        line += 1;
      }
      cells.push({ ...cell, x: cx, y: y + line * (CHIP.height + CHIP.gap), height: CHIP.height });
      cx += cell.width + CHIP.gap;
    }
    return { cells, lines: line + 1 };
  };
  if (!items.length) return { cells: [], height: CHIP.height };
  let lo = 0, hi = items.length - 1;
  let best = flow(lo, hi);
  if (best.lines > MAX_CHIP_LINES) {
    const focus = Math.max(0, items.findIndex((item) => item.lit));
    lo = hi = focus;
    best = flow(lo, hi);
    for (let grew = true; grew;) {
      grew = false;
      for (const [a, b] of [[lo, hi + 1], [lo - 1, hi]]) {
        if (a < 0 || b >= items.length) continue;
        const next = flow(a, b);
        if (next.lines <= MAX_CHIP_LINES) {
          [lo, hi, best, grew] = [a, b, next, true];
        }
      }
    }
  }
  return { cells: best.cells, height: best.lines * (CHIP.height + CHIP.gap) - CHIP.gap };
}

// A part's box at (x, y), `width` wide: its text lines and its cells.
function placePart(part, x, y, width, measure) {
  const inner = width - 2 * PAD;
  const text = textLines(part, x + PAD, y + PAD, inner, measure);
  let height = PAD + text.height;
  let cellRow = null;
  if (part.cells) {
    const top = y + height + 4;
    cellRow = part.cells.kind === 'chips' ? chipCells(part.cells.items, x + PAD, top, inner, measure)
      : gridCells(part.cells.kind, part.cells.items.length, x + PAD, top, inner);
    height += 4 + cellRow.height;
  }
  return { ...part, box: { x, y, width, height: height + PAD }, lines: text.lines, cellRow };
}

/**
 * Places `parts` (in order, each with titleText, noteText, cells, side) in a
 * map `width` px wide. Returns { width, height, parts (each with box, lines,
 * cellRow), arrows: [{ d, dashed }] }.
 */
export function layoutMap(parts, { width, measure, fixed }) {
  // Wide: the query beside the score. Narrow (a phone): every part in the
  // column, full width, and the decoder's state back to the query in a lane
  // on the right.
  const beside = !fixed && width >= 520;
  const sideWidth = beside ? Math.round(Math.max(140, Math.min(210, width * 0.24))) : 0;
  const gap = beside ? 32 : fixed ? 0 : LANE;
  const mainX = fixed ? 1 : LANE;
  const mainWidth = width - 1 - mainX - sideWidth - gap;
  const sideX = width - 1 - sideWidth;
  const placed = [];
  let y = 1;
  let side = null;
  for (const part of parts) {
    if (part.side && beside) {
      side = part;
      continue;
    }
    const main = { ...placePart(part, mainX, y, mainWidth, measure), side: false };
    if (side) {
      const next = placePart(side, sideX, y, sideWidth, measure);
      const height = Math.max(main.box.height, next.box.height);
      main.box.height = next.box.height = height;
      placed.push(next);
      side = null;
    }
    placed.push(main);
    y += main.box.height + ARROW;
  }
  const byName = Object.fromEntries(placed.map((p) => [p.name, p]));
  const mid = (p) => p.box.y + p.box.height / 2;
  const arrows = [];
  const column = placed.filter((p) => !p.side);
  const centre = mainX + mainWidth / 2;
  for (let k = 1; k < column.length; ++k) {
    if (column[k].name === 'query') continue; // the query comes from the decoder, not from the part above it
    arrows.push({ d: `M${centre},${column[k - 1].box.y + column[k - 1].box.height} L${centre},${column[k].box.y - 1}` });
  }
  const { query, score, decoder, states, context } = byName;
  const right = mainX + mainWidth;
  if (query && beside) {
    arrows.push({ d: `M${sideX},${mid(score)} L${right + 1},${mid(score)}` });
    const lane = sideX + sideWidth / 2;
    arrows.push({ d: `M${right},${mid(decoder)} L${lane},${mid(decoder)} L${lane},${query.box.y + query.box.height + 1}`, dashed: true });
  } else if (query) {
    const lane = width - 1 - LANE / 2;
    arrows.push({ d: `M${right},${mid(decoder)} L${lane},${mid(decoder)} L${lane},${mid(query)} L${right + 1},${mid(query)}`, dashed: true });
    arrows.push({ d: `M5,${mid(score)} L${mainX - 1},${mid(score)}` }); // the keys, from the lane of the states
  }
  if (states && context) {
    arrows.push({ d: `M${mainX},${mid(states)} L5,${mid(states)} L5,${mid(context)} L${mainX - 1},${mid(context)}` });
  }
  return { width, height: Math.ceil(y - ARROW + 1), parts: placed, arrows };
}
