// The numbers of a model header as the WebAssembly build reads them
// (nlohmann::json through the C library's strtod) against JavaScript's
// JSON.parse, which rounds correctly: the same double for every one,
// including 17 digits, large exponents and subnormals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { wordHash64 } from '../../bench/model-file.mjs';
import { distDir, modelForTests, requireDist } from './helpers/models.mjs';

requireDist();
const { loadModel } = await import(pathToFileURL(join(distDir, 'index.js')).href);

const NUMBERS = ['51.00848686336446', '0.1', '1e-7', '0.30000000000000004', '123456789012345678.5', '1e22', '1e23',
  '4.9e-324', '2.2250738585072014e-308', '1.7976931348623157e308', '-0.0', '2.5', '3.14159e-5', '12345.6789e-3',
  '1E+2', '-7.25e-2', '0.000001234', '9007199254740993.0', '9007199254740992.0', '100000000000000000000000.0',
  '0.1e1', '76.51914698463655', '-1e-22', '8.589973e9', '5e-324'];

// `bytes` with its header's provenance replaced by { numbers: [...] }
// (padded with spaces to the same length, so the table's offsets hold), and
// sealed again when the format's checksum covers the header (version 3 on).
function withNumbers(bytes) {
  const size = bytes.readUInt32LE(12);
  const header = JSON.parse(bytes.subarray(16, 16 + size).toString('utf8'));
  header.provenance = {};
  let text = JSON.stringify(header).replace('"provenance":{}', `"provenance":{"numbers":[${NUMBERS.join(',')}]}`);
  assert.ok(Buffer.byteLength(text) <= size, 'the test header must fit in the original');
  text += ' '.repeat(size - Buffer.byteLength(text));
  const out = Buffer.from(bytes);
  out.write(text, 16, 'utf8');
  if (out.readUInt32LE(8) >= 3) out.writeBigUInt64LE(wordHash64(out.subarray(0, out.length - 8)), out.length - 8);
  return out;
}

test('header numbers read in WebAssembly are the doubles JSON.parse gives, bit for bit', async () => {
  const model = await loadModel(new Uint8Array(withNumbers(readFileSync(modelForTests().path))));
  const read = model.info.provenance.numbers;
  assert.equal(read.length, NUMBERS.length);
  NUMBERS.forEach((text, i) => {
    assert.ok(Object.is(read[i], JSON.parse(text)), `${text}: read ${read[i]}, JSON.parse gives ${JSON.parse(text)}`);
  });
  model.dispose();
});

test('a shipped model\'s provenance reads as JSON.parse reads it', async () => {
  const bytes = readFileSync(modelForTests().path);
  const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8'));
  const model = await loadModel(new Uint8Array(bytes));
  assert.deepEqual(model.info.provenance, header.provenance);
  model.dispose();
});
