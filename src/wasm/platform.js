// What the package needs to know about where it runs, apart from the
// runtimes (runtime.js, trainer.js, wasm-common.js), so that a module that only talks to a worker
// (translator.js) does not load emscripten's glue on the calling thread.

// Node (and Deno, Bun, Electron): a process with a Node version, window or
// not, so that jsdom and happy-dom, which add a window to Node, still read
// files with fs instead of fetching file: URLs.
export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

// Symbol.dispose and Symbol.asyncDispose where the runtime has them (Node 20
// and later, current browsers), else private symbols nothing calls.
export const disposeSymbol = Symbol.dispose ?? Symbol('dispose');
export const asyncDisposeSymbol = Symbol.asyncDispose ?? Symbol('asyncDispose');

// The package's folder (dist/), read once: the URLs the package computes
// from a name (a shipped model by name, the trainer on first use, Node's
// worker) are made here, so that no `new URL(<expression>, import.meta.url)`
// is left for a bundler to take for an asset it must find (webpack warns
// "Critical dependency" on each). A bundled app names its files with
// literal URLs instead (models/NAME.js, the trainer's own entry).
const packageFolder = import.meta.url;

/** `path` relative to the package's dist/ folder, as a URL. */
export function inPackage(path) {
  return new URL(path, packageFolder);
}

/**
 * The text of UTF-8 `bytes`: TextDecoder's where the global exists, else
 * decoded here (jest's jsdom environment has no TextDecoder), so that no
 * module of the package needs one to load. Malformed sequences become
 * U+FFFD in both.
 */
export function decodeUtf8(bytes) {
  if (typeof TextDecoder === 'function') return new TextDecoder().decode(bytes);
  // The Encoding Standard's UTF-8 decoder: a leading byte-order mark is
  // dropped, a malformed sequence's longest valid start becomes one U+FFFD,
  // and the byte that broke it is read again.
  let text = '';
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  for (let i = bom ? 3 : 0; i < bytes.length;) {
    const b = bytes[i];
    let need = 0, cp = 0, lower = 0x80, upper = 0xbf;
    if (b < 0x80) {
      text += String.fromCharCode(b);
      ++i;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1; cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2; cp = b & 0x0f;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3; cp = b & 0x07;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    }
    let j = i + 1;
    for (; need > 0; --need, ++j) {
      const next = bytes[j];
      if (next === undefined || next < lower || next > upper) break;
      cp = (cp << 6) | (next & 0x3f);
      lower = 0x80;
      upper = 0xbf;
    }
    text += need === 0 && j > i + 1 ? String.fromCodePoint(cp) : '\ufffd';
    i = j;
  }
  return text;
}

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
 * For a loop of short pieces of work (a batch's sentences): a function that
 * yields to the next task (nextTask) only once `sliceMs` have passed since
 * the last yield, and otherwise returns at once. A paint or an abort still
 * gets in every slice (8 ms, half a 60 Hz frame), without a task switch per
 * sentence that a batch of short sentences would spend more time on than on
 * decoding them.
 */
export function timeSlicer(sliceMs = 8) {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs) return;
    await nextTask();
    last = performance.now();
  };
}

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
