// loadModel and the Model it returns (the synchronous API; index.js
// exports it): the translation runtime is started in runtime.js, options
// and results are shaped in translation.js. Under it is a raw Embind surface
// (src/wasm/bindings.cpp) that users never see: Embind objects stay
// private, every C++ failure arrives as a message and leaves as an ordinary
// Error (errors.js), and results are data (translation.js).
import { LoadError, UsageError, describe, describeValue, internalError, openHandle, unwrap } from './errors.js';
import { classifyModelSource } from './model-source.js';
import { modelUrl, shippedModels } from './models.js';
import { decodeUtf8, disposeSymbol, inPackage, isNode } from './platform.js';
import { getCore, setRuntimeSource } from './runtime.js';
import { checkOptions, makeInfo, makeResult, wellFormed } from './translation.js';
import { free, freeWhenForgotten, readNodeFile } from './wasm-common.js';


// Training (trainer.js, trainer-worker.js) is imported on first use, by a
// path bundlers do not follow: an app that only translates does not carry
// the trainer's 660 kB of WebAssembly. In a bundled app, import training
// from its own entries, 'seq2seq-attention/trainer' and
// 'seq2seq-attention/trainer-worker', which bundlers do follow.
async function trainerModule(what, file = 'trainer.js', entry = 'trainer') {
  const path = ['.', file].join('/');
  try {
    return await import(/* webpackIgnore: true */ /* @vite-ignore */ inPackage(path).href);
  } catch (cause) {
    throw new LoadError(`${what}: could not load the trainer next to this module (${describe(cause)}); in a bundled app import ` +
      `it from its own entry: import { ${what} } from 'seq2seq-attention/${entry}'`, { cause });
  }
}

/** A training run you drive yourself: see trainer.js and index.d.ts ('seq2seq-attention/trainer' in a bundle). */
export async function createTrainer(options) {
  return (await trainerModule('createTrainer')).createTrainer(options);
}

/** Trains a small model to the end of its schedule: see trainer.js and index.d.ts. */
export async function train(options) {
  return (await trainerModule('train')).train(options);
}

/** A training run in a worker: see trainer-worker.js and index.d.ts ('seq2seq-attention/trainer-worker' in a bundle). */
export async function createTrainerWorker(options, how) {
  return (await trainerModule('createTrainerWorker', 'trainer-worker.js', 'trainer-worker')).createTrainerWorker(options, how);
}

// ---------------------------------------------------------------------------
// Loading models.

/**
 * Loads a model. `source` is a shipped model's name (shippedModels), a URL
 * (string or URL object; in a bundled app, the default export of
 * 'seq2seq-attention/models/NAME'), a file path (Node), the bytes of a .s2s
 * file (Uint8Array, ArrayBuffer or another ArrayBuffer view), a Blob or a
 * Response. Options: `wasm`, where s2s-core.wasm comes from (a URL, its
 * bytes, a Blob, a Response or a WebAssembly.Module) when the runtime has
 * not started yet (by default it is found next to this module).
 */
export async function loadModel(source, options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new UsageError(`loadModel(source, options): options must be an object such as { wasm: url }, but got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!LOAD_OPTIONS.includes(key)) throw new UsageError(`loadModel: unknown option '${key}'; the options are ${LOAD_OPTIONS.join(', ')}`);
  }
  const { wasm, signal, onProgress } = options;
  if (signal !== undefined && !(typeof signal === 'object' && signal !== null && typeof signal.aborted === 'boolean')) {
    throw new UsageError(`loadModel: signal must be an AbortSignal, but got ${describeValue(signal)}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new UsageError(`loadModel: onProgress must be a function ({ loaded, total }) => void, but got ${describeValue(onProgress)}`);
  }
  signal?.throwIfAborted();
  if (wasm !== undefined) setRuntimeSource(wasm);
  // The model's download and the runtime's compilation overlap: on a cold
  // page they are the two longest waits before the first translation.
  const corePromise = getCore();
  corePromise.catch(() => {});  // a failure is reported below, once the source is known to be valid
  const { bytes, name } = await readModelSource(source, { signal, onProgress });
  const core = await corePromise;
  signal?.throwIfAborted();
  return new Model(core, bytes, name);
}

const LOAD_OPTIONS = ['wasm', 'signal', 'onProgress'];

