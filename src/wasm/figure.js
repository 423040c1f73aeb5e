// The attention heatmap as a standalone SVG document, built as text (no
// DOM): the figure a tutorial prints, puts on a slide or in Markdown, made
// by the bin (`seq2seq-attention figure`) in Node and by the demo page's
// "Download SVG", from the same code. One column per source unit, one row
// per target unit, each cell coloured by the weight a_ti (Bahdanau et al.,
// 2015, eq. 6) the decoder gave source unit i while writing target unit t;
// each row sums to 1. Colours, fonts and sizes are attributes, so the file
// looks the same in any viewer. The page's interactive heatmap
// (web/figures/heatmap.js) takes its colour scale from here.

// A sequential scale from paper white to deep indigo, linear in sRGB between
// stops chosen by eye for even perceived steps; 0 stays visibly blank so
// that sparse (sharp) attention reads as sparse.
const STOPS = [
  [0.0, [248, 250, 252]],
  [0.08, [224, 231, 255]],
  [0.25, [165, 180, 252]],
  [0.5, [99, 102, 241]],
  [0.75, [67, 56, 202]],
  [1.0, [30, 27, 75]],
];

/** The colour of an attention weight in [0, 1], as a CSS rgb() string. */
export function attentionColor(weight) {
  const w = Math.min(1, Math.max(0, Number.isFinite(weight) ? weight : 0));
  for (let k = 1; k < STOPS.length; k += 1) {
    const [w1, c1] = STOPS[k];
    if (w <= w1) {
      const [w0, c0] = STOPS[k - 1];
      const f = (w - w0) / (w1 - w0);
      const c = c0.map((v, n) => Math.round(v + f * (c1[n] - v)));
      return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
    }
  }
  return 'rgb(30, 27, 75)';
}

// The heatmap's measures and inks, the page's (web/figures/heatmap.js) as well.
export const CELL = 34;  // px per cell: a comfortable target for a finger tap
export const FONT_SIZE = 13;
export const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif';
export const TEXT_COLOR = '#1f2937';
export const SPECIAL_COLOR = '#6b7280';  // <eos>, <bos>
export const LEGEND_BAR = 200;  // the colour bar's width; its caption follows at +10
export const LEGEND_CAPTION_SIZE = 11;
const SMALL = LEGEND_CAPTION_SIZE;
const MUTED = '#475569';

/**
 * The colour bar under a heatmap, as [tag, attributes, text] shapes in its
 * own coordinates (0, 0 at its top left), for a DOM or a text renderer to
 * draw: 20 steps from 0 to 1 (plain rects, no gradient to refer to, so an
 * exported file needs no url(#id)), ticks, and `title` after it.
 */
export function colourBarShapes(title) {
  const shapes = [];
  for (let k = 0; k < 20; k += 1) {
    shapes.push(['rect', { x: (k * LEGEND_BAR) / 20, y: 0, width: LEGEND_BAR / 20 + 0.5, height: 10, fill: attentionColor((k + 0.5) / 20) }]);
  }
  shapes.push(['rect', { x: 0, y: 0, width: LEGEND_BAR, height: 10, fill: 'none', stroke: '#cbd5e1' }]);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    shapes.push(['line', { x1: tick * LEGEND_BAR, x2: tick * LEGEND_BAR, y1: 10, y2: 14, stroke: '#64748b' }]);
    shapes.push(['text', { x: tick * LEGEND_BAR, y: 26, 'text-anchor': 'middle', 'font-size': SMALL, fill: MUTED }, String(tick)]);
  }
  shapes.push(['text', { x: LEGEND_BAR + 10, y: 9, 'font-size': SMALL, fill: MUTED }, title]);
  return shapes;
}

/**
 * A label's width in px at `size`, without a font to measure: Han and other
 * wide characters one em, narrow letters and marks a third, capitals 0.7,
 * the rest 0.56 (a sans-serif's average). Generous, so labels never overlap.
 */
