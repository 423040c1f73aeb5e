// <seq2seq-attention-demo>: the demo as one tag, for tutorials.
//
//   <script type="module" src="https://YOUR-HOST/web/embed.js"></script>
//   <seq2seq-attention-demo model="en-fr" text="i love deep learning ."></seq2seq-attention-demo>
//
// Attributes: model (a model the page's menu offers, e.g. en-zh; default
// en-fr: page-models.js), text (the sentence), beam (1 to PAGE_MAX_BEAM;
// default 1), readonly (hides the sentence box). Changing an attribute
// translates again. The element draws the translation and its attention
// heatmap inside its own Shadow DOM, so the host page's CSS and the
// element's cannot disturb each other. All elements on a page share one
// Web Worker (and so one copy of each model).
import { h, pieceLabels, replaceChildren } from './dom.js';
import { renderHeatmap, HEATMAP_CSS } from './heatmap.js';
import { missingFeatures } from './features.js';
import { getTranslator } from './translator.js';
import {
  DEBOUNCE_MS, MAX_OUTPUT_TOKENS, defaultModel, languagesOf, loadModelList, modelLabel, pageBeam, pickableModels,
} from './page-models.js';

// The package's list of models (dist/models.js), before any element is
// defined; when it cannot load, every element says so instead of translating.
const listFailure = await loadModelList().then(() => null, (error) => error);
const HOME = new URL('./', import.meta.url).href;

const STYLE = `
:host {
  display: block;
  max-width: 100%;
  margin: 1em 0;
  color: #1f2937;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif;
}
:host([hidden]) { display: none; }
.card { border: 1px solid #e2e8f0; border-radius: 10px; background: #fff; padding: 12px 14px; min-width: 0; }
.head { display: flex; justify-content: space-between; gap: 8px; font-size: 12px; color: #64748b; flex-wrap: wrap; }
.head b { color: #4338ca; font-weight: 600; }
input {
  width: 100%; box-sizing: border-box; margin: 8px 0 4px; padding: 7px 10px;
  border: 1px solid #cbd5e1; border-radius: 6px; font: inherit; font-size: 16px; color: inherit; background: #fff;
}
input:focus-visible, .cell:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
.translation { font-family: Charter, Cambria, Georgia, serif; font-size: 21px; margin: 6px 0; min-height: 1.3em; overflow-wrap: anywhere; }
.scroll { width: fit-content; max-width: 100%; box-sizing: border-box; overflow-x: auto; border: 1px solid #e2e8f0; border-radius: 8px; }
.scroll:empty { display: none; }
.readout { min-height: 1.5em; font-size: 13px; color: #334155; margin: 4px 0 0; }
.status { font-size: 13px; color: #64748b; min-height: 1.4em; margin: 2px 0; }
.error { color: #b91c1c; background: #fef2f2; border: 1px solid #fca5a5; border-radius: 6px; padding: 6px 8px; font-size: 14px; }
.notice { background: #fffbeb; border: 1px solid #fcd34d; border-radius: 6px; padding: 6px 8px; font-size: 13px; }
.foot { font-size: 11px; color: #94a3b8; margin-top: 6px; }
.foot a { color: inherit; }
${HEATMAP_CSS}
`;

class Seq2SeqAttentionDemo extends HTMLElement {
  static observedAttributes = ['model', 'text', 'beam', 'readonly'];

  #parts = null;
  #serial = 0;
  #timer = 0;

