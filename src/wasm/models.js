// The models this package ships in models/: the one place their names are
// written. The API (loadModel, shippedModels), the bin, the demo page, the
// embeddable element, scripts/start.sh and the tests read them from here.
//
// Plain data with no WebAssembly behind it, so the page imports this file
// directly (../dist/models.js), as it does options.js.

/**
 * Each shipped model: its languages, and for the fixed-context baseline
 * (no attention) `baselineOf`, the attention model it was trained beside, on
 * the same data and with the same sizes (the page compares the two).
 */
export const modelCatalog = Object.freeze({
  'en-fr': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'fr' }),
  'en-fr-fixed': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'fr', baselineOf: 'en-fr' }),
  'en-zh': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'zh' }),
});

/** The names of the shipped models. */
export const shippedModels = Object.freeze(Object.keys(modelCatalog));

/** The model used when none is named: the bin's --model, the page's and the element's default. */
export const defaultModel = 'en-fr';

/**
 * True when loadModel takes `text` as a model's name (models/NAME.s2s of this
 * package) rather than a path or URL: only letters, digits, '-' and '_', so
 * that './model' stays a path.
 */
export function isModelName(text) {
  return typeof text === 'string' && /^[A-Za-z0-9_-]+$/.test(text);
}

/**
 * Where a named model lives: models/NAME.s2s next to this module's folder
 * (dist/), in the installed package and on a server that serves the
 * repository root alike.
 */
export function modelUrl(name) {
  return new URL(`../models/${name}.s2s`, import.meta.url);
}
