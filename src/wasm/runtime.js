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
import createS2sCore from './s2s-core.js';
import { describe } from './errors.js';

export const isNode = typeof process === 'object' && process.versions?.node != null && typeof window === 'undefined';

// Returns a function that starts a module on its first call and returns the
// same promise after that. `loadFactory` resolves to the module's Emscripten
// factory, `wasmFile` names its .wasm file (next to this one), and `what`
// says in a failure's message which module it is and what to check; after
// a failure, the next call tries again.
function lazyModule(loadFactory, wasmFile, what) {
  let promise;
  return () => {
    promise ??= instantiate(loadFactory, wasmFile).catch((cause) => {
      promise = undefined;  // let a later call try again
      throw new Error(`seq2seq-attention: could not start the ${what.name} (${describe(cause)}); ${what.check}`, { cause });
    });
    return promise;
  };
}

async function instantiate(loadFactory, wasmFile) {
  const createModule = await loadFactory();
  const wasmUrl = new URL(`./${wasmFile}`, import.meta.url);
  if (isNode) return createModule({ wasmBinary: await readNodeFile(wasmUrl) });
  return createModule({ locateFile: (file) => new URL(file, import.meta.url).href });
}

/** The translation runtime (Embind: Session, heapStats). */
export const getCore = lazyModule(async () => createS2sCore, 's2s-core.wasm', {
  name: 'WebAssembly module',
  check: 'check that s2s-core.wasm sits next to index.js and that this runtime supports WebAssembly ' +
    'exceptions and SIMD (Node 20, or a current browser)',
});

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