async function readModelSource(source, how = {}) {
  const given = classifyModelSource(source);
  switch (given.kind) {
    case 'bytes':
      reported(given.bytes.length, how);
      return { bytes: given.bytes, name: null };
    case 'blob':
      return { bytes: await readBody(given.blob.stream(), given.blob.size, how), name: null };
    case 'response': {
      const what = source.url || 'the Response given';
      if (!source.ok) throw new LoadError(`loadModel: ${what} is HTTP ${source.status}; pass a successful response`);
      return { bytes: await readResponse(source, how), name: null };
    }
    case 'name': {
      const url = modelUrl(source);
      // In a bundled app this module's folder is the bundle's, where no
      // models/ folder is: the fix is the model's own URL module.
      const notFound = given.shipped
        ? `loadModel: the model '${source}' is not at ${url}; in a bundled app, import its URL so that the bundler ` +
          `copies the file: import url from 'seq2seq-attention/models/${source}'; loadModel(url)`
        : `loadModel: no model named '${source}' in this package: the package ships ${shippedModels.join(', ')}; ` +
          'to load another model pass its URL, path or bytes';
      if (!given.shipped) throw new UsageError(notFound);
      return { bytes: await readUrl(url, String(url), notFound, how), name: source };
    }
    case 'url':
    case 'relative-url':
      return { bytes: await readUrl(given.url, String(given.url), undefined, how), name: null };
    case 'path':
      return { bytes: await readPath(source, source, undefined, how), name: null };
    default:
      throw new UsageError(`loadModel: expected a shipped model name (${shippedModels.join(', ')}), a URL, a file path, ` +
        `the bytes of a .s2s file (Uint8Array or ArrayBuffer), a Blob or a Response, but got ${describeValue(source)}`);
  }
}

// `what` names the model in messages; `notFound`, when given, replaces the
// message for a missing file (a shipped name that is not there).
async function readUrl(url, what, notFound, how = {}) {
  if (isNode && url.protocol === 'file:') return readPath(url, what, notFound, how);
  let response;
  try {
    response = await fetch(url, { signal: how.signal });
  } catch (cause) {
    if (cause?.name === 'AbortError') throw cause;
    if (notFound && url.protocol === 'file:') throw new LoadError(notFound, { cause });
    throw new LoadError(`loadModel: could not fetch ${what}: ${describe(cause)}; check the URL and that the server is running`, { cause });
  }
  if (response.status === 404 && notFound) throw new LoadError(notFound);
  if (!response.ok) {
    throw new LoadError(`loadModel: could not fetch ${what}: HTTP ${response.status} ${response.statusText}; check the URL`);
  }
  const bytes = await readResponse(response, how);
  // A dev server's fallback page instead of the file (Vite answers 200 with index.html).
  if (notFound && bytes.length > 0 && bytes[0] === 0x3c) throw new LoadError(notFound);
  return bytes;
}

// A response's body, reporting progress as it arrives.
async function readResponse(response, how) {
  const length = Number(response.headers.get('content-length'));
  const encoded = response.headers.get('content-encoding');
  // Content-Length counts the compressed bytes when the server compresses: then the total is unknown.
  const total = Number.isFinite(length) && length > 0 && (!encoded || encoded === 'identity') ? length : null;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  return readBody(response.body, total, how);
}

