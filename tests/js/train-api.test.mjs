// Training through the JavaScript API (dist/index.js → dist/s2s-train.wasm),
// in Node: the reversal task is learned and its attention becomes the
// mirrored diagonal, the fixed-context twin has no attention, a trained
// model round-trips through loadModel (its checksum computed by the WASM
// build as JavaScript computes it), runs repeat with a seed, and bad
// options or pairs are errors that name the problem. createTrainerWorker
// trains in a worker_threads thread: it pauses at exact steps, continues
// the same run, answers a probe mid-run, and leaves Node's event loop free.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { distIndex, requireDist } from './helpers/models.mjs';
import { wordHash64 } from '../../bench/model-file.mjs';

requireDist();
const { createTrainer, createTrainerWorker, loadModel, train, UsageError } = await import(pathToFileURL(distIndex).href);

// Share of rows (the symbols, not <eos>) whose strongest weight is on the
// mirrored source position: target i looks at source L-1-i.
function mirroredRows(result) {
  const length = result.sourceTokens.length - 1;  // without <eos>
  let hits = 0;
  for (let i = 0; i < length; i++) {
    const row = result.attention[i];
    hits += row.indexOf(Math.max(...row)) === length - 1 - i ? 1 : 0;
  }
  return hits / length;
}

test('train() learns the reversal task, and its attention is the mirrored diagonal', async () => {
  const progress = [];
  const { trainer, evaluation, reason } = await train({
    task: 'reversal', steps: 1000, stopAtExactMatch: 0.99, evaluateEvery: 100,
    onProgress: (p) => progress.push(p),
  });
  try {
    assert.equal(reason, 'target', `stopped by ${reason} at ${evaluation.exactMatch} exact match`);
    assert.ok(evaluation.exactMatch >= 0.99);
    assert.ok(progress.length > 10 && progress.every((p, i) => i === 0 || p.steps > progress[i - 1].steps), 'progress after every chunk');
    assert.ok(progress.at(-1).loss < progress[0].loss / 4, `the loss falls: ${progress[0].loss} -> ${progress.at(-1).loss}`);
    assert.ok(progress.filter((p) => p.evaluation).length >= 1);

    let rows = 0;
    const probes = trainer.probes(50);
    assert.equal(probes.length, 50);
    for (const probe of probes) {
      const result = trainer.translate(probe.source);
      assert.equal(result.attention.length, result.targetTokens.length);
      rows += mirroredRows(result);
    }
    assert.ok(rows / probes.length >= 0.9, `mirrored rows ${rows / probes.length}`);

    // The trained model is an ordinary .s2s file: format version 4, its last
    // 8 bytes the checksum of the rest, as the JavaScript word_hash64 computes it.
    const bytes = trainer.toBytes();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(view.getUint32(8, true), 4);
    assert.equal(view.getBigUint64(bytes.length - 8, true), wordHash64(bytes.subarray(0, bytes.length - 8)));
    const model = await loadModel(bytes);
    try {
      const text = probes[0].source;
      assert.deepEqual(model.translate(text).targetTokens, trainer.translate(text).targetTokens);
      assert.equal(model.info.provenance.name, 'reversal');
      assert.equal(model.info.provenance.steps, evaluation.steps);
    } finally {
      model.dispose();
    }
  } finally {
    trainer.dispose();
  }
});

test('the fixed-context twin trains too, without attention, and does worse on long sequences', async () => {
  const run = (attention) => train({ task: 'reversal', attention, steps: 600, evaluateEvery: 600 });
  const [withAttention, fixed] = [await run('additive'), await run('none')];
  try {
    assert.equal(fixed.trainer.info.config.attention, 'none');
    const probe = fixed.trainer.probes(1)[0].source;
    assert.deepEqual(fixed.trainer.translate(probe).attention, []);
    const longAccuracy = ({ evaluation }) => {
      const long = evaluation.byLength.filter((b) => b.length >= 10);
      return long.reduce((a, b) => a + b.correct, 0) / long.reduce((a, b) => a + b.total, 0);
    };
    assert.ok(longAccuracy(withAttention) > longAccuracy(fixed) + 0.3,
      `on 10+ symbols: attention ${longAccuracy(withAttention)}, fixed ${longAccuracy(fixed)}`);
  } finally {
    withAttention.trainer.dispose();
    fixed.trainer.dispose();
  }
});

test('a run repeats exactly with the same seed, and differs with another', async () => {
  const losses = async (seed) => {
    const trainer = await createTrainer({ seed });
    try {
      return [trainer.step(5).loss, trainer.step(5).loss];
    } finally {
      trainer.dispose();
    }
  };
  assert.deepEqual(await losses(3), await losses(3));
  assert.notDeepEqual(await losses(3), await losses(4));
});

