// Writes the committed seed corpus of the fuzz targets (tests/fuzz/corpus/).
// Run it again only to change the seeds; the fuzzers never write there (new
// inputs they find go to build/fuzz/corpus/).
//
//   node tests/fuzz/make-seeds.mjs      (needs build/native/seq2seq, or S2S_CLI)
//
// fuzz_model_file: tiny model files written by the CLI (every dtype: f32, f16, i8; the
// fixed-context baseline, a Chinese character model, BPE pieces with a
// lexical shortlist, an optimizer-state file), all of format version 4, and
// damaged or foreign files, among them damaged records of strings (a count
// larger than the file, a damaged offset table, a truncated text, text that
// is not UTF-8). The seeds named v1-*, v2-* and v3-* are of format versions
// 1 to 3, written by this script before version 4: the CLI cannot write them
// any more, so they are kept as they are.
// fuzz_translate: text seeds, each followed by the option bytes the target
// reads from the end of its input (see encodeOptions).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wordHash64 } from '../../bench/model-file.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const corpus = join(root, 'tests', 'fuzz', 'corpus');

// Empties corpus/NAME but for the files `keep` accepts.
function freshDir(name, keep = () => false) {
  const dir = join(corpus, name);
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) if (!keep(file)) rmSync(join(dir, file), { recursive: true, force: true });
  return dir;
}

// ---------------------------------------------------------------------------
// Model files.

const work = mkdtempSync(join(tmpdir(), 's2s-seeds-'));
// As small as the CLI allows: a few KB each, so the fuzzer mutates fast.
function trainTiny(name, extra) {
  const output = join(work, `${name}.s2s`);
  const r = spawnSync(cli, ['train', '--min-frequency', '1', '--max-source-vocab', '12', '--max-target-vocab', '12',
    '--embedding', '2', '--hidden', '2', '--decoder-hidden', '4', '--attention-size', '2', '--output-hidden', '2',
    '--batch-size', '8', '--steps', '3', '--eval-every', '0', '--threads', '1', '--seed', '1', '--name', name,
    '--checkpoint-dir', join(work, `ck-${name}`), '--output', output, ...extra], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`training ${name} failed: ${r.stderr}`);
  return readFileSync(output);
}