  connectedCallback() {
    if (!this.#parts) this.#build();
    this.#translate();
  }

  disconnectedCallback() {
    clearTimeout(this.#timer);
    this.#serial += 1; // drop answers that arrive after removal
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (!this.#parts || oldValue === newValue) return;
    if (name === 'text') this.#parts.input.value = newValue ?? '';
    if (name === 'readonly') this.#parts.input.hidden = this.hasAttribute('readonly');
    this.#update();
    this.#translate();
  }

  get model() {
    if (listFailure) return null;
    const model = this.getAttribute('model');
    return pickableModels().includes(model) ? model : defaultModel();
  }

  get beam() {
    return pageBeam(this.getAttribute('beam') ?? 1) ?? 1;
  }

  #build() {
    const root = this.attachShadow({ mode: 'open' });
    const parts = {
      label: h('span'),
      input: h('input', {
        type: 'text', 'data-testid': 'source-input', 'aria-label': 'English sentence', spellcheck: 'false', autocomplete: 'off',
        placeholder: 'Type an English sentence',
      }),
      status: h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }),
      translation: h('p', { class: 'translation', 'data-testid': 'translation-output', 'aria-live': 'polite' }),
      heatmap: h('div', { class: 'scroll' }),
      readout: h('p', { class: 'readout', 'aria-live': 'polite' }),
    };
    parts.input.value = this.getAttribute('text') ?? '';
    parts.input.hidden = this.hasAttribute('readonly');
    parts.input.addEventListener('input', () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#translate(), DEBOUNCE_MS);
    });
    root.append(
      h('style', {}, STYLE),
      h('div', { class: 'card', part: 'card' },
        h('div', { class: 'head' }, parts.label, h('span', {}, 'Attention: rows are output words, columns your words')),
        parts.input, parts.status, parts.translation, parts.heatmap, parts.readout,
        h('div', { class: 'foot' }, 'seq2seq-attention, running in your browser · ',
          h('a', { href: HOME, target: '_blank', rel: 'noopener' }, 'full demo'),
          ' · data: Tatoeba (CC-BY 2.0 FR)')));
    this.#parts = parts;
    this.#update();
  }

  #update() {
    if (listFailure) return;
    replaceChildren(this.#parts.label, h('b', {}, modelLabel(this.model)), this.beam > 1 ? ` · beam ${this.beam}` : '');
  }

  async #translate() {
    const parts = this.#parts;
    const missing = missingFeatures() ?? listFailure?.message;
    if (missing) {
      replaceChildren(parts.status, h('span', { class: 'error', role: 'alert' }, missing));
      return;
    }
    const text = parts.input.value;
    const request = ++this.#serial;
    if (text.trim() === '') {
      replaceChildren(parts.translation);
      replaceChildren(parts.heatmap);
      replaceChildren(parts.status, 'Type an English sentence to translate it.');
      return;
    }
    parts.status.textContent = 'Translating…';
    try {
      const { value } = await getTranslator().translate(this.model, text, { beamSize: this.beam, maxLength: MAX_OUTPUT_TOKENS });
      if (request !== this.#serial) return;
      this.#render(text, value);
    } catch (error) {
      if (request !== this.#serial) return;
      replaceChildren(parts.status, h('span', { class: 'error', role: 'alert' }, `Could not translate: ${error.message}`));
    }
  }

  #render(text, result) {
    const parts = this.#parts;
    parts.translation.dataset.text = text;
    parts.translation.lang = languagesOf(this.model).targetLanguage;
    replaceChildren(parts.translation, result.text);
    replaceChildren(parts.status, result.truncated
      ? h('span', { class: 'notice' }, 'Long text: only its beginning was translated.')
      : '');
    replaceChildren(parts.readout, '\u00a0');
    if (!result.attention.length) {
      replaceChildren(parts.heatmap);
      return;
    }
    // Subword pieces without their word marker; a piece inside a word as "·ing".
    const sourceTokens = pieceLabels(result.sourceTokens, result.sourceWords);
    const targetTokens = pieceLabels(result.targetTokens, result.targetWords);
    const heatmap = renderHeatmap({ sourceTokens, targetTokens, attention: result.attention }, {
      onHover: (cell) => replaceChildren(parts.readout, cell
        ? `“${targetTokens[cell.row]}” ← “${sourceTokens[cell.col]}”: ${cell.weight.toFixed(3)}`
        : '\u00a0'),
    });
    replaceChildren(parts.heatmap, heatmap.element);
  }
}

if (!customElements.get('seq2seq-attention-demo')) {
  customElements.define('seq2seq-attention-demo', Seq2SeqAttentionDemo);
}
