// The attributes of <seq2seq-attention-demo> (embed.js), one table: each
// one's values and default. The element observes exactly these names
// (observedAttributes), reads each value through readAttribute(), and names
// a value it cannot use; web/embed/embed-frame.js passes the same names on from
// its query (the element's observedAttributes); tests/js/docs.test.mjs
// checks that docs/page.md documents each.
//
// An entry is one of:
//   { values, default }   one of a list (values may be a function: the models)
//   { read, allowed, default }   read(text) gives the value or null (not allowed)
//   { flag: true }        on when present, whatever its value
//   { text: true }        any text
import { optionRanges } from '../../dist/data.js';
import { LANGS, normalizeLang } from '../figures/i18n/index.js';
import { DEFAULT_BEAM, PAGE_MAX_BEAM, defaultModel, pageBeam, pickableModels, stepFromText } from '../figures/page-models.js';
import { tauFromText } from '../figures/step-math.js';

const TAU = optionRanges.temperature;

export const ATTRIBUTES = {
  sentence: { text: true },
  text: { text: true }, // sentence's older name
  model: { values: () => pickableModels(), default: () => defaultModel() },
  view: { values: ['heatmap', 'lines', 'step'], default: 'heatmap' },
  step: { read: stepFromText, allowed: '1, 2, 3, …', default: null },
  unit: { values: ['pieces', 'words'], default: 'pieces' },
  beam: { read: pageBeam, allowed: `1–${PAGE_MAX_BEAM}`, default: DEFAULT_BEAM },
  // The attention softmax's temperature, a_t = softmax(e_t / τ), as the
  // page's slider (the package's optionRanges.temperature); 1 is the model
  // as trained, and is not sent.
  tau: { read: (text) => tauFromText(text, TAU.min, TAU.max), allowed: `${TAU.min}–${TAU.max}`, default: TAU.default },
  compare: { flag: true },
  readonly: { flag: true },
  lang: { read: normalizeLang, allowed: LANGS.join(', '), default: null },
  theme: { values: ['light', 'dark', 'auto'], default: 'auto' },
  loading: { values: ['lazy', 'eager'], default: 'lazy' },
};

// A flag written as if it could be turned off: it cannot, by its value.
const LOOKS_OFF = /^(false|off|no|0)$/i;

const valueOf = (v) => (typeof v === 'function' ? v() : v);

/**
 * Attribute `name`'s value as the element uses it, from its text (null when
 * absent): { value, problem }, problem null, or { attribute, value (the
 * text), allowed, shown } for a value the element cannot use (the default
 * is used instead), or { attribute, value, flag: true } for a flag written
 * as off.
 */
export function readAttribute(name, text) {
  const entry = ATTRIBUTES[name];
  if (entry.flag) {
    return { value: text !== null, problem: text !== null && LOOKS_OFF.test(text.trim()) ? { attribute: name, value: text, flag: true } : null };
  }
  if (entry.text) return { value: text, problem: null };
  const fallback = valueOf(entry.default);
  if (text === null) return { value: fallback, problem: null };
  if (entry.values) {
    const values = valueOf(entry.values);
    if (values.includes(text)) return { value: text, problem: null };
    return { value: fallback, problem: { attribute: name, value: text, allowed: values.join(', '), shown: String(fallback) } };
  }
  if (text.trim() === '') return { value: fallback, problem: null };
  const value = entry.read(text);
  if (value !== null) return { value, problem: null };
  return { value: fallback, problem: { attribute: name, value: text, allowed: entry.allowed, shown: fallback === null ? '–' : String(fallback) } };
}
