// createTrainerWorker: a training run off the caller's thread, as
// createTranslator is a model off it. The loop (training-session.js) runs
// in a module Web Worker in a browser (the package's one-file
// training-worker.bundle.js), in a worker_threads thread in Node, or with
// { worker: false } on this thread, yielding between chunks of steps; the
// caller drives it with promises and hears from it through callbacks.
//
//   const trainer = await createTrainerWorker({ task: 'reversal' }, {
//     probe: 'a b c d', onProgress: ({ steps, loss }) => ..., onProbe: ({ steps, result }) => draw(result),
//   });
//   await trainer.run({ until: 300 });         // resolves when it stops, exactly at step 300
//   trainer.run();                             // continues, to the end of the schedule
//   await trainer.translate('a b c d e');      // answered between two chunks of steps
//   await trainer.pause();                     // resolves once stopped: { running, finished, steps }
//   await trainer.dispose();
//
// 'seq2seq-attention/trainer-worker' is this module alone, which loads no
// WebAssembly on the caller's thread (the page's Train view imports it).
import { EnvironmentError, UsageError, describeValue, errorOfKind } from './errors.js';
import { asyncDisposeSymbol, disposeSymbol, isNode } from './platform.js';
import { reviveTranslation } from './translation.js';
import { WorkerChannel, isWorker, startNodeWorker, started, warnFallback } from './worker-start.js';

const CONTEXT = 'createTrainerWorker';
const CREATE_OPTIONS = ['worker', 'workerUrl', 'wasm', 'probe', 'trace', 'probeEvery', 'evaluateEvery', 'chunkSize',
  'onProgress', 'onProbe', 'onEvaluation', 'onStateChange'];
const CALLBACKS = ['onProgress', 'onProbe', 'onEvaluation', 'onStateChange'];
const START_FIX = 'pass workerUrl, or { worker: false } to train on this thread';

