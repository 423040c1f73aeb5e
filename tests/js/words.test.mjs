// Words and pieces through the JavaScript API (dist/index.js): the word spans
// every translation carries (sourceWords, targetWords), wordAttention() that
// regroups the attention by words, the GNMT penalties of beam search
// (lengthPenalty, coveragePenalty) and the bin's flags for them. Run on a tiny
// word-level model and a tiny SUBWORD model trained here
// (tests/js/helpers/models.mjs; in the subword one, SUBWORD_FIXTURE_FLAGS,
// "learning" is eight pieces), and on the shipped fixed-context baseline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cleanUpModels, distIndex, modelForTests, requireDist, root, subwordModelForTests, wordModelForTests, worstRowSumError,
} from './helpers/models.mjs';

requireDist();
const { loadModel, optionRanges, wordAttention } = await import(pathToFileURL(distIndex).href);

const MARKER = '\u2581';
const SENTENCES = ['I love deep learning.', 'I see the cat.', "We drink water, don't we?", 'go .', '', 'xylophone 😀 qu\'il'];

let wordModel;     // word-level: every token is a word
let subwordModel;  // BPE pieces
let fixedModel;    // the fixed-context baseline: no attention

before(async () => {
  wordModel = await loadModel(wordModelForTests());
  subwordModel = await loadModel(subwordModelForTests());
  fixedModel = await loadModel(modelForTests({ attention: false }).path);
});

after(() => {
  for (const model of [wordModel, subwordModel, fixedModel]) model?.dispose();
  cleanUpModels();
});

// Words cover the tokens in order, each token exactly once, none empty.
function assertCover(words, tokens, what) {
  let next = 0;
  for (const [k, word] of words.entries()) {
    assert.deepEqual(Object.keys(word).sort(), ['end', 'start', 'text'], `${what}: word ${k} is { text, start, end }`);
    assert.equal(word.start, next, `${what}: word ${k} starts where word ${k - 1} ended`);
    assert.ok(word.end > word.start, `${what}: word ${k} holds at least one token`);
    next = word.end;
  }
  assert.equal(next, tokens.length, `${what}: the words cover all ${tokens.length} tokens`);
}

// A word's text is its pieces joined, without the marker of the first; a
// source piece <unk> (a character never seen in training) shows in the
// word's text as the character that was typed.
function assertWordTexts(words, tokens, what) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const word of words) {
    const pieces = tokens.slice(word.start, word.end);
    assert.ok(pieces.slice(1).every((piece) => !piece.startsWith(MARKER)), `${what}: only a word's first piece may carry the marker`);
    const joined = pieces.join('').replace(new RegExp(`^${MARKER}`), '');
    if (pieces.length > 1 && pieces.includes('<unk>')) {
      const pattern = new RegExp(`^${joined.split('<unk>').map(escape).join('.+')}$`, 'u');
      assert.match(word.text, pattern, `${what}: the text of ${JSON.stringify(pieces)}`);
    } else if (pieces.length === 1 && pieces[0] === '<unk>') {
      assert.ok(word.text.length > 0, `${what}: an unknown word keeps its text`);
    } else {
      assert.equal(word.text, joined, `${what}: the text of ${JSON.stringify(pieces)}`);
    }
  }
}

// The word matrix computed the slow, obvious way: for target word i and
// source word j, the mean over i's rows of the sum over j's columns.
function expectedWordAttention(attention, sourceWords, targetWords) {
  return targetWords.map((target) => sourceWords.map((source) => {
    let total = 0;
    for (let t = target.start; t < target.end; t += 1) {
      for (let s = source.start; s < source.end; s += 1) total += attention[t][s];
    }
    return total / (target.end - target.start);
  }));
}

