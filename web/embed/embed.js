// <seq2seq-attention-demo>: the demo as one tag, for tutorials.
//
//   <script type="module" src="https://YOUR-HOST/web/embed.js"></script>
//   <seq2seq-attention-demo sentence="I love deep learning." model="en-fr" lang="zh-CN" step="3"></seq2seq-attention-demo>
//
// Attributes (all optional):
//   sentence  the English sentence (`text` is its older name; sentence wins)
//   model     a model the page's menu offers, e.g. en-zh (default en-fr: page-models.js)
//   view      heatmap (default), lines, or step: the heatmap and under it the
//             step-through panel (web/figures/step-panel.js) at `step` (default 1),
//             with the model's own numbers; Previous/Next, and ←/→ and
//             Home/End on the focused panel, move between steps (and set
//             the step attribute); ↑/↓ move between its vector strips (one
//             tab stop); Enter on a heatmap cell opens that step's panel
//   step      output step N (1-based): its row of the figure is selected and
//             the readout says where the model looked while writing it
//   unit      pieces (default) or words: the figure between subword pieces,
//             or between words (the package's wordAttention: a word's
//             column sums its pieces', its row averages them)
//   beam      1 to PAGE_MAX_BEAM (default the package's, 4)
//   tau       the temperature τ of the attention softmax, a_t = softmax(e_t / τ),
//             as the page's slider: 0.05 to 20 (the package's
//             optionRanges.temperature), default 1, the model as trained;
//             small τ nearly hard (one source piece per step), large τ
//             nearly uniform; the sentence is decoded again with it
//   compare   (a flag) the fixed-context twin of the model (en-fr-fixed
//             beside en-fr: the package's catalogue, baselineOf) translates
//             the same sentence, shown under the attention model's, with
//             the BLEU by sentence length both model files record (the
//             page's chart and caption, web/figures/compare-chart.js)
//   loading   lazy (default): starts when it nears the viewport; eager: at once
//   lang      en or zh-CN: the element's own words (default: the nearest
//             ancestor's lang when it is one of these, else the browser's
//             language; the element never changes the host page's lang);
//             the model's output is never translated
//   readonly  hides the sentence box
//   theme     light, dark or auto (default): auto is dark on a dark host,
//             judged by the background the element sits on (the nearest
//             ancestor with one, else the page's color-scheme), and follows
//             a theme switch of the host (an attribute of <html> or <body>).
//             The figure keeps its white paper in both, as a printed
//             figure would, so its colour scale reads the same.
//             Custom properties set on the element restyle the card:
//             --s2s-background, --s2s-text, --s2s-muted, --s2s-border,
//             --s2s-field (the input), --s2s-accent.
// Every attribute's values and default are in one table (embed-attributes.js).
// A value the element cannot use is named on the console and in the card,
// with what is shown instead. Changing an attribute draws again (and
// translates again when the sentence, model, beam or tau changed).
// Events (bubbling, and out of the Shadow DOM):
//   s2s-translated  detail { text, model, result }: a translation was drawn
//                   (result: the package's Translation)
//   s2s-step        detail { step }: the selected output step changed (1-based,
//                   null when none), by the reader or by the attribute
//   s2s-error       detail { message, error, cause }: translating failed; the card
//                   says why (message, as shown), cause naming it when it was a
//                   download: csp, not-found, http, cross-origin, network
//                   (load-problem.js tells them apart), else null
// The element draws inside its own Shadow DOM, so the host page's CSS and
// the element's cannot disturb each other. All
// elements on a page share one Web Worker (and so one copy of each model).
import { h, pieceLabels, replaceChildren } from '../figures/dom.js';
import { renderHeatmap, HEATMAP_CSS } from '../figures/heatmap.js';
import { renderAlignment, ALIGNMENT_CSS } from '../figures/alignment.js';
import { bindStepKeys, renderStepPanel, STEP_CSS } from '../figures/step-panel.js';
import { missingFeatures } from '../figures/features.js';
import { browserLang, normalizeLang, rich, tIn } from '../figures/i18n/index.js';
import { getTranslator } from '../figures/translator.js';
import { loadPackage } from '../figures/load-api.js';
import { ATTRIBUTES, readAttribute } from './embed-attributes.js';
import { comparisonScores, renderComparisonChart } from '../figures/compare-chart.js';
import { loadProblem } from './load-problem.js';
import { DEBOUNCE_MS, DEFAULT_BEAM, MAX_OUTPUT_TOKENS, baselineOf, languagesOf, loadModelList, modelLabel } from '../figures/page-models.js';

