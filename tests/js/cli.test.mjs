// The native CLI as a user runs it: flags, exit codes, the --json output
// (text, tokens, attention rows summing to 1, score), training with
// checkpoints and resume, eval and bench.
// A tiny model is trained from tests/fixtures in a few seconds first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { badModelFiles } from './helpers/bad-models.mjs';
import { wordHash64 } from '../../bench/model-file.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// S2S_CLI runs the same tests against another build (e.g. build/sanitize/seq2seq).
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const fixture = join(root, 'tests', 'fixtures', 'tiny-en-fr.tsv');
let work;
let model;

// The JSON header of a .s2s file (layout in src/format/model_file.h).
function readProvenance(path) {
  const bytes = readFileSync(path);
  const headerSize = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(16, 16 + headerSize).toString('utf8')).provenance;
}

function run(args, input = '') {
  const r = spawnSync(cli, args, { input, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const tinyModelFlags = [
  '--data', fixture, '--dev-fraction', '0.1', '--min-frequency', '1',
  '--embedding', '16', '--hidden', '16', '--decoder-hidden', '32', '--attention-size', '16',
  '--output-hidden', '32', '--batch-size', '8', '--learning-rate', '0.01', '--warmup', '10',
  '--eval-every', '50', '--eval-sentences', '5', '--threads', '2',
];

before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-cli-'));
  model = join(work, 'tiny.s2s');
  const r = run(['train', ...tinyModelFlags, '--steps', '150', '--checkpoint-dir', join(work, 'ck'), '--output', model]);
  assert.equal(r.code, 0, r.err);
});

after(() => rmSync(work, { recursive: true, force: true }));

test('--help lists the four commands', () => {
  const r = run(['--help']);
  assert.equal(r.code, 0);
  for (const command of ['translate', 'eval', 'train', 'bench']) assert.match(r.out, new RegExp(`\\n  ${command} `));
});

test('bad usage exits with 2 and a message naming the problem', () => {
  const cases = [
    [[], /usage: seq2seq/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['translate'], /needs --model/],
    [['translate', '--model', model, '--bogus'], /unknown flag --bogus/],
    [['translate', '--model', model, '--beam', '0'], /--beam: beam size 0 is out of range; use 1 to 16/],
    [['translate', '--model', model, '--beam', '2.5'], /--beam must be a whole number \(1 to 16\), not '2.5'/],
    [['translate', '--model', model, '--coverage-penalty', '-1'], /--coverage-penalty: coverage penalty -1 is out of range; use 0 to 5/],
    [['eval', '--model', model, '--data', fixture, '--length-penalty', 'x'], /--length-penalty must be a number \(0 to 5\), not 'x'/],
    [['translate', '--model', model, '--beam', 'abc'], /--beam must be/],
    [['translate', '--model', model, '--beam'], /--beam needs a value/],
    [['translate', '--model', join(work, 'nope.s2s')], /cannot open model file .*nope\.s2s/],
    [['eval', '--model', model], /needs --data/],
    [['eval', '--model', model, '--data', join(work, 'missing.tsv')], /missing\.tsv/],
    [['train', '--data', fixture, '--output', join(work, 'x.s2s'), '--target-language', 'de'], /--target-language must be fr or zh/],
    [['train', '--data', fixture, '--output', join(work, 'x.s2s'), '--attention', 'psychic'], /unknown attention 'psychic'/],
    [['train', '--data', fixture, '--output', join(work, 'x.s2s'), '--dev-fraction', '0.9'], /--dev-fraction must be a number from 0 to 0.5/],
    [['train', '--data', fixture, '--output', join(work, 'x.s2s'), '--min-frequency', '100'], /lower --min-frequency/],
    [['train', '--data', fixture, '--output', join(work, 'no-such-dir', 'x.s2s')], /cannot write .*no-such-dir/],
    [['train', '--data', join(work, 'missing.tsv'), '--output', join(work, 'x.s2s')], /cannot open data file/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message, args.join(' '));
  }
});

test('bad model files are refused with exit 2, never a crash', () => {
  const good = readFileSync(model);
  const files = {
    'text.s2s': Buffer.from('hello, I am not a model\n'),
    'empty.s2s': Buffer.alloc(0),
    'truncated.s2s': good.subarray(0, Math.floor(good.length / 2)),
    'flipped.s2s': Buffer.from(good.map((b, i) => (i === good.length - 7 ? b ^ 0x40 : b))),
  };
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(work, name);
    writeFileSync(path, bytes);
    const r = run(['translate', '--model', path], 'i eat .\n');
    assert.equal(r.code, 2, `${name}: ${r.err}`);
    assert.match(r.err, /error: .+/, name);
  }
});