function assertWordAttention(result, what) {
  const words = wordAttention(result);
  assert.deepEqual(words.sourceWords, result.sourceWords, `${what}: columns are the source words`);
  assert.deepEqual(words.targetWords, result.targetWords, `${what}: rows are the target words`);
  if (result.attention.length === 0) {
    assert.deepEqual(words.attention, [], what);
    return words;
  }
  assert.equal(words.attention.length, result.targetWords.length, `${what}: one row per target word`);
  for (const row of words.attention) assert.equal(row.length, result.sourceWords.length, `${what}: one column per source word`);
  assert.ok(worstRowSumError(words.attention) < 1e-6, `${what}: rows sum to 1 (worst error ${worstRowSumError(words.attention)})`);
  const expected = expectedWordAttention(result.attention, result.sourceWords, result.targetWords);
  words.attention.forEach((row, i) => row.forEach((weight, j) => {
    assert.ok(Math.abs(weight - expected[i][j]) < 1e-12, `${what}: word cell (${i}, ${j}) is ${weight}, expected ${expected[i][j]}`);
  }));
  return words;
}

test('every translation lists its words: spans covering the tokens in order, each exactly once', () => {
  for (const [name, model] of [['word-level', wordModel], ['subword', subwordModel], ['fixed-context', fixedModel]]) {
    for (const sentence of SENTENCES) {
      for (const beamSize of [1, 3]) {
        const r = model.translate(sentence, { beamSize });
        const what = `${name}, ${JSON.stringify(sentence)}, beam ${beamSize}`;
        assertCover(r.sourceWords, r.sourceTokens, `${what}, source`);
        assertCover(r.targetWords, r.targetTokens, `${what}, target`);
        assertWordTexts(r.sourceWords, r.sourceTokens, `${what}, source`);
        assert.deepEqual(r.hypotheses[0]?.targetWords ?? [], r.targetWords, `${what}: the best hypothesis's words`);
        for (const [k, h] of r.hypotheses.entries()) assertCover(h.targetWords, h.targetTokens, `${what}, hypothesis ${k}`);
        if (model.info.sourceTokenizer === 'words') {
          // Word-level models: every token is its own word.
          // An unknown word reads <unk> but keeps the text that was typed.
          assert.deepEqual(r.sourceWords.map(({ start, end }) => ({ start, end })),
            r.sourceTokens.map((text, k) => ({ start: k, end: k + 1 })), what);
          for (const [k, word] of r.sourceWords.entries()) {
            if (r.sourceTokens[k] !== '<unk>') assert.equal(word.text, r.sourceTokens[k], what);
          }
          assert.deepEqual(r.targetWords, r.targetTokens.map((text, k) => ({ text, start: k, end: k + 1 })), what);
        }
      }
    }
  }
});

test('the subword model reads "learning" as several pieces, and its word says so', () => {
  assert.equal(subwordModel.info.sourceTokenizer, 'bpe');
  assert.equal(subwordModel.info.targetTokenizer, 'bpe');
  assert.equal(wordModel.info.sourceTokenizer, 'words');
  const r = subwordModel.translate('I love deep learning.');
  const learning = r.sourceWords.find((word) => word.text === 'learning');
  assert.ok(learning, `a word "learning" among ${JSON.stringify(r.sourceWords)}`);
  assert.ok(learning.end - learning.start >= 2, `"learning" is ${learning.end - learning.start} pieces`);
  assert.ok(r.sourceTokens[learning.start].startsWith(MARKER), 'its first piece starts a word');
  assert.ok(r.sourceWords.length < r.sourceTokens.length, 'fewer words than pieces');
  assert.deepEqual(r.sourceWords.at(-1), { text: '<eos>', start: r.sourceTokens.length - 1, end: r.sourceTokens.length });
});

test('wordAttention: columns summed, rows averaged, every row summing to 1', () => {
  for (const [name, model] of [['word-level', wordModel], ['subword', subwordModel]]) {
    for (const sentence of SENTENCES) {
      const r = model.translate(sentence, { beamSize: 3 });
      const what = `${name}, ${JSON.stringify(sentence)}`;
      const words = assertWordAttention(r, what);
      for (const [k, h] of r.hypotheses.entries()) assertWordAttention({ ...h, sourceWords: r.sourceWords }, `${what}, hypothesis ${k}`);
      // A word-level model's matrix comes back as it was.
      if (name === 'word-level') assert.deepEqual(words.attention, r.attention.map((row) => Array.from(row)), what);
    }
  }
  const r = subwordModel.translate('I love deep learning.');
  const words = wordAttention(r);
  assert.ok(words.attention[0].length < r.attention[0].length, 'fewer columns than pieces');
  // It is pure: the input is unchanged, and the output shares no arrays with it.
  const copy = JSON.stringify(r);
  wordAttention(r).sourceWords[0].text = 'changed';
  assert.equal(JSON.stringify(r), copy);
});