const isWhole = (value, min) => Number.isInteger(value) && value >= min;
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Starts a training run (`options`: createTrainer's) in a worker. `how`:
 * worker ('auto' | true | false | a Worker started from the package's
 * training-worker.js or dist/training-worker.bundle.js), workerUrl, wasm
 * (where s2s-train.wasm is), probe (a text translated every `probeEvery`
 * steps, default 10, and reported to onProbe), trace (the probe carries the
 * decoder's trace), evaluateEvery (held-out evaluation, default 100, and at
 * the end, reported to onEvaluation), chunkSize (steps between requests,
 * default 5), onProgress, onProbe, onEvaluation, onStateChange.
 */
export async function createTrainerWorker(options = {}, how = {}) {
  if (!isObject(options)) throw new UsageError(`${CONTEXT}(options, how): options must be an object such as { task: 'reversal' }, but got ${describeValue(options)}`);
  if (!isObject(how)) throw new UsageError(`${CONTEXT}(options, how): how must be an object such as { worker: false }, but got ${describeValue(how)}`);
  for (const key of Object.keys(how)) {
    if (!CREATE_OPTIONS.includes(key)) throw new UsageError(`${CONTEXT}: unknown option '${key}' of how; those are ${CREATE_OPTIONS.join(', ')}`);
  }
  const { worker = 'auto', workerUrl, wasm, probe = '', trace = false, probeEvery = 10, evaluateEvery = 100, chunkSize = 5 } = how;
  const given = isWorker(worker) ? worker : null;
  if (!given && ![true, false, 'auto'].includes(worker)) {
    throw new UsageError(`${CONTEXT}: worker must be true, false, 'auto' or a Worker started from training-worker.js, but got ${describeValue(worker)}`);
  }
  if (typeof probe !== 'string') throw new UsageError(`${CONTEXT}: probe must be a string, but got ${describeValue(probe)}`);
  if (typeof trace !== 'boolean') throw new UsageError(`${CONTEXT}: trace must be true or false, but got ${describeValue(trace)}`);
  for (const [name, value] of Object.entries({ probeEvery, evaluateEvery, chunkSize })) {
    if (!isWhole(value, 1)) throw new UsageError(`${CONTEXT}: ${name} must be a whole number >= 1, but got ${describeValue(value)}`);
  }
  for (const name of CALLBACKS) {
    if (how[name] !== undefined && typeof how[name] !== 'function') throw new UsageError(`${CONTEXT}: ${name} must be a function, but got ${describeValue(how[name])}`);
  }
  const callbacks = Object.fromEntries(CALLBACKS.map((name) => [name, how[name] ?? null]));
  const create = { type: 'create', options, probe, trace, probeEvery, evaluateEvery, chunkSize };
  const useWorker = given !== null || worker === true || (worker === 'auto' && (isNode || typeof Worker === 'function'));
  if (useWorker) {
    if (!given && !isNode && typeof Worker !== 'function') throw new EnvironmentError(`${CONTEXT}: { worker: true } needs Web Workers, which this runtime lacks; use { worker: false }`);
    const start = given ? () => given : isNode ? () => startNodeWorker('training', CONTEXT) : workerUrl ? () => startWorkerAt(workerUrl) : startPackageWorker;
    let channel;
    try {
      channel = new TrainerChannel(await start(), callbacks);
      // The runtime the bundler placed beside this module (defaultWasm),
      // unless told: the worker may have been put elsewhere.
      const where = (await wasm) ?? defaultWasm();
      const info = await channel.request({ ...create, wasm: where instanceof URL ? where.href : where });
      return new TrainerWorker(channel, info, 'worker');
    } catch (error) {
      channel?.close();
      if (error?.code !== 'S2S_WORKER_FAILED' || worker !== 'auto') throw error;
      warnFallback(error, "training on the main thread instead (trainer.backend is 'main-thread')");
    }
  }
  const channel = new TrainerChannel(await inThreadWorker(), callbacks);
  const info = await channel.request({ ...create, wasm: (await wasm) ?? undefined });
  return new TrainerWorker(channel, info, 'main-thread');
}

// s2s-train.wasm beside this module, written out so that bundlers emit it.
function defaultWasm() {
  return new URL('./s2s-train.wasm', import.meta.url);
}

function startWorkerAt(workerUrl) {
  return started(() => new Worker(workerUrl, { type: 'module' }), workerUrl, CONTEXT, START_FIX);
}

// The package's one-file worker, written out in full as bundlers recognize
// it (Vite and webpack 5 bundle it; Rollup's import-meta-assets copies it).
function startPackageWorker() {
  return started(() => new Worker(new URL('./training-worker.bundle.js', import.meta.url), { type: 'module' }), 'training-worker.bundle.js',
    CONTEXT, START_FIX);
}

// The session on this thread, behind the same messages (no copies: the
// values are the session's own). Imported only then, so that a page whose
// trainer runs in a worker never loads the trainer itself.
async function inThreadWorker() {
  const { trainingSession } = await import('./training-session.js');
  const listeners = [];
  const session = trainingSession((data) => queueMicrotask(() => listeners.forEach((listener) => listener({ data }))));
  return {
    postMessage: (message) => { session.handle(message); },
    addEventListener: (type, listener) => { if (type === 'message') listeners.push(listener); },
    terminate: () => { session.handle({ type: 'dispose' }); },
  };
}

// One session (training-session.js) through a WorkerChannel: requests by
// id and their replies; the session's events ({ event, ... }, no id) to the
// callbacks, in the order sent; `state` the last one reported.
class TrainerChannel {
  #channel;
  #callbacks;
  state = { running: false, finished: false, steps: 0 };

  constructor(worker, callbacks) {
    this.#callbacks = callbacks;
    this.#channel = new WorkerChannel(worker, { name: 'training', file: 'training-worker.bundle.js', onMessage: (message) => this.#event(message) });
  }

  #event({ event, progress, probe, evaluation, state }) {
    const { onProgress, onProbe, onEvaluation, onStateChange } = this.#callbacks;
    if (event === 'progress') {
      this.state = { ...this.state, steps: progress.steps };
      onProgress?.(progress);
    } else if (event === 'probe') {
      onProbe?.(probe.result ? { ...probe, result: reviveTranslation(probe.result) }
        : { steps: probe.steps, text: probe.text, error: errorOfKind(probe.kind, `trainer probe: ${probe.error}`) });
    } else if (event === 'evaluation') {
      onEvaluation?.(evaluation);
    } else if (event === 'state') {
      this.state = state;
      onStateChange?.(state);
    }
  }

  request(message) {
    return this.#channel.request(message);
  }

  close() {
    this.#channel.close(new UsageError('trainer: this trainer was disposed; create another with createTrainerWorker()'));
  }
}

