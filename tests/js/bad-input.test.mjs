// Bad input through the JavaScript API (dist/index.js) and the package's bin,
// beyond what wasm-api.test.mjs covers: every kind of hostile text, every
// wrong kind of value, and every kind of damaged or foreign model file
// (tests/js/helpers/bad-models.mjs, the same list the CLI tests use). Each
// gives a result or an Error whose message names the problem, and the next
// call works. Refusing a file allocates nothing that stays, and nothing large.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { badModelFiles } from './helpers/bad-models.mjs';
import {
  cleanUpModels, distDiagnostics, distIndex, modelForTests, requireDist, root, wordModelForTests, worstRowSumError,
} from './helpers/models.mjs';

requireDist();
const { loadModel } = await import(pathToFileURL(distIndex).href);
const { memoryStats } = await import(pathToFileURL(distDiagnostics).href);

const SENTENCE = 'I see the cat.';
let modelPath;
let model;
let reference;
let work;

before(async () => {
  ({ path: modelPath } = modelForTests());
  model = await loadModel(modelPath);
  reference = model.translate(SENTENCE);
  work = mkdtempSync(join(tmpdir(), 's2s-bad-input-'));
});

after(() => {
  model?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
  cleanUpModels();
});

function assertStillWorks(what) {
  assert.deepEqual(model.translate(SENTENCE), reference, `${what}: the model translates as before`);
}

function assertWellFormed(r, what) {
  assert.equal(typeof r.text, 'string', what);
  assert.doesNotThrow(() => JSON.stringify(r), what);
  if (r.sourceTokens.length === 0) {
    assert.deepEqual([r.text, r.targetTokens, r.attention, r.hypotheses], ['', [], [], []], `${what}: empty result`);
    return;
  }
  assert.ok(r.sourceTokens.length <= 200, `${what}: at most 200 source tokens`);
  assert.equal(r.sourceTokens.at(-1), '<eos>', what);
  assert.ok(r.sourceTokens.every((t) => typeof t === 'string' && t.length > 0 && !t.includes('\0')), `${what}: tokens`);
  assert.equal(r.attention.length, r.targetTokens.length, what);
  for (const row of r.attention) assert.equal(row.length, r.sourceTokens.length, what);
  assert.ok(worstRowSumError(r.attention) < 1e-5, `${what}: rows sum to 1`);
}

const words = ['the', 'cat', 'sees', 'a', 'dog'];
const hostileText = {
  'empty': '',
  'whitespace only': ' \t\n\r \u00A0\u202F\u3000\u2028 ',
  '20,000 characters, one word': 'a'.repeat(20_000),
  '20,000 characters of words': 'the cat '.repeat(2500),
  '1,000 words': Array.from({ length: 1000 }, (_, i) => words[i % 5]).join(' '),
  // What invalid UTF-8 becomes in JavaScript: U+FFFD from a TextDecoder, or
  // lone surrogates in a string built by hand.
  'invalid UTF-8, decoded': new TextDecoder().decode(Uint8Array.from([0x69, 0x20, 0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0xed, 0xa0, 0x80])),
  'lone surrogates': '\uDFFF the \uD83D cat \uD800\uD800.',
  'NUL characters': 'the\u0000cat\u0000\u0000 sees\u0000',
  'emoji': 'I 😀 see the cat 🐈‍⬛ 👩🏽‍💻 🇫🇷.',
  'CJK': '我爱你。你好，世界！',
  'right-to-left': 'مرحبا بالعالم \u202Eabc\u202C שלום עולם',
  'markup': '<script>alert("x")</script> <b>the</b> cat &amp; <img src=x onerror=alert(1)>',
  'unknown words': 'xylophone quantum zebra',
  'combining marks and zero-width': 'cafe\u0301 Z\u0351\u0352A\u0354L\u0355G\u0356O the\u200Bcat\uFEFF',
};

test('hostile text of every kind gives a well-formed result, greedy and with a beam; the next call works', () => {
  for (const [name, text] of Object.entries(hostileText)) {
    for (const options of [{}, { beamSize: 16, alternatives: 3 }]) {
      const r = model.translate(text, options);
      assertWellFormed(r, `${name} ${JSON.stringify(options)}`);
      assertStillWorks(name);
    }
  }
});

