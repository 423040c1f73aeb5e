// The model map: a small diagram of the attention Seq2Seq above the step
// panel, drawn as SVG from the step's own trace. It names each part as the
// chapter does (query, keys and values, attention pooling, context
// variable), lights what this step computes, and opens a part's stage of the
// step panel (step-panel.js) on a click, or on Enter/Space with the map
// focused (one tab stop; the arrow keys, Home and End move between parts).
// For a model without attention (scoring 'none') it draws the one fixed
// context vector c feeding every step, and says why that is the bottleneck.
// Links go to the chapter in both editions of Dive into Deep Learning.
//
// Test hooks: the map is [data-testid="model-map"] with data-kind
// ('attention' or 'fixed') and data-step (1-based); each part is a
// [data-part] with data-stage (the step panel's section it opens) and
// data-lit when this step computes it; per-token cells are [data-cell]
// (data-index, data-weight), the current step's or the most attended one
// marked data-lit.
import { h, pieceLabel, replaceChildren, svg } from './dom.js';
import { lang, tIn } from './i18n/index.js';
import { layoutMap, measureWith } from './model-map-layout.js';

export const D2L_EN = 'https://d2l.ai/chapter_attention-mechanisms-and-transformers/bahdanau-attention.html';
export const D2L_ZH = 'https://zh.d2l.ai/chapter_attention-mechanisms/bahdanau-attention.html';

// The formula under the score, in the chapter's notation, for each scoring function.
const SCORE_FORMULA = {
  additive: 'eₜᵢ = vᵀ tanh(W_q sₜ₋₁ + W_k hᵢ)',
  dot: 'eₜᵢ = sₜ₋₁ · hᵢ',
  'scaled-dot': 'eₜᵢ = sₜ₋₁ · hᵢ / √d',
  general: 'eₜᵢ = sₜ₋₁ · (W_k hᵢ)',
};

// The parts, top to bottom: name, the step panel's stage it opens, whether
// this step computes it (lit), its catalogue keys (title, note) and its
// per-token cells. The query sits beside the score (side: true).
const ATTENTION_PARTS = [
  { name: 'source', stage: 'scores', title: 'map.source', cells: 'source' },
  { name: 'encoder', stage: 'scores', title: 'map.encoder', note: 'map.encoderNote' },
  { name: 'states', stage: 'scores', title: 'map.states', note: 'map.statesNote', cells: 'states' },
  { name: 'query', stage: 'query', lit: true, side: true, title: 'map.query', note: 'map.queryNote' },
  { name: 'score', stage: 'scores', lit: true, title: 'map.score', formula: true },
  { name: 'softmax', stage: 'weights', lit: true, title: 'map.softmax', note: 'map.softmaxNote' },
  { name: 'weights', stage: 'weights', lit: true, title: 'map.weights', cells: 'weights' },
  { name: 'context', stage: 'context', lit: true, title: 'map.context', note: 'map.contextNote' },
  { name: 'decoder', stage: 'top', lit: true, title: 'map.decoder', note: 'map.decoderNote', cells: 'steps' },
  { name: 'output', stage: 'top', lit: true, title: 'map.output', note: 'map.outputNote' },
  { name: 'token', stage: 'top', lit: true, title: 'map.token', cells: 'target' },
];
const FIXED_PARTS = [
  { name: 'source', stage: 'fixed', title: 'map.source', cells: 'source' },
  { name: 'encoder', stage: 'fixed', title: 'map.encoder', note: 'map.encoderNote' },
  { name: 'states', stage: 'fixed', title: 'map.states', note: 'map.statesFixedNote', cells: 'states' },
  { name: 'fixed', stage: 'fixed', title: 'map.fixed', note: 'map.fixedNote', cells: 'copies' },
  { name: 'decoder', stage: 'top', lit: true, title: 'map.decoder', note: 'map.decoderFixedNote', cells: 'steps' },
  { name: 'output', stage: 'top', lit: true, title: 'map.output', note: 'map.outputNote' },
  { name: 'token', stage: 'top', lit: true, title: 'map.token', cells: 'target' },
];

const maps = new WeakMap(); // container → { args, width, focused part }

