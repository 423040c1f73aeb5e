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
export declare function preloadRuntime(options?: { module?: import('./index.js').CompiledWasm | null }): Promise<void>;

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
 * calls it while its model downloads). Resolves to true when it ran.
 */
export declare function warmUp(): Promise<boolean>;
