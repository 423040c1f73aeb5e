// The JavaScript API of the WebAssembly build (dist/index.js) in Node, as
// index.d.ts states it: result shapes, beam hypotheses,
// alternatives and prefix, model info, every way to load a model, and
// errors: always an Error with a message, and the model still works after.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { cleanUpModels, copyDist, distDiagnostics, distIndex, modelForTests, nativeCli, requireDist, root, worstRowSumError } from './helpers/models.mjs';
import { serveFolder } from './helpers/static-server.mjs';

requireDist();
const api = await import(pathToFileURL(distIndex).href);
const { modelCatalog } = await import(pathToFileURL(join(root, 'dist', 'models.js')).href);
const diagnostics = await import(pathToFileURL(distDiagnostics).href);
const { loadModel, sourceText } = api;

let attentionModel;  // { path, shipped, name }
let model;           // loaded once, shared by the tests that do not dispose it
let reference;       // model.translate(SENTENCE): the "runtime still works" check
const SENTENCE = 'I see the cat.';

before(async () => {
  attentionModel = modelForTests();
  model = await loadModel(attentionModel.path);
  reference = model.translate(SENTENCE);
});

after(() => {
  model?.dispose();
  cleanUpModels();
});

function assertMatrix(attention, rows, cols, what) {
  assert.equal(attention.length, rows, `${what}: one attention row per target token`);
  for (const row of attention) {
    assert.equal(row.length, cols, `${what}: one column per source token`);
    assert.ok(row.every((w) => typeof w === 'number' && w >= 0 && w <= 1), `${what}: weights in [0, 1]`);
  }
  assert.ok(worstRowSumError(attention) < 1e-5, `${what}: rows sum to 1 (worst error ${worstRowSumError(attention)})`);
}

function assertStillWorks() {
  assert.deepEqual(model.translate(SENTENCE), reference, 'the model translates as before after an error');
}

test('the API exports what users need and no diagnostics (those are in seq2seq-attention/diagnostics)', () => {
  assert.deepEqual(Object.keys(api).sort(), ['EnvironmentError', 'InputError', 'InternalError', 'LoadError', 'ModelFileError',
    'ResourceError', 'Seq2SeqError', 'UsageError', 'WorkerError', 'createTrainer', 'createTrainerWorker', 'createTranslator', 'dataCredit', 'figureLabels',
    'heatmapSvg', 'loadModel', 'optionRanges',
    'reviveTranslation', 'shippedModels', 'sourceText', 'train', 'translationBuffer', 'unsureWordProbability', 'wordAttention']);
  assert.deepEqual(Object.keys(diagnostics).sort(), ['memoryStats', 'preloadRuntime', 'warmUp']);
});

test('sourceOffsets place every source piece in the text typed, so an unknown piece names its character', () => {
  const text = '  I SEE the zorblax \u{1F600}, Tom\u2019s cat.';
  const r = model.translate(text);
  assert.equal(r.sourceOffsets.length, r.sourceTokens.length);
  assert.equal(r.sourceOffsets.at(-1), null, '<eos> was not typed');
  let end = 0;
  for (const [k, [from, to]] of r.sourceOffsets.slice(0, -1).entries()) {
    assert.ok(from >= end && to >= from, `piece ${k} (${r.sourceTokens[k]}) at [${from}, ${to}) after ${end}`);
    end = to;
    // A piece that is the word marker alone (before a character never seen) is the space it stands for.
    const piece = r.sourceTokens[k] === '\u2581' ? ' ' : r.sourceTokens[k].replace(/^\u2581/, '');
    if (piece !== '<unk>') assert.equal(text.slice(from, to).toLowerCase().replace('\u2019', "'"), piece);
  }
  const unknown = r.sourceTokens.indexOf('<unk>');
  assert.ok(unknown >= 0, `the emoji is unknown: ${r.sourceTokens}`);
  assert.equal(sourceText(r, text, unknown), '\u{1F600}');
  assert.equal(sourceText(r, text, r.sourceTokens.length - 1), null);
  assert.deepEqual(JSON.parse(JSON.stringify(r)).sourceOffsets, r.sourceOffsets.map((o) => o && [...o]));
});

