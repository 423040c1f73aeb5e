// seq2seq-attention: the JavaScript API, what `import ... from
// 'seq2seq-attention'` gives.
//
//   import { loadModel } from 'seq2seq-attention';
//   const model = await loadModel('en-fr');   // shipped name, URL, path or bytes
//   const r = model.translate('I love deep learning.', { beamSize: 4 });
//   r.text; r.sourceTokens; r.targetTokens; r.attention;
//   r.sourceWords; r.targetWords;              // words as spans of subword pieces
//   wordAttention(r).attention;                // the same attention, word by word
//   model.dispose();
//
//   import { train } from 'seq2seq-attention';   // watch attention learn (trainer.js)
//
// This file holds loadModel and the Model it returns; the runtimes are
// started in runtime.js, options and results are shaped in translation.js.
// Under it is a raw Embind surface (src/wasm/bindings.cpp) that users never
// see: Embind objects stay private, every C++ failure arrives as a message
// and leaves as an ordinary Error (errors.js), and results are plain objects.
// Hooks for tests and benchmarks (heap statistics, starting the runtime
// early) are in diagnostics.js, 'seq2seq-attention/diagnostics'.
import { describe, describeValue, internalError, toError, unwrap } from './errors.js';
import { isModelName, modelUrl, shippedModels } from './models.js';
import { free, freeWhenForgotten, getCore, isNode, readNodeFile } from './runtime.js';
import { checkOptions, makeInfo, makeResult, wellFormed } from './translation.js';

export { shippedModels } from './models.js';
export { optionRanges } from './options.js';
export { wordAttention } from './word-attention.js';
export { createTrainer, train } from './trainer.js';

// ---------------------------------------------------------------------------
// Loading models.

/**
 * Loads a model. `source` is a shipped model's name (shippedModels), a URL
 * (string or URL object), a file path (Node), or the bytes of a .s2s file
 * (Uint8Array, ArrayBuffer or another ArrayBuffer view).
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
  if (isModelName(source)) {
    const url = modelUrl(source);
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
   * shortlist; default true, used when the model has one: info.shortlist).
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
    return makeResult(unwrap(envelope, 'model.translate: '), checked.alternatives > 0, () => session.numbers());
  }

  /** Frees the model's memory. Calling it again does nothing; any other call afterwards throws. */
  dispose() {
    if (this.#session === null) return;
    const session = this.#session;
    this.#session = null;
    free(this, session);
  }

  #liveSession(method) {
    if (this.#session === null) {
      throw new Error(`model.${method}: this model was disposed; load it again with loadModel()`);
    }
    return this.#session;
  }
}