test('every kind of damaged or foreign model file is refused naming the problem, quickly; the good model works after', () => {
  const good = readFileSync(model);
  const reference = run(['translate', '--model', model, '--json'], 'I see the cat.\n');
  assert.equal(reference.code, 0, reference.err);
  for (const { name, bytes, message } of badModelFiles(good)) {
    const path = join(work, 'bad.s2s');
    writeFileSync(path, bytes);
    const started = Date.now();
    const r = run(['translate', '--model', path], 'I see the cat.\n');
    assert.equal(r.code, 2, `${name}: exit ${r.code}, ${r.err}`);
    assert.match(r.err, new RegExp(`error: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `), `${name}: names the file`);
    assert.match(r.err, message, name);
    assert.equal(r.out, '', `${name}: nothing on stdout`);
    assert.ok(Date.now() - started < 10_000, `${name}: refused in ${Date.now() - started} ms`);
    const after = run(['translate', '--model', model, '--json'], 'I see the cat.\n');
    assert.deepEqual([after.code, after.out], [0, reference.out], `${name}: the good model still translates`);
  }
});

test('model files are written as format version 4, whose checksum (the last 8 bytes) the JavaScript word_hash64 agrees with', () => {
  // The fixed values of tests/cpp/test_hash.cpp: the C++ and the JavaScript hash are the same function.
  const text = (s) => new TextEncoder().encode(s);
  const pattern = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) & 0xff);
  for (const [bytes, expected] of [
    [text(''), 0xbe38f461dd723316n], [text('a'), 0xa961b78585c85934n], [text('abcdefgh'), 0x8a0f2377ccf74a6dn],
    [text('abcdefghi'), 0x8ea31167ad62ee42n], [text('The quick brown fox jumps over the lazy dog'), 0xfcd30097f59a0a66n],
    [pattern, 0x01761c1ad2ae2458n], [new Uint8Array(32), 0x360b16937ed45d63n], [new Uint8Array(33), 0x00a964e080ad5658n],
  ]) {
    assert.equal(wordHash64(bytes), expected, `${bytes.length} bytes`);
  }
  const checkSealed = (path) => {
    const bytes = readFileSync(path);
    assert.equal(bytes.readUInt32LE(8), 4, `${path}: format version`);
    assert.equal(bytes.readBigUInt64LE(bytes.length - 8), wordHash64(bytes.subarray(0, bytes.length - 8)), `${path}: checksum`);
    // The header is small metadata: the vocabularies, merges and triggers are records.
    const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8'));
    assert.ok(!('source_vocabulary' in header) && !('merges' in header.source_tokenizer), `${path}: header`);
    return header;
  };
  checkSealed(model);  // written by train
  // The shipped models are version 4; convert rewrites them (and the
  // version 3 model of tests/fixtures, with BPE, penalties and a shortlist)
  // as version 4, keeping their provenance and translating exactly the same.
  const input = 'I see the cat.\nI love deep learning.\nWe drink water.\n';
  for (const [name, shipped] of [...['en-fr', 'en-fr-fixed', 'en-zh', 'en-zh-fixed'].map((n) => [n, join(root, 'models', `${n}.s2s`)]),
    ['model-v3-subword', join(root, 'tests', 'fixtures', 'model-v3-subword.s2s')]]) {
    const version = readFileSync(shipped).readUInt32LE(8);
    assert.equal(version, name === 'model-v3-subword' ? 3 : 4, `${name}: format version`);
    const converted = join(work, `${name}-v4.s2s`);
    const r = run(['convert', '--model', shipped, '--output', converted]);
    assert.equal(r.code, 0, r.err);
    const header = checkSealed(converted);
    const info = (path) => {
      const out = JSON.parse(run(['info', '--model', path, '--json']).out);
      delete out.file_bytes;
      return out;
    };
    assert.deepEqual(info(converted), info(shipped), `${name}: info`);
    if (version === 4) assert.deepEqual(readFileSync(converted), readFileSync(shipped), `${name}: the same bytes`);
    assert.ok(header.provenance, name);
    const before = run(['translate', '--model', shipped, '--json'], input);
    const after = run(['translate', '--model', converted, '--json'], input);
    assert.equal(before.code, 0, before.err);
    assert.deepEqual(after.out, before.out, name);
  }
});

