// The models this package ships in models/: the one place their names are
// written. The API (loadModel, shippedModels), the bin, the demo page, the
// embeddable element, scripts/start.sh and the tests read them from here.
//
// Plain data with no WebAssembly behind it: the public entry
// 'seq2seq-attention/data' (data.js) gathers it with options.js (generated
// by the build from the C++ option table: scripts/write-option-ranges.mjs).

import { inPackage } from './platform.js';

/**
 * Each shipped model: its languages, and for the fixed-context baseline
 * (no attention) `baselineOf`, the attention model it was trained beside, on
 * the same data and with the same sizes (the page compares the two).
 */
export const modelCatalog = Object.freeze({
  'en-fr': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'fr' }),
  'en-fr-fixed': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'fr', baselineOf: 'en-fr' }),
  'en-zh': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'zh' }),
  'en-zh-fixed': Object.freeze({ sourceLanguage: 'en', targetLanguage: 'zh', baselineOf: 'en-zh' }),
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
 * repository root alike. The path is not a literal on purpose: a bundler
 * would copy every model it could match. A bundled app names its model's
 * URL instead, `import enFr from 'seq2seq-attention/models/en-fr'`
 * (models/NAME.js: one literal URL each, so it gets exactly that file).
 */
export function modelUrl(name) {
  const path = ['..', 'models', `${name}.s2s`].join('/');
  return inPackage(path);
}
