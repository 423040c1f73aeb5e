// Training in JavaScript: the project's C++ trainer (src/train) in the
// second WebAssembly module, s2s-train, driven one step() at a time
// (createTrainer, as the page's Train view does in a worker) or to the end of
// a schedule (train). It is 'seq2seq-attention/trainer'; the main entry's
// createTrainer and train import it on first use.
//
//   const { trainer } = await train({ task: 'reversal', onProgress: (p) => console.log(p.steps, p.loss) });
//   trainer.translate('a b c d').attention;       // the mirrored diagonal
import { UsageError, describeValue, internalError, openHandle, unwrap } from './errors.js';
import { disposeSymbol, nextTask } from './platform.js';
import { trainerLimits } from './trainer-options.js';  // generated from the C++ table (src/wasm/run_options.h)
import { checkOptions, deepFreeze, makeResult, wellFormed } from './translation.js';
import { free, freeWhenForgotten, lazyModule } from './wasm-common.js';  // not runtime.js, which starts the translation runtime

export { trainerLimits, trainerOptionRanges } from './trainer-options.js';

let trainSource = null;  // where s2s-train.wasm comes from, when told (setTrainRuntimeSource)

/**
 * The training runtime (Embind: BrowserTrainingRun), imported on first use; its
 * .wasm named by one literal URL, which bundlers follow.
 */
export const getTrainCore = lazyModule(async () => (await import('./s2s-train.js')).default,
  new URL('./s2s-train.wasm', import.meta.url), 'training module s2s-train.wasm', () => trainSource,
  'createTrainerWorker(options, { wasm: url }) or setTrainRuntimeSource(url)');

/**
 * Says where the training runtime's s2s-train.wasm comes from (a URL, its
 * bytes, a Blob, a Response or a WebAssembly.Module), before it starts: the
 * training worker is told where the bundler put it beside the module that
 * started the worker. Returns false (and changes nothing) once it has started.
 */
export function setTrainRuntimeSource(source) {
  if (getTrainCore.started()) return false;
  trainSource = source;
  return true;
}

// The options of a run are train_bindings.cpp's (trainingOptions(): their
// names; it checks their values, and names the option in its message);
// these are the loop's own, train()'s.
const TRAIN_LOOP_OPTION_NAMES = ['evaluateEvery', 'evaluateLimit', 'stopAtExactMatch', 'chunkSize', 'onProgress', 'signal'];

// The run's options out of `options`, after checking that every name is a
// run's (the core's list) or one of `extra`.
function checkTrainerOptions(core, options, context, extra = []) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new UsageError(`${context}: options must be an object such as { task: 'reversal' }, but got ${describeValue(options)}`);
  }
  const names = JSON.parse(core.trainingOptions());
  for (const key of Object.keys(options)) {
    if (!names.includes(key) && !extra.includes(key)) {
      throw new UsageError(`${context}: unknown option '${key}'; the options are ${[...names, ...extra].join(', ')}`);
    }
  }
  const run = {};
  for (const key of names) {
    if (options[key] !== undefined) run[key] = options[key];
  }
  return run;
}

class Trainer {
  #run;  // the Embind BrowserTrainingRun; null once disposed
  #info;

  constructor(core, options) {
    const run = openHandle(() => new core.BrowserTrainingRun(JSON.stringify(options)), 'starting a training run', 'createTrainer: ');
    this.#run = run;
    this.#info = deepFreeze(unwrap(run.info(), 'trainer.info: '));
    freeWhenForgotten(this, run);
  }

  /** The run's options (defaults filled in), architecture, vocabularies and data sizes. */
  get info() {
    return this.#info;
  }

  get disposed() {
    return this.#run === null;
  }

