// What the two WebAssembly runtimes share, and nothing of either: starting
// an Emscripten module from its .wasm wherever that is, reading a file in
// Node, and freeing Embind objects. The translation runtime is started in
// runtime.js, the trainer's in trainer.js. This module names neither, so
// that an app, or the training worker's bundle, that only trains carries
// nothing of the translation runtime, and one that only translates nothing
// of the trainer.
//
// Each runtime's .wasm is named once, in its own module, by a literal
// `new URL('./file.wasm', import.meta.url)`, the form that Vite, webpack 5
// and Rollup (with @web/rollup-plugin-import-meta-assets) follow: they copy
// the file and rewrite the URL, and lazyModule fetches what they rewrote
// (emscripten's own lookup is bypassed: instantiateWasm below). esbuild
// leaves the URL as it is: the file must sit next to the bundle (README,
// "In a bundler"). In Node the file is read with fs.
//
// Where a runtime comes from can also be given (the `wasm` options): a URL,
// the bytes, a Blob, a Response, or a WebAssembly.Module compiled elsewhere
// (the demo page compiles the translation runtime with compileStreaming
// while its model downloads and posts the module to its worker, which then
// only instantiates it).
import { LoadError, describe, describeValue } from './errors.js';
import { decodeUtf8, isNode, isResponse } from './platform.js';

// What a failure to start a runtime tells the user to check; `option` is
// how to say where the .wasm is.
const bundlerHint = (option) => 'a bundler must copy it: Vite, webpack 5 and Rollup (with @web/rollup-plugin-import-meta-assets) do; ' +
  `with esbuild, copy node_modules/seq2seq-attention/dist/*.wasm next to your bundle; or say where it is: ${option}`;

/**
 * Returns a function that starts a module on its first call and returns the
 * same promise after that. `loadFactory` resolves to the module's Emscripten
 * factory, `defaultUrl` is where its .wasm is, and `what` says in a
 * failure's message which module it is; after a failure, the next call
 * tries again. `given()` returns where the caller said the .wasm is (or
 * null), and `option` is how a caller says it (named in a failure's hint).
 */
export function lazyModule(loadFactory, defaultUrl, what, given = () => null, option = 'the `wasm` option') {
  let promise;
  const start = () => {
    promise ??= instantiate(loadFactory, defaultUrl, given(), bundlerHint(option)).catch((cause) => {
      promise = undefined;  // let a later call try again
      throw new LoadError(`seq2seq-attention: could not start the ${what} (${describe(cause)})`, { cause });
    });
    return promise;
  };
  start.started = () => promise !== undefined;
  return start;
}

async function instantiate(loadFactory, defaultUrl, source, hint) {
  const createModule = await loadFactory();
  if (source instanceof WebAssembly.Module) {
    // A module that does not fit (another build's: a LinkError, or one
    // without this runtime's classes) is not fatal: the file is loaded as
    // without one, in a fresh instance of the factory.
    try {
      const core = await startFromModule(createModule, source);
      if (typeof core.Session === 'function' || typeof core.BrowserTrainingRun === 'function') return core;
    } catch {
      // fall through to the file
    }
    source = null;
  }
  return startFromModule(createModule, await compileWasm(source ?? defaultUrl, hint));
}

/**
 * Compiles a .wasm from a URL (or URL string), bytes, a Blob or a Response;
 * a failure names the URL and what to do (`hint`).
 */
async function compileWasm(source, hint) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (typeof Blob === 'function' && source instanceof Blob) return WebAssembly.compile(await source.arrayBuffer());
  if (isResponse(source)) return compileResponse(source, source.url || 'the Response given', hint);
  let url;
  try {
    url = source instanceof URL ? source : new URL(source, globalThis.location?.href);
  } catch {
    throw Object.assign(new TypeError(`the wasm source must be a URL, the bytes, a Blob, a Response or a WebAssembly.Module, but got ${describeValue(source)}`), { kind: 'usage' });
  }
  if (isNode && url.protocol === 'file:') {
    let bytes;
    try {
      bytes = await readNodeFile(url);
    } catch (cause) {
      throw new LoadError(`could not read ${url.href}: ${cause?.code === 'ENOENT' ? 'no such file' : describe(cause)}; ` +
        'reinstall the package, or build it with `npm run build:wasm`', { cause });
    }
    return WebAssembly.compile(bytes);
  }
  let response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new LoadError(`could not fetch ${url.href}: ${describe(cause)}; ${hint}`, { cause });
  }
  if (!response.ok) throw new LoadError(`could not fetch ${url.href}: HTTP ${response.status} ${response.statusText}; ${hint}`);
  return compileResponse(response, url.href, hint);
}

async function compileResponse(response, where, hint) {
  if (!response.ok) throw new LoadError(`the Response for ${where} is HTTP ${response.status}; pass a successful one`);
  // Streaming compilation needs the server's Content-Type: application/wasm;
  // without it, the bytes are compiled once they are all here.
  if (typeof WebAssembly.compileStreaming === 'function' && /application\/wasm/.test(response.headers.get('content-type') ?? '')) {
    return WebAssembly.compileStreaming(response);
  }
  const bytes = await response.arrayBuffer();
  try {
    return await WebAssembly.compile(bytes);
  } catch (cause) {
    const head = decodeUtf8(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 15)));
    const html = head.trimStart().startsWith('<') ? ' (an HTML page came back: the server has no such file)' : '';
    throw new LoadError(`${where} is not WebAssembly${html}: ${describe(cause)}; ${hint}`, { cause });
  }
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
    // Emscripten's own messages ("Aborted(...)") stay out of the console:
    // every failure reaches the caller as an Error.
    printErr() {},
  });
  return Promise.race([started, failed]);
}

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

// Frees the C++ side (an Embind Session or BrowserTrainingRun) of models and
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