test('what hostile text becomes in subword pieces: an unseen character is one <unk> piece, a known one never; long input cut; no NUL', (t) => {
  if (model.info.sourceTokenizer !== 'bpe') {
    t.skip('the model under test reads words, not subword pieces');
    return;
  }
  const tokens = (text) => model.translate(text).sourceTokens;
  assert.deepEqual(tokens(hostileText['empty']), []);
  assert.deepEqual(tokens(hostileText['whitespace only']), []);
  for (const name of ['20,000 characters, one word', '20,000 characters of words', '1,000 words']) {
    const r = model.translate(hostileText[name]);
    assert.equal(r.truncated, true, name);
    assert.equal(r.sourceTokens.length, 200, name);
    assert.ok(!r.sourceTokens.includes('<unk>'), `${name}: every character was seen in training`);
  }
  // Words never seen are pieces of known characters, spelled out exactly.
  const unknown = tokens(hostileText['unknown words']);
  assert.ok(!unknown.includes('<unk>'), JSON.stringify(unknown));
  assert.equal(unknown.slice(0, -1).join('').replaceAll('\u2581', ' ').trim(), 'xylophone quantum zebra');
  assert.equal(tokens(hostileText['NUL characters']).slice(0, -1).join(''), '\u2581thecat\u2581sees', 'NUL dropped');
  for (const name of ['emoji', 'CJK', 'right-to-left']) {
    assert.ok(tokens(hostileText[name]).includes('<unk>'), `${name}: characters never seen in training are <unk>`);
  }
  // One <unk> per character never seen, after a lone marker for the space
  // before it: shown as such, never dropped, and the known words around it
  // are read as usual.
  assert.deepEqual(tokens('the 😀 cat'), ['\u2581the', '\u2581', '<unk>', '\u2581cat', '<eos>']);
  assert.deepEqual(tokens('the 😀😀 cat'), ['\u2581the', '\u2581', '<unk>', '<unk>', '\u2581cat', '<eos>']);
  const markup = model.translate(hostileText.markup);
  assert.ok(markup.sourceTokens.every((t) => typeof t === 'string'));
});

test('what hostile text becomes in a word-level model (files from before the subword models): <unk> per unknown word', async () => {
  const words = await loadModel(wordModelForTests());
  try {
    const tokens = (text) => words.translate(text).sourceTokens;
    assert.deepEqual(tokens(hostileText['empty']), []);
    assert.deepEqual(tokens(hostileText['whitespace only']), []);
    assert.deepEqual(tokens(hostileText['20,000 characters, one word']), ['<unk>', '<eos>']);
    for (const name of ['20,000 characters of words', '1,000 words']) {
      const r = words.translate(hostileText[name]);
      assert.equal(r.truncated, true, name);
      assert.equal(r.sourceTokens.length, 200, name);
    }
    assert.deepEqual(tokens(hostileText['unknown words']), ['<unk>', '<unk>', '<unk>', '<eos>']);
    assert.equal(tokens(hostileText['NUL characters']).length, 3, 'NUL dropped: "thecat" and "sees"');
    for (const name of ['emoji', 'CJK', 'right-to-left', 'markup']) {
      assert.ok(tokens(hostileText[name]).includes('<unk>'), `${name}: unknown words are <unk>`);
    }
    // Markup is only text here: tokens are plain strings, never parsed. (The
    // page must insert them with textContent, never innerHTML.)
    assert.ok(words.translate(hostileText.markup).sourceTokens.every((t) => typeof t === 'string'));
    // Known words still count among unknown ones.
    assert.deepEqual(tokens('the 😀 cat'), ['the', '<unk>', 'cat', '<eos>']);
  } finally {
    words.dispose();
  }
});