// The package's list of models (dist/models.js), before any element is
// defined; when it cannot load, every element says so instead of translating.
const listFailure = await loadModelList().then(() => null, (error) => error);
// The package's word grouping (unit="words"), from the same data entry.
const { wordAttention, modelUrl } = listFailure ? {} : await loadPackage('data.js', 'what.options');
const HOME = new URL('../', import.meta.url).href;

const STYLE = `
:host {
  display: block;
  max-width: 100%;
  margin: 1em 0;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif;
}
:host([hidden]) { display: none; }
.card {
  --bg: var(--s2s-background, #fff); --fg: var(--s2s-text, #1f2937); --muted: var(--s2s-muted, #64748b);
  --line: var(--s2s-border, #e2e8f0); --field: var(--s2s-field, #fff); --accent: var(--s2s-accent, #4338ca);
  --error-fg: #b91c1c; --error-bg: #fef2f2; --error-line: #fca5a5; --warn-fg: #92400e; --warn-bg: #fffbeb; --warn-line: #fcd34d;
  color: var(--fg); border: 1px solid var(--line); border-radius: 10px; background: var(--bg); padding: 12px 14px; min-width: 0;
}
.card.dark {
  --bg: var(--s2s-background, #111827); --fg: var(--s2s-text, #e5e7eb); --muted: var(--s2s-muted, #9ca3af);
  --line: var(--s2s-border, #374151); --field: var(--s2s-field, #1f2937); --accent: var(--s2s-accent, #a5b4fc);
  --error-fg: #fecaca; --error-bg: #450a0a; --error-line: #991b1b; --warn-fg: #fde68a; --warn-bg: #422006; --warn-line: #a16207;
  --panel-line: #4b5563; --panel-track: #374151; --panel-bar: #60a5fa; --panel-ink: #f9fafb; --panel-muted: #d1d5db;
  color-scheme: dark;
}
.head { display: flex; justify-content: space-between; gap: 8px; font-size: 12px; color: var(--muted); flex-wrap: wrap; }
.head b { color: var(--accent); font-weight: 600; }
input {
  width: 100%; box-sizing: border-box; margin: 8px 0 4px; padding: 7px 10px;
  border: 1px solid var(--line); border-radius: 6px; font: inherit; font-size: 16px; color: inherit; background: var(--field);
}
input:focus-visible, .cell:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
.translation { font-family: Charter, Cambria, Georgia, serif; font-size: 21px; margin: 6px 0; min-height: 1.3em; overflow-wrap: anywhere; }
.scroll { width: fit-content; max-width: 100%; box-sizing: border-box; overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
.scroll:empty { display: none; }
.readout { min-height: 1.5em; font-size: 13px; margin: 4px 0 0; }
.status { font-size: 13px; color: var(--muted); min-height: 1.4em; margin: 2px 0; }
.error { color: var(--error-fg); background: var(--error-bg); border: 1px solid var(--error-line); border-radius: 6px; padding: 6px 8px; font-size: 14px; }
.notice { background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: 6px; padding: 6px 8px; font-size: 13px; }
/* A box per message, never a box broken across lines; a long URL wraps inside it. */
.error, .notice { display: block; overflow-wrap: anywhere; }
.error .detail { display: block; margin-top: 4px; font-size: 12px; opacity: 0.85; }
.compare { margin: 10px 0 0; padding-top: 8px; border-top: 1px solid var(--line); }
.compare[hidden] { display: none; }
.compare-label { font-size: 12px; color: var(--muted); margin: 0; }
.compare-label b { color: var(--fg); font-weight: 600; }
.compare .translation { color: var(--fg); }
.compare h3 { font-size: 13px; font-weight: 600; margin: 10px 0 4px; }
.chart-box { background: #fff; color: #334155; border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; max-width: 620px; box-sizing: border-box; }
.chart-box:empty { display: none; }
.chart-box svg { display: block; max-width: 100%; height: auto; }
.chart-legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; color: #334155; margin-bottom: 4px; }
.chart-legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.caption { font-size: 12px; color: var(--muted); margin: 4px 0 0; }
.foot { font-size: 11px; color: var(--muted); margin-top: 6px; }
.note { font-size: 12px; color: var(--warn-fg); background: var(--warn-bg); border-left: 3px solid #f59e0b; padding: 4px 8px; margin: 6px 0; }
.foot a { color: inherit; }
.readout b { font-weight: 600; }
${HEATMAP_CSS}
${ALIGNMENT_CSS}
${STEP_CSS}
.step-panel:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
.step-panel:empty { display: none; }
.step-nav { display: flex; gap: 8px; margin: 6px 0 0; }
.step-nav[hidden] { display: none; }
.step-nav button { font: inherit; font-size: 13px; padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--field); color: var(--fg); cursor: pointer; }
.step-nav button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
`;