  /** Trains `count` batches (trainerLimits.stepCount) and reports their mean loss per target token. */
  step(count = 1) {
    const { min, max } = trainerLimits.stepCount;
    if (!Number.isInteger(count) || count < min || count > max) {
      throw new UsageError(`trainer.step(count): count must be a whole number from ${min} to ${max}, but got ${describeValue(count)}`);
    }
    return unwrap(this.#live('step').step(count), 'trainer.step: ');
  }

  /**
   * Greedy exact match on the held-out examples, overall and by source
   * length: { steps, exactMatch, correct, total, tokenAccuracy, byLength: [{ length, correct, total }] }.
   */
  evaluate({ limit = 0 } = {}) {
    if (!Number.isInteger(limit) || limit < 0) {
      throw new UsageError(`trainer.evaluate: limit must be a whole number >= 0 (0 = all), but got ${describeValue(limit)}`);
    }
    return unwrap(this.#live('evaluate').evaluate(limit), 'trainer.evaluate: ');
  }

  /** As Model.translate: the current model's output and attention for `text`. */
  translate(text, options = {}) {
    const run = this.#live('translate');
    if (typeof text !== 'string') {
      throw new UsageError(`trainer.translate(text): text must be a string, but got ${describeValue(text)}`);
    }
    const checked = checkOptions(options);
    return makeResult(unwrap(run.translate(wellFormed(text), JSON.stringify(checked)), 'trainer.translate: '), checked.alternatives > 0);
  }

  /** The first `count` held-out examples as text: [{ source, target, length }]. */
  probes(count = 10) {
    if (!Number.isInteger(count) || count < 0) {
      throw new UsageError(`trainer.probes(count): count must be a whole number >= 0, but got ${describeValue(count)}`);
    }
    return unwrap(this.#live('probes').probes(count), 'trainer.probes: ');
  }

  /** The model as it is now, as the bytes of a .s2s file: loadModel(bytes) translates with it. */
  toBytes() {
    const view = this.#live('toBytes').modelBytes();
    if (view === null) throw internalError('saving the model', new Error('the module returned no bytes'));
    return new Uint8Array(view);  // a copy: the view points into the WASM heap
  }

  /** Frees the run's memory. Calling it again does nothing; any other call afterwards throws. */
  dispose() {
    if (this.#run === null) return;
    const run = this.#run;
    this.#run = null;
    free(this, run);
  }

  /** `using trainer = await createTrainer(...)` disposes it at the end of the block. */
  [disposeSymbol]() {
    this.dispose();
  }

  #live(method) {
    if (this.#run === null) throw new UsageError(`trainer.${method}: this trainer was disposed; create a new one with createTrainer()`);
    return this.#run;
  }
}

/**
 * A training run you drive yourself, one step() at a time (the page's
 * Train view does this in a worker). Options: task ('reversal', 'dates' or
 * 'pairs' with pairs: 'source\ttarget\n...'), attention ('additive' or
 * 'none' for the fixed-context baseline), sizes, batchSize, learningRate,
 * steps (the learning-rate schedule's length), seed; see index.d.ts.
 */
export async function createTrainer(options = {}) {
  const core = await getTrainCore();
  return new Trainer(core, checkTrainerOptions(core, options, 'createTrainer'));
}

/**
 * Trains a small model to the end of its schedule (`steps`, default 2000),
 * or until held-out exact match reaches `stopAtExactMatch`, or until
 * `signal` aborts; it yields to the event loop between chunks of steps.
 * onProgress({ steps, totalSteps, loss, stepsPerSecond, evaluation }) is
 * called after every chunk (evaluation: every `evaluateEvery` steps, else
 * null). Resolves to { trainer, evaluation, reason: 'steps' | 'target' |
 * 'aborted', seconds }; dispose the trainer when done.
 */
export async function train(options = {}) {
  const run = checkTrainerOptions(await getTrainCore(), options, 'train', TRAIN_LOOP_OPTION_NAMES);
  const {
    evaluateEvery = 100, evaluateLimit = 0, stopAtExactMatch = null, chunkSize = 10, onProgress = null, signal = null,
  } = options ?? {};
  const positive = (name, value) => {
    if (!Number.isInteger(value) || value < 1) throw new UsageError(`train: ${name} must be a whole number >= 1, but got ${describeValue(value)}`);
  };
  positive('evaluateEvery', evaluateEvery);
  positive('chunkSize', chunkSize);
  if (!Number.isInteger(evaluateLimit) || evaluateLimit < 0) throw new UsageError(`train: evaluateLimit must be a whole number >= 0 (0 = all), but got ${describeValue(evaluateLimit)}`);
  if (stopAtExactMatch !== null && !(typeof stopAtExactMatch === 'number' && stopAtExactMatch > 0 && stopAtExactMatch <= 1)) {
    throw new UsageError(`train: stopAtExactMatch must be a number in (0, 1], such as 0.95, but got ${describeValue(stopAtExactMatch)}`);
  }
  if (onProgress !== null && typeof onProgress !== 'function') throw new UsageError(`train: onProgress must be a function, but got ${describeValue(onProgress)}`);
  if (signal !== null && typeof signal?.aborted !== 'boolean') throw new UsageError('train: signal must be an AbortSignal');

  const trainer = await createTrainer(run);
  const totalSteps = trainer.info.options.steps;
  const started = performance.now();
  let evaluation = null;
  let reason = 'steps';
  try {
    let done = 0;
    while (done < totalSteps) {
      if (signal?.aborted) {
        reason = 'aborted';
        break;
      }
      const count = Math.min(chunkSize, totalSteps - done, evaluateEvery - (done % evaluateEvery));
      const report = trainer.step(count);
      done = report.steps;
      const fresh = done % evaluateEvery === 0 || done === totalSteps ? trainer.evaluate({ limit: evaluateLimit }) : null;
      if (fresh) evaluation = fresh;
      const seconds = (performance.now() - started) / 1000;
      onProgress?.({ steps: done, totalSteps, loss: report.loss, learningRate: report.learningRate,
        stepsPerSecond: done / Math.max(seconds, 1e-9), seconds, evaluation: fresh });
      if (fresh && stopAtExactMatch !== null && fresh.exactMatch >= stopAtExactMatch) {
        reason = 'target';
        break;
      }
      await nextTask();
    }
  } catch (error) {
    trainer.dispose();
    throw error;
  }
  evaluation ??= trainer.evaluate({ limit: evaluateLimit });
  return { trainer, evaluation, reason, seconds: (performance.now() - started) / 1000 };
}