test('translate: bad input of every kind gives one result line each, and the next line works', () => {
  const good = 'I see the cat.';
  const reference = JSON.parse(run(['translate', '--model', model, '--json'], `${good}\n`).out);
  const words = ['the', 'cat', 'sees', 'a', 'dog'];
  const inputs = {
    empty: Buffer.from(''),
    whitespace: Buffer.from(' \t \u00A0\u202F\u3000 '),
    '20,000 characters': Buffer.from('a'.repeat(20_000)),
    '20,000 characters of words': Buffer.from('the cat '.repeat(2500)),
    '1,000 words': Buffer.from(Array.from({ length: 1000 }, (_, i) => words[i % 5]).join(' ')),
    'invalid UTF-8': Buffer.from([0x69, 0x20, 0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xf0, 0x9f, 0x98]),
    'NUL bytes': Buffer.from('the\0cat\0\0 sees\0'),
    emoji: Buffer.from('I 😀 see the cat 🐈‍⬛ 👩🏽‍💻.'),
    CJK: Buffer.from('我爱你。你好，世界！'),
    'right-to-left': Buffer.from('مرحبا بالعالم \u202Eabc\u202C שלום עולם'),
    markup: Buffer.from('<script>alert("x")</script> <b>the</b> cat &amp; <img src=x onerror=alert(1)>'),
    'unknown words': Buffer.from('xylophone quantum zebra'),
  };
  const input = Buffer.concat(Object.values(inputs).flatMap((bytes) => [bytes, Buffer.from(`\n${good}\n`)]));
  const r = spawnSync(cli, ['translate', '--model', model, '--json', '--beam', '3'], { input, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines.pop(), '', 'output ends with a newline');
  assert.equal(lines.length, 2 * Object.keys(inputs).length, 'one output line per input line');
  const greedyReference = JSON.parse(run(['translate', '--model', model, '--json', '--beam', '3'], `${good}\n`).out);
  Object.keys(inputs).forEach((name, i) => {
    const result = JSON.parse(lines[2 * i]);
    assert.equal(typeof result.text, 'string', name);
    assert.deepEqual(JSON.parse(lines[2 * i + 1]), greedyReference, `${name}: the next line translates as before`);
    if (result.sourceTokens.length === 0) {
      assert.deepEqual([result.text, result.targetTokens, result.attention], ['', [], []], `${name}: empty result`);
      return;
    }
    assert.equal(result.sourceTokens.at(-1), '<eos>', name);
    assert.ok(result.sourceTokens.length <= 200, name);
    assert.ok(result.sourceTokens.every((t) => t.length > 0 && !t.includes('\0')), `${name}: no empty token, no NUL`);
    assert.equal(result.attention.length, result.targetTokens.length, name);
    for (const row of result.attention) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, name);
  });
  const byName = Object.fromEntries(Object.keys(inputs).map((name, i) => [name, JSON.parse(lines[2 * i])]));
  for (const name of ['empty', 'whitespace']) assert.deepEqual(byName[name].sourceTokens, [], name);
  assert.deepEqual(byName['20,000 characters'].sourceTokens, ['<unk>', '<eos>']);
  for (const name of ['20,000 characters of words', '1,000 words']) {
    assert.equal(byName[name].truncated, true, name);
    assert.equal(byName[name].sourceTokens.length, 200, name);
  }
  assert.equal(byName['NUL bytes'].sourceTokens.length, 3, 'NUL bytes are dropped: "thecat" and "sees" are two words');
  assert.deepEqual(byName['unknown words'].sourceTokens, ['<unk>', '<unk>', '<unk>', '<eos>']);
  for (const name of ['emoji', 'CJK', 'right-to-left', 'markup']) {
    assert.ok(byName[name].sourceTokens.includes('<unk>'), `${name}: unknown to the English model`);
  }
  assert.deepEqual(reference.sourceTokens, ['i', 'see', 'the', 'cat', '.', '<eos>']);
});

