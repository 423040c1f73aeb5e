// Memory of the WebAssembly build in one long-lived Node process: 10,000
// translations leave the heap flat, dispose() gives back every byte a model
// took, 100 load/dispose cycles stay flat, errors leak nothing, and a model
// that is never disposed is freed by the FinalizationRegistry after GC.
// memoryStats() reports the heap's size and malloc's bytes in use (mallinfo).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpModels, devSentences, distDiagnostics, distIndex, modelForTests, requireDist, root } from './helpers/models.mjs';

requireDist();
const { loadModel } = await import(pathToFileURL(distIndex).href);
const { memoryStats } = await import(pathToFileURL(distDiagnostics).href);

const sentences = devSentences(readFileSync(join(root, 'tests', 'fixtures', 'en-fr-dev.tsv'), 'utf8'));
const longInput = 'the cat sees the dog and '.repeat(200);  // 1,200 words, cut to 199 tokens
let modelPath;
let modelBytes;
let emptyHeap;  // memoryStats() with the runtime started and no model loaded

before(async () => {
  ({ path: modelPath } = modelForTests());
  modelBytes = readFileSync(modelPath);
  // Start the runtime with a first load and dispose, so that one-time
  // allocations (Embind's type tables, malloc's own state) come before the baseline.
  (await loadModel(modelBytes)).dispose();
  emptyHeap = await memoryStats();
});

after(cleanUpModels);

test('10,000 translations leave the WASM heap flat', async (t) => {
  const model = await loadModel(modelBytes);
  try {
    // Warm-up: the largest allocations this test will make (a 1,000-word input
    // with the widest beam), so the heap has grown to its final size.
    model.translate(longInput, { beamSize: 16, alternatives: 5 });
    for (const sentence of sentences.slice(0, 100)) model.translate(sentence, { beamSize: 4, alternatives: 3 });
    const warm = await memoryStats();
    assert.ok(warm.usedBytes > emptyHeap.usedBytes + modelBytes.length / 2, 'the model is on the heap');

    const started = performance.now();
    const samples = [];
    for (let i = 0; i < 10_000; ++i) {
      const sentence = sentences[i % sentences.length];
      const options = i % 10 === 0 ? { beamSize: 4, alternatives: 3 } : {};
      const r = model.translate(sentence, options);
      if (i % 100 === 0) model.translate(sentence, { prefix: r.targetTokens.slice(0, 1).filter((x) => x !== '<eos>') });
      if (i % 1000 === 999) samples.push((await memoryStats()).usedBytes);
    }
    const seconds = (performance.now() - started) / 1000;
    const end = await memoryStats();
    t.diagnostic(`10,000 translations in ${seconds.toFixed(1)} s; heap ${warm.heapBytes} -> ${end.heapBytes} bytes; ` +
      `malloc in use ${warm.usedBytes} -> ${end.usedBytes} bytes (empty runtime: ${emptyHeap.usedBytes})`);
    assert.equal(end.heapBytes, warm.heapBytes, 'the heap did not grow');
    assert.deepEqual(samples, Array(10).fill(warm.usedBytes), 'malloc holds the same bytes after every 1,000');
    assert.equal(end.usedBytes, warm.usedBytes);
  } finally {
    model.dispose();
  }
  assert.equal((await memoryStats()).usedBytes, emptyHeap.usedBytes, 'dispose() gave back every byte');
});

test('errors inside the C++ core leak nothing', async () => {
  const model = await loadModel(modelBytes);
  try {
    model.translate('I see the cat.');
    const before = (await memoryStats()).usedBytes;
    for (let i = 0; i < 1000; ++i) {
      // A C++ InputError thrown deep in translate_with_prefix, caught at the boundary.
      assert.throws(() => model.translate('I see the cat.', { prefix: [`not-a-word-${i}`] }), /not in this model's target vocabulary/);
    }
    assert.equal((await memoryStats()).usedBytes, before);
  } finally {
    model.dispose();
  }
  // Bad model files: the loader throws from inside its validation.
  const broken = Uint8Array.from(modelBytes, (b, i) => (i === modelBytes.length - 7 ? b ^ 0x40 : b));
  for (let i = 0; i < 20; ++i) await assert.rejects(loadModel(broken), /loadModel: /);
  await assert.rejects(loadModel(modelBytes.subarray(0, 1000)), /loadModel: /);
  assert.equal((await memoryStats()).usedBytes, emptyHeap.usedBytes);
});

test('dispose() frees a model, and 100 load/dispose cycles stay flat', async (t) => {
  const loaded = await loadModel(modelBytes);
  loaded.translate('We drink water.');
  const withModel = (await memoryStats()).usedBytes;
  loaded.dispose();
  assert.ok(withModel - emptyHeap.usedBytes > modelBytes.length / 2, `a model takes ${withModel - emptyHeap.usedBytes} bytes`);
  assert.equal((await memoryStats()).usedBytes, emptyHeap.usedBytes, 'back to the baseline');

  const heapAfterFirst = (await memoryStats()).heapBytes;
  for (let i = 0; i < 100; ++i) {
    const model = await loadModel(modelBytes);
    model.translate(sentences[i]);
    model.dispose();
    assert.equal((await memoryStats()).usedBytes, emptyHeap.usedBytes, `cycle ${i}`);
  }
  const end = await memoryStats();
  t.diagnostic(`a model holds ${withModel - emptyHeap.usedBytes} bytes; heap after 100 cycles: ${end.heapBytes} bytes`);
  assert.equal(end.heapBytes, heapAfterFirst, 'the heap did not grow');
});

test('a model that is never disposed is freed after garbage collection', () => {
  // In a child process with --expose-gc: load, drop the reference, collect.
  const script = `
    const { loadModel } = await import(${JSON.stringify(pathToFileURL(distIndex).href)});
    const { memoryStats } = await import(${JSON.stringify(pathToFileURL(distDiagnostics).href)});
    const bytes = (await import('node:fs')).readFileSync(${JSON.stringify(modelPath)});
    (await loadModel(bytes)).dispose();
    const empty = (await memoryStats()).usedBytes;
    for (let i = 0; i < 5; ++i) (await loadModel(bytes)).translate('I see the cat.');  // never disposed
    const leaked = (await memoryStats()).usedBytes;
    for (let i = 0; i < 20 && (await memoryStats()).usedBytes !== empty; ++i) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(JSON.stringify({ empty, leaked, after: (await memoryStats()).usedBytes }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const { empty, leaked, after: afterGc } = JSON.parse(r.stdout);
  assert.ok(leaked > empty, 'five forgotten models hold memory');
  assert.equal(afterGc, empty, 'the FinalizationRegistry freed them');
});