test('translate returns the contract shape, with attention rows summing to 1', () => {
  const r = reference;
  for (const key of ['text', 'sourceTokens', 'targetTokens', 'attention', 'score', 'truncated', 'finished', 'hypotheses']) {
    assert.ok(key in r, `result has ${key}`);
  }
  assert.equal(typeof r.text, 'string');
  assert.ok(r.text.length > 0);
  // The words as the model read them (lowercased); the shipped models read them as subword pieces.
  assert.deepEqual(r.sourceWords.map((word) => word.text), ['i', 'see', 'the', 'cat', '.', '<eos>']);
  assert.equal(r.sourceWords.at(-1).end, r.sourceTokens.length);
  assert.ok(r.targetTokens.length > 0 && r.targetTokens.every((t) => typeof t === 'string'));
  assertMatrix(r.attention, r.targetTokens.length, r.sourceTokens.length, 'best');
  assert.equal(typeof r.score, 'number');
  assert.ok(r.score <= 0, 'a mean log probability');
  assert.equal(r.truncated, false);
  assert.ok(r.hypotheses.length >= 1 && r.hypotheses.length <= api.optionRanges.beamSize.default, 'the default beam keeps its hypotheses');
  assert.equal(api.optionRanges.beamSize.default, 4, 'beam 4 unless told otherwise');
  assert.equal(r.hypotheses[0].text, r.text);
  assert.deepEqual(r.hypotheses[0].targetTokens, r.targetTokens);
  assert.equal(r.alternatives, undefined, 'alternatives only when asked');
  // The best hypothesis is read through accessors: stored once.
  assert.deepEqual(Object.keys(r).sort(), ['hypotheses', 'sourceOffsets', 'sourceTokens', 'sourceWords', 'truncated']);
  assert.equal(r.best, r.hypotheses[0]);
  assert.equal(r.attention, r.hypotheses[0].attention);
});

test('results are data: no Embind objects, no views into the WASM heap; rows are views of one buffer, which a worker transfers', async () => {
  const r = model.translate('We drink water.', { beamSize: 3, alternatives: 2 });
  const copy = structuredClone(r);  // throws on functions and Embind objects
  assert.ok(Array.isArray(r.attention) && r.attention.every((row) => row instanceof Float32Array));
  const buffer = api.translationBuffer(r);
  assert.ok(buffer instanceof ArrayBuffer);
  assert.ok(r.hypotheses.every((h) => h.attention.every((row) => row.buffer === buffer)), 'every row of every hypothesis views one buffer');
  // Grow the WASM memory (which detaches every view into the old buffer) by
  // loading models until the heap is larger. The earlier result must not change.
  const { heapBytes } = await diagnostics.memoryStats();
  const loaded = [];
  while ((await diagnostics.memoryStats()).heapBytes === heapBytes && loaded.length < 1000) {
    loaded.push(await loadModel(attentionModel.path));
  }
  for (const m of loaded) m.dispose();
  assert.ok((await diagnostics.memoryStats()).heapBytes > heapBytes, 'the heap grew');
  assert.deepEqual(api.reviveTranslation(copy), r);
  // Transferred (as a worker posts it): the buffer moves, nothing is copied, the revived result reads the same.
  const expected = JSON.parse(JSON.stringify(r));
  const moved = structuredClone(r, { transfer: [buffer] });
  assert.equal(buffer.byteLength, 0, 'the buffer moved');
  const revived = api.reviveTranslation(moved);
  assert.equal(revived.text, expected.text);
  assert.deepEqual(JSON.parse(JSON.stringify(revived)), expected);
  assertStillWorks();
});

test('beam search returns its hypotheses, best first, each with its own attention', () => {
  const r = model.translate('We drink water.', { beamSize: 4 });
  assert.ok(r.hypotheses.length >= 1 && r.hypotheses.length <= 4, `${r.hypotheses.length} hypotheses`);
  assert.equal(r.hypotheses[0].text, r.text);
  assert.deepEqual(r.hypotheses[0].attention, r.attention);
  assert.equal(r.hypotheses[0].score, r.score);
  const finished = r.hypotheses.filter((h) => h.finished);
  for (let i = 1; i < finished.length; ++i) assert.ok(finished[i - 1].score >= finished[i].score, 'sorted by score');
  for (const h of r.hypotheses) {
    assert.equal(typeof h.text, 'string');
    assert.equal(typeof h.logProb, 'number');
    if (h.finished) assert.equal(h.targetTokens.at(-1), '<eos>');
    assertMatrix(h.attention, h.targetTokens.length, r.sourceTokens.length, `hypothesis ${h.text}`);
  }
  // Beam 4 is the default.
  assert.deepEqual(model.translate(SENTENCE, { beamSize: 4 }), reference);
  const greedy = model.translate(SENTENCE, { beamSize: 1 });
  assert.equal(greedy.hypotheses.length, 1, 'greedy keeps one hypothesis');
});