/**
 * Draws the map of step `step` (0-based) of `trace` into `container` (an
 * element of its own, above the step panel). panel: the step panel, whose
 * section [data-stage] a part opens; onOpen(): called first (the page marks
 * the step view open). language: 'en' or 'zh-CN' (default the page's).
 * twin: the fixed-context twin's { trace, sourceTokens, targetTokens } for
 * the same sentence, or null: a switch then draws its map instead (its own
 * translation, its parts opening the panel's comparison of contexts).
 */
export function renderModelMap(container, args) {
  const memory = maps.get(container) ?? { part: null };
  memory.args = args;
  maps.set(container, memory);
  if (!memory.observer && typeof ResizeObserver === 'function') {
    memory.observer = new ResizeObserver(() => {
      if (container.isConnected && Math.abs(container.clientWidth - memory.width) > 1) draw(container, memory);
    });
    memory.observer.observe(container);
  }
  draw(container, memory);
}

function draw(container, memory) {
  const { twin = null, language = lang() } = memory.args;
  const t = (key, params) => tIn(language, key, params);
  const canSwitch = Boolean(twin) && memory.args.trace.scoring !== 'none';
  const showTwin = canSwitch && memory.showTwin;
  const shown = showTwin ? { ...twin, step: Math.min(memory.args.step, twin.trace.steps.length - 1) } : memory.args;
  const { trace, sourceTokens, targetTokens, step } = shown;
  const fixed = trace.scoring === 'none';
  const record = trace.steps[step];
  const weights = fixed ? null : Array.from(record.weights);
  const strongest = weights ? weights.indexOf(Math.max(...weights)) : sourceTokens.length - 1;
  const hadFocus = Boolean(document.activeElement?.closest?.('[data-part]') && container.contains(document.activeElement));
  memory.width = container.clientWidth;

  const source = sourceTokens.map((token, i) => ({ label: pieceLabel(token), weight: weights?.[i] ?? null, lit: i === strongest }));
  const cells = {
    source: { kind: 'chips', items: source },
    states: { kind: 'squares', items: source.map((s, i) => ({ ...s, label: `h${i + 1}` })) },
    weights: { kind: 'bars', items: source },
    steps: { kind: 'squares', items: targetTokens.map((token, k) => ({ label: `s${k + 1}`, lit: k === step, done: k < step })) },
    // The fixed model's one vector, drawn once per step: the same at each.
    copies: { kind: 'squares', items: targetTokens.map((token, k) => ({ label: 'c', lit: k === step })) },
    target: { kind: 'chips', items: targetTokens.map((token, k) => ({ label: pieceLabel(token), lit: k === step, current: k === step })) },
  };
  const focus = sourceTokens.length ? { token: source[strongest].label, weight: weights ? weights[strongest].toFixed(2) : '' } : null;
  const top = record.top?.[0];
  const parts = (fixed ? FIXED_PARTS : ATTENTION_PARTS).map((part) => ({
    ...part,
    stage: showTwin ? 'similarity' : part.stage,  // the panel draws the attention model: its comparison of contexts has the twin
    titleText: t(part.title),
    noteText: part.formula ? SCORE_FORMULA[trace.scoring] ?? null
      : part.note ? t(part.note, { token: top ? pieceLabel(top.token) : '', p: top ? top.probability.toFixed(2) : '' }) : null,
    cells: part.cells ? { ...cells[part.cells], name: part.cells } : null,
  }));
  if (!fixed && trace.scoring !== 'additive') parts.find((p) => p.name === 'score').titleText = t('map.scoreOther');

  const measure = measureWith(getComputedStyle(container).fontFamily);
  const layout = layoutMap(parts, { width: Math.max(260, memory.width || 320), measure, fixed });
  const chart = svg('svg', {
    // tabindex -1: Chromium otherwise stops on the svg itself before its parts (one stop: the parts' roving group).
    class: 'model-map-svg', role: 'group', tabindex: '-1', width: layout.width, height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    'aria-label': t(fixed ? 'map.labelFixed' : 'map.label', { step: step + 1, steps: trace.steps.length }),
  },
  svg('defs', {}, svg('marker', { id: 'model-map-arrow', viewBox: '0 0 8 8', refX: '7', refY: '4', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' },
    svg('path', { d: 'M0,0 L8,4 L0,8 z', class: 'map-arrowhead' }))),
  layout.arrows.map((arrow) => svg('path', {
    d: arrow.d, class: `map-arrow${arrow.dashed ? ' dashed' : ''}`, 'marker-end': 'url(#model-map-arrow)', 'aria-hidden': 'true',
  })),
  layout.parts.map((part) => drawPart(part, t, { step, steps: trace.steps.length, focus, fixed })));

  const read = h('p', { class: 'model-map-read' }, t('map.read'), ' ',
    ...(language === 'zh-CN'
      ? [link(D2L_ZH, 'zh', t('map.bookZh')), ' · ', link(D2L_EN, 'en', t('map.bookEn'))]
      : [link(D2L_EN, 'en', t('map.bookEn')), ' · ', link(D2L_ZH, 'zh', t('map.bookZh'))]));
  container.className = 'model-map';
  container.setAttribute('data-testid', 'model-map');
  container.dataset.kind = fixed ? 'fixed' : 'attention';
  container.dataset.twin = String(showTwin);
  container.dataset.step = String(step + 1);
  const hint = showTwin ? 'map.hintTwin' : fixed ? 'map.hintFixed' : 'map.hint';
  replaceChildren(container,
    h('h3', { class: 'model-map-heading', id: 'model-map-heading' }, t('map.heading')),
    canSwitch ? modelSwitch(container, memory, t, showTwin) : null,
    h('p', { class: 'hint' }, t(hint, { step: step + 1, steps: trace.steps.length })),
    h('div', { class: 'model-map-box' }, chart),
    fixed ? h('p', { class: 'model-map-bottleneck', 'data-testid': 'model-map-bottleneck' },
      t('map.bottleneck', { size: record.context.length })) : null,
    read);
  rovingParts(container, chart, memory, hadFocus);
}

// The switch to the fixed-context twin's map and back: one toggle button
// (one tab stop), pressed while the twin is shown.
function modelSwitch(container, memory, t, showTwin) {
  return h('button', {
    type: 'button', class: 'model-map-switch', 'data-map-model': 'fixed', 'aria-pressed': String(showTwin),
    onclick: () => {
      memory.showTwin = !showTwin;
      draw(container, memory);
      container.querySelector('[data-map-model]')?.focus();
    },
  }, t('map.showTwin'));
}

const link = (href, hreflang, text) => h('a', { href, hreflang, 'data-edition': hreflang, rel: 'noopener' }, text);

// One part: a box with its title, its note and its per-token cells, as one button.
function drawPart(part, t, { step, steps, focus, fixed }) {
  const { box, lines, cellRow } = part;
  const perToken = part.name === 'source' || part.name === 'states' || part.name === 'weights';
  const detail = perToken && focus ? t(fixed ? 'map.lastState' : 'map.strongest', focus)
    : part.lit ? t('map.thisStep', { step: step + 1, steps }) : '';
  const cells = cellRow ? drawCells(part.cells, cellRow) : null;
  // The accessible name starts with the text as shown, line by line (each
  // line ends with a space, so that the lines read as words), then says more.
  const shown = [...lines.map((line) => line.text), ...(cells?.words ?? [])].join(' ');
  return svg('g', {
    class: `map-part${part.lit ? ' lit' : ''}`, role: 'button', tabindex: '-1', 'data-part': part.name, 'data-stage': part.stage,
    'data-lit': part.lit ? 'true' : null,
    'aria-label': `${shown}. ${detail ? `${detail}. ` : ''}${t('map.opens')}`,
  },
  svg('rect', { class: 'map-box', x: box.x, y: box.y, width: box.width, height: box.height, rx: 6 }),
  lines.map((line) => svg('text', {
    class: line.title ? 'map-title' : 'map-note', x: line.x, y: line.y, translate: line.formula ? 'no' : null,
  }, `${line.text} `)),
  cells?.group);
}

// The cells of a part (chips, squares or bars), and the words they show.
function drawCells({ kind, items, name }, row) {
  const words = [];
  const group = svg('g', { class: `map-cells map-${kind} map-${name}`, translate: 'no' }, row.cells.map((cell) => {
    const chipText = (text) => {
      words.push(text);
      return svg('text', { class: 'map-chip-text', x: cell.x + cell.width / 2, y: cell.y + cell.height - 4, 'text-anchor': 'middle' }, `${text} `);
    };
    if (cell.gap) return chipText('…');
    const item = items[cell.index];
    const attrs = { 'data-cell': '', 'data-index': String(cell.index), 'data-weight': item.weight ?? null, 'data-lit': item.lit ? 'true' : null };
    const shade = item.weight === null || item.weight === undefined ? null : Math.sqrt(Math.max(0, item.weight));
    if (kind === 'bars') {
      const height = Math.max(1, (item.weight ?? 0) * cell.height);
      return svg('g', attrs, svg('rect', { class: 'map-bar-track', x: cell.x, y: cell.y, width: cell.width, height: cell.height }),
        svg('rect', { class: 'map-bar', x: cell.x, y: cell.y + cell.height - height, width: cell.width, height }));
    }
    if (kind === 'squares') {
      return svg('rect', { ...attrs, class: `map-square${item.lit ? ' lit' : ''}${item.done ? ' done' : ''}`, x: cell.x, y: cell.y, width: cell.width, height: cell.height,
        style: shade === null ? null : `fill-opacity:${(0.12 + 0.88 * shade).toFixed(3)}` });
    }
    return svg('g', { ...attrs, class: `map-chip${item.lit ? ' lit' : ''}${item.current ? ' current' : ''}` },
      svg('rect', { x: cell.x, y: cell.y, width: cell.width, height: cell.height, rx: 3,
        style: shade === null ? null : `fill-opacity:${(0.04 + 0.3 * shade).toFixed(3)}` }),
      chipText(item.label));
  }));
  return { group, words };
}

// One tab stop for the map: the parts form a roving group; ↑/← and ↓/→ move,
// Home/End go to the first and last part, Enter/Space (or a click) open the
// part's stage in the step panel.
function rovingParts(container, chart, memory, hadFocus) {
  const parts = [...chart.querySelectorAll('[data-part]')];
  const current = parts.find((p) => p.dataset.part === memory.part) ?? parts[0];
  current.setAttribute('tabindex', '0');
  if (hadFocus) current.focus({ preventScroll: true });
  const move = (to) => {
    const target = parts[Math.max(0, Math.min(parts.length - 1, to))];
    parts.forEach((p) => p.setAttribute('tabindex', p === target ? '0' : '-1'));
    memory.part = target.dataset.part;
    target.focus();
  };
  chart.addEventListener('focusin', (event) => {
    const part = event.target.closest?.('[data-part]');
    if (part) memory.part = part.dataset.part;
  });
  chart.addEventListener('keydown', (event) => {
    const at = parts.indexOf(event.target.closest?.('[data-part]'));
    if (at < 0) return;
    const moves = { ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1, Home: 0, End: parts.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      move(moves[event.key]);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openStage(memory, parts[at].dataset.stage);
    }
  });
  chart.addEventListener('click', (event) => {
    const part = event.target.closest?.('[data-part]');
    if (!part) return;
    parts.forEach((p) => p.setAttribute('tabindex', p === part ? '0' : '-1'));
    memory.part = part.dataset.part;
    openStage(memory, part.dataset.stage);
  });
}

// Opens a stage: the page is told (onOpen), then the panel's section is
// brought into view, marked and focused.
function openStage(memory, stage) {
  const { panel, onOpen } = memory.args;
  onOpen?.(stage);
  const section = panel?.querySelector(`[data-stage="${stage}"]`) ?? panel;
  if (!section) return;
  panel.querySelectorAll('[data-opened]').forEach((other) => other.removeAttribute('data-opened'));
  section.setAttribute('data-opened', 'true');
  if (section !== panel) section.setAttribute('tabindex', '-1');
  section.scrollIntoView({ block: 'start', behavior: 'instant' });
  section.focus({ preventScroll: true });
}

/**
 * Call before the step panel is drawn again (a new step, the fixed twin's
 * numbers arriving): the stage a part opened stays marked after it, and
 * focused if it was, instead of focus falling back to the page. Returns the
 * function to call once the panel is drawn.
 */
export function keepOpenedStage(panel) {
  const opened = panel.querySelector('[data-opened]');
  if (!opened || opened === panel) return () => {};
  const { stage } = opened.dataset;
  const focused = opened === document.activeElement;
  return () => {
    const section = panel.querySelector(`[data-stage="${stage}"]`);
    if (!section) return;
    section.setAttribute('data-opened', 'true');
    section.setAttribute('tabindex', '-1');
    if (focused) section.focus({ preventScroll: true });
  };
}

/** A container for the map in the page's step section: before its step buttons (or its panel). */
export function modelMapBox(section) {
  const box = h('div', { class: 'model-map', 'data-testid': 'model-map' });
  const before = section.querySelector('.step-nav') ?? section.querySelector('.step-panel');
  if (before) before.before(box);
  else section.append(box);
  return box;
}

export const MODEL_MAP_CSS = `
.model-map { min-width: 0; margin: .6rem 0; --map-ink: var(--panel-ink, var(--ink, #1f2937)); --map-muted: var(--panel-muted, var(--muted, #475569));
  --map-line: var(--panel-line, #94a3b8); --map-paper: var(--paper, #fff); --map-accent: var(--panel-bar, var(--accent, #4338ca));
  --map-soft: var(--accent-soft, #eef2ff); --map-lit: var(--highlight, #f59e0b); }
.model-map-heading { margin: .4rem 0 .2rem; }
.model-map-switch { margin: .3rem 0; min-height: 30px; font-size: 14px; padding: 3px 14px; }
.model-map-switch[aria-pressed="true"] { background: var(--map-accent); border-color: var(--map-accent); color: var(--map-paper); }
.model-map-box { max-width: 100%; overflow: hidden; }
.model-map-svg { display: block; max-width: 100%; height: auto; font-family: inherit; }
.map-part { cursor: pointer; outline: none; }
.map-box { fill: var(--map-paper); stroke: var(--map-line); stroke-width: 1; }
.map-part.lit .map-box { fill: var(--map-soft); stroke: var(--map-accent); stroke-width: 1.5; }
.map-part:hover .map-box { stroke: var(--map-accent); stroke-width: 2; }
.map-part:focus-visible .map-box, .map-part:focus .map-box { stroke: var(--map-lit); stroke-width: 3; }
.map-title { font-size: 13px; font-weight: 600; fill: var(--map-ink); }
.map-note { font-size: 12px; fill: var(--map-muted); }
.map-arrow { fill: none; stroke: var(--map-muted); stroke-width: 1.3; }
.map-arrow.dashed { stroke-dasharray: 4 3; }
.map-arrowhead { fill: var(--map-muted); }
.map-square { fill: var(--map-accent); stroke: var(--map-line); stroke-width: .5; }
.map-square.lit { stroke: var(--map-lit); stroke-width: 2; }
.map-steps .map-square { fill: var(--map-paper); }
.map-steps .map-square.done { fill: var(--map-accent); fill-opacity: .3; }
.map-steps .map-square.lit, .map-copies .map-square { fill: var(--map-accent); fill-opacity: 1; }
.model-map[data-kind="fixed"] .map-states .map-square { fill-opacity: .25; }
.model-map[data-kind="fixed"] .map-states .map-square.lit { fill-opacity: 1; }
.map-chip rect { fill: var(--map-accent); fill-opacity: .06; stroke: var(--map-line); stroke-width: .5; }
.map-chip.lit rect { stroke: var(--map-lit); stroke-width: 2; }
.map-chip.current rect { fill-opacity: .18; }
.map-chip-text { font-size: 12px; fill: var(--map-ink); }
.map-chip.current .map-chip-text { font-weight: 700; }
.map-bar-track { fill: var(--map-paper); stroke: var(--map-line); stroke-width: .5; }
.map-bar { fill: var(--map-accent); }
.model-map-bottleneck { font-size: 14px; border-left: 3px solid var(--map-lit); padding-left: 8px; margin: .4rem 0; }
.model-map-read { font-size: 14px; margin: .3rem 0; overflow-wrap: anywhere; }
[data-opened="true"] { scroll-margin-top: 8px; }
.step-stage[data-opened="true"] > h4 { text-decoration: underline 3px var(--map-lit, #f59e0b); text-underline-offset: 4px; }
`;
