// 'seq2seq-attention/data': the package's plain data and pure functions,
// with no WebAssembly behind them, for a page or a tool that shows models
// and results without loading a model on its own thread (the demo page and
// the embeddable element import this entry; the models run in a worker,
// 'seq2seq-attention/translator'). Each fact lives in the module named
// beside it; this entry only gathers them.
export {
  defaultMaxLength, maxSourceTokens, optionRanges, optionSwitches, possiblyDroppedCoverage, unsureWordProbability,
} from './options.js';  // generated from the C++ option table
export { defaultModel, isModelName, modelCatalog, modelUrl, shippedModels } from './models.js';
export { reviveTranslation, sourceText, translationBuffer } from './translation.js';
export { wordAttention } from './word-attention.js';