test('the date task and the user\'s pairs train, and an abort stops train()', async () => {
  const dates = await createTrainer({ task: 'dates' });
  try {
    assert.equal(dates.info.sourceVocabulary.includes('d'), true);
    const [probe] = dates.probes(1);
    assert.match(probe.target, /^\d{4}-\d{2}-\d{2}$/);
    dates.step(3);
    assert.equal(dates.translate('december 2nd, 2026').sourceTokens.at(-1), '<eos>');
  } finally {
    dates.dispose();
  }

  const pairs = Array.from({ length: 40 }, (_, i) => `${i} apples\t${i} pommes`).join('\n');
  const controller = new AbortController();
  const { trainer, reason } = await train({
    task: 'pairs', pairs, steps: 1000, chunkSize: 5,
    onProgress: (p) => { if (p.steps >= 20) controller.abort(); }, signal: controller.signal,
  });
  try {
    assert.equal(reason, 'aborted');
    assert.equal(trainer.info.trainExamples, 36);
    assert.equal(trainer.info.testExamples, 4);
    assert.ok(trainer.step(1).steps <= 21);
  } finally {
    trainer.dispose();
  }
});

test('bad options and bad pairs are errors that name the problem; a disposed trainer says so', async () => {
  await assert.rejects(createTrainer({ task: 'poetry' }), /unknown task 'poetry'/);
  await assert.rejects(createTrainer({ sizes: 3 }), /unknown option 'sizes'; the options are task, pairs, .*learningRate.*seed$/);
  await assert.rejects(train({ evaluateEach: 3 }), /unknown option 'evaluateEach'; the options are task, .*seed, evaluateEvery, evaluateLimit/);
  await assert.rejects(createTrainer({ hidden: 0 }), /hidden must be from 1 to 512/);
  await assert.rejects(createTrainer({ attention: 'magic' }), /unknown attention 'magic'/);
  await assert.rejects(createTrainer({ task: 'pairs' }), /needs pairs/);
  await assert.rejects(createTrainer({ task: 'pairs', pairs: 'a\tb\nno tab here\n' }), /line 2 has no tab/);
  await assert.rejects(createTrainer('reversal'), /options must be an object/);
  await assert.rejects(train({ stopAtExactMatch: 2 }), /stopAtExactMatch must be a number in \(0, 1\]/);

  const trainer = await createTrainer({ steps: 10 });
  assert.throws(() => trainer.step(0), /count must be a whole number from 1 to 10000/);
  assert.throws(() => trainer.translate(42), /text must be a string/);
  assert.ok(trainer.step(2).steps === 2, 'still usable after errors');
  trainer.dispose();
  trainer.dispose();
  assert.throws(() => trainer.step(), /disposed/);
});

test('dot and scaled-dot scoring get a decoder as wide as the encoder states (2 x hidden) unless told otherwise', async () => {
  for (const [options, expected] of [
    [{ attention: 'dot' }, 64], [{ attention: 'scaled-dot', task: 'dates' }, 96], [{ attention: 'additive', task: 'dates' }, 64],
    [{ attention: 'dot', hidden: 20 }, 40], [{ attention: 'dot', hidden: 20, decoderHidden: 40 }, 40],
  ]) {
    const trainer = await createTrainer({ ...options, steps: 1 });
    try {
      assert.equal(trainer.info.options.decoderHidden, expected, JSON.stringify(options));
    } finally {
      trainer.dispose();
    }
  }
});

test('createTrainerWorker: one run in a worker pauses at exact steps, continues, reports progress, probes and evaluations, and finishes', async () => {
  const seen = { progress: [], probes: [], evaluations: [], states: [] };
  const trainer = await createTrainerWorker({ task: 'reversal', steps: 120 }, {
    probe: 'a b c d', onProgress: (p) => seen.progress.push(p), onProbe: (p) => seen.probes.push(p),
    onEvaluation: (e) => seen.evaluations.push(e), onStateChange: (s) => seen.states.push(s),
  });
  try {
    assert.equal(trainer.backend, 'worker');
    assert.equal(trainer.info.options.steps, 120);
    assert.deepEqual(await trainer.run({ until: 23 }), { running: false, finished: false, steps: 23 });
    assert.deepEqual(seen.progress.map((p) => p.steps), [5, 10, 15, 20, 23], 'chunks of 5, cut at the stop');
    const [first] = seen.progress;
    assert.equal(first.totalSteps, 120);
    assert.ok(Number.isFinite(first.loss) && first.loss > 0 && typeof first.stepsPerSecond === 'number');
    // Continue: the same run, to the first pauseAt step past 23.
    assert.equal((await trainer.run({ pauseAt: [10, 57, 90] })).steps, 57);
    assert.equal((await trainer.run({ pauseAt: [10, 57, 90] })).steps, 90);
    const finished = await trainer.run();
    assert.deepEqual(finished, { running: false, finished: true, steps: 120 });
    assert.deepEqual(seen.states.at(-1), finished, 'onStateChange heard before the promise settled');
    assert.deepEqual(await trainer.run(), finished, 'a finished run stays finished');
    // The probe right after creation and every 10 steps (also at the end), the evaluation at 0, 100 and the end.
    assert.deepEqual(seen.probes.map((p) => p.steps), [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]);
    assert.ok(seen.probes.every((p) => p.text === 'a b c d' && p.result.targetTokens.length > 0 && p.result.attention.length > 0));
    assert.deepEqual(seen.evaluations.map((e) => e.steps), [0, 100, 120]);
    assert.ok(seen.evaluations.every((e) => e.total > 0 && e.byLength.length > 0));
    await trainer.setProbe({ text: 'a b', trace: true });
    assert.equal(seen.probes.at(-1).text, 'a b');
    assert.ok(seen.probes.at(-1).result.trace, 'the probe carries the trace when asked');
    const model = await loadModel(await trainer.toBytes());
    try {
      assert.deepEqual(model.translate('a b c').targetTokens, (await trainer.translate('a b c')).targetTokens);
    } finally {
      model.dispose();
    }
    assert.equal((await trainer.probes(3)).length, 3);
  } finally {
    await trainer.dispose();
  }
  await assert.rejects(trainer.run(), /trainer\.run: this trainer was disposed/);
});

