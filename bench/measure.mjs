// The timing protocol every in-process engine shares (WASM in Node and in
// Chromium, TF.js in Node and in Chromium), so that their figures compare:
// one warm-up translation, then whole passes over a bucket's sentences until
// at least `minSeconds` have gone by. Latency is the mean over every
// translation of the timed passes; words/s counts source tokens (punctuation
// included, <eos> excluded) per second, as `seq2seq bench` does.
// `translate(text, { beamSize })` must return { sourceTokens, targetTokens }.
// The first pass's target tokens are kept, to check the engines agree.
// Also the steps of the WASM engine's cold start that Node and the page share.

export function measureBucket(translate, sentences, beamSize, { minSeconds = 1, maxPasses = 1000 } = {}) {
  translate(sentences[0], { beamSize });  // warm-up
  const outputs = [];
  let translations = 0;
  let words = 0;
  let passes = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (const sentence of sentences) {
      const r = translate(sentence, { beamSize });
      if (passes === 0) outputs.push({ sourceTokens: r.sourceTokens, targetTokens: r.targetTokens });
      words += r.sourceTokens.length - 1;
      translations += 1;
    }
    passes += 1;
    elapsed = (performance.now() - start) / 1000;
  } while (elapsed < minSeconds && passes < maxPasses);
  return {
    beam: beamSize,
    passes,
    translations,
    seconds: elapsed,
    msPerSentence: (1000 * elapsed) / translations,
    wordsPerSecond: words / elapsed,
    outputs,
  };
}

// Translates the benchmark's sentences round-robin, at every beam size, for
// `seconds`: WebAssembly starts on a baseline compiler and V8 tiers hot
// functions up in the background, and JavaScript JITs warm up too, so the
// timed cells measure steady state (the cold start is measured on its own).
export function warmUp(translate, buckets, beams, seconds) {
  const jobs = beams.flatMap((beamSize) => buckets.flatMap((b) => b.sentences.map((s) => [s, beamSize])));
  const start = performance.now();
  let i = 0;
  do {
    const [sentence, beamSize] = jobs[i % jobs.length];
    translate(sentence, { beamSize });
    i += 1;
  } while ((performance.now() - start) / 1000 < seconds);
  return i;
}

/** Every bucket at every beam size, after a warm-up: [{ bucket, beam, ... }]. */
export function measureAll(translate, buckets, beams, options) {
  warmUp(translate, buckets, beams, options.warmUpSeconds ?? 2);
  const cells = [];
  for (const beam of beams) {
    for (const bucket of buckets) {
      cells.push({ bucket: bucket.name, ...measureBucket(translate, bucket.sentences, beam, options) });
    }
  }
  return cells;
}

/**
 * The WASM engine's cold start after its runtime has started (each host
 * times that, and any download, itself): the model (parse and convert the
 * file) and the first translation, into `result.modelParseMs` and
 * `result.firstTranslationMs`. `api` is dist/index.js's exports,
 * `diagnostics` dist/diagnostics.js's (its heap statistics). Returns the
 * engine: { translate, heapBytes, dispose }.
 */
export async function startWasmModel(api, diagnostics, bytes, firstSentence, result) {
  let t = performance.now();
  const model = await api.loadModel(bytes);
  result.modelParseMs = performance.now() - t;
  t = performance.now();
  model.translate(firstSentence);
  result.firstTranslationMs = performance.now() - t;
  return {
    translate: (text, o) => model.translate(text, o),
    heapBytes: async () => (await diagnostics.memoryStats()).heapBytes,
    dispose: () => model.dispose(),
  };
}
