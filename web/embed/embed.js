// <seq2seq-attention-demo>: the demo as one tag, for tutorials.
//
//   <script type="module" src="https://YOUR-HOST/web/embed.js"></script>
//   <seq2seq-attention-demo sentence="I love deep learning." model="en-fr" lang="zh-CN" step="3"></seq2seq-attention-demo>
//
// Attributes (all optional): sentence, model, view, step, unit, beam, tau,
// compare, loading, lang, readonly, theme; what each does, its values and
// its default are in one table with its documentation (embed-attributes.js).
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
import { h, replaceChildren } from '../figures/dom.js';
import { missingFeatures } from '../figures/features.js';
import { browserLang, normalizeLang, rich, tIn } from '../figures/i18n/index.js';
import { getTranslator } from '../figures/translator.js';
import { loadPackage } from '../figures/load-api.js';
import { ATTRIBUTES, attributeProblems, readAttribute, warnOnce } from './embed-attributes.js';
import { eventCause, loadProblem } from './load-problem.js';
import { STYLE } from './embed-style.js';
import { drawComparison, drawFigure } from './embed-figure.js';
import { assembleCard, bindStepInput, createParts, holdHeights } from './embed-parts.js';
import { forgetTheme, onDarkBackground, watchHostTheme } from './embed-theme.js';

// Published before the theme helpers had their own module (web/embed.js passes these on).
export { onDarkBackground, parseColour } from './embed-theme.js';
import { DEBOUNCE_MS, DEFAULT_BEAM, MAX_OUTPUT_TOKENS, baselineOf, languagesOf, loadModelList, modelLabel } from '../figures/page-models.js';

// The package's list of models (dist/models.js), before any element is
// defined; when it cannot load, every element says so instead of translating.
const listFailure = await loadModelList().then(() => null, (error) => error);
// The package's word grouping (unit="words"), from the same data entry.
const { wordAttention, modelUrl } = listFailure ? {} : await loadPackage('data.js', 'what.options');
const HOME = new URL('../', import.meta.url).href;

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
      forgetTheme(this);
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
    else forgetTheme(this);
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
    const parts = createParts();
    parts.input.value = this.sentence;
    parts.input.hidden = this.hasAttribute('readonly');
    bindStepInput(this, parts, () => this.#shown?.result ?? null);
    parts.input.addEventListener('input', () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#translate(), DEBOUNCE_MS);
    });
    parts.card = assembleCard(parts);
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
    holdHeights(this.#parts, { sentence: this.sentence, shown: Boolean(this.#shown), compare: this.compare, compared: Boolean(this.#compared) });
  }

  // An attribute value the element cannot use is not silently replaced: a
  // console warning (once per value) for the author, and a line in the card
  // naming the attribute, the values it takes and what is shown instead.
  #checkAttributes() {
    // No model list to check against: the card says why.
    const problems = attributeProblems((name) => this.getAttribute(name), { language: this.language, skip: listFailure ? ['model'] : [] });
    warnOnce(problems, this.#warned);
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
      const cause = found ? eventCause(found.key) : null;
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
    drawComparison(this.#parts, this.#compared, { compare: this.compare, language: this.language, t: (key, params) => this.#t(key, params) });
  }

  #render(text, result) {
    const parts = this.#parts;
    parts.heatmap.style.minHeight = '';
    parts.translation.dataset.text = text;
    parts.translation.lang = languagesOf(this.model).targetLanguage;
    replaceChildren(parts.translation, result.text);
    if (result.truncated) this.#say('embed.truncated', {}, 'notice');
    else this.#say('', {});
    drawFigure(parts, result, {
      view: this.view, unit: this.unit, step: this.step, isStepView: this.isStepView, shortlist: Boolean(this.#shown?.shortlist),
      language: this.language, t: (key, params) => this.#t(key, params), wordAttention,
    });
  }
}

if (!customElements.get('seq2seq-attention-demo')) {
  customElements.define('seq2seq-attention-demo', Seq2SeqAttentionDemo);
}