/** What createTrainerWorker resolves to; see index.d.ts (TrainerWorker). */
class TrainerWorker {
  #channel;
  #info;
  #where;

  constructor(channel, info, where) {
    this.#channel = channel;
    this.#info = info;
    this.#where = where;
  }

  /** Where the loop runs: 'worker' or 'main-thread'. */
  get backend() { return this.#where; }
  /** As Trainer.info: the options with defaults filled in, the architecture, the data sizes. */
  get info() { return this.#info; }
  get disposed() { return this.#channel === null; }
  /** The last state the loop reported: { running, finished, steps }. */
  get state() { return this.#channel?.state ?? { running: false, finished: false, steps: 0 }; }

  /**
   * Trains until step `until`, or the first of `pauseAt`'s steps past the
   * current one, or the end of the schedule, exactly; resolves then to the
   * state. While running, it changes where the run stops.
   */
  async run({ until, pauseAt = [] } = {}) {
    const channel = this.#live('run');
    if (until !== undefined && !isWhole(until, 1)) throw new UsageError(`trainer.run: until must be a whole number >= 1, but got ${describeValue(until)}`);
    if (!Array.isArray(pauseAt) || !pauseAt.every((s) => isWhole(s, 1))) {
      throw new UsageError(`trainer.run: pauseAt must be an array of whole numbers >= 1, such as [100, 200], but got ${describeValue(pauseAt)}`);
    }
    return channel.request({ type: 'run', until, pauseAt });
  }

  /** Stops after the chunk of steps under way; resolves to the state then. */
  async pause() { return this.#live('pause').request({ type: 'pause' }); }

  /** Changes the periodic probe ({ text, trace }: either) and probes now (onProbe). */
  async setProbe({ text, trace } = {}) {
    if (text !== undefined && typeof text !== 'string') throw new UsageError(`trainer.setProbe: text must be a string, but got ${describeValue(text)}`);
    if (trace !== undefined && typeof trace !== 'boolean') throw new UsageError(`trainer.setProbe: trace must be true or false, but got ${describeValue(trace)}`);
    return this.#live('setProbe').request({ type: 'probe', text, trace });
  }

  /** As Trainer.translate, with the model as trained so far, answered between two chunks of steps. */
  async translate(text, options = {}) {
    if (typeof text !== 'string') throw new UsageError(`trainer.translate(text): text must be a string, but got ${describeValue(text)}`);
    return reviveTranslation(await this.#live('translate').request({ type: 'translate', text, options }));
  }

  async evaluate({ limit = 0 } = {}) { return this.#live('evaluate').request({ type: 'evaluate', limit }); }
  async probes(count = 10) { return this.#live('probes').request({ type: 'probes', count }); }
  async toBytes() { return this.#live('toBytes').request({ type: 'toBytes' }); }

  /** Frees the run and ends the worker; pending promises reject. Calling it again does nothing. */
  async dispose() {
    const channel = this.#channel;
    this.#channel = null;
    channel?.close();
  }

  [asyncDisposeSymbol]() { return this.dispose(); }
  [disposeSymbol]() { this.dispose(); }

  #live(method) {
    if (this.#channel === null) throw new UsageError(`trainer.${method}: this trainer was disposed; create another with createTrainerWorker()`);
    return this.#channel;
  }
}