test('translate: one line out per line in, empty lines included', () => {
  const r = run(['translate', '--model', model], 'I eat bread.\n\nThe cat is black.\n');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.equal(lines.length, 4);  // three lines and the final newline
  assert.equal(lines[1], '');
  assert.ok(lines[0].length > 0);
});

test('translate --json gives the text, the tokens, the attention (rows summing to 1) and the score', () => {
  const r = run(['translate', '--model', model, '--json'], 'I see the cat.\n');
  assert.equal(r.code, 0, r.err);
  const result = JSON.parse(r.out);
  for (const key of ['text', 'sourceTokens', 'targetTokens', 'attention', 'score']) assert.ok(key in result, key);
  assert.deepEqual(result.sourceTokens, ['i', 'see', 'the', 'cat', '.', '<eos>']);
  assert.equal(result.attention.length, result.targetTokens.length);
  for (const row of result.attention) {
    assert.equal(row.length, result.sourceTokens.length);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4);
    assert.ok(row.every((w) => w >= 0));
  }
});

test('translate --beam N lists up to N hypotheses, best first', () => {
  const r = run(['translate', '--model', model, '--json', '--beam', '3'], 'We drink water.\n');
  assert.equal(r.code, 0, r.err);
  const result = JSON.parse(r.out);
  assert.ok(result.hypotheses.length >= 1 && result.hypotheses.length <= 3);
  assert.equal(result.hypotheses[0].text, result.text);
});

