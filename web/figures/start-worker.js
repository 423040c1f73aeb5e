// Starting a module Web Worker for the page's modules: the translators
// (translator.js) and the two trainers (train.js). One place for the two
// things every worker needs: a same-origin start, and a failure to start
// reported as an Error instead of a silent dead worker.

/**
 * Starts the module worker at `url` (a URL object). `what` names it in the
 * failure's message ('translation', 'training'); onFailure(error) is called
 * when it cannot even start (a syntax error, a module that fails to load, a
 * browser without module workers).
 */
export function startWorker(url, { name, what, onFailure }) {
  return watchStart(createWorker(url, name), { what, onFailure });
}

// Reports a worker that fails to start as an Error.
function watchStart(worker, { what, onFailure }) {
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    onFailure(new Error(`the ${what} worker failed to start${event.message ? `: ${event.message}` : ''}`));
  });
  return worker;
}

/**
 * Starts the module worker at `url` (a URL object) without watching it
 * (for a caller that watches it itself, as the package's createTranslator
 * does). A module worker must come from the page's own origin: when the
 * page's modules are loaded from another origin (embed.js from a CDN), the
 * worker starts from a same-origin blob that imports the real worker module
 * (the host must send CORS headers, which a module <script> from another
 * origin needs anyway).
 */
export function createWorker(url, name) {
  if (url.origin === globalThis.location?.origin) return new Worker(url, { type: 'module', name });
  const source = `import ${JSON.stringify(url.href)};`;
  const blobUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return new Worker(blobUrl, { type: 'module', name });
}
