// Types of 'seq2seq-attention/diagnostics' (src/wasm/diagnostics.js): hooks
// for tests, benchmarks and the demo page's worker, not part of the API.

/**
 * Starts downloading and compiling the translation runtime now, so that a
 * later `loadModel()` only parses its model (it starts the runtime itself
 * otherwise). Rejects with an Error saying why the runtime cannot start.
 *
 * `module`: s2s-core.wasm compiled elsewhere (e.g. `WebAssembly.compileStreaming`
 * on a page, posted to its worker); the runtime then only instantiates it.
 * Ignored once the runtime has started; a module of another build is dropped
 * and the file loaded instead. Rejects with a TypeError for anything that is not a
 * `WebAssembly.Module`.
 */
export declare function preloadRuntime(options?: { module?: WebAssembly.Module | null }): Promise<void>;

/**
 * The WebAssembly heap's size and the bytes malloc holds (`usedBytes`), e.g.
 * to check that disposed models free their memory. It measures the heap the
 * models of `loadModel()` live in.
 */
export declare function memoryStats(): Promise<{ heapBytes: number; usedBytes: number }>;

/**
 * Runs a tiny built-in model once (load and translate) so that a browser,
 * which compiles each WebAssembly function on its first call, has compiled
 * the loading and translating code before the real model arrives (a worker
 * calls it while its model downloads). It runs in four stages, yielding to
 * the event loop between them, and ends early when `stop()` returns true.
 * Resolves to true when every stage ran.
 */
export declare function warmUp(options?: {
  /** Asked between the warm-up's stages; true ends it there (e.g. the real model's bytes have arrived). */
  stop?: () => boolean;
}): Promise<boolean>;
