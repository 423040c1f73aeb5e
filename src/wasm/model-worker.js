// The worker behind createTranslator (translator.js): one model, loaded with
// the package's loadModel, translating the requests of the thread that
// started it in order. Messages in: { id, type: 'runtime', wasm } (start
// s2s-core now, from `wasm` or the file next to this module, while the
// model is still on its way), { id, type: 'load', model },
// { id, type: 'translate', texts, options }, { id, type: 'steps', text,
// options } (each step out as { id, step } while decoding), { id, type:
// 'translateText', text, options }, { id, type: 'cancel' }.
// Messages out: { id, progress: { loaded, total } } while loading, then
// { id, ok: true, value } or { id, ok: false, error, kind }. Results go out
// with their buffers transferred.
import { InternalError, UsageError } from './errors.js';
import { loadModel } from './load-model.js';
import { timeSlicer } from './platform.js';
import { getCore, setRuntimeSource } from './runtime.js';
import { translationBuffer } from './translation.js';

let model = null;
const cancelled = new Set();                // ids cancelled by the caller
const loads = new Map();                    // id -> AbortController of a load in progress
let queue = Promise.resolve();              // one request at a time, in order
let loadRequested = false;                  // a 'load' has arrived (the warm-up is then skipped)

async function handle({ id, type, model: source, wasm, texts, text, options }) {
  if (cancelled.delete(id)) return;
  if (type === 'runtime') {
    if (wasm !== undefined && wasm !== null) setRuntimeSource(wasm);
    if (wasm instanceof WebAssembly.Module) performance.mark('s2s:wasm-received');
    const core = await getCore();
    performance.mark('s2s:runtime-ready');
    // While the model downloads, a tiny built-in model is loaded and run
    // once, so that the browser has compiled the loading and decoding code
    // (it compiles each WebAssembly function on its first call) before the
    // real model arrives; not when the model is already here, which would
    // only wait for it.
    if (!loadRequested && typeof core.warmUp === 'function') {
      core.warmUp();
      performance.mark('s2s:warmed-up');
    }
    self.postMessage({ id, ok: true, value: null });
    return;
  }
  if (type === 'load') {
    performance.mark('s2s:load-started');
    const controller = new AbortController();
    loads.set(id, controller);
    try {
      model = await loadModel(source, {
        signal: controller.signal, onProgress: (progress) => self.postMessage({ id, progress }),
      });
    } finally {
      loads.delete(id);
    }
    performance.mark('s2s:model-loaded');
    self.postMessage({ id, ok: true, value: model.info });
    return;
  }
  if (type === 'translate') {
    if (!model) throw new UsageError('translator.translate: no model is loaded in this worker');
    const results = [];
    const slice = timeSlicer();
    for (const text of texts) {
      if (cancelled.has(id)) break;
      results.push(model.translate(text, options));
      // Let a 'cancel' in between the sentences of a batch, every 8 ms.
      await slice();
    }
    if (cancelled.delete(id)) return;
    const buffers = results.map(translationBuffer).filter((buffer) => buffer !== null);
    self.postMessage({ id, ok: true, value: results }, buffers);
    return;
  }
  if (type === 'steps') {
    if (!model) throw new UsageError('translator.steps: no model is loaded in this worker');
    // Each step goes out as the decoder writes it (postMessage from inside
    // the decoding call reaches the page at once).
    const result = model.translate(text, options, (step) => {
      if (!cancelled.has(id)) self.postMessage({ id, step }, step.attention ? [step.attention.buffer] : []);
    });
    if (cancelled.delete(id)) return;
    const buffer = translationBuffer(result);
    self.postMessage({ id, ok: true, value: result }, buffer ? [buffer] : []);
    return;
  }
  if (type === 'translateText') {
    if (!model) throw new UsageError('translator.translateText: no model is loaded in this worker');
    // One call into C++ for the whole text (sentences split, translated
    // and joined there); a 'cancel' that came meanwhile drops the result.
    const value = model.translateText(text, options);
    if (cancelled.delete(id)) return;
    const buffers = value.sentences.map((s) => translationBuffer(s.translation)).filter((buffer) => buffer !== null);
    self.postMessage({ id, ok: true, value }, buffers);
    return;
  }
  throw new InternalError(`unknown request type ${JSON.stringify(type)}`);
}

self.addEventListener('message', (event) => {
  const message = event.data ?? {};
  if (message.type === 'cancel') {
    // Now, not after the request being cancelled.
    cancelled.add(message.id);
    loads.get(message.id)?.abort();
    return;
  }
  if (message.type === 'load') loadRequested = true;
  queue = queue.then(() => handle(message)).catch((error) => {
    cancelled.delete(message.id);
    self.postMessage({ id: message.id, ok: false, error: error?.message ?? String(error), kind: error?.kind });
  });
});

// Marks (performance.mark, in this worker's timeline) let a page's
// benchmark split its cold load into steps (bench/cold-start.mjs).
performance.mark('s2s:worker-started');