test('every wrong kind of value for text, options and source is an Error; the next call works', async () => {
  const textCases = [
    [() => model.translate(), /text must be a string, but got undefined/],
    [() => model.translate(true), /text must be a string, but got the boolean true/],
    [() => model.translate(Symbol('x')), /text must be a string, but got symbol/],
    [() => model.translate(12n), /text must be a string, but got bigint/],
    [() => model.translate(() => 'hi'), /text must be a string, but got function/],
    [() => model.translate(new String('hi')), /text must be a string, but got an object \(String\)/],
    [() => model.translate(new TextEncoder().encode('hi')), /text must be a string, but got an object \(Uint8Array\)/],
    [() => model.translate(NaN), /text must be a string, but got the number NaN/],
    [() => model.translate(SENTENCE, { beamSize: 4n }), /beamSize must be a whole number/],
    [() => model.translate(SENTENCE, { maxLength: '10' }), /maxLength must be a whole number/],
    [() => model.translate(SENTENCE, { alternatives: true }), /alternatives must be a whole number/],
    [() => model.translate(SENTENCE, { beamSize: Infinity }), /beamSize must be a whole number/],
    [() => model.translate(SENTENCE, { prefix: null }), /prefix must be an array of target tokens/],
    [() => model.translate(SENTENCE, { prefix: [null] }), /prefix must be an array of target tokens/],
    [() => model.translate(SENTENCE, { prefix: { 0: 'je', length: 1 } }), /prefix must be an array of target tokens/],
    [() => model.translate(SENTENCE, { prefix: Array(513).fill('je') }), /prefix has 513 tokens; at most 512/],
    [() => model.translate(SENTENCE, { prefix: ['<pad>'] }), /'<pad>' is never part of a translation, so it cannot be forced/],
    [() => model.translate(SENTENCE, { prefix: ['je', '<bos>'] }), /'<bos>' is never part of a translation/],
    [() => model.translate(SENTENCE, true), /options must be an object/],
  ];
  for (const [call, message] of textCases) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof Error, `an Error, not ${String(e)}`);
      assert.match(e.message, message);
      return true;
    });
    assertStillWorks(String(message));
  }
  const sourceCases = [
    [true, /but got the boolean true/],
    [[], /but got an array/],
    [[1, 2, 3], /but got an array/],
    [() => 'en-fr', /but got function/],
    [Symbol('en-fr'), /but got symbol/],
    [12n, /but got bigint/],
    ['   ', /but got the string "   "/],
    [new Blob(['S2SMODEL']), /loadModel: model file is truncated/],
    [{ bytes: readFileSync(modelPath) }, /but got an object \(Object\)/],
  ];
  for (const [source, message] of sourceCases) {
    await assert.rejects(loadModel(source), (e) => {
      assert.ok(e instanceof Error, `an Error, not ${String(e)}`);
      assert.match(e.message, message);
      return true;
    });
    assertStillWorks(String(message));
  }
});

test('every kind of damaged or foreign model file is refused naming the problem; nothing leaks or grows', async () => {
  const good = readFileSync(modelPath);
  const before = await memoryStats();
  for (const { name, bytes, message } of badModelFiles(good)) {
    const started = performance.now();
    await assert.rejects(loadModel(new Uint8Array(bytes)), (e) => {
      assert.ok(e instanceof Error, `${name}: an Error, not ${String(e)}`);
      assert.match(e.message, /^loadModel: /, name);
      assert.match(e.message, message, name);
      assert.equal(e.kind, 'model-file', name);
      return true;
    });
    assert.ok(performance.now() - started < 5000, `${name}: refused quickly`);
    assertStillWorks(name);
  }
  const afterAll = await memoryStats();
  // A length field trusted would grow the heap by gigabytes (or fail); the
  // loader holds at most a few copies of the file while it checks it.
  assert.ok(afterAll.heapBytes - before.heapBytes <= 4 * good.length + (16 << 20),
    `the heap grew by ${afterAll.heapBytes - before.heapBytes} bytes`);
  assert.equal(afterAll.usedBytes, before.usedBytes, 'refused files leave nothing allocated');
});

test('a damaged file given as a path is refused the same way', async () => {
  const [truncated, flipped] = badModelFiles(readFileSync(modelPath)).filter((c) => ['cut by one byte', 'a flip in the tensor data'].includes(c.name));
  for (const { name, bytes, message } of [truncated, flipped]) {
    const path = join(work, 'bad.s2s');
    writeFileSync(path, bytes);
    await assert.rejects(loadModel(path), (e) => e instanceof Error && message.test(e.message), name);
    await assert.rejects(loadModel(pathToFileURL(path)), (e) => e instanceof Error && message.test(e.message), name);
  }
  assertStillWorks('paths');
});

test('the bin: a damaged model file and hostile stdin', () => {
  const bin = join(root, 'bin', 'seq2seq-attention.js');
  const run = (args, input) => spawnSync(process.execPath, [bin, 'translate', ...args], { input, encoding: 'utf8', timeout: 60_000 });
  const bad = join(work, 'bin-bad.s2s');
  writeFileSync(bad, Buffer.from('GIF89a not a model'));
  const refused = run(['--model', bad], 'I see the cat.\n');
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /^seq2seq-attention: error: loadModel: not a seq2seq-attention model file \(bad magic\)/);
  const input = Buffer.concat([Buffer.from('\n   \n'), Buffer.from([0x69, 0x20, 0xff, 0xfe, 0x0a]), Buffer.from('a\0b <b>x</b>\nI see the cat.\n')]);
  const r = run(['--model', modelPath, '--json'], input);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(lines.length, 5, 'one line out per line in');
  assert.deepEqual(lines[0].sourceTokens, []);
  assert.deepEqual(lines[1].sourceTokens, []);
  assert.equal(lines[2].sourceTokens.at(-1), '<eos>');
  assert.deepEqual(lines[4], JSON.parse(JSON.stringify(reference)));
});
