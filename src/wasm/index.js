// seq2seq-attention: the JavaScript API (the design's contract 3).
//
//   import { loadModel } from 'seq2seq-attention';
//   const model = await loadModel('en-fr');   // shipped name, URL, path or bytes
//   const r = model.translate('I love deep learning.', { beamSize: 4 });
//   r.text; r.sourceTokens; r.targetTokens; r.attention;
//   r.sourceWords; r.targetWords;              // words as spans of subword pieces
//   wordAttention(r).attention;                // the same attention, word by word
//   model.dispose();
//
//   import { train } from 'seq2seq-attention';   // watch attention learn
//   const { trainer } = await train({ task: 'reversal', onProgress: (p) => console.log(p.steps, p.loss) });
//   trainer.translate('a b c d').attention;       // the mirrored diagonal
//
// One file for Node 20 and browsers, with no bundler needed: the WebAssembly
// module (./s2s-core.js and ./s2s-core.wasm) and the shipped models
// (../models/NAME.s2s) are found relative to this module's URL. In Node they
// are read with fs (emscripten 3.1.6's loader cannot fetch file paths there);
// in browsers they are fetched.
//
// Under this file is a raw Embind surface (src/wasm/bindings.cpp) that users
// never see: Embind objects stay private, every C++ failure arrives here as
// a message and leaves as an ordinary Error, and results are plain objects
// parsed from JSON, so they never point into the WASM heap (whose views
// detach when memory grows).
import createS2sCore from './s2s-core.js';
import { optionRanges } from './options.js';

export { optionRanges } from './options.js';
export { wordAttention } from './word-attention.js';

/** The models the package ships in its models/ folder. */
export const shippedModels = Object.freeze(['en-fr', 'en-fr-fixed', 'en-zh']);

// The options' ranges are in options.js (optionRanges), shared with the bin
// and the page; prefix is checked on its own.
const OPTION_NAMES = [...Object.keys(optionRanges), 'prefix'];

const isNode = typeof process === 'object' && process.versions?.node != null && typeof window === 'undefined';

// ---------------------------------------------------------------------------
// The WebAssembly runtimes: each one instance, created on first use and
// shared by every model (s2s-core) or every trainer (s2s-train).

// Returns a function that starts a module on its first call and returns the
// same promise after that. `loadFactory` resolves to the module's Emscripten
// factory, `wasmFile` names its .wasm file (next to this one), and `what`
// says in a failure's message which module it is and what to check; after
// a failure, the next call tries again.
function lazyModule(loadFactory, wasmFile, what) {
  let promise;
  return () => {
    promise ??= instantiate(loadFactory, wasmFile).catch((cause) => {
      promise = undefined;  // let a later call try again
      throw new Error(`seq2seq-attention: could not start the ${what.name} (${describe(cause)}); ${what.check}`, { cause });
    });
    return promise;
  };
}

async function instantiate(loadFactory, wasmFile) {
  const createModule = await loadFactory();
  const wasmUrl = new URL(`./${wasmFile}`, import.meta.url);
  if (isNode) return createModule({ wasmBinary: await readNodeFile(wasmUrl) });
  return createModule({ locateFile: (file) => new URL(file, import.meta.url).href });
}

const getCore = lazyModule(async () => createS2sCore, 's2s-core.wasm', {
  name: 'WebAssembly module',
  check: 'check that s2s-core.wasm sits next to index.js and that this runtime supports WebAssembly ' +
    'exceptions and SIMD (Node 20, or a current browser)',
});

// node:fs is imported only in Node, and through a variable so that bundlers
// targeting browsers leave it alone.
async function readNodeFile(pathOrFileUrl) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
  const buffer = await readFile(pathOrFileUrl);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// ---------------------------------------------------------------------------
// Loading models.

/**
 * Loads a model. `source` is a shipped model's name ('en-fr', 'en-fr-fixed',
 * 'en-zh'), a URL (string or URL object), a file path (Node), or the bytes
 * of a .s2s file (Uint8Array, ArrayBuffer or another ArrayBuffer view).
 */
export async function loadModel(source) {
  // The model's download and the runtime's compilation overlap: on a cold
  // page they are the two longest waits before the first translation.
  const corePromise = getCore();
  corePromise.catch(() => {});  // a failure is reported below, once the source is known to be valid
  const { bytes, name } = await readModelSource(source);
  const core = await corePromise;
  return new Model(core, bytes, name);
}