test('createTrainerWorker: translate and pause are answered mid-run, between two chunks of steps', async () => {
  const trainer = await createTrainerWorker({ task: 'reversal', steps: 5000 });
  try {
    const run = trainer.run();
    await new Promise((resolve) => { const wait = () => (trainer.state.steps >= 10 ? resolve() : setTimeout(wait, 5)); wait(); });
    const result = await trainer.translate('a b c d e', { trace: true });
    assert.equal(result.sourceTokens.length, 6);
    assert.equal(result.attention.length, result.targetTokens.length);
    assert.ok(result.trace, 'the trace is there');
    assert.equal(trainer.state.running, true, 'still training when the answer came');
    const paused = await trainer.pause();
    assert.equal(paused.running, false);
    assert.ok(paused.steps > 0 && paused.steps < 5000 && paused.steps % 5 === 0, `paused after a whole chunk, at step ${paused.steps}`);
    assert.deepEqual(await run, paused, 'the run resolves where the pause stopped it');
    assert.equal((await trainer.run({ until: paused.steps + 7 })).steps, paused.steps + 7, 'and it continues from there');
  } finally {
    await trainer.dispose();
  }
});

// Ticks of a 0 ms timer (Node runs it at most once per turn of its event
// loop) while a 60-step run trains: no clock is read. In the worker the
// loop turns freely, many times per chunk of steps; on the calling thread
// (the measure's check: it can fail) each chunk holds it, about one tick per chunk.
async function ticksWhileTraining(worker) {
  let progress = 0;
  const trainer = await createTrainerWorker({ task: 'reversal', steps: 60 }, { worker, onProgress: () => { progress += 1; } });
  let ticks = 0;
  let timer;
  const tick = () => { ticks += 1; timer = setTimeout(tick, 0); };
  try {
    tick();
    await trainer.run();
  } finally {
    clearTimeout(timer);
    await trainer.dispose();
  }
  return { ticks, progress, backend: trainer.backend };
}

test('createTrainerWorker does not block Node\'s event loop while it trains (timer ticks counted, no clock)', async () => {
  const inWorker = await ticksWhileTraining('auto');
  const onThread = await ticksWhileTraining(false);
  assert.equal(inWorker.backend, 'worker');
  assert.equal(onThread.backend, 'main-thread');
  assert.equal(inWorker.progress, 12, 'twelve chunks of five steps');
  assert.ok(onThread.ticks <= onThread.progress + 4, `on the calling thread each chunk holds the loop: ${onThread.ticks} ticks for ${onThread.progress} chunks`);
  assert.ok(inWorker.ticks >= 4 * inWorker.progress, `in the worker the loop turned ${inWorker.ticks} times during ${inWorker.progress} chunks`);
});

test('createTrainerWorker: bad options are UsageErrors that name the problem', async () => {
  await assert.rejects(createTrainerWorker({ task: 'poetry' }), (e) => e instanceof UsageError && /unknown task 'poetry'/.test(e.message));
  await assert.rejects(createTrainerWorker({}, { probeEach: 3 }), /unknown option 'probeEach' of how; those are worker, workerUrl/);
  await assert.rejects(createTrainerWorker({}, { worker: 'yes' }), /worker must be true, false, 'auto' or a Worker/);
  await assert.rejects(createTrainerWorker({}, { chunkSize: 0 }), /chunkSize must be a whole number >= 1/);
  await assert.rejects(createTrainerWorker({}, { onProgress: 'log' }), /onProgress must be a function/);
  await assert.rejects(createTrainerWorker('reversal'), /options must be an object/);
  const trainer = await createTrainerWorker({ steps: 10 });
  try {
    await assert.rejects(trainer.run({ until: 0 }), (e) => e instanceof UsageError && /until must be a whole number >= 1/.test(e.message));
    await assert.rejects(trainer.run({ pauseAt: 5 }), /pauseAt must be an array of whole numbers/);
    await assert.rejects(trainer.translate(42), /text must be a string/);
    await assert.rejects(trainer.probes(-1), (e) => e instanceof UsageError && /count must be a whole number >= 0/.test(e.message));
    assert.equal((await trainer.run({ until: 2 })).steps, 2, 'still usable after errors');
  } finally {
    await trainer.dispose();
  }
});
