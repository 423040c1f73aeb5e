// The asynchronous API: createTranslator() loads a model and translates off
// the caller's thread. In a browser the model lives in a module Web Worker
// (model-worker.js), so a page never blocks while the decoder runs;
// in Node (or with { worker: false }) it runs on the calling thread behind
// the same promises, yielding between the sentences of a batch.
//
//   const translator = await createTranslator('en-fr', { onProgress: ({ loaded, total }) => ..., signal });
//   const r = await translator.translate('I love deep learning.', { beamSize: 4 });
//   const [a, b] = await translator.translate(['One.', 'Two.']);   // a batch: one result each
//   await translator.dispose();                                    // or: await using translator = ...
//
// Results are the synchronous API's Translations (translation.js): from the
// worker their one buffer is transferred, not copied, and revived here.
import { EnvironmentError, LoadError, UsageError, describeValue } from './errors.js';
import { classifyModelSource } from './model-source.js';
import { modelUrl } from './models.js';
import { asyncDisposeSymbol, disposeSymbol, isNode, nextTask, timeSlicer } from './platform.js';
import { WorkerChannel, isWorker, startNodeWorker, started, warnFallback } from './worker-start.js';
import { reviveTranslation } from './translation.js';

const CREATE_OPTIONS = ['worker', 'workerUrl', 'wasm', 'signal', 'onProgress'];

/**
 * Loads `model` (a shipped name, a URL, bytes, a Blob or a Response, as
 * loadModel takes, or a Promise of one) for asynchronous translation.
 * Options: worker ('auto', the default: a Web Worker in a browser, a
 * worker_threads thread in Node, else this thread with a console warning;
 * true; false; or a Worker you started from the package's
 * model-worker.js or its one-file bundle dist/model-worker.bundle.js, say
 * early in a page, which the translator then owns), workerUrl (where
 * model-worker.js is, when a bundler or a server moved it), wasm (as
 * loadModel's, or a Promise of one: in a worker the runtime starts as soon
 * as it settles, while the model may still be downloading), signal (an
 * AbortSignal that cancels the load) and onProgress ({ loaded, total }
 * bytes of the model; total null when the server does not say).
 */
