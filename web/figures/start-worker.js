// Starting a module Web Worker for the page's modules (the translators of
// translator.js, which hands each to the package's createTranslator): a
// same-origin start, from a blob when the page's modules come from another
// origin.

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
