// What kind of model source a caller handed over: the one answer loadModel
// (load-model.js, which reads it) and createTranslator (translator.js, which
// posts it to a worker) both act on, so that a string is a name, a URL or a
// path by the same rules in both. Neither reads nor checks anything here:
// the callers report the problems, each with its own message.
import { isModelName, shippedModels } from './models.js';
import { isNode, isResponse } from './platform.js';

/**
 * One of
 *   { kind: 'bytes', bytes }         a Uint8Array over the given bytes (ArrayBuffer, any typed array or DataView)
 *   { kind: 'blob', blob }
 *   { kind: 'response', response }  a fetch Response, not yet checked for its status
 *   { kind: 'url', url }             a URL, or a string with a scheme below
 *   { kind: 'name', name, shipped }  a model's name: models/NAME.s2s; `shipped` when the package has it
 *   { kind: 'path', path }           in Node, any other non-empty string
 *   { kind: 'relative-url', url }    in a browser, any other non-empty string, resolved against the page
 *   { kind: 'invalid' }              none of these (not a string, or an empty one)
 */
export function classifyModelSource(source) {
  if (source instanceof Uint8Array) return { kind: 'bytes', bytes: source };
  if (source instanceof ArrayBuffer) return { kind: 'bytes', bytes: new Uint8Array(source) };
  if (ArrayBuffer.isView(source)) return { kind: 'bytes', bytes: new Uint8Array(source.buffer, source.byteOffset, source.byteLength) };
  if (typeof Blob === 'function' && source instanceof Blob) return { kind: 'blob', blob: source };
  if (isResponse(source)) return { kind: 'response', response: source };
  if (source instanceof URL) return { kind: 'url', url: source };
  if (typeof source !== 'string' || source.trim() === '') return { kind: 'invalid' };
  if (isModelName(source)) return { kind: 'name', name: source, shipped: shippedModels.includes(source) };
  const url = absoluteUrl(source);
  if (url) return { kind: 'url', url };
  if (isNode) return { kind: 'path', path: source };
  // A relative URL in a browser: relative to the page, as fetch() does it.
  return { kind: 'relative-url', url: new URL(source, globalThis.location?.href) };
}

// Only these schemes make a string a URL, so that a Windows path such as
// C:\models\x.s2s stays a path.
function absoluteUrl(text) {
  if (!/^(https?|file|data|blob):/i.test(text)) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