async function readBody(stream, total, { signal, onProgress } = {}) {
  const chunks = [];
  let loaded = 0;
  const reader = stream.getReader();
  const stop = () => reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      signal?.throwIfAborted();
      chunks.push(value);
      loaded += value.length;
      onProgress?.({ loaded, total });
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  signal?.throwIfAborted();
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

// Bytes given or read at once: one progress report.
function reported(length, { onProgress } = {}) {
  onProgress?.({ loaded: length, total: length });
}

async function readPath(path, what, notFound, how = {}) {
  try {
    how.signal?.throwIfAborted();
    const bytes = await readNodeFile(path);
    how.signal?.throwIfAborted();
    reported(bytes.length, how);
    return bytes;
  } catch (cause) {
    if (cause?.name === 'AbortError') throw cause;
    if (cause?.code === 'ENOENT' && notFound) throw new LoadError(notFound, { cause });
    const reason = cause?.code === 'ENOENT' ? 'no such file' : describe(cause);
    throw new LoadError(`loadModel: could not read ${what}: ${reason}; check the path`, { cause });
  }
}

// ---------------------------------------------------------------------------
// Models.


// Where makeResult reads the floats of sentence `s` of the session's last
// call: heap views, copied at once.
function heapOf(session, s) {
  return { attention: (k) => session.attention(s, k), numbers: () => session.numbers(s) };
}

class Model {
  #session;  // the Embind Session; null once disposed
  #info;
  #defaults;  // each option's value when none is given, for this model (the C++ core's decode_defaults)

  constructor(core, bytes, name) {
    const session = openHandle(() => new core.Session(bytes), 'loading the model', 'loadModel: ');
    this.#session = session;
    try {
      const header = unwrap(decodeUtf8(session.infoBytes()), 'model.info: ');  // UTF-8 bytes, decoded in one call
      this.#info = makeInfo(header, name);
      this.#defaults = header.decode_defaults;
    } catch (error) {
      session.delete();
      throw error;
    }
    freeWhenForgotten(this, session);
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
   * Translates one sentence (or any text: it is one input). Options, with
   * their ranges and defaults in optionRanges: beamSize (1 = greedy),
   * maxLength (output tokens; default 2 x source length + 10), alternatives
   * (the k most likely tokens at each output position), lengthPenalty and
   * coveragePenalty (beam search's GNMT alpha and beta), temperature (the
   * attention softmax's tau), prefix (target tokens to force at the start:
   * the "what if"), trace (the decoder trace of the best hypothesis, its
   * vectors as Float32Arrays), beamTree (every candidate of the beam) and
   * shortlist (false: score every target piece, not only the model's
   * shortlist; default true, used when the model has one: info.shortlist)
   * and keepNames (false: the model's words as written, without the
   * source's names recased or copied through; default true).
   */
  translate(text, options = {}, onStep = undefined) {
    const session = this.#liveSession('translate');
    if (typeof text !== 'string') {
      throw new UsageError(`model.translate(text): text must be a string, but got ${describeValue(text)}`);
    }
    const checked = checkOptions(options);
    if (onStep !== undefined && typeof onStep !== 'function') {
      throw new UsageError(`model.translate(text, options, onStep): onStep must be a function ({ index, token, logProb, attention }) => void, but got ${describeValue(onStep)}`);
    }
    const greedy = (checked.beamSize ?? this.#defaults.beamSize) === 1;
    let envelope;
    let index = 0;
    let failure = null;
    try {
      envelope = onStep && greedy
        ? session.translateSteps(wellFormed(text), JSON.stringify(checked), (token, logProb, row) => {
          // Called from inside the decoder: copy the row (a heap view) and keep going whatever onStep does.
          const step = { index: index++, token, logProb, attention: row ? new Float32Array(row) : null };
          try {
            onStep(step);
          } catch (error) {
            failure ??= error;
          }
        })
        : session.translate(wellFormed(text), JSON.stringify(checked));
    } catch (cause) {
      throw internalError('translating', cause);
    }
    const result = this.#result(session, envelope, checked);
    if (failure) throw failure;
    // A beam's best hypothesis is known only at the end: its steps follow the search.
    if (onStep && !greedy) {
      result.best.targetTokens.forEach((token, i) => {
        onStep({ index: i, token, logProb: null, attention: result.best.attention[i] ? new Float32Array(result.best.attention[i]) : null });
      });
    }
    return result;
  }

  #result(session, envelope, checked) {
    try {
      return makeResult(unwrap(envelope, 'model.translate: '), checked.alternatives > 0, heapOf(session, 0));
    } finally {
      session.release();
    }
  }

  /**
   * Translates a text of several sentences one sentence at a time (the
   * models were trained on single sentences), in one call into C++
   * (translate_sentences, src/decode/translator.h): { text, the
   * translations joined (a space between sentences, none for Chinese:
   * join_translations); sentences: [{ source, start, end (UTF-16 offsets
   * in `text`), translation }] }, each translation as translate() gives it
   * for that sentence alone. Sentences end at . ! ? … 。！？ (abbreviations,
   * initials and numbers keep their periods) and at blank lines:
   * src/text/sentences.h.
   */
  translateText(text, options = {}) {
    const session = this.#liveSession('translateText');
    if (typeof text !== 'string') {
      throw new UsageError(`model.translateText(text): text must be a string, but got ${describeValue(text)}`);
    }
    const checked = checkOptions(options);
    const input = wellFormed(text);
    let envelope;
    try {
      envelope = session.translateText(input, JSON.stringify(checked));
    } catch (cause) {
      throw internalError('translating', cause);
    }
    try {
      const value = unwrap(envelope, 'model.translateText: ');
      const sentences = value.sentences.map(({ start, end, translation }, s) => ({
        source: input.slice(start, end), start, end,
        translation: makeResult(translation, checked.alternatives > 0, heapOf(session, s)),
      }));
      return { text: value.text, sentences };
    } finally {
      session.release();
    }
  }

  /** Frees the model's memory. Calling it again does nothing; any other call afterwards throws. */
  dispose() {
    if (this.#session === null) return;
    const session = this.#session;
    this.#session = null;
    free(this, session);
  }

  /** `using model = await loadModel(...)` disposes it at the end of the block. */
  [disposeSymbol]() {
    this.dispose();
  }

  #liveSession(method) {
    if (this.#session === null) {
      throw new UsageError(`model.${method}: this model was disposed; load it again with loadModel()`);
    }
    return this.#session;
  }
}