export async function createTranslator(model, options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new UsageError(`createTranslator(model, options): options must be an object such as { worker: false }, but got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!CREATE_OPTIONS.includes(key)) throw new UsageError(`createTranslator: unknown option '${key}'; the options are ${CREATE_OPTIONS.join(', ')}`);
  }
  const { worker = 'auto', workerUrl, wasm, signal, onProgress } = options;
  const given = isWorker(worker) ? worker : null;
  if (!given && ![true, false, 'auto'].includes(worker)) {
    throw new UsageError(`createTranslator: worker must be true, false, 'auto' or a Worker started from model-worker.js, but got ${describeValue(worker)}`);
  }
  signal?.throwIfAborted();
  // In Node a worker_threads thread (node-worker.js); in a browser a Web Worker.
  const useWorker = given !== null || worker === true || (worker === 'auto' && (isNode || typeof Worker === 'function'));
  if (!useWorker) return inThread(await model, await wasm, signal, onProgress);
  if (!given && !isNode && typeof Worker !== 'function') throw new EnvironmentError('createTranslator: { worker: true } needs Web Workers, which this runtime lacks; use { worker: false }');
  // The model as the worker takes it, made once (a Response can be read
  // only once); bytes stay the caller's, and the load posts a copy.
  const source = Promise.resolve(model).then(transferable);
  source.catch(() => {});
  // The worker: the one given, or workerUrl's; in Node a worker thread;
  // else the package's one-file worker, model-worker.bundle.js, which has no
  // imports: bundlers that follow `new Worker(new URL(…))` bundle it (Vite,
  // webpack), one that copies `new URL(…)` assets copies it whole (Rollup's
  // import-meta-assets), and esbuild's users copy it (README).
  const start = given ? () => given : isNode ? () => startNodeWorker('model', 'createTranslator') : workerUrl ? () => startWorker(workerUrl) : startPackageWorker;
  let backend;
  try {
    backend = new InWorker(await start());
    // The runtime starts in the worker as soon as `wasm` is known, while
    // the model may still be on its way; the worker handles its messages in
    // order, so the load that follows uses that runtime (and reports any
    // failure to start it). Unless told, the worker fetches the runtime
    // this module's bundler placed beside it (defaultWasm), not one
    // beside the worker, which a bundler may have put elsewhere.
    const runtimeAsked = Promise.resolve(wasm).then((given) => {
      const where = given ?? defaultWasm();
      backend.prepare(where instanceof URL ? where.href : where).catch(() => {});
    });
    const ready = await source;
    await runtimeAsked;
    const info = await backend.load(bytesCopy(ready) ?? ready, { signal, onProgress });
    return new Translator(backend, info, 'worker');
  } catch (error) {
    backend?.close();
    // No worker could start: with 'auto', the main thread instead
    // (translator.backend says which, and the console why).
    if (error?.code !== 'S2S_WORKER_FAILED' || worker !== 'auto') throw error;
    warnFallback(error, "translating on the main thread instead (translator.backend is 'main-thread')");
  }
  return inThread(await source, await wasm, signal, onProgress);
}

// A copy of bytes (an ArrayBuffer or a view), for a worker to own (the load
// transfers it, and the caller's stay whole); null for anything else.
function bytesCopy(model) {
  if (model instanceof ArrayBuffer) return model.slice(0);
  if (ArrayBuffer.isView(model)) return model.buffer.slice(model.byteOffset, model.byteOffset + model.byteLength);
  return null;
}

// s2s-core.wasm beside this module, written out so that bundlers emit it
// and rewrite the URL (the worker is then told where it went).
function defaultWasm() {
  return new URL('./s2s-core.wasm', import.meta.url);
}

// The model on the calling thread. loadModel is imported only then: a page
// whose model runs in a worker does not parse the runtime's glue itself.
async function inThread(model, wasm, signal, onProgress) {
  const { loadModel } = await import('./load-model.js');
  const loaded = await loadModel(model, { wasm, signal, onProgress });
  return new Translator(new InThread(loaded), loaded.info, 'main-thread');
}

const START_FIX = 'pass workerUrl, or { worker: false } to translate on this thread';

function startWorker(workerUrl) {
  return started(() => new Worker(workerUrl, { type: 'module' }), workerUrl, 'createTranslator', START_FIX);
}

// The package's one-file worker, written out in full as bundlers recognize
// it (Vite and webpack 5 bundle it; Rollup's import-meta-assets copies it).
function startPackageWorker() {
  return started(() => new Worker(new URL('./model-worker.bundle.js', import.meta.url), { type: 'module' }), 'model-worker.bundle.js',
    'createTranslator', START_FIX);
}

// What the worker can receive for `model` (its kind: model-source.js):
// names and URLs as absolute URL strings (the worker's own base differs
// from the page's), a file path in Node as it is (the worker thread shares
// this process's working directory), bytes and a Blob as they are
// (createTranslator posts a copy of bytes: bytesCopy), a Response read here.
async function transferable(model) {
  const given = classifyModelSource(model);
  if (given.kind === 'name') return given.shipped ? modelUrl(model).href : model;  // the worker names an unknown one
  if (given.kind === 'url' || given.kind === 'relative-url') return given.url.href;
  if (given.kind === 'response') {
    if (!model.ok) throw new LoadError(`createTranslator: the Response for ${model.url || 'the model'} is HTTP ${model.status}; pass a successful response`);
    return model.arrayBuffer();
  }
  return model;  // a path, bytes, a Blob, or something the worker's loadModel will name
}

class Translator {
  #backend;
  #info;
  #where;

  constructor(backend, info, where) {
    this.#backend = backend;
    this.#info = info;
    this.#where = where;
  }

  /** Where the model runs: 'worker' or 'main-thread'. */
  get backend() {
    return this.#where;
  }

  /** The model's info (as model.info). */
  get info() {
    return this.#info;
  }

  /** True after dispose(). */
  get disposed() {
    return this.#backend === null;
  }

  /**
   * Translates a string (resolves to a Translation) or an array of strings
   * (resolves to one Translation each, in order). Options: those of
   * model.translate, and signal (an AbortSignal: the promise rejects with
   * its reason, and sentences not yet started are skipped).
   */
  async translate(input, options = {}) {
    if (this.#backend === null) throw new UsageError('translator.translate: this translator was disposed; create another with createTranslator()');
    const batch = Array.isArray(input);
    const texts = batch ? input : [input];
    texts.forEach((text, i) => {
      if (typeof text !== 'string') {
        throw new UsageError(`translator.translate: ${batch ? `input[${i}]` : 'text'} must be a string, but got ${describeValue(text)}`);
      }
    });
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new UsageError(`translator.translate(text, options): options must be an object such as { beamSize: 4 }, but got ${describeValue(options)}`);
    }
    const { signal, ...translateOptions } = options;
    signal?.throwIfAborted();
    const results = await this.#backend.translate(texts, translateOptions, signal);
    return batch ? results : results[0];
  }

  /**
   * Decoding step by step: an async iterator over the steps of the
   * translation of `text`, { index, token, logProb, attention } (attention:
   * the step's Float32Array row; null for the fixed-context baseline), each
   * as the decoder writes it in greedy decoding (from the worker, while the
   * next step is computed). With beamSize > 1 the best hypothesis is known
   * only when the search ends: its steps come then, logProb null. The whole
   * Translation is the iterator's `translation` promise.
   *   const steps = translator.steps('I love deep learning.');
   *   for await (const step of steps) drawRow(step.index, step.token, step.attention);
   *   const result = await steps.translation;
   */
  steps(text, options = {}) {
    if (this.#backend === null) throw new UsageError('translator.steps: this translator was disposed; create another with createTranslator()');
    if (typeof text !== 'string') throw new UsageError(`translator.steps: text must be a string, but got ${describeValue(text)}`);
    const { signal, ...translateOptions } = options ?? {};
    const queue = [];
    let wake = null;
    let finished = false;
    let failure = null;
    const notify = () => { wake?.(); wake = null; };
    const translation = this.#backend.translateSteps(text, translateOptions, signal, (step) => { queue.push(step); notify(); })
      .then((result) => { finished = true; notify(); return result; },
        (error) => { failure = error; finished = true; notify(); throw error; });
    translation.catch(() => {});  // reported through the iterator (and to whoever awaits translation)
    const iterator = (async function* steps() {
      for (;;) {
        if (queue.length > 0) {
          yield queue.shift();
        } else if (finished) {
          if (failure) throw failure;
          return;
        } else {
          await new Promise((resolve) => { wake = resolve; });
        }
      }
    })();
    iterator.translation = translation;
    return iterator;
  }

  /**
   * Translates a text of several sentences one sentence at a time (as
   * model.translateText): resolves to { text, sentences: [{ source, start,
   * end, translation }] }. Options: those of translate, and signal.
   */
  async translateText(text, options = {}) {
    if (this.#backend === null) throw new UsageError('translator.translateText: this translator was disposed; create another with createTranslator()');
    if (typeof text !== 'string') throw new UsageError(`translator.translateText: text must be a string, but got ${describeValue(text)}`);
    const { signal, ...translateOptions } = options ?? {};
    signal?.throwIfAborted();
    return this.#backend.translateText(text, translateOptions, signal);
  }

  /** Frees the model (and ends the worker). Calling it again does nothing. */
  async dispose() {
    const backend = this.#backend;
    this.#backend = null;
    backend?.close();
  }

  [asyncDisposeSymbol]() {
    return this.dispose();
  }

  [disposeSymbol]() {
    this.dispose();
  }
}

// The model on this thread: the same promises, one sentence per task.
class InThread {
  #model;

  constructor(model) {
    this.#model = model;
  }

  async translate(texts, options, signal) {
    const results = [];
    await nextTask();  // the promise's caller goes on first
    const slice = timeSlicer();
    for (const text of texts) {
      await slice();  // every 8 ms, let an abort, a paint or other work in
      signal?.throwIfAborted();
      if (this.#model.disposed) throw new UsageError('translator.translate: this translator was disposed while translating');
      results.push(this.#model.translate(text, options));
    }
    return results;
  }

  async translateSteps(text, options, signal, onStep) {
    await nextTask();
    signal?.throwIfAborted();
    return this.#model.translate(text, options, onStep);
  }

  async translateText(text, options, signal) {
    await nextTask();
    signal?.throwIfAborted();
    return this.#model.translateText(text, options);
  }

  close() {
    this.#model.dispose();
  }
}

// The model in a worker (model-worker.js), through a WorkerChannel: while
// loading, the load hears { id, progress }; while decoding step by step,
// the request hears { id, step }.
class InWorker {
  #channel;

  constructor(worker) {
    this.#channel = new WorkerChannel(worker, { name: 'translation', file: 'model-worker.bundle.js' });
  }

  // Starts the worker's runtime from `wasm` (where s2s-core.wasm comes
  // from; undefined: next to the worker) before any model is there.
  prepare(wasm) {
    return this.#channel.request({ type: 'runtime', wasm });
  }

  load(model, { signal, onProgress }) {
    const transfer = model instanceof ArrayBuffer ? [model] : [];
    return this.#channel.request({ type: 'load', model }, { signal, on: { progress: onProgress }, transfer });
  }

  async translate(texts, options, signal) {
    const results = await this.#channel.request({ type: 'translate', texts, options }, { signal });
    return results.map(reviveTranslation);
  }

  async translateSteps(text, options, signal, onStep) {
    const value = await this.#channel.request({ type: 'steps', text, options }, { signal, on: { step: onStep } });
    return reviveTranslation(value);
  }

  async translateText(text, options, signal) {
    const value = await this.#channel.request({ type: 'translateText', text, options }, { signal });
    for (const sentence of value.sentences) sentence.translation = reviveTranslation(sentence.translation);
    return value;
  }

  close() {
    this.#channel.close(new UsageError('translator.translate: this translator was disposed; create another with createTranslator()'));
  }
}
