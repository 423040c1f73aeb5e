// 'seq2seq-attention/trainer': training on its own entry, for bundled apps
// (the main entry's createTrainer and train are the same functions).
export { createTrainer, train } from './index.js';
export type { Trainer, TrainerOptions } from './index.js';