test('alternatives: the k most likely tokens at every output position', () => {
  const r = model.translate(SENTENCE, { alternatives: 3 });
  assert.deepEqual(r.targetTokens, reference.targetTokens, 'asking for alternatives does not change the result');
  assert.equal(r.alternatives.length, r.targetTokens.length);
  r.alternatives.forEach((choices, t) => {
    assert.equal(choices.length, 3);
    assert.equal(choices[0].token, r.targetTokens[t], 'greedy picks the most likely token');
    for (let i = 1; i < choices.length; ++i) assert.ok(choices[i - 1].logProb >= choices[i].logProb);
    for (const c of choices) {
      assert.ok(c.probability > 0 && c.probability <= 1);
      assert.ok(Math.abs(c.probability - Math.exp(c.logProb)) < 1e-12);
    }
  });
  assert.deepEqual(r.hypotheses[0].alternatives, r.alternatives);
});

test('prefix: "what if" forces the first target tokens and decodes the rest', () => {
  // Forcing the greedy output's own tokens reproduces it exactly.
  const own = reference.targetTokens.filter((t) => t !== '<eos>');
  assert.deepEqual(model.translate(SENTENCE, { prefix: own }).targetTokens, reference.targetTokens);
  // Pick the second most likely word at position 1, as the page does.
  const { alternatives } = model.translate(SENTENCE, { alternatives: 5 });
  const other = alternatives[1].find((c) => c.token !== reference.targetTokens[1] && c.token !== '<eos>');
  assert.ok(other, 'the model considered another word at position 1');
  const prefix = [reference.targetTokens[0], other.token];
  const r = model.translate(SENTENCE, { prefix, beamSize: 2 });
  assert.deepEqual(r.targetTokens.slice(0, 2), prefix);
  assert.notDeepEqual(r.targetTokens, reference.targetTokens);
  assertMatrix(r.attention, r.targetTokens.length, r.sourceTokens.length, 'with prefix');
  // A word the model does not know is an Error naming it.
  assert.throws(() => model.translate(SENTENCE, { prefix: ['zzyzx-not-a-word'] }),
    (e) => e instanceof Error && /'zzyzx-not-a-word' is not in this model's target vocabulary/.test(e.message));
  assertStillWorks();
});

test('wrong value kinds and bad options are Errors with clear messages; the model keeps working', () => {
  const cases = [
    [() => model.translate(42), /text must be a string, but got the number 42/],
    [() => model.translate(null), /text must be a string, but got null/],
    [() => model.translate(undefined), /text must be a string, but got undefined/],
    [() => model.translate({ text: 'hi' }), /text must be a string, but got an object/],
    [() => model.translate(['hi']), /text must be a string, but got an array/],
    [() => model.translate(SENTENCE, 4), /options must be an object/],
    [() => model.translate(SENTENCE, 'beam'), /options must be an object/],
    [() => model.translate(SENTENCE, [4]), /options must be an object/],
    [() => model.translate(SENTENCE, { beam: 4 }), /unknown option 'beam'; the options are beamSize/],
    [() => model.translate(SENTENCE, { beamSize: 0 }), /beamSize must be a whole number from 1 to 16, but got the number 0/],
    [() => model.translate(SENTENCE, { beamSize: 17 }), /beamSize must be a whole number from 1 to 16/],
    [() => model.translate(SENTENCE, { beamSize: 2.5 }), /beamSize must be a whole number/],
    [() => model.translate(SENTENCE, { beamSize: '4' }), /beamSize must be a whole number .* the string "4"/],
    [() => model.translate(SENTENCE, { beamSize: null }), /beamSize must be a whole number .* null/],
    [() => model.translate(SENTENCE, { beamSize: NaN }), /beamSize must be a whole number/],
    [() => model.translate(SENTENCE, { maxLength: 0 }), /maxLength must be a whole number from 1 to 512/],
    [() => model.translate(SENTENCE, { maxLength: 513 }), /maxLength must be a whole number from 1 to 512/],
    [() => model.translate(SENTENCE, { alternatives: -1 }), /alternatives must be a whole number from 0 to 50/],
    [() => model.translate(SENTENCE, { alternatives: 51 }), /alternatives must be a whole number from 0 to 50/],
    [() => model.translate(SENTENCE, { prefix: 'je' }), /prefix must be an array of target tokens/],
    [() => model.translate(SENTENCE, { prefix: [1] }), /prefix must be an array of target tokens/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof Error, `an Error, not ${e}`);
      assert.match(e.message, message);
      return true;
    });
    assertStillWorks();
  }
});

