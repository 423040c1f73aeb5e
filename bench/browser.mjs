// The benchmark page's script (bench/browser.html): window.benchEngine(engine,
// buckets, minSeconds) runs one engine with the same protocol as Node
// (bench/measure.mjs) and returns its figures. Engines: wasm (/dist/index.js,
// with /dist/diagnostics.js for its start and heap statistics), tfjs-cpu and
// tfjs-wasm (bench/tfjs-model.mjs on the UMD bundles' global tf, served at
// /tfjs/: node_modules/@tensorflow, mounted by bench/server.mjs).
import { measureAll, startWasmModel } from './measure.mjs';
import { loadTfjsModel } from './tfjs-model.mjs';

const MODEL_URL = '/models/en-fr.s2s';

window.benchEngine = async (engine, buckets, minSeconds) => {
  const result = { engine, runtime: navigator.userAgent };
  const loadStart = performance.now();
  let translate;
  let heapBytes;
  let dispose;
  if (engine === 'wasm') {
    // The cold start, step by step (as in engine-node.mjs), plus the download.
    let t = performance.now();
    const [api, diagnostics] = await Promise.all([import('/dist/index.js'), import('/dist/diagnostics.js')]);
    await diagnostics.preloadRuntime();
    result.startupMs = performance.now() - t;
    t = performance.now();
    const bytes = new Uint8Array(await (await fetch(MODEL_URL)).arrayBuffer());
    result.fetchMs = performance.now() - t;
    ({ translate, heapBytes, dispose } = await startWasmModel(api, diagnostics, bytes, buckets[0].sentences[0], result));
  } else {
    const tf = window.tf;
    const backend = engine.slice(5);
    if (backend === 'wasm') tf.wasm.setWasmPaths('/tfjs/tfjs-backend-wasm/dist/');
    if (!(await tf.setBackend(backend))) throw new Error(`TF.js backend ${backend} is not available`);
    await tf.ready();
    const bytes = new Uint8Array(await (await fetch(MODEL_URL)).arrayBuffer());
    const model = await loadTfjsModel(tf, bytes);
    translate = (text, o) => model.translate(text, o);
    heapBytes = async () => tf.backend().wasm?.HEAPU8?.length ?? tf.memory().numBytes;
    dispose = () => model.dispose();
    result.tfjsVersion = tf.version.tfjs;
    result.backend = tf.getBackend();
  }
  result.loadMs = performance.now() - loadStart;
  result.cells = measureAll(translate, buckets, [1, 4], { minSeconds });
  result.heapBytes = await heapBytes();
  dispose();
  return result;
};
document.getElementById('status').textContent = 'ready';
