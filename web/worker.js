// The translator, in a module Web Worker so typing never waits for the model.
//
// Messages in:  { id, type: 'translate', model, text, options }
//               { id, type: 'info', model }
//               { type: 'warm', model, prefetch }   load the model now (sent by index.html before the page's modules run)
//               { type: 'model-bytes', model, bytes }   the bytes index.html downloaded for a 'warm' with prefetch
//               { type: 'wasm-module', module }   s2s-core.wasm compiled by index.html (null if that failed)
// Messages out: { id, ok: true, value, ms } or { id, ok: false, error }
// A translate request's options go to model.translate as they are (beamSize,
// temperature, trace, beamTree, ...: the API checks them); a result's
// Float32Arrays (attention rows, trace vectors) share one buffer, which is
// transferred to the page.
//
// Models are loaded once per worker, by shipped name, relative to the
// package's dist/index.js (so /models/NAME.s2s when the repository root is
// served), or by an absolute URL on the page's own origin (the page's
// ?model-url=, for your own model file); every request names its model, so
// one worker serves the page and any number of embedded demos.
//
// The demo page runs this file bundled with its imports into one module,
// dist/translator-worker.js (scripts/bundle-worker.mjs, run by
// `npm run build:wasm`), so the worker starts without fetching a module
// graph: rebuild after changing it or anything it imports.
import { getApi, loadPackage } from './load-api.js';

const models = new Map(); // name -> Promise<Model>

// index.html downloads the page's first model itself, while this worker
// starts, and hands the bytes over: { type: 'warm', model, prefetch: true }
// says they are coming, { type: 'model-bytes', model, bytes } brings them
// (transferred, not copied; null when that download failed, and then the
// model is loaded by name here, which reports the problem).
const prefetched = new Map(); // name -> { bytes: Promise<ArrayBuffer|null>, resolve }

function expectBytes(name) {
  if (!prefetched.has(name)) {
    let resolve;
    const bytes = new Promise((r) => { resolve = r; });
    prefetched.set(name, { bytes, resolve });
  }
  return prefetched.get(name);
}

// A shipped name (the API's shippedModels), or a URL on this origin (never
// another site's file).
function modelSource(name, shippedModels) {
  if (typeof name !== 'string') return null;
  if (shippedModels.includes(name)) return name;
  try {
    const url = new URL(name);
    return url.origin === self.location.origin ? url : null;
  } catch {
    return null;
  }
}

// index.html compiles s2s-core.wasm itself (WebAssembly.compileStreaming,
// while the model downloads) and posts the module; ?wasm=posted in this
// worker's URL says it will, and the runtime waits for it. Otherwise the
// runtime fetches and compiles the file itself, starting now.
let receiveWasm = null;
const postedWasm = new URLSearchParams(self.location.search).get('wasm') === 'posted'
  ? new Promise((resolve) => { receiveWasm = resolve; })
  : Promise.resolve(null);
// Once started, it runs a tiny model (warmUp) so that the browser compiles
// the loading and translating code while the model is still downloading,
// not when it arrives; unless a model's bytes are already here (loading
// them compiles the same code, and the tiny model would only delay it).
// Bytes that arrive during the warm-up wait for it: stopping it then
// (tried, docs/performance.md) started the load sooner, but the first
// translation then compiled what the warm-up would have, and the first
// result came no sooner.
let bytesArrived = false;
const runtime = postedWasm.then((module) => loadPackage('diagnostics.js', 'translator')
  .then(async ({ preloadRuntime, warmUp }) => {
    await preloadRuntime({ module });
    performance.mark('s2s:runtime-ready');
    if (bytesArrived) return;
    await warmUp().catch(() => false);
    performance.mark('s2s:warmed-up');
  }));

// index.html's cache of downloads (cache "s2s-files", keyed by URL): the
// copy of a shipped model, deleted. Its ETag may stay behind in
// localStorage: index.html then finds no copy and downloads it in full.
async function dropCachedModel(name) {
  try {
    const [{ modelUrl }, store] = await Promise.all([loadPackage('models.js', 'translator'), caches.open('s2s-files')]);
    await store.delete(modelUrl(name).href);
  } catch {
    // no Cache API here (an insecure origin): nothing was cached
  }
}

function getModel(name) {
  if (!models.has(name)) {
    const bytes = prefetched.get(name)?.bytes ?? null;
    // After the runtime's start (a failure is loadModel's to report).
    const started = runtime.catch(() => {});
    const loading = Promise.all([getApi('translator'), bytes, started]).then(([{ loadModel, shippedModels }, prefetchedBytes]) => {
      const source = modelSource(name, shippedModels);
      if (source === null) throw new Error(`unknown model ${JSON.stringify(name)}: give a shipped name or a URL on this site`);
      performance.mark(`s2s:loading:${name}`);
      if (!prefetchedBytes) return loadModel(source);
      return loadModel(prefetchedBytes).catch(async () => {
        // The bytes index.html handed over (on a repeat visit, its copy in
        // the Cache API) are damaged: that copy is dropped, so that no later
        // visit is served it, and the model is downloaded again.
        await dropCachedModel(name);
        performance.mark(`s2s:cache-dropped:${name}`);
        return loadModel(source);
      });
    }).then((model) => {
      performance.mark(`s2s:model-loaded:${name}`);
      return model;
    });
    loading.then(() => prefetched.delete(name), () => {
      models.delete(name); // let a later request retry, downloading again
      prefetched.delete(name);
    });
    models.set(name, loading);
  }
  return models.get(name);
}

async function handle({ type, model, text, options }) {
  const loaded = await getModel(model);
  if (type === 'warm') return { value: null, ms: 0 };  // from index.html: load it now, nobody waits for a reply
  if (type === 'info') return { value: loaded.info, ms: 0 };
  if (type === 'translate') {
    const started = performance.now();
    const value = loaded.translate(text, options);
    const ms = performance.now() - started;
    // The matrices move to the page (one buffer, transferred, not copied);
    // the page revives the result (translator.js).
    const buffer = (await getApi('translator')).translationBuffer(value);
    return { value, ms, transfer: buffer ? [buffer] : [] };
  }
  throw new Error(`unknown request type ${JSON.stringify(type)}`);
}

self.addEventListener('message', async (event) => {
  const { id, type, model, prefetch, bytes } = event.data ?? {};
  if (type === 'wasm-module') {
    const module = event.data.module instanceof WebAssembly.Module ? event.data.module : null;
    if (module) performance.mark('s2s:wasm-received');
    receiveWasm?.(module);
    return;
  }
  if (type === 'model-bytes') {
    performance.mark('s2s:bytes-received');
    bytesArrived ||= bytes instanceof ArrayBuffer;
    expectBytes(model).resolve(bytes instanceof ArrayBuffer ? bytes : null);
    return;
  }
  if (type === 'warm' && prefetch) expectBytes(model);
  try {
    const { value, ms, transfer = [] } = await handle(event.data);
    self.postMessage({ id, ok: true, value, ms }, transfer);
  } catch (error) {
    self.postMessage({ id, ok: false, error: error?.message ?? String(error) });
  }
});

// Marks (performance.mark, in this worker's timeline) let `npm run bench`
// split the page's cold load into its steps.
performance.mark('s2s:worker-started');
// Every request needs the API and its runtime: start both now, before the
// first message (a failure is reported to that request). The runtime's early
// start (above) is a diagnostics hook of the package (dist/diagnostics.js),
// which shares the API's runtime.
getApi('translator').catch(() => {});
runtime.catch(() => {});
self.postMessage({ type: 'ready' });