// theme="auto": dark when the element sits on a dark background. The
// background is the nearest ancestor's (across shadow roots) that is mostly
// opaque; with none, the page's canvas, dark when the page asks for a dark
// color-scheme (and, for "light dark", the system prefers dark).
function parentOf(node) {
  return node.parentElement ?? node.getRootNode?.().host ?? null;
}

function relativeLuminance([r, g, b]) {
  const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * A computed background colour as [r, g, b, alpha] in 0..1, or null.
 * 'rgb()'/'rgba()' and 'color(srgb …)' are read directly; any other form a
 * browser may compute (oklch(), lab(), color(display-p3 …)) is drawn on a
 * 1×1 canvas and read back in sRGB.
 */
let swatch = null;
export function parseColour(text) {
  const numbers = (text.match(/-?[\d.]+/g) ?? []).map(Number);
  if (/^rgba?\(/.test(text) && numbers.length >= 3) {
    const [r, g, b, a = 1] = numbers;
    return [r / 255, g / 255, b / 255, a];
  }
  if (/^color\(srgb /.test(text) && numbers.length >= 3) {
    const [r, g, b, a = 1] = numbers;
    return [r, g, b, a];
  }
  swatch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!swatch) return null;
  swatch.clearRect(0, 0, 1, 1);
  swatch.fillStyle = '#000';  // stays when the text is no colour
  swatch.fillStyle = text;
  swatch.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = swatch.getImageData(0, 0, 1, 1).data;
  return [r / 255, g / 255, b / 255, a / 255];
}

export function onDarkBackground(element) {
  for (let node = parentOf(element); node && node.nodeType === 1; node = parentOf(node)) {
    const colour = parseColour(getComputedStyle(node).backgroundColor);
    if (colour && colour[3] >= 0.5) return relativeLuminance(colour) < 0.25;
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme ?? '';
  if (!/\bdark\b/.test(scheme)) return false;
  return !/\blight\b/.test(scheme) || matchMedia('(prefers-color-scheme: dark)').matches;
}

// The elements on theme="auto", each with what redraws its theme: told when
// the host may have switched its theme (an attribute of <html> or <body>:
// a class, data-theme, MkDocs Material's data-md-color-scheme, a style) or
// the system its colour scheme. One observer for all of them.
const autoThemed = new Map();
let hostWatch = null;
function watchHostTheme(element, apply) {
  autoThemed.set(element, apply);
  if (hostWatch) return;
  const update = () => autoThemed.forEach((redraw) => redraw());
  hostWatch = new MutationObserver(update);
  hostWatch.observe(document.documentElement, { attributes: true });
  if (document.body) hostWatch.observe(document.body, { attributes: true });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', update);
}

// load-problem.js's answers, as the s2s-error event names them.
const CAUSES = {
  'embed.csp': 'csp', 'embed.notFound': 'not-found', 'embed.notFoundNoCors': 'not-found', 'embed.httpStatus': 'http',
  'embed.crossOrigin': 'cross-origin', 'embed.network': 'network',
};

// Attributes whose change needs a new translation; the others only redraw.
const TRANSLATING = new Set(['model', 'sentence', 'text', 'beam', 'tau']);

class Seq2SeqAttentionDemo extends HTMLElement {
  // Every attribute of the table (embed-attributes.js), and only those.
  static observedAttributes = Object.keys(ATTRIBUTES);

  #parts = null;
  #serial = 0;
  #timer = 0;
  #warned = new Set();  // attribute values already warned about
  #near = null;  // the IntersectionObserver waiting for a lazy demo to near the viewport
  #shown = null; // the last translation drawn: { text, result }
  #compared = null; // the last comparison: { text, model, fixed, outcome, infos } (compare)
  #problem = null; // the failure shown: { key, params, message, cause } (load-problem.js's key, or null)
  #stopListening = null;

  connectedCallback() {
    if (!this.#parts) this.#build();
    // Without its own lang attribute the element speaks its ancestors':
    // a host that switches its <html lang> (or an ancestor's) is followed.
    const relabel = () => { if (!this.hasAttribute('lang')) this.#relabel(); };
    const observer = new MutationObserver(relabel);
    for (let node = this.parentElement; node; node = node.parentElement) {
      observer.observe(node, { attributes: true, attributeFilter: ['lang'] });
    }
    this.#stopListening = () => {
      observer.disconnect();
      autoThemed.delete(this);
    };
    this.#applyTheme();
    this.#startWhenNear();
  }

  /** Attribute `name`'s value as the element uses it (its default for a value it cannot use). */
  #read(name) {
    return readAttribute(name, this.getAttribute(name)).value;
  }

  /** 'light', 'dark' or 'auto' (the default, and for a value it does not know). */
  get theme() {
    return this.#read('theme');
  }

  // The card dark or light, as the theme attribute says or, on auto, as the
  // host's background is (and is watched for a switch).
  #applyTheme() {
    if (!this.#parts || !this.isConnected) return;
    if (this.theme === 'auto') watchHostTheme(this, () => this.#applyTheme());
    else autoThemed.delete(this);
    const dark = this.theme === 'dark' || (this.theme === 'auto' && onDarkBackground(this));
    this.#parts.card.classList.toggle('dark', dark);
  }

  // loading="lazy" (the default): the demo starts (downloads its model and
  // translates) when it comes within a screen's height of the viewport, so
  // demos far down a tutorial cost nothing until read; loading="eager" at once.
  #startWhenNear() {
    this.#near?.disconnect();
    this.#near = null;
    if (this.#read('loading') === 'eager' || typeof IntersectionObserver !== 'function') {
      this.#translate();
      return;
    }
    this.#say('embed.waiting');
    this.#near = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      this.#near?.disconnect();
      this.#near = null;
      this.#translate();
    }, { rootMargin: '100% 0px' });
    this.#near.observe(this);
  }

  disconnectedCallback() {
    this.#near?.disconnect();
    this.#near = null;
    clearTimeout(this.#timer);
    this.#stopListening?.();
    this.#serial += 1; // drop answers that arrive after removal
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (!this.#parts || oldValue === newValue) return;
    if (name === 'step') this.#emit('s2s-step', { step: this.step });
    if (name === 'theme') {
      this.#applyTheme();
      this.#checkAttributes();
      return;
    }
    if (this.#near) {  // not started yet: it will translate what the attributes say then
      if (name === 'loading' && this.#read('loading') === 'eager') this.#startWhenNear();
      else this.#relabel();
      return;
    }
    if (name === 'compare') {
      this.#update();
      if (this.compare && this.#shown) this.#compare(this.#shown.text, this.#serial);
      else this.#renderCompare();
      return;
    }
    if (name === 'sentence' || name === 'text') this.#parts.input.value = this.sentence;
    if (name === 'readonly') this.#parts.input.hidden = this.hasAttribute('readonly');
    // The step view needs the decoder's trace, which other views do not ask for.
    if (TRANSLATING.has(name) || (name === 'view' && this.isStepView && this.#shown && !this.#shown.result.trace)) {
      this.#update();
      this.#translate();
    } else {
      this.#relabel();
    }
  }

  get model() {
    return listFailure ? null : this.#read('model');
  }

  get beam() {
    return this.#read('beam');
  }

  /** The attention softmax's temperature τ (1: the model as trained). */
  get tau() {
    return this.#read('tau');
  }

  /** True when the fixed-context twin is shown beside the model (the compare flag). */
  get compare() {
    return this.#read('compare');
  }

  /** The sentence: the `sentence` attribute, else the older `text`. */
  get sentence() {
    return this.getAttribute('sentence') ?? this.getAttribute('text') ?? '';
  }

  /**
   * The element's language: its lang attribute when it is one of ours, else
   * the nearest ancestor's lang when that is one of ours, else the browser's.
   */
  get language() {
    return this.#read('lang') ??
      normalizeLang(this.parentElement?.closest('[lang]')?.getAttribute('lang')) ?? browserLang();
  }

  /** The figure's unit: 'pieces' (default) or 'words'. */
  get unit() {
    return this.#read('unit');
  }

  /** True for view="step": the heatmap with the step-through panel under it. */
  get isStepView() {
    return this.#read('view') === 'step';
  }

  /** The figure: 'heatmap' or 'lines' (view="step" draws the heatmap). */
  get view() {
    return this.#read('view') === 'lines' ? 'lines' : 'heatmap';
  }

  /** The selected output step (1-based), or null. */
  get step() {
    return this.#read('step');
  }

  #t(key, params) {
    return tIn(this.language, key, params);
  }

  #build() {
    const root = this.attachShadow({ mode: 'open' });
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
    parts.input.value = this.sentence;
    parts.input.hidden = this.hasAttribute('readonly');
    // Previous/Next, ←/→ and Home/End on the panel (step-panel.js's keys, as
    // on the page) set the step attribute; focus stays on the panel.
    parts.stepNav = h('div', { class: 'step-nav', hidden: '' }, parts.prev, parts.next);
    bindStepKeys({ prev: parts.prev, next: parts.next, panel: parts.step }, (delta) => {
      const steps = this.#shown?.result.trace?.steps.length ?? 0;
      if (!steps) return;
      const next = Math.max(1, Math.min(steps, (this.step ?? 1) + delta));
      // The redraw replaces a focused strip: keep the keyboard on the panel.
      const inPanel = parts.step.contains(this.shadowRoot.activeElement);
      this.setAttribute('step', String(next));
      if (inPanel) parts.step.focus({ preventScroll: true });
    });
    // A click on a heatmap row (a cell or its label), or Enter on a focused
    // cell, selects that step, as on the demo page: the step attribute is set
    // and the element draws again.
    const pickRow = (event) => {
      const target = event.target.closest?.('[data-row-label], [data-row]');
      if (!target || !this.#shown) return;
      const row = Number(target.getAttribute('data-row-label') ?? target.getAttribute('data-row'));
      if (!Number.isInteger(row)) return;
      // A row of the words figure is a word: its step is its first piece's.
      const words = this.unit === 'words' ? this.#shown.result.targetWords : null;
      this.setAttribute('step', String((words ? words[row]?.start ?? row : row) + 1));
      // Enter on a cell of a step view takes the reader to that step's panel.
      if (event.type === 'keydown' && this.isStepView && !this.#parts.step.hidden) this.#parts.step.focus();
    };
    parts.heatmap.addEventListener('click', pickRow);
    parts.heatmap.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') pickRow(event);
    });
    parts.input.addEventListener('input', () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#translate(), DEBOUNCE_MS);
    });
    parts.card = h('div', { class: 'card', part: 'card' },
      h('div', { class: 'head' }, parts.label, parts.head),
      parts.note, parts.input, parts.status, parts.translation, parts.heatmap, parts.readout, parts.stepNav, parts.step, parts.compare, parts.foot);
    root.append(h('style', {}, STYLE), parts.card);
    this.#parts = parts;
    this.#relabel();
  }

  // The element's own words, in its language now, and the figure drawn again.
  #relabel() {
    const parts = this.#parts;
    parts.card.lang = this.language;
    parts.input.setAttribute('aria-label', this.#t('embed.inputLabel'));
    parts.input.placeholder = this.#t('embed.placeholder');
    parts.head.textContent = this.#t('embed.head');
    parts.prev.textContent = this.#t('step.prev');
    parts.next.textContent = this.#t('step.next');
    replaceChildren(parts.foot, rich('embed.foot', { home: HOME }, this.language));
    // rich() keeps only same-site or https links: the full demo's address is set here.
    parts.foot.querySelector('a')?.setAttribute('href', HOME);
    parts.foot.querySelector('a')?.setAttribute('target', '_blank');
    parts.foot.querySelector('a')?.setAttribute('rel', 'noopener');
    this.#update();
    if (this.#shown) this.#render(this.#shown.text, this.#shown.result);
    else if (this.#problem) this.#showProblem(this.#problem);
    else if (parts.status.dataset.key) this.#say(parts.status.dataset.key, JSON.parse(parts.status.dataset.params ?? '{}'));
    this.#renderCompare();
  }

  #update() {
    if (listFailure) return;
    replaceChildren(this.#parts.label, h('b', {}, modelLabel(this.model, this.language)),
      this.beam !== DEFAULT_BEAM ? this.#t('embed.beam', { beam: this.beam }) : '',
      this.tau !== 1 ? this.#t('embed.tau', { tau: this.tau }) : '');
    this.#checkAttributes();
    // Until the first result, the figure's box holds about the height the
    // heatmap will take (a row per output word, about 1.3 per English word,
    // plus labels and legend), so the tutorial does not jump when it comes.
    if (!this.#shown) {
      const words = this.sentence.trim().split(/\s+/).filter(Boolean).length;
      this.#parts.heatmap.style.minHeight = words ? `${Math.min(1200, Math.round((words * 1.3 + 2) * 34 + 140))}px` : '';
    }
    // The comparison's box likewise: its translation and the chart's height.
    const compareWaits = this.compare && !this.#compared;
    this.#parts.compare.hidden = !this.compare;
    this.#parts.compare.style.minHeight = compareWaits ? '400px' : '';
  }

  // An attribute value the element cannot use is not silently replaced: a
  // console warning (once per value) for the author, and a line in the card
  // naming the attribute, the values it takes and what is shown instead.
  #checkAttributes() {
    const problems = [];
    for (const name of Object.keys(ATTRIBUTES)) {
      if (name === 'model' && listFailure) continue;  // no list to check against: the card says why
      const { problem } = readAttribute(name, this.getAttribute(name));
      // A lang it does not speak: the one it speaks instead (the ancestors', the browser's).
      if (problem) problems.push(name === 'lang' ? { ...problem, shown: this.language } : problem);
    }
    for (const p of problems) {
      const key = `${p.attribute}=${p.value}`;
      if (this.#warned.has(key)) continue;
      this.#warned.add(key);
      console.warn(p.flag
        ? `<seq2seq-attention-demo>: ${p.attribute}="${p.value}": ${p.attribute} is on whenever it is present; remove it to turn it off`
        : `<seq2seq-attention-demo>: ${p.attribute}="${p.value}" is not one of ${p.allowed}; showing ${p.shown} instead`);
    }
    const note = this.#parts.note;
    note.hidden = problems.length === 0;
    replaceChildren(note, ...problems.map((p, i) => [i ? ' ' : '', this.#t(p.flag ? 'embed.badFlag' : 'embed.badAttribute', p)]).flat());
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  // The status line: a catalogue key (kept, so that a new language says it again).
  #say(key, params = {}, kind = null) {
    const status = this.#parts.status;
    this.#problem = null;
    status.dataset.key = key;
    status.dataset.params = JSON.stringify(params);
    const text = this.#t(key, params);
    replaceChildren(status, kind ? h('span', { class: kind, role: kind === 'error' ? 'alert' : null }, text) : text);
  }

  // A failure: what load-problem.js found (its cause and the fix), then the
  // package's own message as the detail; or that message alone. One box.
  // Returns the text shown (the s2s-error event's message).
  #showProblem(problem) {
    this.#problem = problem;
    const status = this.#parts.status;
    delete status.dataset.key;
    const failed = this.#t('embed.failed', { message: problem.message });
    const box = problem.key
      ? h('span', { class: 'error', role: 'alert', 'data-testid': 'embed-problem', 'data-cause': problem.cause },
        this.#t(problem.key, problem.params), ' ', h('span', { class: 'detail' }, failed))
      : h('span', { class: 'error', role: 'alert', 'data-testid': 'embed-problem' }, failed);
    replaceChildren(status, box);
    return box.textContent;
  }

  async #translate() {
    const parts = this.#parts;
    const missing = missingFeatures(this.language) ?? listFailure?.message;
    if (missing) {
      replaceChildren(parts.status, h('span', { class: 'error', role: 'alert' }, missing));
      this.#emit('s2s-error', { message: missing, error: null, cause: null });
      return;
    }
    const text = parts.input.value;
    const request = ++this.#serial;
    if (text.trim() === '') {
      this.#shown = null;
      this.#compared = null;
      replaceChildren(parts.translation);
      replaceChildren(parts.heatmap);
      this.#renderCompare();
      this.#say('embed.type');
      return;
    }
    this.#say('status.translating');
    // The model's download, as it comes (the translator reports it once per model).
    const model = this.model;
    const stopProgress = getTranslator().onProgress(model, ({ loaded, total }) => {
      if (request === this.#serial && !this.#shown) {
        this.#say('embed.downloading', { loaded: (loaded / 1e6).toFixed(1), total: total ? (total / 1e6).toFixed(1) : '?' });
      }
    });
    try {
      const options = { beamSize: this.beam, maxLength: MAX_OUTPUT_TOKENS };
      // τ as the page sends it: only when it is not the trained model's 1.
      if (this.tau !== 1) options.temperature = this.tau;
      if (this.isStepView) options.trace = true;
      const [{ value }, info] = await Promise.all([getTranslator().translate(model, text, options),
        this.isStepView ? getTranslator().info(model).catch(() => null) : null]);
      if (request !== this.#serial) return;
      this.#shown = { text, result: value, shortlist: Boolean(info?.shortlist) };
      this.#render(text, value);
      this.#emit('s2s-translated', { text, model, result: value });
      if (this.compare) this.#compare(text, request);
    } catch (error) {
      if (request !== this.#serial) return;
      // Told apart: a policy, a missing file, a host without CORS, the network.
      const found = await loadProblem(error, { modelUrl: modelUrl(model), home: new URL(HOME) }).catch(() => null);
      if (request !== this.#serial) return;
      // No figure is coming: the height held for it is released.
      parts.heatmap.style.minHeight = '';
      parts.compare.style.minHeight = '';
      const cause = found ? CAUSES[found.key] : null;
      const message = this.#showProblem({ ...(found ?? {}), message: error.message, cause });
      this.#emit('s2s-error', { message, error, cause });
    } finally {
      stopProgress();
    }
  }

  // compare: the model's fixed-context twin translates the same text (as
  // the page's comparison does: the same beam; τ does not apply to it), and
  // both models' recorded scores are drawn as BLEU by sentence length.
  async #compare(text, request) {
    const model = this.model;
    const fixed = baselineOf(model);
    const options = { beamSize: this.beam, maxLength: MAX_OUTPUT_TOKENS };
    const [outcome, infos] = fixed
      ? await Promise.all([
        getTranslator().translate(fixed, text, options).then(({ value }) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason })),
        Promise.allSettled([getTranslator().info(model), getTranslator().info(fixed)]),
      ])
      : [null, null];
    if (request !== this.#serial || !this.compare) return;
    this.#compared = { text, model, fixed, outcome, infos };
    this.#update();
    this.#renderCompare();
  }

  #renderCompare() {
    const parts = this.#parts;
    const compared = this.#compared;
    parts.compare.hidden = !this.compare;
    if (!this.compare || !compared) {
      delete parts.compare.dataset.text;
      for (const part of [parts.compareLabel, parts.compareOutput, parts.chartHeading, parts.chart, parts.chartCaption]) replaceChildren(part);
      return;
    }
    const language = this.language;
    parts.compare.dataset.text = compared.text;
    parts.compare.dataset.model = compared.fixed ?? '';
    if (!compared.fixed) {
      replaceChildren(parts.compareLabel, this.#t('embed.noTwin', { model: compared.model }));
      return;
    }
    replaceChildren(parts.compareLabel, this.#t('compare.fixed'), ' · ', h('b', { translate: 'no' }, compared.fixed));
    parts.compareOutput.lang = languagesOf(compared.fixed).targetLanguage;
    replaceChildren(parts.compareOutput, compared.outcome.status === 'fulfilled'
      ? compared.outcome.value.text
      : h('span', { class: 'error' }, this.#t('compare.failed', { message: compared.outcome.reason?.message ?? compared.outcome.reason })));
    replaceChildren(parts.chartHeading, this.#t('compare.chartHeading'));
    try {
      const scores = comparisonScores(compared.infos, language);
      const width = Math.min(620, (parts.compare.clientWidth || 560) - 18);
      replaceChildren(parts.chart, renderComparisonChart(scores, { width, language }));
      replaceChildren(parts.chartCaption, scores.caption ?? this.#t('compare.chartCaption'));
    } catch (error) {
      replaceChildren(parts.chart);
      replaceChildren(parts.chartCaption, h('span', { class: 'error' }, this.#t('compare.scoresFailed', { message: error?.message ?? error })));
    }
  }

  #render(text, result) {
    const parts = this.#parts;
    parts.heatmap.style.minHeight = '';
    parts.translation.dataset.text = text;
    parts.translation.lang = languagesOf(this.model).targetLanguage;
    replaceChildren(parts.translation, result.text);
    if (result.truncated) this.#say('embed.truncated', {}, 'notice');
    else this.#say('', {});
    replaceChildren(parts.readout, '\u00a0');
    if (!result.attention.length) {
      replaceChildren(parts.heatmap);
      return;
    }
    // Subword pieces without their word marker; a piece inside a word as
    // "·ing"; or, with unit="words", words and the attention between them.
    const pieceSource = pieceLabels(result.sourceTokens, result.sourceWords);
    const pieceTarget = pieceLabels(result.targetTokens, result.targetWords);
    const words = this.unit === 'words' ? wordAttention(result) : null;
    const sourceTokens = words ? words.sourceWords.map((word) => word.text) : pieceSource;
    const targetTokens = words ? words.targetWords.map((word) => word.text) : pieceTarget;
    const attention = words ? words.attention : result.attention;
    const data = { sourceTokens, targetTokens, attention };
    const language = this.language;
    const readCell = (row, col) => this.#t('embed.readout', {
      target: targetTokens[row], source: sourceTokens[col], weight: attention[row][col].toFixed(3),
    });
    // The selected step (an output piece): its row lit (the word holding it,
    // in the words figure), and where that row looked most in the readout.
    const step = this.step === null ? null : Math.min(this.step, pieceTarget.length) - 1;
    const row = step === null || !words ? step : Math.max(0, result.targetWords.findIndex((w) => step >= w.start && step < w.end));
    const showStep = () => {
      if (step === null) {
        replaceChildren(parts.readout, '\u00a0');
        return;
      }
      figure.highlight({ row });
      const weights = attention[row];
      const top = weights.indexOf(Math.max(...weights));
      replaceChildren(parts.readout, rich('readout.step', {
        step: step + 1, target: h('b', {}, `“${targetTokens[row]}”`), source: h('b', {}, `“${sourceTokens[top]}”`),
        weight: weights[top].toFixed(2),
      }, language));
    };
    const figure = this.view === 'lines'
      ? renderAlignment(data, { language, onLabel: (axis, index) => (index === null ? showStep() : null) })
      : renderHeatmap(data, {
        language,
        onHover: (cell) => (cell ? replaceChildren(parts.readout, readCell(cell.row, cell.col)) : showStep()),
      });
    parts.heatmap.dataset.step = step === null ? '' : String(step + 1);
    replaceChildren(parts.heatmap, figure.element);
    showStep();
    this.#renderStepPanel(result, pieceTarget, pieceSource);
  }

  // view="step": the step-through panel at the step attribute (default 1).
  #renderStepPanel(result, targetTokens, sourceTokens) {
    const panel = this.#parts.step;
    if (!this.isStepView || !result.trace?.steps.length) {
      replaceChildren(panel);
      panel.hidden = true;
      this.#parts.stepNav.hidden = true;
      return;
    }
    panel.hidden = false;
    this.#parts.stepNav.hidden = false;
    const step = Math.min(this.step ?? 1, result.trace.steps.length) - 1;
    renderStepPanel(panel, { trace: result.trace, sourceTokens, targetTokens, step, shortlist: Boolean(this.#shown?.shortlist), language: this.language });
  }
}

if (!customElements.get('seq2seq-attention-demo')) {
  customElements.define('seq2seq-attention-demo', Seq2SeqAttentionDemo);
}