test('empty and whitespace input give an empty translation', () => {
  for (const text of ['', '   ', '\t\n ']) {
    const r = model.translate(text);
    assert.equal(r.text, '');
    assert.deepEqual(r.sourceTokens, []);
    assert.deepEqual(r.targetTokens, []);
    assert.deepEqual(r.attention, []);
    assert.deepEqual(r.hypotheses, []);
    assert.equal(r.truncated, false);
  }
});

test('a 1,000-word input is cut to 200 source tokens and flagged', () => {
  const words = Array.from({ length: 1000 }, (_, i) => ['the', 'cat', 'sees', 'a', 'dog'][i % 5]).join(' ');
  const r = model.translate(words);
  assert.equal(r.truncated, true);
  assert.equal(r.sourceTokens.length, 200);
  assert.equal(r.sourceTokens.at(-1), '<eos>');
  assertMatrix(r.attention, r.targetTokens.length, 200, 'long input');
  assert.ok(r.targetTokens.length <= 512);
});

test('unusual text still translates: lone surrogates, NUL, emoji, CJK, unknown words', () => {
  const inputs = ['\uD800 I see \uDC00 the cat.', 'the\u0000cat', 'I 😀 see the cat 🐈.', '我爱你。', 'xylophone quantum zebra',
    'Ça va ? Très bien !', '\u202Fhello\u00A0world'];
  for (const text of inputs) {
    const r = model.translate(text, { beamSize: 2 });
    assert.equal(typeof r.text, 'string', JSON.stringify(text));
    assert.ok(r.sourceTokens.length > 1, `${JSON.stringify(text)} has source tokens`);
    assert.equal(r.sourceTokens.at(-1), '<eos>');
    assertMatrix(r.attention, r.targetTokens.length, r.sourceTokens.length, JSON.stringify(text));
    assert.doesNotThrow(() => JSON.stringify(r));
  }
  assertStillWorks();
});

test('info describes the model: name, architecture, development BLEU by length', () => {
  const { info } = model;
  assert.equal(info.hasAttention, true);
  assert.equal(info.attention, 'additive');
  assert.equal(info.targetLanguage, 'fr');
  assert.equal(info.sourceLanguage, 'en');
  assert.ok(info.config.decoder_hidden_size > 0 && info.config.target_vocab_size === info.targetVocabularySize);
  assert.equal(typeof info.name, 'string');
  assert.ok(info.devBleu, 'dev BLEU recorded');
  assert.deepEqual(info.devBleu.byLength.map((b) => b.bucket), ['1-4', '5-7', '8-11', '12+']);
  for (const b of info.devBleu.byLength) assert.ok(b.bleu >= 0 && b.bleu <= 100 && Number.isInteger(b.sentences));
  assert.equal(typeof info.provenance.data, 'object');
  assert.ok(Object.isFrozen(info) && Object.isFrozen(info.config), 'frozen: the model owns it');
  assert.ok(!('source_vocabulary' in info) && !('sourceVocabulary' in info), 'no vocabularies in info');
});

