// The translation runtime, s2s-core (Embind: Session, heapStats), started
// on first use and shared by every model. Only the translation side imports
// this module (load-model.js, model-worker.js, diagnostics.js): the
// trainer's runtime, s2s-train, is started in trainer.js, and what the two
// share (starting a module from its .wasm, freeing Embind objects) is in
// wasm-common.js, so that an app that only trains never bundles s2s-core
// and one that only translates never bundles the trainer.
//
// s2s-core.wasm is named once, by the literal URL below, which bundlers
// follow (wasm-common.js says how). Where it comes from can also be given
// (setRuntimeSource, the `wasm` option of loadModel; useCompiledCore, the
// module the demo page compiles with compileStreaming while its model
// downloads and posts to its worker).
import createS2sCore from './s2s-core.js';
import { describeValue } from './errors.js';
import { isResponse } from './platform.js';
import { lazyModule } from './wasm-common.js';

// Where the caller said the translation runtime comes from, until it starts.
let coreSource = null;

/** The translation runtime (Embind: Session, heapStats). */
export const getCore = lazyModule(async () => createS2sCore,
  new URL('./s2s-core.wasm', import.meta.url), 'WebAssembly module s2s-core.wasm', () => coreSource, 'loadModel(model, { wasm: url })');

/**
 * Says where the translation runtime's s2s-core.wasm comes from: a URL (or
 * URL string), its bytes, a Blob, a Response, or a WebAssembly.Module. Used
 * when the runtime starts; ignored (returns false) once it has started.
 */
export function setRuntimeSource(source) {
  checkWasmSource(source, 'wasm');
  if (getCore.started()) return false;
  coreSource = source;
  return true;
}

function checkWasmSource(source, context) {
  const ok = source instanceof URL || typeof source === 'string' || source instanceof ArrayBuffer || ArrayBuffer.isView(source) ||
    source instanceof WebAssembly.Module || (typeof Blob === 'function' && source instanceof Blob) ||
    isResponse(source);
  if (!ok) {
    throw Object.assign(new TypeError(`${context}: expected where s2s-core.wasm comes from (a URL, its bytes, a Blob, a Response or a ` +
      `WebAssembly.Module), but got ${describeValue(source)}`), { kind: 'usage' });
  }
}

/**
 * Starts the translation runtime from `module`, a WebAssembly.Module of
 * s2s-core.wasm compiled elsewhere (WebAssembly.compileStreaming on the
 * page), unless it has started already. Throws a TypeError for anything
 * that is not a WebAssembly.Module.
 */
export function useCompiledCore(module) {
  if (!(module instanceof WebAssembly.Module)) {
    throw Object.assign(new TypeError('preloadRuntime: `module` must be a WebAssembly.Module compiled from s2s-core.wasm ' +
      '(WebAssembly.compileStreaming(fetch(url))); leave it out to let the package load the file itself'), { kind: 'usage' });
  }
  const before = coreSource;
  if (!getCore.started()) coreSource = module;
  const core = getCore();
  coreSource = before;
  return core;
}
