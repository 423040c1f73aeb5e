// The attributes of <seq2seq-attention-demo> (embed.js), one table: each
// one's values and default. The element observes exactly these names
// (observedAttributes), reads each value through readAttribute(), and names
// a value it cannot use; web/embed/embed-frame.js passes the same names on from
// its query (the element's observedAttributes); tests/js/docs.test.mjs
// checks that docs/page.md documents each.
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

/**
 * The problems of every attribute (readAttribute's), read with `get(name)`;
 * a lang the element does not speak names the one it speaks instead
 * (`language`: the ancestors', the browser's). `skip`: names not checked.
 */
export function attributeProblems(get, { language, skip = [] }) {
  const problems = [];
  for (const name of Object.keys(ATTRIBUTES)) {
    if (skip.includes(name)) continue;
    const { problem } = readAttribute(name, get(name));
    if (problem) problems.push(name === 'lang' ? { ...problem, shown: language } : problem);
  }
  return problems;
}

/** A console warning for the author, once per attribute value (`warned`: the Set of those already named). */
export function warnOnce(problems, warned) {
  for (const p of problems) {
    const key = `${p.attribute}=${p.value}`;
    if (warned.has(key)) continue;
    warned.add(key);
    console.warn(p.flag
      ? `<seq2seq-attention-demo>: ${p.attribute}="${p.value}": ${p.attribute} is on whenever it is present; remove it to turn it off`
      : `<seq2seq-attention-demo>: ${p.attribute}="${p.value}" is not one of ${p.allowed}; showing ${p.shown} instead`);
  }
}
