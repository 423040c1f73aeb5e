// Hooks for tests and benchmarks, apart from the API users import: the WASM
// heap's statistics (leak checks), and starting the translation runtime
// before any model is asked for (createTranslator's worker does the same
// when its `wasm` comes before its model). Imported as 'seq2seq-attention/diagnostics'
// (dist/diagnostics.js); it shares the runtime of index.js, so the heap it
// measures is the one models live in.
import { getCore, useCompiledCore } from './runtime.js';

/**
 * Starts downloading and compiling the translation runtime (s2s-core.wasm)
 * now, so that a later loadModel() only parses its model. loadModel() does
 * this itself; call it early when the model's bytes come from elsewhere
 * (the demo page downloads its first model while its worker starts).
 * Resolves when the runtime is ready; rejects with the reason it cannot be.
 *
 * `module`: s2s-core.wasm already compiled (a WebAssembly.Module, say from
 * WebAssembly.compileStreaming on the page, posted to a worker): the runtime
 * only instantiates it. Ignored once the runtime has started; a module that
 * does not fit this build is dropped and the file loaded instead.
 */
export async function preloadRuntime({ module } = {}) {
  await (module === undefined || module === null ? getCore() : useCompiledCore(module));
}

/**
 * The WASM heap's size and the bytes malloc holds, for leak checks:
 * { heapBytes, usedBytes }. Starts the runtime if needed.
 */
export async function memoryStats() {
  const core = await getCore();
  return JSON.parse(core.heapStats());
}

/**
 * Runs a tiny built-in model once (load and translate), so that a browser,
 * which compiles each WebAssembly function on its first call, has compiled
 * the loading and translating code before the real model arrives. For a
 * worker to call while its model downloads. Starts the runtime if needed;
 * resolves to true when it ran, false when it could not (no harm done: the
 * real load reports any real problem).
 */
export async function warmUp() {
  const core = await getCore();
  return typeof core.warmUp === 'function' && core.warmUp() === '';
}
