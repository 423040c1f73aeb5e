// What the page needs from the browser, checked before anything loads, so a
// browser without it gets a sentence saying what is missing, not a blank page.

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

/** null when everything is there, else a message for the user. */
export function missingFeatures() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') {
    return 'This browser has no WebAssembly (or it is turned off), and the translator is a WebAssembly module. ' +
      'Try a current Chrome, Edge, Firefox or Safari.';
  }
  let simd = false;
  try {
    simd = WebAssembly.validate(SIMD_PROBE);
  } catch {
    simd = false;
  }
  if (!simd) {
    return 'This browser supports WebAssembly but not WebAssembly SIMD, which the translator is built with ' +
      '(Chrome 91+, Firefox 89+, Safari 16.4+). Please update the browser.';
  }
  if (globalThis.location?.protocol === 'file:') {
    return 'This page was opened from a file, and browsers do not start its translation worker or load its model from files. ' +
      'Serve the folder instead: `npm start` does, or any static web server.';
  }
  if (typeof Worker !== 'function') {
    return 'This browser has no Web Workers, which the page uses to translate without freezing.';
  }
  return null;
}
