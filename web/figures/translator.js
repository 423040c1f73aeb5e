// The page's translators: one per model, from the package's public
// createTranslator (dist/translator.js), shared by the demo and every
// embedded <seq2seq-attention-demo>. Each model runs in its own module
// worker (the package's model-worker.bundle.js); the first one is the worker
// index.html started before the page's modules loaded, with the WebAssembly
// module it compiled and the model bytes it downloaded (window.__s2sBoot).
//
//   const translator = getTranslator();
//   const { value, ms } = await translator.translate('en-fr', text, options);
//   const { value: { sentences } } = await translator.translateText('en-fr', paragraph, options);
import { loadPackage } from './load-api.js';
import { createWorker } from './start-worker.js';

const bundleUrl = new URL('../../dist/model-worker.bundle.js', import.meta.url);

// index.html's early start: { worker, model, wasm: Promise<Module|null>,
// bytes: Promise<ArrayBuffer|null>, translator: Promise<{ translator:
// Promise<Translator> } | null> } (model null with ?model-url=), or
// undefined where it started nothing.
const boot = globalThis.__s2sBoot;
delete globalThis.__s2sBoot;

// s2s-core.wasm compiled once, shared by every worker (null: each worker
// loads the file itself and reports any problem).
const compiledWasm = boot?.wasm ?? Promise.resolve(null);

// The start script's cache of downloads (its boot.cacheName, keyed by URL):
// the copy of a shipped model, deleted. Its ETag may stay behind in
// localStorage: the start script then finds no copy and downloads it in
// full. Without the start script (the element) nothing was cached.
const cacheName = boot?.cacheName ?? null;
async function dropCachedModel(url) {
  if (!cacheName) return;
  try {
    await (await caches.open(cacheName)).delete(url.href);
  } catch {
    // no Cache API here (an insecure origin): nothing was cached
  }
}

// A shipped name (the API's shippedModels), or a URL on this origin (never
// another site's file).
function checkSource(name, shippedModels) {
  if (typeof name === 'string' && shippedModels.includes(name)) return name;
  try {
    const url = new URL(name);
    if (url.origin === globalThis.location.origin) return url;
  } catch {
    // not a URL
  }
  throw new Error(`unknown model ${JSON.stringify(name)}: give a shipped name or a URL on this site`);
}

class PageTranslators {
  #translators = new Map(); // model -> Promise<Translator>

  /** The package's Translator for `model` (a shipped name or a same-origin URL), created on first use. */
  #progress = new Map();  // model -> Set of ({ loaded, total }) => void

  /** Calls `listener({ loaded, total })` while `model` downloads; returns the function that stops it. */
  onProgress(model, listener) {
    if (!this.#progress.has(model)) this.#progress.set(model, new Set());
    this.#progress.get(model).add(listener);
    return () => this.#progress.get(model)?.delete(listener);
  }

  #report(model) {
    return (progress) => { for (const listener of this.#progress.get(model) ?? []) listener(progress); };
  }

  get(model) {
    if (!this.#translators.has(model)) {
      const loading = this.#create(model);
      loading.catch(() => this.#translators.delete(model)); // let a later request retry
      this.#translators.set(model, loading);
    }
    return this.#translators.get(model);
  }

  async #create(name) {
    const [{ createTranslator }, { shippedModels, modelUrl }] = await Promise.all([
      loadPackage('translator.js', 'translator'), loadPackage('data.js', 'translator')]);
    const source = checkSource(name, shippedModels);
    const wasm = compiledWasm.then((module) => module ?? undefined);
    const fresh = () => createWorker(bundleUrl, 'seq2seq-attention');
    // The translator the start script created for the first model
    // (boot.src.js), or null when it could not import the package.
    const early = boot?.translator && boot.model === name ? await boot.translator : null;
    if (early || (boot?.worker && boot.model === name)) {
      const { worker, bytes } = boot;
      boot.worker = null;
      boot.translator = null;
      if (!early) performance.mark(`s2s:loading:${name}`);
      try {
        // The bytes when index.html's download worked, else the model by
        // name (which reports the problem).
        return await (early ? early.translator : createTranslator(bytes.then((downloaded) => downloaded ?? source), { worker, wasm }));
      } catch (error) {
        // Only a model file the loader refused is downloaded again; any
        // other failure (no worker, no runtime) would fail the same way.
        if (error?.kind !== 'model-file' || !(await bytes)) throw error;
        // The bytes index.html handed over (on a repeat visit, its copy in
        // the Cache API) are damaged: that copy is dropped, so that no later
        // visit is served it, and the model is downloaded again.
        await dropCachedModel(modelUrl(name));
        performance.mark(`s2s:cache-dropped:${name}`);
        return createTranslator(source, { worker: fresh(), wasm });
      }
    }
    if (boot?.worker && boot.model === null && source instanceof URL) {
      // ?model-url=: the early worker loads the page's own model file.
      const { worker } = boot;
      boot.worker = null;
      return createTranslator(source, { worker, wasm });
    }
    return createTranslator(source, { worker: fresh(), wasm, onProgress: this.#report(name) });
  }

  /** Resolves to { value: a Translation, ms: how long the request took, as the page saw it }. */
  async translate(model, text, options) {
    const translator = await this.get(model);
    const started = performance.now();
    const value = await translator.translate(text, options);
    return { value, ms: performance.now() - started };
  }

  /** Resolves to { value: { text, sentences: [{ source, start, end, translation }] }, ms } (translator.translateText's). */
  async translateText(model, text, options) {
    const translator = await this.get(model);
    const started = performance.now();
    const value = await translator.translateText(text, options);
    return { value, ms: performance.now() - started };
  }

  async info(model) {
    return (await this.get(model)).info;
  }
}

let shared = null;

/** The page's translators (started on first use). */
export function getTranslator() {
  shared ??= new PageTranslators();
  return shared;
}