async function readModelSource(source) {
  if (source instanceof Uint8Array) return { bytes: source, name: null };
  if (source instanceof ArrayBuffer) return { bytes: new Uint8Array(source), name: null };
  if (ArrayBuffer.isView(source)) {
    return { bytes: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), name: null };
  }
  if (source instanceof URL) return { bytes: await readUrl(source, String(source)), name: null };
  if (typeof source !== 'string' || source.trim() === '') {
    throw new Error(`loadModel: expected a shipped model name (${shippedModels.join(', ')}), a URL, a file path ` +
      `or the bytes of a .s2s file (Uint8Array or ArrayBuffer), but got ${describeValue(source)}`);
  }
  if (/^[A-Za-z0-9_-]+$/.test(source)) {
    // A name: models/NAME.s2s of this package, next to dist/.
    const url = new URL(`../models/${source}.s2s`, import.meta.url);
    const notFound = `loadModel: no model named '${source}' in this package's models/ folder (${url}); ` +
      `the package ships ${shippedModels.join(', ')}; to load another model pass its URL, path or bytes`;
    return { bytes: await readUrl(url, String(url), notFound), name: source };
  }
  const url = absoluteUrl(source);
  if (url) return { bytes: await readUrl(url, String(url)), name: null };
  if (isNode) return { bytes: await readPath(source, source), name: null };
  // A relative URL in a browser: relative to the page, as fetch() does it.
  const relative = new URL(source, globalThis.location?.href);
  return { bytes: await readUrl(relative, String(relative)), name: null };
}

