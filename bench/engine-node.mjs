// One engine of the benchmark in its own Node process (so its peak memory is
// its own): node bench/engine-node.mjs ENGINE MODEL SENTENCES_JSON OUT_JSON [MIN_SECONDS]
// ENGINE: wasm (this project's dist/index.js), tfjs-cpu or tfjs-wasm (the
// TF.js peer, bench/tfjs-model.mjs, on that backend). bench/run.mjs runs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { measureAll, startWasmModel } from './measure.mjs';

const [engine, modelPath, sentencesPath, outPath, minSecondsArg] = process.argv.slice(2);
const { buckets } = JSON.parse(readFileSync(sentencesPath, 'utf8'));
const options = { minSeconds: Number(minSecondsArg ?? 1) };
const bytes = new Uint8Array(readFileSync(modelPath));
const result = { engine, runtime: `node ${process.version}` };

let translate;
let heapBytes;
let dispose;
const loadStart = performance.now();
if (engine === 'wasm') {
  const [api, diagnostics] = await Promise.all([import('../dist/index.js'), import('../dist/diagnostics.js')]);
  // The cold start, step by step: the runtime (compile and instantiate the
  // .wasm), the model (parse and convert the file), the first translation.
  const t = performance.now();
  await diagnostics.preloadRuntime();
  result.startupMs = performance.now() - t;
  ({ translate, heapBytes, dispose } = await startWasmModel(api, diagnostics, bytes, buckets[0].sentences[0], result));
} else if (engine === 'tfjs-cpu' || engine === 'tfjs-wasm') {
  const tf = await import('@tensorflow/tfjs');
  await import('@tensorflow/tfjs-backend-wasm');
  const backend = engine.slice(5);
  if (!(await tf.setBackend(backend))) throw new Error(`TF.js backend ${backend} is not available`);
  await tf.ready();
  const { loadTfjsModel } = await import('./tfjs-model.mjs');
  const model = await loadTfjsModel(tf, bytes);
  translate = (text, o) => model.translate(text, o);
  // The wasm backend's own heap, else the bytes of the live tensors.
  heapBytes = async () => tf.backend().wasm?.HEAPU8?.length ?? tf.memory().numBytes;
  dispose = () => model.dispose();
  result.tfjsVersion = tf.version.tfjs;
  result.backend = tf.getBackend();
} else {
  throw new Error(`unknown engine ${engine}`);
}
result.loadMs = performance.now() - loadStart;  // up to a model ready to translate (WASM: and one translation)
result.cells = measureAll(translate, buckets, [1, 4], options);
result.heapBytes = await heapBytes();
dispose();
result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
writeFileSync(outPath, JSON.stringify(result));
