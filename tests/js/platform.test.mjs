// The package's own UTF-8 decoder (platform.js decodeUtf8), used where the
// global TextDecoder is missing (jest's jsdom environment, issue 47): the
// same text as TextDecoder's for every one- and two-byte input and for
// malformed sequences of each kind, and a model loads and translates with
// no TextDecoder at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requireDist, root } from './helpers/models.mjs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

requireDist();
const { decodeUtf8 } = await import(pathToFileURL(join(root, 'dist', 'platform.js')).href);
const reference = new TextDecoder();

function withoutTextDecoder(run) {
  const saved = globalThis.TextDecoder;
  delete globalThis.TextDecoder;
  try {
    return run();
  } finally {
    globalThis.TextDecoder = saved;
  }
}

test('decodeUtf8 without TextDecoder gives TextDecoder\'s text for every one- and two-byte input', () => {
  const mismatches = withoutTextDecoder(() => {
    const found = [];
    for (let a = 0; a < 256; ++a) {
      for (let b = -1; b < 256; ++b) {
        const bytes = Uint8Array.from(b < 0 ? [a] : [a, b]);
        if (decodeUtf8(bytes) !== reference.decode(bytes)) found.push([...bytes]);
      }
    }
    return found;
  });
  assert.deepEqual(mismatches.slice(0, 5), []);
});

test('decodeUtf8 without TextDecoder: text in four scripts and every kind of malformed sequence as TextDecoder reads them', () => {
  const inputs = [
    new TextEncoder().encode('héllo 注意力汇聚 🐱 «x» l\u2019attention'),
    [0xe2, 0x82], [0xe2, 0x82, 0x41], [0xed, 0xa0, 0x80], [0xe0, 0x80, 0x80], [0xf0, 0x8f, 0xbf, 0xbf],
    [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80], [0xc0, 0xaf], [0xf0, 0x9f, 0x98], [0xf0, 0x9f, 0x98, 0x80, 0x80],
    [0xef, 0xbb, 0xbf, 0x41], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], [0x41, 0xef, 0xbb, 0xbf],
  ].map((bytes) => Uint8Array.from(bytes));
  const expected = inputs.map((bytes) => reference.decode(bytes));
  assert.deepEqual(withoutTextDecoder(() => inputs.map(decodeUtf8)), expected);
});

test('with no TextDecoder global, a model loads and translates (its info decoded by the package)', async () => {
  const saved = globalThis.TextDecoder;
  delete globalThis.TextDecoder;
  try {
    // Imported here, so that emscripten's glue also starts without one.
    const { loadModel } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
    const model = await loadModel(join(root, 'models', 'en-zh.s2s'));
    assert.equal(model.info.name, 'en-zh');
    assert.ok(model.translate('I love deep learning.').text.length > 0);
    model.dispose();
  } finally {
    globalThis.TextDecoder = saved;
  }
});
