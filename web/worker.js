// The translator, in a module Web Worker so typing never waits for the model.
//
// Messages in:  { id, type: 'translate', model, text, options }
//               { id, type: 'info', model }
//               { type: 'warm', model }   load the model now (sent by index.html before the page's modules run)
// Messages out: { id, ok: true, value, ms } or { id, ok: false, error }
//
// Models are loaded once per worker, by shipped name, relative to the
// package's dist/index.js (so /models/NAME.s2s when the repository root is
// served); every request names its model, so one worker serves the page and
// any number of embedded demos.
import { getApi } from './load-api.js';

const models = new Map(); // name -> Promise<Model>

function getModel(name) {
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]+$/.test(name)) {
    return Promise.reject(new Error(`unknown model ${JSON.stringify(name)}`));
  }
  if (!models.has(name)) {
    const loading = getApi('translator').then(({ loadModel }) => loadModel(name));
    loading.catch(() => models.delete(name)); // let a later request retry
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
    return { value, ms: performance.now() - started };
  }
  throw new Error(`unknown request type ${JSON.stringify(type)}`);
}

self.addEventListener('message', async (event) => {
  const { id } = event.data ?? {};
  try {
    const { value, ms } = await handle(event.data);
    self.postMessage({ id, ok: true, value, ms });
  } catch (error) {
    self.postMessage({ id, ok: false, error: error?.message ?? String(error) });
  }
});

self.postMessage({ type: 'ready' });