test('a model file that records its own beam penalties: info.beamDefaults, and translate (WASM and native) uses them', async () => {
  // en-fr's, chosen on its development split, are the package's defaults.
  assert.equal(model.info.beamDefaults.lengthPenalty, 0.6);
  assert.equal(model.info.beamDefaults.coveragePenalty, 0.2);
  const dir = mkdtempSync(join(tmpdir(), 's2s-penalties-'));
  try {
    const path = join(dir, 'penalties.s2s');
    const convert = spawnSync(nativeCli, ['convert', '--model', attentionModel.path, '--output', path,
      '--length-penalty', '1.4', '--coverage-penalty', '0'], { encoding: 'utf8' });
    assert.equal(convert.status, 0, convert.stderr);
    const recorded = await loadModel(path);
    try {
      assert.deepEqual({ ...recorded.info.beamDefaults }, { lengthPenalty: 1.4, coveragePenalty: 0, recorded: true });
      const sentence = 'The man who lives next door has been working in the garden since early this morning.';
      const byDefault = recorded.translate(sentence, { beamSize: 4 });
      const explicit = model.translate(sentence, { beamSize: 4, lengthPenalty: 1.4, coveragePenalty: 0 });
      assert.equal(byDefault.score, explicit.score);
      assert.equal(byDefault.text, explicit.text);
      // The caller's values still win over the file's.
      assert.equal(recorded.translate(sentence, { beamSize: 4, lengthPenalty: 0.6, coveragePenalty: 0.2 }).score,
        model.translate(sentence, { beamSize: 4, lengthPenalty: 0.6, coveragePenalty: 0.2 }).score);
      // The native CLI reads them too.
      const native = (file, flags) => JSON.parse(spawnSync(nativeCli, ['translate', '--model', file, '--beam', '4', '--json', ...flags],
        { input: `${sentence}\n`, encoding: 'utf8' }).stdout).score;
      assert.equal(native(path, []), native(attentionModel.path, ['--length-penalty', '1.4', '--coverage-penalty', '0']));
    } finally {
      recorded.dispose();
    }
    // Out of range is refused with the range named.
    const bad = spawnSync(nativeCli, ['convert', '--model', attentionModel.path, '--output', join(dir, 'bad.s2s'),
      '--coverage-penalty', '6'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--coverage-penalty must be a number from 0 to 5/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the fixed-context baseline translates with attention []', async () => {
  const fixed = await loadModel(modelForTests({ attention: false }).path);
  try {
    assert.equal(fixed.info.hasAttention, false);
    assert.equal(fixed.info.attention, 'none');
    const r = fixed.translate(SENTENCE, { beamSize: 3 });
    assert.ok(r.targetTokens.length > 0);
    assert.deepEqual(r.attention, []);
    for (const h of r.hypotheses) assert.deepEqual(h.attention, []);
  } finally {
    fixed.dispose();
  }
});

test('loadModel takes bytes (Uint8Array, Buffer, ArrayBuffer, DataView), a path, a file: URL and an http URL', async () => {
  const bytes = readFileSync(attentionModel.path);
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const server = await serveFolder(join(attentionModel.path, '..'));
  const fileName = attentionModel.path.split('/').at(-1);
  try {
    const sources = [
      new Uint8Array(arrayBuffer), bytes, arrayBuffer, new DataView(arrayBuffer), attentionModel.path,
      pathToFileURL(attentionModel.path), pathToFileURL(attentionModel.path).href,
      `${server.url}/${fileName}`, new URL(`${server.url}/${fileName}`),
    ];
    for (const source of sources) {
      const m = await loadModel(source);
      assert.deepEqual(m.translate(SENTENCE), reference, `loaded from ${source?.constructor?.name}: ${String(source).slice(0, 60)}`);
      m.dispose();
    }
  } finally {
    await server.close();
  }
});

test('loadModel loads a shipped model by name from the package folder', async (t) => {
  // A copy of the package layout (dist/ next to models/) with the test model
  // as models/en-fr.s2s, so this runs before the shipped models exist.
  const pkg = mkdtempSync(join(tmpdir(), 's2s-by-name-'));
  try {
    copyDist(pkg);
    mkdirSync(join(pkg, 'models'));
    copyFileSync(attentionModel.path, join(pkg, 'models', 'en-fr.s2s'));
    const copy = await import(pathToFileURL(join(pkg, 'dist', 'index.js')).href);
    const m = await copy.loadModel('en-fr');
    assert.equal(m.info.name, 'en-fr');
    assert.deepEqual(JSON.parse(JSON.stringify(m.translate(SENTENCE))), JSON.parse(JSON.stringify(reference)));
    m.dispose();
    await assert.rejects(copy.loadModel('en-zh'),
      (e) => e instanceof Error && /the model 'en-zh' is not at file:.*\/models\/en-zh\.s2s; .*import url from 'seq2seq-attention\/models\/en-zh'; loadModel\(url\)/.test(e.message));
  } finally {
    rmSync(pkg, { recursive: true, force: true });
  }
  // And the real ones from this repository's dist/, once they are shipped.
  for (const name of api.shippedModels) {
    if (!existsSync(join(root, 'models', `${name}.s2s`))) {
      t.diagnostic(`models/${name}.s2s not shipped yet: skipped loading it by name`);
      continue;
    }
    const m = await loadModel(name);
    assert.equal(m.info.name, name);
    // The file agrees with the package's list (src/wasm/models.js).
    assert.equal(m.info.hasAttention, modelCatalog[name].baselineOf === undefined);
    assert.equal(m.info.sourceLanguage, modelCatalog[name].sourceLanguage);
    assert.equal(m.info.targetLanguage, modelCatalog[name].targetLanguage);
    assert.ok(m.translate('I love you.').text.length > 0);
    m.dispose();
  }
});

test('bad sources and bad model files are Errors naming the problem; the runtime keeps working', async () => {
  const good = readFileSync(attentionModel.path);
  const cases = [
    [42, /expected a shipped model name .* but got the number 42/],
    [null, /but got null/],
    [undefined, /but got undefined/],
    [{}, /but got an object/],
    ['', /but got the string ""/],
    ['no-such-model', new RegExp(`no model named 'no-such-model' .* the package ships ${api.shippedModels.join(', ')};`)],
    [join(tmpdir(), 'surely-missing', 'x.s2s'), /could not read .*x\.s2s: no such file; check the path/],
    ['http://127.0.0.1:9/x.s2s', /could not fetch http:\/\/127\.0\.0\.1:9\/x\.s2s/],
    [new Uint8Array(0), /loadModel: .+/],
    [new TextEncoder().encode('hello, I am not a model'), /loadModel: .*magic/],
    [good.subarray(0, good.length >> 1), /loadModel: .+/],
    [Uint8Array.from(good, (b, i) => (i === good.length - 7 ? b ^ 0x40 : b)), /loadModel: .+/],
  ];
  for (const [source, message] of cases) {
    await assert.rejects(loadModel(source), (e) => {
      assert.ok(e instanceof Error, `an Error for ${String(source).slice(0, 40)}`);
      assert.match(e.message, message);
      return true;
    });
    assertStillWorks();
  }
});

test('preloadRuntime (diagnostics) starts the runtime ahead of loadModel and may be called again', async () => {
  assert.equal(typeof diagnostics.preloadRuntime, 'function');
  const [first, second] = await Promise.all([diagnostics.preloadRuntime(), diagnostics.preloadRuntime()]);
  assert.equal(first, undefined);
  assert.equal(second, undefined);
  // The runtime it started is the one models load into.
  const again = await loadModel(readFileSync(attentionModel.path));
  try {
    assert.deepEqual(again.translate(SENTENCE).targetTokens, reference.targetTokens);
  } finally {
    again.dispose();
  }
});

test('a disposed model refuses to translate with a clear Error; dispose twice is harmless', async () => {
  const m = await loadModel(attentionModel.path);
  assert.equal(m.disposed, false);
  m.dispose();
  assert.equal(m.disposed, true);
  assert.doesNotThrow(() => m.dispose());
  assert.throws(() => m.translate(SENTENCE), (e) => e instanceof Error && /disposed; load it again with loadModel/.test(e.message));
  assert.equal(m.info.hasAttention, true, 'info stays readable');
  assertStillWorks();
});

test('no Embind object is reachable from the API', async () => {
  const m = await loadModel(attentionModel.path);
  const visible = [...Object.keys(m), ...Object.getOwnPropertyNames(Object.getPrototypeOf(m))];
  assert.deepEqual(visible.sort(), ['constructor', 'disposed', 'dispose', 'info', 'translate', 'translateText'].sort());
  assert.equal(typeof m.delete, 'undefined');
  m.dispose();
});

// Each case in a fresh Node process: the `wasm` option counts only before
// the runtime starts, once per process.
function inFreshProcess(body) {
  const script = `import { readFileSync } from 'node:fs';
const api = await import(${JSON.stringify(pathToFileURL(distIndex).href)});
const out = {};
try { ${body} } catch (e) { out.error = e.message; }
console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

test("loadModel's wasm option: the runtime from bytes, a Blob, a Response, a URL or a Module; a bad one names the URL and the fix", async () => {
  const wasmPath = join(root, 'dist', 's2s-core.wasm');
  const model = JSON.stringify(attentionModel.path);
  const translate = `const m = await api.loadModel(readFileSync(${model}), { wasm: WASM }); out.text = m.translate(${JSON.stringify(SENTENCE)}).text;`;
  const sources = {
    bytes: `readFileSync(${JSON.stringify(wasmPath)})`,
    blob: `new Blob([readFileSync(${JSON.stringify(wasmPath)})])`,
    response: `new Response(readFileSync(${JSON.stringify(wasmPath)}), { headers: { 'content-type': 'application/wasm' } })`,
    url: JSON.stringify(pathToFileURL(wasmPath).href),
    module: `await WebAssembly.compile(readFileSync(${JSON.stringify(wasmPath)}))`,
  };
  for (const [kind, source] of Object.entries(sources)) {
    const out = inFreshProcess(translate.replace('WASM', source));
    assert.equal(out.error, undefined, `${kind}: ${out.error}`);
    assert.equal(out.text, reference.text, kind);
  }
  const missing = inFreshProcess(translate.replace('WASM', JSON.stringify(pathToFileURL(join(tmpdir(), 'nowhere', 'core.wasm')).href)));
  assert.match(missing.error, /could not start the WebAssembly module s2s-core\.wasm \(could not read file:.*nowhere\/core\.wasm: no such file/);
  const notWasm = inFreshProcess(translate.replace('WASM', `new Response('<!doctype html><p>not found</p>')`));
  assert.match(notWasm.error, /is not WebAssembly \(an HTML page came back/);
  assert.match(notWasm.error, /with esbuild, copy node_modules\/seq2seq-attention\/dist\/\*\.wasm next to your bundle/);
  const bad = inFreshProcess(translate.replace('WASM', '42'));
  assert.match(bad.error, /wasm: expected where s2s-core\.wasm comes from .* but got the number 42/);
  const unknown = inFreshProcess(`await api.loadModel(readFileSync(${model}), { wasmUrl: 'x' });`);
  assert.match(unknown.error, /unknown option 'wasmUrl'/);
});

test('in Node, starting the runtime and loading a model from a path or bytes does not load fetch (undici)', () => {
  // Reading the global Response, Headers or fetch makes Node load its fetch
  // implementation, tens of ms of a process's start; the package only
  // touches them for a source that is a Response or a URL to download.
  const script = `
    const { readFileSync } = await import('node:fs');
    const api = await import(${JSON.stringify(pathToFileURL(distIndex).href)});
    const fromPath = await api.loadModel(${JSON.stringify(attentionModel.path)});
    const fromBytes = await api.loadModel(readFileSync(${JSON.stringify(attentionModel.path)}));
    fromPath.translate('I see the cat.');
    fromBytes.translate('I see the cat.', { beamSize: 2 });
    console.log(JSON.stringify(process.moduleLoadList.filter((name) => /undici|internal\\/deps\\/undici/.test(name))));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout.trim().split('\n').pop()), [],
    'a Response check read the global Response (use platform.js isResponse)');
});