export function textWidth(text, size = FONT_SIZE) {
  let em = 0;
  for (const ch of String(text)) {
    const cp = ch.codePointAt(0);
    if (cp >= 0x2e80) em += 1;
    else if (/[ilj.,;:'!|·\s]/.test(ch)) em += 0.3;
    else if (/[A-Z]/.test(ch)) em += 0.7;
    else em += 0.56;
  }
  return em * size;
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const attributes = (attrs) => Object.entries(attrs)
  .filter(([, v]) => v !== undefined && v !== null && v !== false)
  .map(([k, v]) => ` ${k}="${escape(typeof v === 'number' ? +v.toFixed(2) : v)}"`).join('');
const element = (tag, attrs, content = null) => (content === null ? `<${tag}${attributes(attrs)}/>` : `<${tag}${attributes(attrs)}>${content}</${tag}>`);

const isSpecial = (unit) => unit === '<eos>' || unit === '<unk>' || unit === '<bos>';

// The title's lines: the whole title when it fits `maxWidth`, else the
// sentence and (from " → ") its translation on lines of their own, each
// wrapped between words (between characters for Han and other wide
// script), so that a long sentence's figure is no wider than its grid.
const TITLE_SIZE = 15;
const titleWidth = (text) => textWidth(text, TITLE_SIZE) * 1.1;  // bold runs wider than textWidth's average
function titleLines(title, maxWidth) {
  if (!title) return [];
  if (titleWidth(title) <= maxWidth) return [title];
  const lines = [];
  for (const part of title.split(/(?= → )/)) {
    let line = '';
    for (const piece of part.trim().match(/[\u2e80-\uffff]|[^\s\u2e80-\uffff]+\s*|\s+/g) ?? []) {
      if (line.trim() && titleWidth(line + piece) > maxWidth) {
        lines.push(line.trimEnd());
        line = piece.trimStart();
      } else {
        line += piece;
      }
    }
    if (line.trim()) lines.push(line.trimEnd());
  }
  return lines;
}

/**
 * The heatmap of `data` ({ sourceTokens: string[S], targetTokens: string[T],
 * attention: number[T][S] (arrays or Float32Arrays) }) as an SVG document
 * (a string). Options, all text shown as given (the caller's language):
 * title (above, such as the sentence and its translation; wrapped when
 * wider than the grid, see titleLines), cols and
 * rows (the axes' titles), legend (the colour bar's caption), footer (a
 * line under, such as the model and its data's licence), lang (the
 * document's language, for fonts and screen readers). Labels are written
 * as given; the tokens are never translated.
 */
export function heatmapSvg(data, options = {}) {
  const sourceTokens = [...(data?.sourceTokens ?? [])].map(String);
  const targetTokens = [...(data?.targetTokens ?? [])].map(String);
  const attention = data?.attention ?? [];
  const S = sourceTokens.length;
  const T = targetTokens.length;
  const { title = '', cols = '', rows = '', legend = 'attention weight', footer = '', lang = 'en' } = options;

  const margin = 12;
  const rowLabelWidth = Math.max(24, ...targetTokens.map((t) => textWidth(t))) + 16;
  const colLabelWidth = Math.max(24, ...sourceTokens.map((t) => textWidth(t))) + 8;
  // Column labels are rotated -45°: their height and their overhang to the
  // right are both width / √2, plus the glyphs' own height.
  const diagonal = colLabelWidth / Math.SQRT2 + FONT_SIZE * 0.7;
  const rowsTitleWidth = rows ? SMALL + 10 : 0;
  const left = margin + rowsTitleWidth + rowLabelWidth;
  const colsTitleHeight = cols ? SMALL + 8 : 0;
  const gridRight = Math.max(left + S * CELL + diagonal, left + LEGEND_BAR + 10 + textWidth(legend, SMALL) + 4);
  const lines = titleLines(title, Math.max(640, gridRight - margin * 2));
  const titleHeight = lines.length ? 20 * lines.length + 4 : 0;
  const top = margin + titleHeight + colsTitleHeight + diagonal + 14;
  const gridWidth = S * CELL;
  const gridHeight = T * CELL;
  const legendTop = top + gridHeight + 14;
  const legendWidth = LEGEND_BAR + 10 + textWidth(legend, SMALL) + 4;
  const footerTop = legendTop + 40;
  const width = Math.ceil(Math.max(left + gridWidth + diagonal, left + legendWidth, margin * 2 + Math.max(0, ...lines.map(titleWidth)),
    margin * 2 + textWidth(footer, SMALL)) + margin);
  const height = Math.ceil(footerTop + (footer ? 18 : 0) + margin);

  const parts = [];
  parts.push(element('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }));
  lines.forEach((line, k) => parts.push(element('text', { class: 'title', x: margin, y: margin + 16 + 20 * k, 'font-size': TITLE_SIZE,
    'font-weight': 600, fill: TEXT_COLOR }, escape(line))));
  if (cols) {
    parts.push(element('text', { x: left + gridWidth / 2, y: margin + titleHeight + SMALL + 2, 'font-size': SMALL, fill: MUTED,
      'text-anchor': 'middle' }, escape(cols)));
  }
  if (rows) {
    const x = margin + SMALL;
    const y = top + gridHeight / 2;
    parts.push(element('text', { x, y, 'font-size': SMALL, fill: MUTED, 'text-anchor': 'middle', transform: `rotate(-90 ${x} ${y})` },
      escape(rows)));
  }
  const columnLabels = sourceTokens.map((token, j) => {
    const x = left + j * CELL + CELL / 2 + 4;
    const y = top - 8;
    return element('text', { transform: `translate(${x}, ${y}) rotate(-45)`, fill: isSpecial(token) ? SPECIAL_COLOR : TEXT_COLOR,
      'font-style': isSpecial(token) ? 'italic' : null }, escape(token));
  });
  const rowLabels = targetTokens.map((token, i) => element('text', { x: left - 8, y: top + i * CELL + CELL / 2 + FONT_SIZE * 0.35,
    'text-anchor': 'end', fill: isSpecial(token) ? SPECIAL_COLOR : TEXT_COLOR, 'font-style': isSpecial(token) ? 'italic' : null }, escape(token)));
  parts.push(element('g', { class: 'col-labels', translate: 'no' }, columnLabels.join('')));
  parts.push(element('g', { class: 'row-labels', translate: 'no' }, rowLabels.join('')));
  const cells = [];
  for (let i = 0; i < T; i += 1) {
    for (let j = 0; j < S; j += 1) {
      const weight = Number(attention[i]?.[j] ?? 0);
      cells.push(element('rect', { x: left + j * CELL, y: top + i * CELL, width: CELL - 1, height: CELL - 1, fill: attentionColor(weight),
        'data-row': i, 'data-col': j, 'data-weight': weight.toFixed(4) },
      element('title', {}, escape(`${targetTokens[i]} ← ${sourceTokens[j]}: ${weight.toFixed(2)}`))));
    }
  }
  parts.push(element('g', { class: 'cells' }, cells.join('')));
  const bar = colourBarShapes(legend).map(([tag, attrs, text]) => element(tag, attrs, text === undefined ? null : escape(text)));
  parts.push(element('g', { class: 'legend', transform: `translate(${left}, ${legendTop})` }, bar.join('')));
  if (footer) parts.push(element('text', { x: margin, y: footerTop + 12, 'font-size': SMALL, fill: MUTED }, escape(footer)));

  const root = element('svg', {
    xmlns: 'http://www.w3.org/2000/svg', width, height, viewBox: `0 0 ${width} ${height}`, 'font-family': FONT_FAMILY,
    'font-size': FONT_SIZE, lang, role: 'img', 'aria-label': title || `attention heatmap, ${T} rows by ${S} columns`,
    'data-rows': T, 'data-cols': S,
  }, parts.join(''));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}

// The figure's own words, in the two languages of the page: the static
// figure's one owner of them (the bin and the page's download both use
// figureLabels).
const LANGUAGE_NAMES = {
  en: { en: 'English', fr: 'French', zh: 'Chinese' },
  'zh-CN': { en: '英语', fr: '法语', zh: '中文' },
};
const FIGURE_TEXT = {
  en: { cols: 'Source ({language}): the columns', rows: 'Translation ({language}): the rows', legend: 'attention weight',
    footer: '{model}, seq2seq-attention · trained on {data}' },
  'zh-CN': { cols: '源句（{language}）：列', rows: '译文（{language}）：行', legend: '注意力权重',
    footer: '{model}，seq2seq-attention · 训练数据：{data}' },
};

/**
 * Who a model's training data is from, with the licences, from its
 * provenance: "Tatoeba Project (CC-BY 2.0 France); seq2seq-attention
 * project (CC BY 4.0); CC-CEDICT (CC BY-SA 4.0)". Files made from others
 * (joined or misspelt pairs) credit those, so they are left out.
 */
export function dataCredit(provenance) {
  const credits = new Map();
  for (const entry of [provenance?.data, ...(provenance?.extra_data ?? [])]) {
    if (!entry?.source || !/^CC[- ]BY/.test(entry.license ?? '') || !/^[A-Zs]/.test(entry.source)) continue;
    const source = entry.source.split(/ \(|:|,/)[0].trim();
    if (!credits.has(source)) credits.set(source, entry.license);
  }
  return credits.size ? [...credits].map(([source, license]) => `${source} (${license})`).join('; ') : 'not recorded';
}

/**
 * heatmapSvg's options for a translation by the model `info` (model.info):
 * the sentence and its translation as the title, the axes named with their
 * languages, the model and its data's credit as the footer, in `lang` ('en'
 * or 'zh-CN').
 */
export function figureLabels({ info, source = '', translation = '', lang = 'en' } = {}) {
  const language = FIGURE_TEXT[lang] ? lang : 'en';
  const text = FIGURE_TEXT[language];
  const names = LANGUAGE_NAMES[language];
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? '');
  const quoted = (s) => `“${s}”`;  // both languages quote with “ ”
  return {
    title: source ? `${quoted(source)} → ${quoted(translation)}` : '',
    cols: fill(text.cols, { language: names[info?.sourceLanguage] ?? info?.sourceLanguage ?? '' }),
    rows: fill(text.rows, { language: names[info?.targetLanguage] ?? info?.targetLanguage ?? '' }),
    legend: text.legend,
    footer: info ? fill(text.footer, { model: info.name ?? '', data: dataCredit(info.provenance) }) : '',
    lang: language,
  };
}
