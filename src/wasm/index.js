// seq2seq-attention: the JavaScript API, what `import ... from
// 'seq2seq-attention'` gives.
//
//   import { loadModel } from 'seq2seq-attention';
//   const model = await loadModel('en-fr');   // shipped name, URL, path, bytes, Blob or Response
//   const r = model.translate('I love deep learning.', { beamSize: 4 });
//   r.text; r.sourceTokens; r.targetTokens; r.attention;
//   r.sourceWords; r.targetWords;              // words as spans of subword pieces
//   wordAttention(r).attention;                // the same attention, word by word
//   model.dispose();
//
//   const translator = await createTranslator('en-fr');   // the same, off the main thread (a worker)
//   await translator.translate(['One.', 'Two.']);
//
//   import { train } from 'seq2seq-attention';   // watch attention learn (trainer.js)
//   const trainer = await createTrainerWorker({ task: 'reversal' }, { onProgress });   // the same, in a worker (trainer-worker.js)
//
// Each part lives in its module: load-model.js (loadModel, Model, training's
// entry points), translator.js (createTranslator), translation.js (results),
// word-attention.js, models.js (the shipped names), options.js (generated).
// Hooks for tests and benchmarks (heap statistics, starting the runtime
// early) are in diagnostics.js, 'seq2seq-attention/diagnostics'.
export { createTrainer, createTrainerWorker, loadModel, train } from './load-model.js';
export { createTranslator } from './translator.js';
export { shippedModels } from './models.js';
export { optionRanges, unsureWordProbability } from './options.js';
export { reviveTranslation, sourceText, translationBuffer } from './translation.js';
export { wordAttention } from './word-attention.js';
export { dataCredit, figureLabels, heatmapSvg } from './figure.js';
export {
  EnvironmentError, InputError, InternalError, LoadError, ModelFileError, ResourceError, Seq2SeqError, UsageError, WorkerError,
} from './errors.js';
