// What the page needs from the browser, checked before anything loads, so a
// browser without it gets a sentence saying what is missing, not a blank page.
import { lang, tIn } from './i18n/index.js';

// The smallest module that uses a SIMD instruction, assembled by hand:
//   (module (func (result v128) i32.const 0 i8x16.splat))
// WebAssembly.validate() accepts it only where WASM SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, // code section: one body of 6 bytes, no locals
  0x41, 0x00, // i32.const 0
  0xfd, 0x0f, // i8x16.splat
  0x0b, // end
]);

/** null when everything is there, else the catalogue key (web/figures/i18n/) of what is missing. */
export function missingFeature() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') return 'features.noWasm';
  let simd = false;
  try {
    simd = WebAssembly.validate(SIMD_PROBE);
  } catch {
    simd = false;
  }
  if (!simd) return 'features.noSimd';
  if (globalThis.location?.protocol === 'file:') return 'features.file';
  if (typeof Worker !== 'function') return 'features.noWorker';
  return null;
}

/** null when everything is there, else a message for the user, in `language` (default: the page's). */
export function missingFeatures(language = lang()) {
  const key = missingFeature();
  return key ? tIn(language, key) : null;
}
