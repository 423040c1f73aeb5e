// The two WebAssembly runtimes under the API: s2s-core (translation) and
// s2s-train (the trainer, fetched only when something trains, so that
// translating stays a small download). Each is started on first use and
// shared by every model or trainer.
//
// One file for Node 20 and browsers, with no bundler needed: the modules
// (./s2s-core.js and ./s2s-core.wasm, ./s2s-train.js and ./s2s-train.wasm)
// are found relative to this module's URL. In Node the .wasm is read with fs
// and passed as wasmBinary, because emscripten 3.1.6's loader tries to fetch
// a file path there and fails; in browsers it is fetched.
//
// The translation runtime can also start from a WebAssembly.Module compiled
// elsewhere (useCompiledCore): the demo page compiles s2s-core.wasm with
// compileStreaming while its model downloads and posts the module to its
// worker, which then only instantiates it (no second download or compile).
import createS2sCore from './s2s-core.js';
import { describe } from './errors.js';

export const isNode = typeof process === 'object' && process.versions?.node != null && typeof window === 'undefined';

// Returns a function that starts a module on its first call and returns the
// same promise after that. `loadFactory` resolves to the module's Emscripten
// factory, `wasmFile` names its .wasm file (next to this one), and `what`
// says in a failure's message which module it is and what to check; after
// a failure, the next call tries again.
// `compiled` (optional) returns a WebAssembly.Module to instantiate instead
// of fetching and compiling the file.
function lazyModule(loadFactory, wasmFile, what, compiled = () => null) {
  let promise;
  const start = () => {
    promise ??= instantiate(loadFactory, wasmFile, compiled()).catch((cause) => {
      promise = undefined;  // let a later call try again
      throw new Error(`seq2seq-attention: could not start the ${what.name} (${describe(cause)}); ${what.check}`, { cause });
    });
    return promise;
  };
  start.started = () => promise !== undefined;
  return start;
}

async function instantiate(loadFactory, wasmFile, module) {
  const createModule = await loadFactory();
  if (module instanceof WebAssembly.Module) {
    // A module that does not fit (another build's: a LinkError, or one
    // without this runtime's classes) is not fatal: the file is loaded as
    // without one, in a fresh instance of the factory.
    try {
      const core = await startFromModule(createModule, module);
      if (typeof core.Session === 'function' && typeof core.heapStats === 'function') return core;
    } catch {
      // fall through to the file
    }
  }
  const wasmUrl = new URL(`./${wasmFile}`, import.meta.url);
  if (isNode) return createModule({ wasmBinary: await readNodeFile(wasmUrl) });
  return createModule({ locateFile: (file) => new URL(file, import.meta.url).href });
}

// Emscripten's hook for an instance made elsewhere: it hands over the
// imports (only known inside the factory) and takes the instance. A failure
// rejects `failed`, since emscripten 3.1.6 would otherwise wait forever for
// receiveInstance.
function startFromModule(createModule, module) {
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const started = createModule({
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(module, imports).then((instance) => receiveInstance(instance, module)).catch(fail);
      return {};  // asynchronous: the exports come through receiveInstance
    },
  });
  return Promise.race([started, failed]);
}

// The module useCompiledCore() was given, until the runtime starts.
let compiledCore = null;

/** The translation runtime (Embind: Session, heapStats). */
export const getCore = lazyModule(async () => createS2sCore, 's2s-core.wasm', {
  name: 'WebAssembly module',
  check: 'check that s2s-core.wasm sits next to index.js and that this runtime supports WebAssembly ' +
    'exceptions and SIMD (Node 20, or a current browser)',
}, () => compiledCore);

/**
 * Starts the translation runtime from `module`, a WebAssembly.Module of
 * s2s-core.wasm compiled elsewhere (WebAssembly.compileStreaming on the
 * page), unless it has started already. Throws a TypeError for anything
 * that is not a WebAssembly.Module.
 */
export function useCompiledCore(module) {
  if (!(module instanceof WebAssembly.Module)) {
    throw new TypeError('preloadRuntime: `module` must be a WebAssembly.Module compiled from s2s-core.wasm ' +
      '(WebAssembly.compileStreaming(fetch(url))); leave it out to let the package load the file itself');
  }
  if (!getCore.started()) compiledCore = module;
  const core = getCore();
  compiledCore = null;
  return core;
}

/** The training runtime (Embind: TrainingRun), imported on first use. */
export const getTrainCore = lazyModule(async () => (await import('./s2s-train.js')).default, 's2s-train.wasm', {
  name: 'training module',
  check: 'check that s2s-train.js and s2s-train.wasm sit next to index.js (build them with `npm run build:wasm`)',
});

/**
 * Reads a file in Node as a Uint8Array. node:fs is imported only in Node,
 * and through a variable so that bundlers targeting browsers leave it alone.
 */
export async function readNodeFile(pathOrFileUrl) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
  const buffer = await readFile(pathOrFileUrl);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

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

/** Frees `handle` (an Embind object) if `owner` is garbage-collected undisposed. */
export function freeWhenForgotten(owner, handle) {
  forgotten.register(owner, handle, owner);
}

/** Frees `handle` now, and forgets it. */
export function free(owner, handle) {
  forgotten.unregister(owner);
  handle.delete();
}
