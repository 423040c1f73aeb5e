// The shipped models as the demo page (app.js) and the embeddable element
// (embed.js) offer them, and the limits both put on their options. The
// names come from the package ('seq2seq-attention/data', the one list); this module
// only adds how the page shows them. Call loadModelList() once before the
// rest: it rejects with a message saying how to build dist/ when it is
// missing.
import { loadPackage } from './load-api.js';
import { optionRanges } from '../../dist/data.js';
import { lang, tIn } from './i18n/index.js';
import { pageModels } from './page-model-list.js';

const NAMED_LANGUAGES = new Set(['en', 'fr', 'zh']);

/** A language's name ('fr' → 'French', or 法语 in Chinese); the code itself for one the catalogues do not name. */
export function languageName(code, language = lang()) {
  return NAMED_LANGUAGES.has(code) ? tIn(language, `language.${code}`) : code;
}

// The page's own limits, under the API's (optionRanges): beams up to 8 keep
// the list of hypotheses short enough to read, and 150 output tokens bound
// the heatmap's rows for a runaway output.
export const PAGE_MAX_BEAM = 8;
// The beam the page and the element decode with unless told otherwise: the
// package's default (the C++ option table's, DecodeOptions::beam_size).
export const DEFAULT_BEAM = optionRanges.beamSize.default;
export const MAX_OUTPUT_TOKENS = 150;
export const DEBOUNCE_MS = 300; // typing: long enough to skip most keystrokes, short enough to feel live

let models = null; // the package's data entry (dist/data.js), once loaded

/** Loads the package's list of models ('seq2seq-attention/data'), once. */
export async function loadModelList() {
  models ??= await loadPackage('data.js', 'what.modelList');
  return models;
}

/** The model the page and the element open with. */
export function defaultModel() {
  return models.defaultModel;
}

/** The models a reader can pick: the shipped ones with attention, the default first (their baselines are compared, not picked). */
export function pickableModels() {
  return pageModels(models);
}

/** True for a shipped model's name. */
export function isShipped(model) {
  return Object.hasOwn(models.modelCatalog, model);
}

/** The fixed-context model trained beside `model` (same data and sizes), or null. */
export function baselineOf(model) {
  return models.shippedModels.find((name) => models.modelCatalog[name].baselineOf === model) ?? null;
}

/** A shipped model's languages: { sourceLanguage, targetLanguage }. */
export function languagesOf(model) {
  return models.modelCatalog[model];
}

/** 'English → French' (in `language`, default the page's). */
export function modelLabel(model, language = lang()) {
  const { sourceLanguage, targetLanguage } = languagesOf(model);
  return tIn(language, 'model.label', { source: languageName(sourceLanguage, language), target: languageName(targetLanguage, language) });
}

/** A beam size from text (a URL or an attribute): a whole number from 1 to PAGE_MAX_BEAM, else null. */
export function pageBeam(text) {
  const beam = Number(text);
  return Number.isInteger(beam) && beam >= 1 && beam <= PAGE_MAX_BEAM ? beam : null;
}

/** An output step from text (a URL or an attribute): a whole number from 1 up, else null. */
export function stepFromText(text) {
  if (text === null || text === undefined || String(text).trim() === '') return null;
  const step = Number(text);
  return Number.isInteger(step) && step >= 1 ? step : null;
}
