// What the package needs to know about where it runs, apart from the
// runtimes (runtime.js), so that a module that only talks to a worker
// (translator.js) does not load emscripten's glue on the calling thread.

// Node (and Deno, Bun, Electron): a process with a Node version, window or
// not, so that jsdom and happy-dom, which add a window to Node, still read
// files with fs instead of fetching file: URLs.
export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

// Symbol.dispose and Symbol.asyncDispose where the runtime has them (Node 20,
// current browsers), else private symbols nothing calls.
export const disposeSymbol = Symbol.dispose ?? Symbol('dispose');
export const asyncDisposeSymbol = Symbol.asyncDispose ?? Symbol('asyncDispose');

/**
 * A promise of the next task: lets a paint, a message or an abort in between
 * chunks of work. Not setTimeout(0), which browsers clamp to 4 ms once
 * nested (a batch of short sentences would wait more than it decodes): a
 * MessageChannel message in a browser or a worker, setImmediate in Node.
 */
export const nextTask = (() => {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => { setImmediate(resolve); });
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    const waiting = [];
    channel.port1.onmessage = () => waiting.shift()?.();
    return () => new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
  }
  return () => new Promise((resolve) => { setTimeout(resolve, 0); });
})();

/**
 * Whether `value` is a fetch Response. In Node, reading the global
 * `Response` loads the whole fetch implementation (undici, ~30-45 ms of a
 * process's start), so only an object shaped like one is checked against it:
 * whoever made a Response has loaded fetch already.
 */
export function isResponse(value) {
  return value !== null && typeof value === 'object' && typeof value.arrayBuffer === 'function' &&
    typeof value.headers === 'object' && typeof Response === 'function' && value instanceof Response;
}