test('wordAttention: the fixed-context baseline has no attention to regroup; bad input is an Error naming the field', () => {
  const fixed = fixedModel.translate('I see the cat.');
  assert.deepEqual(wordAttention(fixed), { sourceWords: fixed.sourceWords, targetWords: fixed.targetWords, attention: [] });
  assert.deepEqual(wordAttention(wordModel.translate('')), { sourceWords: [], targetWords: [], attention: [] });

  // A translation's fields as own properties, so that a spread copies them.
  const { sourceWords, targetWords, attention, targetTokens } = subwordModel.translate('I love deep learning.');
  const r = { sourceWords, targetWords, attention, targetTokens };
  const cases = [
    [undefined, /result must be a translation from model.translate\(\)/],
    [null, /result must be a translation .* but got null/],
    ['text', /but got the string "text"/],
    [[r], /but got an array/],
    [{ ...r, sourceWords: undefined }, /result.sourceWords must be an array of \{ text, start, end \}/],
    [{ ...r, targetWords: 'x' }, /result.targetWords must be an array/],
    [{ ...r, attention: [1, 2] }, /result.attention must be an array of rows/],
    [{ ...r, sourceWords: r.sourceWords.slice(1) }, /sourceWords\[0\] spans tokens \[\d+, \d+\) but should start at 0/],
    [{ ...r, sourceWords: r.sourceWords.slice(0, -1) }, /sourceWords cover \d+ tokens but there are \d+ source tokens/],
    [{ ...r, targetWords: [...r.targetWords, { text: 'x', start: r.targetTokens.length, end: r.targetTokens.length + 1 }] },
      /targetWords cover \d+ tokens but there are \d+ target tokens/],
    [{ ...r, sourceWords: [{ text: 'x', start: 0, end: 0 }, ...r.sourceWords] }, /sourceWords\[0\] .* hold at least one token/],
    [{ ...r, sourceWords: [{ text: 1, start: 0, end: 1 }] }, /sourceWords\[0\] must be \{ text, start, end \}/],
    [{ ...r, attention: [r.attention[0], r.attention[0].slice(1)] }, /attention row 1 has \d+ columns but row 0 has \d+/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => wordAttention(input), (e) => {
      assert.ok(e instanceof Error, `an Error, not ${String(e)}`);
      assert.match(e.message, message);
      return true;
    });
  }
});

test('lengthPenalty and coveragePenalty: the GNMT score, and the ranges in optionRanges', () => {
  assert.deepEqual({ ...optionRanges.lengthPenalty }, { min: 0, max: 5, default: 0.6, integer: false });
  assert.deepEqual({ ...optionRanges.coveragePenalty }, { min: 0, max: 5, default: 0.2, integer: false });
  assert.ok(Object.isFrozen(optionRanges) && Object.isFrozen(optionRanges.beamSize));
  const sentence = 'We drink water.';
  for (const model of [wordModel, subwordModel]) {
    // alpha = beta = 0: the score is the raw log probability.
    const raw = model.translate(sentence, { beamSize: 4, lengthPenalty: 0, coveragePenalty: 0 });
    for (const h of raw.hypotheses) assert.ok(Math.abs(h.score - h.logProb) < 1e-9, `${h.score} vs ${h.logProb}`);
    // alpha = 1, beta = 0: divided by ((5 + |Y|) / 6)^alpha.
    const normalized = model.translate(sentence, { beamSize: 4, lengthPenalty: 1, coveragePenalty: 0 });
    for (const h of normalized.hypotheses) {
      assert.ok(Math.abs(h.score - h.logProb / ((5 + h.targetTokens.length) / 6)) < 1e-9);
    }
    // The defaults are the documented ones.
    const defaults = { lengthPenalty: optionRanges.lengthPenalty.default, coveragePenalty: optionRanges.coveragePenalty.default };
    assert.deepEqual(model.translate(sentence, { beamSize: 4 }), model.translate(sentence, { beamSize: 4, ...defaults }));
    // Both ends of the range are accepted; greedy decoding writes the same tokens whatever they are.
    for (const penalties of [{ lengthPenalty: 5, coveragePenalty: 5 }, { lengthPenalty: 0.5, coveragePenalty: 0 }]) {
      assert.deepEqual(model.translate(sentence, penalties).targetTokens, model.translate(sentence).targetTokens);
      assert.ok(model.translate(sentence, { beamSize: 4, ...penalties }).hypotheses.length >= 1);
    }
  }
});