test('translate survives unknown words, invalid UTF-8 and very long input', () => {
  const input = Buffer.concat([
    Buffer.from('xylophone zebra quantum .\n'),
    Buffer.from([0x69, 0x20, 0xff, 0xfe, 0x20, 0x65, 0x61, 0x74, 0x0a]),
    Buffer.from(`${'the cat '.repeat(400)}\n`),
  ]);
  const r = spawnSync(cli, ['translate', '--model', model, '--json'], { input, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [unknown, invalid, long] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(unknown.sourceTokens.includes('<unk>'));
  assert.ok(invalid.sourceTokens.length > 0);
  assert.equal(long.truncated, true);
  assert.equal(long.sourceTokens.length, 200);
});

test('eval prints corpus BLEU overall and by source length', () => {
  const r = run(['eval', '--model', model, '--data', fixture, '--json']);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  assert.ok(report.overall.bleu >= 0 && report.overall.bleu <= 100);
  assert.deepEqual(report.by_length.map((b) => b.bucket), ['1-4', '5-7', '8-11', '12+']);
  // 39 distinct English sentences in the fixture (two translations of "Go!").
  assert.equal(report.overall.sentences, 39);
  const text = run(['eval', '--model', model, '--data', fixture]);
  assert.match(text.out, /^BLEU \d+\.\d\d/);
});

test('train writes checkpoints, stops on --max-minutes and resumes to the end', () => {
  const ck = join(work, 'resume');
  const output = join(work, 'resumed.s2s');
  const common = ['train', ...tinyModelFlags, '--steps', '40', '--eval-every', '20', '--checkpoint-dir', ck, '--output', output];
  const first = run([...common, '--max-minutes', '0.000001']);
  assert.equal(first.code, 0, first.err);
  assert.match(first.err, /continue with the same command and --resume/);
  assert.ok(existsSync(join(ck, 'checkpoint.s2s')) && existsSync(join(ck, 'checkpoint.s2s.optimizer')));
  assert.ok(!existsSync(output));
  const firstProvenance = readProvenance(join(ck, 'checkpoint.s2s'));
  const second = run([...common, '--resume']);
  assert.equal(second.code, 0, second.err);
  assert.match(second.err, /resumed from .* at step 1\b/);
  assert.match(second.err, /step 40\/40/);
  assert.ok(existsSync(output));
  // The record of the whole run survives the interruption.
  const provenance = readProvenance(output);
  assert.equal(provenance.training.steps, 40);
  assert.equal(provenance.created, firstProvenance.created);
  assert.ok(provenance.training.wall_seconds >= firstProvenance.training.wall_seconds);
  assert.deepEqual(provenance.training.dev_bleu_history.map((h) => h.step), [20, 40]);
  assert.ok(provenance.dev_bleu.overall.sentences > 0);
  // The data's source comes from the file used: the fixture's sidecar (tiny-en-fr.tsv.source.json).
  assert.equal(provenance.data.attribution, 'The seq2seq-attention authors');
});

test('train creates its folders and refuses a folder as --output', () => {
  const fresh = join(work, 'fresh', 'deeper');
  const ok = run(['train', ...tinyModelFlags, '--steps', '5', '--checkpoint-dir', fresh, '--export-dev', join(fresh, 'dev.tsv'),
    '--output', join(work, 'fresh.s2s')]);
  assert.equal(ok.code, 0, ok.err);
  assert.ok(existsSync(join(fresh, 'dev.tsv')));
  const bad = run(['train', ...tinyModelFlags, '--steps', '5', '--output', work]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--output must name a model file/);
});

test('resuming with different flags is refused, naming the flag', () => {
  const ck = join(work, 'mismatch');
  const output = join(work, 'mismatch.s2s');
  const common = ['train', ...tinyModelFlags, '--steps', '40', '--checkpoint-dir', ck, '--output', output];
  assert.equal(run([...common, '--max-minutes', '0.000001']).code, 0);
  const r = run([...common.map((x) => (x === '8' ? '4' : x)), '--resume']);  // --batch-size 8 -> 4
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /batch size/);
});

test('the fixed-context baseline translates and reports no attention matrix', () => {
  const output = join(work, 'fixed.s2s');
  const r = run(['train', ...tinyModelFlags, '--attention', 'none', '--steps', '30', '--checkpoint-dir', join(work, 'fixed'),
    '--output', output]);
  assert.equal(r.code, 0, r.err);
  const result = JSON.parse(run(['translate', '--model', output, '--json'], 'I eat bread.\n').out);
  assert.ok(result.targetTokens.length > 0);
  assert.deepEqual(result.attention, []);
});

test('bench reports words per second', () => {
  const r = run(['bench', '--model', model, '--repeat', '2', '--json']);
  assert.equal(r.code, 0, r.err);
  const result = JSON.parse(r.out);
  assert.ok(result.words_per_second > 0);
  assert.ok(result.gemm_gflops_one_thread > 0);
});

test('convert: int8 with --int8-bits, recorded in the header and kept by a rewrite; bad flags are named', () => {
  const readHeader = (path) => {
    const bytes = readFileSync(path);
    return JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8'));
  };
  const seven = join(work, 'seven.s2s');
  let r = run(['convert', '--model', model, '--dtype', 'i8', '--int8-bits', '7', '--output', seven]);
  assert.equal(r.code, 0, r.err);
  assert.equal(readHeader(seven).int8_levels, 63);
  assert.deepEqual(readHeader(seven).provenance.conversions.at(-1), { from: 'f32', to: 'i8', to_int8_levels: 63 });
  // Without --int8-bits an int8 input keeps its levels.
  const again = join(work, 'seven-again.s2s');
  r = run(['convert', '--model', seven, '--dtype', 'i8', '--output', again]);
  assert.equal(r.code, 0, r.err);
  assert.equal(readHeader(again).int8_levels, 63);
  const a = JSON.parse(run(['translate', '--model', seven, '--json'], 'I eat bread.\n').out);
  const b = JSON.parse(run(['translate', '--model', again, '--json'], 'I eat bread.\n').out);
  assert.deepEqual(b.targetTokens, a.targetTokens);
  // --name: a measured arm renamed to the model it becomes, the old name recorded.
  const named = join(work, 'named.s2s');
  r = run(['convert', '--model', seven, '--name', 'en-zh', '--output', named]);
  assert.equal(r.code, 0, r.err);
  assert.equal(readHeader(named).provenance.name, 'en-zh');
  assert.deepEqual(readHeader(named).provenance.conversions.at(-1),
    { from: 'i8', to: 'i8', from_int8_levels: 63, to_int8_levels: 63, renamed_from: readHeader(seven).provenance.name ?? null });
  // --init-name: the model it was trained from, renamed after; refused
  // for a model that records none.
  const staged = join(work, 'staged.s2s');
  r = run(['train', ...tinyModelFlags, '--steps', '5', '--init-model', model, '--checkpoint-dir', join(work, 'ck-staged'), '--output', staged]);
  assert.equal(r.code, 0, r.err);
  const initName = readHeader(staged).provenance.training.init_model.name;
  const renamedInit = join(work, 'renamed-init.s2s');
  r = run(['convert', '--model', staged, '--init-name', 'en-zh-joint', '--output', renamedInit]);
  assert.equal(r.code, 0, r.err);
  assert.equal(readHeader(renamedInit).provenance.training.init_model.name, 'en-zh-joint');
  assert.equal(readHeader(renamedInit).provenance.conversions.at(-1).init_renamed_from, initName);
  r = run(['convert', '--model', model, '--init-name', 'en-zh', '--output', join(work, 'refused-init.s2s')]);
  assert.equal(r.code, 2);
  assert.match(r.err, /records no training\.init_model/);
  for (const [flags, message] of [
    [['--name', ''], /--name must be a non-empty name/],
    [['--init-name', ''], /--init-name must be a non-empty name/],
    [['--dtype', 'f16', '--int8-bits', '7'], /--int8-bits goes with --dtype i8/],
    [['--dtype', 'i8', '--int8-bits', '9'], /--int8-bits must be a whole number from 2 to 8/],
  ]) {
    r = run(['convert', '--model', model, ...flags, '--output', join(work, 'refused-convert.s2s')]);
    assert.equal(r.code, 2);
    assert.match(r.err, message);
    assert.ok(!existsSync(join(work, 'refused-convert.s2s')));
  }
});

test('convert --interpolate: weight 0 is the model, weight 1 the other, 0.5 in between; other vocabularies are refused', () => {
  const readHeader = (path) => {
    const bytes = readFileSync(path);
    return JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8'));
  };
  // A second run of the same model from another seed: same architecture and vocabularies.
  const other = join(work, 'tiny-seed2.s2s');
  let r = run(['train', ...tinyModelFlags, '--steps', '60', '--seed', '2', '--checkpoint-dir', join(work, 'ck-seed2'), '--output', other]);
  assert.equal(r.code, 0, r.err);
  const translate = (path) => JSON.parse(run(['translate', '--model', path, '--json'], 'I eat bread.\n').out);
  const mixed = {};
  for (const weight of ['0', '0.5', '1']) {
    mixed[weight] = join(work, `mixed-${weight}.s2s`);
    r = run(['convert', '--model', model, '--interpolate', other, '--weight', weight, '--dtype', 'f32', '--output', mixed[weight]]);
    assert.equal(r.code, 0, r.err);
    const record = readHeader(mixed[weight]).provenance.interpolation;
    assert.equal(record.file, 'tiny-seed2.s2s');
    assert.equal(record.weight, Number(weight));
    assert.match(record.fnv1a64, /^[0-9a-f]{16}$/);
  }
  assert.deepEqual(translate(mixed['0']).attention, translate(model).attention, 'weight 0 keeps the model');
  assert.deepEqual(translate(mixed['1']).attention, translate(other).attention, 'weight 1 is the other');
  assert.notDeepEqual(translate(mixed['0.5']).attention, translate(model).attention);

  // Another vocabulary (a model trained on other sentences) is refused, naming why.
  const foreignData = join(work, 'foreign.tsv');
  writeFileSync(foreignData, Array.from({ length: 40 }, (_, i) => `word${i} thing${i}\tmot${i} chose${i}`).join('\n') + '\n');
  const foreign = join(work, 'foreign.s2s');
  r = run(['train', ...tinyModelFlags.map((flag) => (flag === fixture ? foreignData : flag)), '--steps', '5', '--checkpoint-dir', join(work, 'ck-foreign'), '--output', foreign]);
  assert.equal(r.code, 0, r.err);
  for (const [flags, message] of [
    [['--interpolate', foreign], /has (another architecture|other vocabularies or tokenizers)/],
    [['--interpolate', other, '--weight', '1.5'], /--weight must be a number from 0 to 1/],
    [['--weight', '0.5'], /--weight needs --interpolate OTHER/],
  ]) {
    r = run(['convert', '--model', model, ...flags, '--output', join(work, 'refused-mix.s2s')]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, message);
    assert.ok(!existsSync(join(work, 'refused-mix.s2s')));
  }
});