const tinyEnFr = join(root, 'tests', 'fixtures', 'tiny-en-fr.tsv');
const tinyEnZh = join(root, 'tests', 'fixtures', 'en-zh-dev.tsv');
const models = {
  'additive-f32.s2s': trainTiny('additive-f32', ['--data', tinyEnFr, '--attention', 'additive']),
  'general-f16.s2s': trainTiny('general-f16', ['--data', tinyEnFr, '--attention', 'general', '--dtype', 'f16']),
  'none-f16.s2s': trainTiny('none-f16', ['--data', tinyEnFr, '--attention', 'none', '--dtype', 'f16']),
  'zh-chars-f16.s2s': trainTiny('zh-chars-f16', ['--data', tinyEnZh, '--target-language', 'zh', '--dtype', 'f16']),
  'additive-i8.s2s': trainTiny('additive-i8', ['--data', tinyEnFr, '--attention', 'additive', '--dtype', 'i8']),
  'bpe-i8.s2s': trainTiny('bpe-i8', ['--data', tinyEnFr, '--source-pieces', '40', '--target-pieces', '40', '--dtype', 'i8']),
};
// The BPE model with a lexical shortlist: every kind of record.
{
  const output = join(work, 'bpe-i8-shortlist.s2s');
  writeFileSync(join(work, 'bpe-i8.s2s'), models['bpe-i8.s2s']);
  const r = spawnSync(cli, ['shortlist', '--model', join(work, 'bpe-i8.s2s'), '--data', tinyEnFr, '--always', '20',
    '--per-target', '2', '--output', output], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the shortlist failed: ${r.stderr}`);
  models['bpe-i8-shortlist.s2s'] = readFileSync(output);
}
const optimizerState = readFileSync(join(work, 'ck-none-f16', 'checkpoint.s2s.optimizer'));
rmSync(work, { recursive: true, force: true });

const modelDir = freshDir('fuzz_model_file', (file) => /^v[123]-/.test(file));
const good = models['additive-f32.s2s'];
const withU32 = (bytes, offset, value) => {
  const copy = Buffer.from(bytes);
  copy.writeUInt32LE(value, offset);
  return copy;
};
// The checksum of format version 3 on made right again: the last 8 bytes.
const sealed = (bytes) => {
  const copy = Buffer.from(bytes);
  copy.writeBigUInt64LE(wordHash64(copy.subarray(0, copy.length - 8)), copy.length - 8);
  return copy;
};
const flipped = (bytes, position, mask) => Buffer.from(bytes.map((b, i) => (i === position ? b ^ mask : b)));
const headerSize = good.readUInt32LE(12);
const tableCount = 16 + headerSize;
const header = good.subarray(16, 16 + headerSize).toString('latin1');
// The source vocabulary's record of strings in the BPE model with a
// shortlist: its table entry's fields and its count, offsets and text.
const full = models['bpe-i8-shortlist.s2s'];
const vocabulary = (() => {
  let p = 16 + full.readUInt32LE(12) + 4;
  for (let i = 0; i < full.readUInt32LE(16 + full.readUInt32LE(12)); ++i) {
    const nameLength = full.readUInt32LE(p);
    const name = full.subarray(p + 4, p + 4 + nameLength).toString('utf8');
    const fields = p + 4 + nameLength;
    if (name === 'source_vocabulary') {
      const offset = Number(full.readBigUInt64LE(fields + 12));
      const count = full.readUInt32LE(fields + 4);
      return { rows: fields + 4, cols: fields + 8, byteSize: fields + 20, offset, count, text: offset + 4 + 4 * (count + 1) };
    }
    p = fields + 28;
  }
  throw new Error('the BPE model has no source_vocabulary record');
})();
const sealedEdit = (bytes, edit) => {
  const copy = Buffer.from(bytes);
  edit(copy);
  return sealed(copy);
};
const modelSeeds = {
  ...models,
  'optimizer-state.s2s': optimizerState,          // a valid container, not a model
  'truncated-12.s2s': good.subarray(0, 12),
  'truncated-header.s2s': good.subarray(0, 16 + (headerSize >> 1)),
  'truncated-table.s2s': good.subarray(0, tableCount + 40),
  'truncated-data.s2s': good.subarray(0, good.length - 20),
  'truncated-checksum.s2s': good.subarray(0, good.length - 5),
  'trailing-bytes.s2s': Buffer.concat([good, Buffer.alloc(16, 0xAB)]),
  'version-5.s2s': withU32(good, 8, 5),           // damaged, or newer than this build reads
  'version-5-sealed.s2s': sealed(withU32(good, 8, 5)),  // newer than this build reads
  'version-field-3.s2s': withU32(good, 8, 3),     // a version 4 file whose version field is damaged
  'strings-count-huge.s2s': sealedEdit(full, (b) => {
    b.writeUInt32LE(0x40000000, vocabulary.rows);
    b.writeBigUInt64LE(BigInt(4 + 4 * (0x40000000 + 1) + b.readUInt32LE(vocabulary.cols)), vocabulary.byteSize);
  }),
  'strings-count-differs.s2s': sealedEdit(full, (b) => b.writeUInt32LE(vocabulary.count + 1, vocabulary.offset)),
  'strings-offset-damaged.s2s': sealedEdit(full, (b) => b.writeUInt32LE(0xFFFFFFF0, vocabulary.offset + 4 * 6)),
  'strings-not-utf8.s2s': sealedEdit(full, (b) => { b[vocabulary.text + 1] = 0xC3; }),
  'strings-text-truncated.s2s': full.subarray(0, vocabulary.text + 3),
  'i8-truncated-data.s2s': models['additive-i8.s2s'].subarray(0, models['additive-i8.s2s'].length - 11),
  'header-size-huge.s2s': withU32(good, 12, 0xFFFFFFF0),
  'table-count-huge.s2s': withU32(good, tableCount, 0x7FFFFFFF),
  'data-flipped.s2s': flipped(good, good.length - 17, 0x40),
  'header-flipped.s2s': flipped(good, 16 + header.indexOf('"provenance"') + 3, 0x01),  // covered from version 3 on
  'png.bin': Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4850000000049454e44ae426082', 'hex'),
  'text.txt': Buffer.from('hello, I am not a model\n'),
  'json.json': Buffer.from('{"format":"seq2seq-attention","config":{}}'),
  'empty.bin': Buffer.alloc(0),
};
for (const [name, bytes] of Object.entries(modelSeeds)) writeFileSync(join(modelDir, name), bytes);

// ---------------------------------------------------------------------------
// Text to translate.

// fuzz_translate takes its options from the end of the input, one byte each
// in this order: model (0 additive, 1 general, 2 dot, 3 scaled-dot, 4 none,
// 5 Chinese), beam size - 1, automatic max length (odd = yes), alternatives,
// prefix length. FuzzedDataProvider reads from the end, hence the reverse.
function encodeOptions({ model = 0, beam = 1, alternatives = 0 } = {}) {
  return Buffer.from([model, beam - 1, 1, alternatives, 0].reverse());
}

const words = ['the', 'cat', 'sees', 'a', 'dog'];
const texts = {
  'sentence': 'I see the cat.',
  'sentence-beam': ['We drink water.', { beam: 4, alternatives: 2 }],
  'baseline': ['I love deep learning.', { model: 4, beam: 3 }],
  'chinese-target': ['I love you.', { model: 5, beam: 2 }],
  'general': ['you see a dog!', { model: 1, beam: 2 }],
  'dot': ['it\'s a café, naïve?', { model: 2 }],
  'scaled-dot': ['don\'t drink 3.14 water', { model: 3, beam: 5 }],
  'empty': '',
  'whitespace': ' \t\r\n\u00A0\u202F\u3000 ',
  'unknown-words': 'xylophone quantum zebra',
  'markup': '<script>alert("x")</script> <b>the</b> cat &amp; <img src=x onerror=alert(1)>',
  'emoji': 'I 😀 see the cat 🐈‍⬛ 👩🏽‍💻 🇫🇷.',
  'cjk': '我爱你。你好，世界！',
  'rtl': 'مرحبا بالعالم \u202Eabc\u202C שלום עולם',
  'combining': 'cafe\u0301 nai\u0308ve Z\u0351\u0352\u0353A\u0354L\u0355G\u0356O',
  'zero-width': 'the\u200Bcat\u200D\uFEFFsees',
  'greek-cyrillic': 'ΣΊΣΥΦΟΣ ΜΕΓΑΣ Привет МИР İstanbul',
  'apostrophes': 'I’m here, don’t go… «quoted» “curly”',
  'numbers': '3.14 1,000 2.5. 10!',
  'thousand-words': Array.from({ length: 1000 }, (_, i) => words[i % 5]).join(' '),
  'long-20000': 'a'.repeat(20000),
};
const binaryTexts = {
  'invalid-utf8': Buffer.from([0x69, 0x20, 0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0xe2, 0x82, 0x20, 0x63, 0x61, 0x74]),
  'overlong': Buffer.from([0xc0, 0xaf, 0x20, 0xe0, 0x80, 0xaf, 0x20, 0xf0, 0x80, 0x80, 0xaf]),
  'surrogates-and-beyond': Buffer.from([0xed, 0xa0, 0x80, 0x20, 0xed, 0xbf, 0xbf, 0x20, 0xf4, 0x90, 0x80, 0x80, 0x20, 0xf8, 0x88, 0x80, 0x80, 0x80]),
  'nul-bytes': Buffer.from('the\0cat\0\0 sees\0'),
  'truncated-sequence': Buffer.from([0x74, 0x68, 0x65, 0x20, 0xf0, 0x9f, 0x98]),
};

const textDir = freshDir('fuzz_translate');
for (const [name, spec] of Object.entries(texts)) {
  const [text, options] = Array.isArray(spec) ? spec : [spec, {}];
  writeFileSync(join(textDir, name), Buffer.concat([Buffer.from(text, 'utf8'), encodeOptions(options)]));
}
for (const [name, bytes] of Object.entries(binaryTexts)) {
  writeFileSync(join(textDir, name), Buffer.concat([bytes, encodeOptions({ beam: 2 })]));
}
// A prefix (bytes in reading order from the end: model, beam - 1, automatic
// length, alternatives, prefix length, then one byte per word = its index in
// the target vocabulary: 4 + its position in kFrench, so 4 = "je", 5 = "vois").
// The second seed forces one word outside the vocabulary (index 23, the
// vocabulary size, is "not a word").
writeFileSync(join(textDir, 'prefix'), Buffer.concat([Buffer.from('I see the cat.'), Buffer.from([5, 4, 2, 0, 1, 1, 0])]));
writeFileSync(join(textDir, 'prefix-unknown'), Buffer.concat([Buffer.from('I see the cat.'), Buffer.from([23, 1, 0, 1, 2, 0])]));

let total = 0;
for (const dir of [modelDir, textDir]) for (const f of readdirSync(dir)) total += readFileSync(join(dir, f)).length;
console.log(`wrote ${Object.keys(modelSeeds).length} model seeds and ${readdirSync(textDir).length} text seeds (${(total / 1024).toFixed(0)} KB in all)`);
