// 'seq2seq-attention/translator': createTranslator alone (src/wasm/translator.js),
// for a page that runs its models in a worker and should not load the
// WebAssembly runtime on its own thread to get there (the main entry's
// createTranslator is the same function).
export { createTranslator } from './index.js';
export type { TranslatorOptions, Translator, WorkerLike } from './index.js';