// Only these schemes make a string a URL, so that a Windows path such as
// C:\models\x.s2s stays a path.
function absoluteUrl(text) {
  if (!/^(https?|file|data|blob):/i.test(text)) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

// `what` names the model in messages; `notFound`, when given, replaces the
// message for a missing file (a shipped name that is not there).
async function readUrl(url, what, notFound) {
  if (isNode && url.protocol === 'file:') return readPath(url, what, notFound);
  let response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new Error(`loadModel: could not fetch ${what}: ${describe(cause)}; check the URL and that the server is running`, { cause });
  }
  if (response.status === 404 && notFound) throw new Error(notFound);
  if (!response.ok) {
    throw new Error(`loadModel: could not fetch ${what}: HTTP ${response.status} ${response.statusText}; check the URL`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

async function readPath(path, what, notFound) {
  try {
    return await readNodeFile(path);
  } catch (cause) {
    if (cause?.code === 'ENOENT' && notFound) throw new Error(notFound, { cause });
    const reason = cause?.code === 'ENOENT' ? 'no such file' : describe(cause);
    throw new Error(`loadModel: could not read ${what}: ${reason}; check the path`, { cause });
  }
}

// ---------------------------------------------------------------------------
// Models.

// Frees the C++ side (an Embind Session or TrainingRun) of models and
// trainers that were never disposed. A safety net only: garbage collection
// may come late or never, so dispose() is still the way.
const forgotten = new FinalizationRegistry((handle) => {
  try {
    handle.delete();
  } catch {
    // already freed, or the runtime is gone: nothing left to free
  }
});

class Model {
  #session;  // the Embind Session; null once disposed
  #info;

  constructor(core, bytes, name) {
    let session;
    try {
      session = new core.Session(bytes);
    } catch (cause) {
      throw internalError('loading the model', cause);
    }
    const loadError = session.loadError();
    if (loadError !== '') {
      session.delete();
      throw toError(JSON.parse(loadError), 'loadModel: ');
    }
    this.#session = session;
    try {
      this.#info = makeInfo(unwrap(session.info(), 'model.info: '), name);
    } catch (error) {
      session.delete();
      throw error;
    }
    forgotten.register(this, session, this);
  }

  /** What the model is: its name, architecture and provenance (see index.d.ts). */
  get info() {
    return this.#info;
  }

  /** True after dispose(). */
  get disposed() {
    return this.#session === null;
  }

  /**
   * Translates one sentence (or any text: it is one input). Options
   * (ranges in optionRanges): beamSize (1 to 16, default 1 = greedy),
   * maxLength (output tokens, 1 to 512, default 2 x source length + 10),
   * alternatives (k most likely tokens at each output position, 0 to 50),
   * lengthPenalty and coveragePenalty (beam search's GNMT alpha and beta,
   * 0 to 5, defaults 1.0 and 0.2), prefix (target tokens to force at the
   * start: the "what if").
   */
  translate(text, options = {}) {
    const session = this.#liveSession('translate');
    if (typeof text !== 'string') {
      throw new Error(`model.translate(text): text must be a string, but got ${describeValue(text)}`);
    }
    const checked = checkOptions(options);
    let envelope;
    try {
      envelope = session.translate(wellFormed(text), JSON.stringify(checked));
    } catch (cause) {
      throw internalError('translating', cause);
    }
    return makeResult(unwrap(envelope, 'model.translate: '), checked.alternatives > 0);
  }

  /** Frees the model's memory. Calling it again does nothing; any other call afterwards throws. */
  dispose() {
    if (this.#session === null) return;
    forgotten.unregister(this);
    const session = this.#session;
    this.#session = null;
    session.delete();
  }

  #liveSession(method) {
    if (this.#session === null) {
      throw new Error(`model.${method}: this model was disposed; load it again with loadModel()`);
    }
    return this.#session;
  }
}

// ---------------------------------------------------------------------------
// Options and results.

function checkOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new Error(`model.translate(text, options): options must be an object such as { beamSize: 4 }, but got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new Error(`model.translate: unknown option '${key}'; the options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  const checked = {};
  for (const [name, { min, max, integer }] of Object.entries(optionRanges)) {
    const value = options[name];
    if (value === undefined) continue;
    const inRange = typeof value === 'number' && value >= min && value <= max;  // false for NaN
    if (integer && !(inRange && Number.isInteger(value))) {
      throw new Error(`model.translate: ${name} must be a whole number from ${min} to ${max}, but got ${describeValue(value)}`);
    }
    if (!integer && !inRange) {
      throw new Error(`model.translate: ${name} must be a number from ${min} to ${max}${PENALTY_HINTS[name] ?? ''}, ` +
        `but got ${describeValue(value)}`);
    }
    checked[name] = value;
  }
  if (options.prefix !== undefined) {
    const prefix = options.prefix;
    if (!Array.isArray(prefix) || !prefix.every((token) => typeof token === 'string')) {
      throw new Error(`model.translate: prefix must be an array of target tokens (strings), such as ['je', 'suis'], but got ${describeValue(prefix)}`);
    }
    if (prefix.length > optionRanges.maxLength.max) {
      throw new Error(`model.translate: prefix has ${prefix.length} tokens; at most ${optionRanges.maxLength.max} are allowed`);
    }
    checked.prefix = prefix;
  }
  return checked;
}

// What the penalties are, for their error messages.
const PENALTY_HINTS = {
  lengthPenalty: ` (GNMT length normalization alpha for beam search; 0 ranks by raw log probability, default ${optionRanges.lengthPenalty.default})`,
  coveragePenalty: ` (GNMT coverage penalty beta for beam search; 0 turns it off, default ${optionRanges.coveragePenalty.default})`,
};

// A lone UTF-16 surrogate has no UTF-8 form; make it U+FFFD, as a
// TextEncoder would, before Embind encodes the string.
function wellFormed(text) {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function makeHypothesis(h) {
  const hypothesis = {
    text: h.text,
    targetTokens: h.targetTokens,
    targetWords: makeWords(h.targetWords),
    attention: h.attention,
    score: h.score,
    logProb: h.logProb,
    finished: h.finished,
  };
  if (h.alternatives) hypothesis.alternatives = h.alternatives.map(makeChoices);
  return hypothesis;
}

// Words as { text, start, end }, in that order (the C++ JSON sorts its keys).
function makeWords(words) {
  return words.map(({ text, start, end }) => ({ text, start, end }));
}

function makeChoices(position) {
  return position.map(({ token, logProb }) => ({ token, logProb, probability: Math.exp(logProb) }));
}

function makeResult(value, withAlternatives) {
  const hypotheses = value.hypotheses.map(makeHypothesis);
  const best = hypotheses[0];
  const result = {
    text: value.text,
    sourceTokens: value.sourceTokens,
    sourceWords: makeWords(value.sourceWords),
    targetTokens: value.targetTokens,
    targetWords: makeWords(value.targetWords),
    attention: value.attention,
    score: value.score,
    truncated: value.truncated,
    finished: best ? best.finished : true,
    hypotheses,
  };
  if (withAlternatives) result.alternatives = best?.alternatives ?? [];
  return result;
}

function makeInfo(header, name) {
  const provenance = header.provenance ?? {};
  const devBleu = provenance.dev_bleu;
  const info = {
    name: name ?? (typeof provenance.name === 'string' ? provenance.name : null),
    attention: header.config.attention,
    hasAttention: header.config.attention !== 'none',
    config: header.config,
    sourceLanguage: header.source_tokenizer?.language ?? 'en',
    targetLanguage: header.target_tokenizer?.language ?? null,
    sourceTokenizer: header.source_tokenizer?.kind ?? 'words',
    targetTokenizer: header.target_tokenizer?.kind ?? 'words',
    sourceVocabularySize: header.source_vocabulary_size,
    targetVocabularySize: header.target_vocabulary_size,
    devBleu: devBleu ? {
      overall: devBleu.overall?.bleu ?? null,
      sentences: devBleu.overall?.sentences ?? 0,
      byLength: (devBleu.by_length ?? []).map((b) => ({ bucket: b.bucket, bleu: b.bleu, sentences: b.sentences })),
    } : null,
    provenance,
  };
  return deepFreeze(info);
}

function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Errors: the envelope of bindings.cpp, {ok, value} or {ok: false, kind, message}.

function unwrap(envelopeJson, context) {
  const envelope = JSON.parse(envelopeJson);
  if (!envelope.ok) throw toError(envelope, context);
  return envelope.value;
}

function toError(envelope, context) {
  const error = new Error(context + envelope.message);
  error.kind = envelope.kind;  // 'usage', 'model-file', 'input', 'memory' or 'internal'
  return error;
}

function internalError(doing, cause) {
  const error = new Error(`seq2seq-attention: internal error while ${doing}: ${describe(cause)} (please report it)`, { cause });
  error.kind = 'internal';
  return error;
}

function describe(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}

function describeValue(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${value}`;
  return typeof value;
}

// ---------------------------------------------------------------------------
// Diagnostics.

/**
 * Starts downloading and compiling the translation runtime (s2s-core.wasm)
 * now, so that a later loadModel() only parses its model. loadModel() does
 * this itself; call it early when the model's bytes come from elsewhere
 * (the demo page downloads its first model while its worker starts).
 * Resolves when the runtime is ready; rejects with the reason it cannot be.
 */
export async function preloadRuntime() {
  await getCore();
}

/**
 * The WASM heap's size and the bytes malloc holds, for leak checks:
 * { heapBytes, usedBytes }. Starts the runtime if needed.
 */
export async function memoryStats() {
  const core = await getCore();
  return JSON.parse(core.heapStats());
}

// ---------------------------------------------------------------------------
// Training: the project's C++ trainer in a second module (s2s-train), which
// is fetched only when something trains, so that translating stays a small
// download.

const getTrainCore = lazyModule(async () => (await import('./s2s-train.js')).default, 's2s-train.wasm', {
  name: 'training module',
  check: 'check that s2s-train.js and s2s-train.wasm sit next to index.js (build them with `npm run build:wasm`)',
});

const TRAINER_OPTION_NAMES = ['task', 'pairs', 'characters', 'symbols', 'minLength', 'maxLength', 'trainSize', 'testSize',
  'attention', 'embedding', 'hidden', 'decoderHidden', 'attentionSize', 'outputHidden', 'batchSize', 'learningRate',
  'warmupSteps', 'steps', 'dropout', 'seed'];
const TRAIN_LOOP_OPTION_NAMES = ['evaluateEvery', 'evaluateLimit', 'stopAtExactMatch', 'chunkSize', 'onProgress', 'signal'];

function checkTrainerOptions(options, context, extra = []) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new Error(`${context}: options must be an object such as { task: 'reversal' }, but got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!TRAINER_OPTION_NAMES.includes(key) && !extra.includes(key)) {
      throw new Error(`${context}: unknown option '${key}'; the options are ${[...TRAINER_OPTION_NAMES, ...extra].join(', ')}`);
    }
  }
  const core = {};
  for (const key of TRAINER_OPTION_NAMES) {
    if (options[key] !== undefined) core[key] = options[key];
  }
  return core;
}

class Trainer {
  #run;  // the Embind TrainingRun; null once disposed
  #info;

  constructor(core, options) {
    let run;
    try {
      run = new core.TrainingRun(JSON.stringify(options));
    } catch (cause) {
      throw internalError('starting a training run', cause);
    }
    const loadError = run.loadError();
    if (loadError !== '') {
      run.delete();
      throw toError(JSON.parse(loadError), 'createTrainer: ');
    }
    this.#run = run;
    this.#info = deepFreeze(unwrap(run.info(), 'trainer.info: '));
    forgotten.register(this, run, this);
  }

  /** The run's options (defaults filled in), architecture, vocabularies and data sizes. */
  get info() {
    return this.#info;
  }

  get disposed() {
    return this.#run === null;
  }

  /** Trains `count` batches (1 to 10000) and reports their mean loss per target token. */
  step(count = 1) {
    if (!Number.isInteger(count) || count < 1 || count > 10000) {
      throw new Error(`trainer.step(count): count must be a whole number from 1 to 10000, but got ${describeValue(count)}`);
    }
    return unwrap(this.#live('step').step(count), 'trainer.step: ');
  }

  /**
   * Greedy exact match on the held-out examples, overall and by source
   * length: { steps, exactMatch, correct, total, tokenAccuracy, byLength: [{ length, correct, total }] }.
   */
  evaluate({ limit = 0 } = {}) {
    if (!Number.isInteger(limit) || limit < 0) {
      throw new Error(`trainer.evaluate: limit must be a whole number >= 0 (0 = all), but got ${describeValue(limit)}`);
    }
    return unwrap(this.#live('evaluate').evaluate(limit), 'trainer.evaluate: ');
  }

  /** As Model.translate: the current model's output and attention for `text`. */
  translate(text, options = {}) {
    const run = this.#live('translate');
    if (typeof text !== 'string') {
      throw new Error(`trainer.translate(text): text must be a string, but got ${describeValue(text)}`);
    }
    const checked = checkOptions(options);
    return makeResult(unwrap(run.translate(wellFormed(text), JSON.stringify(checked)), 'trainer.translate: '), checked.alternatives > 0);
  }

  /** The first `count` held-out examples as text: [{ source, target, length }]. */
  probes(count = 10) {
    if (!Number.isInteger(count) || count < 0) {
      throw new Error(`trainer.probes(count): count must be a whole number >= 0, but got ${describeValue(count)}`);
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
    forgotten.unregister(this);
    const run = this.#run;
    this.#run = null;
    run.delete();
  }

  #live(method) {
    if (this.#run === null) throw new Error(`trainer.${method}: this trainer was disposed; create a new one with createTrainer()`);
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
  const checked = checkTrainerOptions(options, 'createTrainer');
  const core = await getTrainCore();
  return new Trainer(core, checked);
}

const yieldToEventLoop = () => new Promise((resolve) => setTimeout(resolve, 0));

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
  const core = checkTrainerOptions(options, 'train', TRAIN_LOOP_OPTION_NAMES);
  const {
    evaluateEvery = 100, evaluateLimit = 0, stopAtExactMatch = null, chunkSize = 10, onProgress = null, signal = null,
  } = options ?? {};
  const positive = (name, value) => {
    if (!Number.isInteger(value) || value < 1) throw new Error(`train: ${name} must be a whole number >= 1, but got ${describeValue(value)}`);
  };
  positive('evaluateEvery', evaluateEvery);
  positive('chunkSize', chunkSize);
  if (!Number.isInteger(evaluateLimit) || evaluateLimit < 0) throw new Error(`train: evaluateLimit must be a whole number >= 0 (0 = all), but got ${describeValue(evaluateLimit)}`);
  if (stopAtExactMatch !== null && !(typeof stopAtExactMatch === 'number' && stopAtExactMatch > 0 && stopAtExactMatch <= 1)) {
    throw new Error(`train: stopAtExactMatch must be a number in (0, 1], such as 0.95, but got ${describeValue(stopAtExactMatch)}`);
  }
  if (onProgress !== null && typeof onProgress !== 'function') throw new Error(`train: onProgress must be a function, but got ${describeValue(onProgress)}`);
  if (signal !== null && typeof signal?.aborted !== 'boolean') throw new Error('train: signal must be an AbortSignal');

  const trainer = await createTrainer(core);
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
      await yieldToEventLoop();
    }
  } catch (error) {
    trainer.dispose();
    throw error;
  }
  evaluation ??= trainer.evaluate({ limit: evaluateLimit });
  return { trainer, evaluation, reason, seconds: (performance.now() - started) / 1000 };
}
