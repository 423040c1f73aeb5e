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

/**
 * Says where s2s-train.wasm comes from (a URL, its bytes, a Blob, a Response
 * or a WebAssembly.Module) before the trainer's runtime starts; returns
 * false, changing nothing, once it has.
 */
export declare function setTrainRuntimeSource(source: import('./index.js').LoadOptions['wasm']): boolean;

/** The range and default of one numeric option of {@link TrainerOptions}. */
export interface TrainerOptionRange {
  min: number;
  max: number;
  /** The value used when the option is left out (but see `datesDefault` and `directDefaultPerHidden`). */
  default: number;
  /** True when only whole numbers are allowed. */
  integer: boolean;
  /** `hidden` only: the default for task `'dates'`. */
  datesDefault?: number;
  /** `decoderHidden` only: for `'dot'` and `'scaled-dot'` attention the default is this × `hidden`. */
  directDefaultPerHidden?: number;
}

/**
 * The ranges and defaults of the numeric {@link TrainerOptions} (frozen), as
 * the C++ trainer defines and checks them (src/wasm/run_options.h), e.g. to
 * build controls: `trainerOptionRanges.symbols` is `{ min, max, default, integer }`.
 * (`maxLength` must also be at least `minLength`.)
 */
export declare const trainerOptionRanges: Readonly<{
  symbols: TrainerOptionRange;
  minLength: TrainerOptionRange;
  maxLength: TrainerOptionRange;
  trainSize: TrainerOptionRange;
  testSize: TrainerOptionRange;
  embedding: TrainerOptionRange;
  hidden: TrainerOptionRange;
  decoderHidden: TrainerOptionRange;
  attentionSize: TrainerOptionRange;
  outputHidden: TrainerOptionRange;
  batchSize: TrainerOptionRange;
  learningRate: TrainerOptionRange;
  warmupSteps: TrainerOptionRange;
  steps: TrainerOptionRange;
  dropout: TrainerOptionRange;
  seed: TrainerOptionRange;
}>;

/** `stepCount`: the range of {@link Trainer.step}'s count; task `'pairs'` holds out every `pairsHeldOutEvery`-th pair. */
export declare const trainerLimits: Readonly<{
  stepCount: Readonly<{ min: number; max: number }>;
  pairsHeldOutEvery: number;
}>;
