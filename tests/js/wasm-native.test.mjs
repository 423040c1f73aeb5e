// Same answers as native: the WebAssembly build and the native CLI decode the
// 500 English development sentences of tests/fixtures/en-fr-dev.tsv with the
// same model. Greedy tokens must agree on at least 99% of them (the two builds
// round floating point differently: FMA and AVX2 natively, SIMD128 in WASM,
// so a near tie may flip), and where the tokens agree, attention must agree
// within 1e-4.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpModels, devSentences, distIndex, modelForTests, nativeCli, requireDist, root } from './helpers/models.mjs';

requireDist();
const { loadModel } = await import(pathToFileURL(distIndex).href);

after(cleanUpModels);

function maxAbsDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; ++i) {
    if (a[i].length !== b[i].length) return Infinity;
    for (let j = 0; j < a[i].length; ++j) worst = Math.max(worst, Math.abs(a[i][j] - b[i][j]));
  }
  return worst;
}

test('WASM and the native CLI agree on 500 development sentences (greedy)', async (t) => {
  const sentences = devSentences(readFileSync(join(root, 'tests', 'fixtures', 'en-fr-dev.tsv'), 'utf8'));
  assert.equal(sentences.length, 500);
  const { path } = modelForTests();

  const native = spawnSync(nativeCli, ['translate', '--model', path, '--json'],
    { input: `${sentences.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600_000 });
  assert.equal(native.status, 0, native.stderr);
  const nativeResults = native.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(nativeResults.length, sentences.length);

  const model = await loadModel(path);
  let sameTokens = 0;
  let worstAttention = 0;
  const differing = [];
  try {
    sentences.forEach((sentence, i) => {
      const wasm = model.translate(sentence);
      const expected = nativeResults[i];
      assert.deepEqual(wasm.sourceTokens, expected.sourceTokens, `same source tokens for ${sentence}`);
      if (JSON.stringify(wasm.targetTokens) !== JSON.stringify(expected.targetTokens)) {
        differing.push(sentence);
        return;
      }
      sameTokens += 1;
      assert.equal(wasm.attention.length, expected.attention.length);
      worstAttention = Math.max(worstAttention, maxAbsDifference(wasm.attention, expected.attention));
      assert.ok(Math.abs(wasm.score - expected.score) < 1e-3, `score ${wasm.score} vs ${expected.score}`);
    });
  } finally {
    model.dispose();
  }
  const agreement = sameTokens / sentences.length;
  t.diagnostic(`model: ${path}; same greedy tokens on ${sameTokens}/${sentences.length} ` +
    `(${(100 * agreement).toFixed(1)}%); max attention difference ${worstAttention.toExponential(2)}`);
  if (differing.length) t.diagnostic(`differing: ${differing.slice(0, 5).join(' | ')}`);
  assert.ok(agreement >= 0.99, `only ${(100 * agreement).toFixed(1)}% agree`);
  assert.ok(worstAttention <= 1e-4, `attention differs by ${worstAttention}`);
});
