// The benchmark's peer stays honest: bench/tfjs-model.mjs (the same model and
// weights in TensorFlow.js) must translate like this project's WASM build,
// so that `npm run bench` compares two implementations of one model. On 20
// committed development sentences (tests/fixtures/en-fr-dev.tsv, spread over
// the file) with models/en-fr.s2s: TF.js's wasm backend at beam 1 and 4 and
// its cpu backend at beam 1 (with the model's lexical shortlist, as both use
// it by default; the wasm backend at beam 1 also without it: shortlist false)
// must give the same source tokens always and the
// same output tokens on at least 19 of 20 (the two round floating point
// differently, so a near tie may flip), with scores and attention close
// where they agree. Skipped when the shipped model is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { devSentences, distIndex, requireDist, root } from './helpers/models.mjs';

const modelPath = join(root, 'models', 'en-fr.s2s');
const skip = existsSync(modelPath) ? false : 'models/en-fr.s2s is missing (the peer check needs the shipped model)';

const all = devSentences(readFileSync(join(root, 'tests', 'fixtures', 'en-fr-dev.tsv'), 'utf8'));
const sentences = Array.from({ length: 20 }, (_, i) => all[Math.floor((i * all.length) / 20)]);

let tf;
let peerModule;
let modelFile;  // bench/model-file.mjs, the peer's reader of .s2s files
let wasmModel;
const wasmResults = new Map();  // `${beam}\t${sentence}` -> result

async function setUp() {
  if (tf) return;
  requireDist();
  tf = await import('@tensorflow/tfjs');
  await import('@tensorflow/tfjs-backend-wasm');
  peerModule = await import(pathToFileURL(join(root, 'bench', 'tfjs-model.mjs')).href);
  modelFile = await import(pathToFileURL(join(root, 'bench', 'model-file.mjs')).href);
  const { loadModel } = await import(pathToFileURL(distIndex).href);
  wasmModel = await loadModel(modelPath);
}

function wasmTranslate(sentence, options) {
  const key = `${JSON.stringify(options)}\t${sentence}`;
  if (!wasmResults.has(key)) wasmResults.set(key, wasmModel.translate(sentence, options));
  return wasmResults.get(key);
}

function maxAbsDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; ++i) {
    for (let j = 0; j < a[i].length; ++j) worst = Math.max(worst, Math.abs(a[i][j] - b[i][j]));
  }
  return worst;
}

const runs = {
  wasm: [{ beamSize: 1 }, { beamSize: 4 }, { beamSize: 1, shortlist: false }],
  cpu: [{ beamSize: 1 }],
};
for (const [backend, optionSets] of Object.entries(runs)) {
  test(`the TF.js peer (${backend} backend) translates like the WASM build`, { skip, timeout: 300_000 }, async (t) => {
    await setUp();
    assert.ok(await tf.setBackend(backend), `TF.js backend ${backend} is available`);
    await tf.ready();
    const peer = await peerModule.loadTfjsModel(tf, readFileSync(modelPath));
    const tensorsBefore = tf.memory().numTensors;
    try {
      for (const options of optionSets) {
        const beamSize = options.beamSize;
        let same = 0;
        const differing = [];
        for (const sentence of sentences) {
          const expected = wasmTranslate(sentence, options);
          const got = peer.translate(sentence, options);
          assert.deepEqual(got.sourceTokens, expected.sourceTokens, `source tokens of "${sentence}"`);
          if (JSON.stringify(got.targetTokens) !== JSON.stringify(expected.targetTokens)) {
            differing.push(`"${sentence}": ${got.targetTokens.join(' ')} | WASM: ${expected.targetTokens.join(' ')}`);
            continue;
          }
          same += 1;
          assert.ok(Math.abs(got.score - expected.score) < 1e-3, `score ${got.score} vs ${expected.score} for "${sentence}"`);
          assert.equal(got.attention.length, expected.attention.length);
          assert.ok(maxAbsDifference(got.attention, expected.attention) < 1e-3, `attention of "${sentence}"`);
        }
        const run = `beam ${beamSize}${options.shortlist === false ? ', shortlist off' : ''}`;
        t.diagnostic(`${backend}, ${run}: ${same}/${sentences.length} identical translations`);
        assert.ok(same >= sentences.length - 1, `${run}: only ${same}/${sentences.length} agree:\n${differing.join('\n')}`);
      }
      assert.equal(tf.memory().numTensors, tensorsBefore, 'no tensors leak per translation');
    } finally {
      peer.dispose();
    }
  });
}

test('the peer reads the .s2s format itself and refuses a damaged file', { skip }, async () => {
  await setUp();
  const bytes = new Uint8Array(readFileSync(modelPath));
  const file = modelFile.parseModelFile(bytes);
  const header = JSON.parse(JSON.stringify(wasmModel.info.config));
  assert.equal(file.header.config.target_vocab_size, header.target_vocab_size);
  const output = file.tensors.get('output_weights');
  assert.deepEqual([output.rows, output.cols], [header.target_vocab_size, header.output_hidden_size]);
  assert.ok(output.data.every(Number.isFinite));
  const damaged = bytes.slice();
  damaged[damaged.length - 1] ^= 0x40;
  assert.throws(() => modelFile.parseModelFile(damaged), /checksum/);
  assert.throws(() => modelFile.parseModelFile(bytes.subarray(0, 100)), /truncated/);
});

test.after(() => wasmModel?.dispose());