test('the model\'s doubt: each token\'s and word\'s probability, and the words under unsureWordProbability', () => {
  for (const beamSize of [1, 4]) {
    const r = model.translate('I beleive that machine translaton is very usefull.', { beamSize });
    for (const h of r.hypotheses) {
      assert.equal(h.tokenProbabilities.length, h.targetTokens.length, 'one probability per target token');
      assert.ok(h.tokenProbabilities.every((p) => p > 0 && p <= 1));
      const logSum = h.tokenProbabilities.reduce((sum, p) => sum + Math.log(p), 0);
      assert.ok(Math.abs(logSum - h.logProb) < 1e-3 * Math.max(1, Math.abs(h.logProb)), `the tokens' log p sum to logProb (${logSum} vs ${h.logProb})`);
      assert.equal(h.wordProbabilities.length, h.targetWords.length, 'one probability per target word');
      const expected = [];
      h.targetWords.forEach((word, w) => {
        let product = 1;
        for (let k = word.start; k < word.end; k++) product *= h.tokenProbabilities[k];
        assert.ok(Math.abs(product - h.wordProbabilities[w]) < 1e-5, `word ${w}: the product of its pieces'`);
        if (h.wordProbabilities[w] < api.unsureWordProbability) expected.push(w);
      });
      assert.deepEqual(h.unsureWords, expected);
    }
    assert.equal(r.unsureWords, r.best.unsureWords, 'read through the best hypothesis');
    const json = JSON.parse(JSON.stringify(r));
    assert.deepEqual(json.unsureWords, r.unsureWords);
    assert.equal(json.tokenProbabilities.length, r.targetTokens.length);
  }
  assert.ok(api.unsureWordProbability > 0 && api.unsureWordProbability < 1);
});
