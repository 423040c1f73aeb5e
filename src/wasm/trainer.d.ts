// 'seq2seq-attention/trainer': training on its own entry, for bundled apps
// (the main entry's createTrainer and train are the same functions).
export { createTrainer, train } from './index.js';
export type { Trainer, TrainerOptions } from './index.js';

/**
 * Starts the trainer's WebAssembly runtime (s2s-train.wasm) ahead of the
 * first run, once, and resolves to it: an app can fetch and compile it while
 * the user reads. A failed start rejects with a LoadError and is tried again
 * on the next call.
 */
export declare function getTrainCore(): Promise<unknown>;