test('bad penalty values are refused with an Error naming the option and its range; the model keeps working', () => {
  const sentence = 'I see the cat.';
  const reference = wordModel.translate(sentence);
  const values = [-0.1, 5.01, -Infinity, Infinity, NaN, '1', null, true, 1n, [1], { alpha: 1 }];
  for (const name of ['lengthPenalty', 'coveragePenalty']) {
    const meaning = name === 'lengthPenalty' ? /length normalization alpha/ : /coverage penalty beta/;
    for (const value of values) {
      for (const beamSize of [1, 4]) {
        assert.throws(() => wordModel.translate(sentence, { beamSize, [name]: value }), (e) => {
          assert.ok(e instanceof Error, `an Error, not ${String(e)}`);
          assert.match(e.message, new RegExp(`^model\\.translate: ${name} must be a number from 0 to 5 \\(`));
          assert.match(e.message, meaning);
          assert.match(e.message, /, but got /);
          return true;
        }, `${name}: ${String(value)}`);
      }
    }
  }
  assert.throws(() => wordModel.translate(sentence, { lengthpenalty: 1 }), /unknown option 'lengthpenalty'; the options are .*lengthPenalty, coveragePenalty, temperature, prefix, trace, beamTree/);
  assert.deepEqual(wordModel.translate(sentence), reference, 'the model translates as before');
});

test('the bin: --length-penalty and --coverage-penalty, with their ranges named', () => {
  const bin = join(root, 'bin', 'seq2seq-attention.js');
  const model = modelForTests().path;
  const run = (...args) => spawnSync(process.execPath, [bin, 'translate', '--model', model, ...args],
    { encoding: 'utf8', timeout: 60_000 });
  const ok = run('--json', '--beam', '4', '--length-penalty', '0', '--coverage-penalty', '0', 'We drink water.');
  assert.equal(ok.status, 0, ok.stderr);
  const result = JSON.parse(ok.stdout);
  assert.ok(Array.isArray(result.sourceWords) && Array.isArray(result.targetWords));
  for (const h of result.hypotheses) assert.ok(Math.abs(h.score - h.logProb) < 1e-9, 'alpha = beta = 0: the raw log probability');
  assert.equal(run('--beam', '2', '--length-penalty', '.6', '--coverage-penalty', '5', 'go .').status, 0);
  for (const [flag, value, message] of [
    ['--length-penalty', '6', /--length-penalty must be a number from 0 to 5, got '6'/],
    ['--length-penalty=-1', null, /--length-penalty must be a number from 0 to 5, got '-1'/],
    ['--coverage-penalty', 'abc', /--coverage-penalty must be a number from 0 to 5, got 'abc'/],
    ['--coverage-penalty', '1e3', /--coverage-penalty must be a number from 0 to 5/],
  ]) {
    const r = value === null ? run(flag, 'go .') : run(flag, value, 'go .');
    assert.equal(r.status, 2, `${flag} ${value}`);
    assert.match(r.stderr, message);
  }
  const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  assert.match(help.stdout, /--length-penalty A .* 0 to 5/);
  assert.match(help.stdout, /--coverage-penalty B .* 0 to 5/);
});
