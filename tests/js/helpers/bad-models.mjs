// Damaged and foreign model files made from a good one, each with the
// message that must name its problem. The CLI tests and the JavaScript API
// tests feed the same list through their layer, so every layer refuses the
// same files the same way.
//
//   for (const { name, bytes, message } of badModelFiles(readFileSync(path))) ...
//
// The layout (src/format/model_file.h): magic (8), version u32, header_size
// u32, JSON header, table_count u32, table entries (name_length u32, name,
// dtype u32, rows u32, cols u32, offset u64, byte_size u64), the records'
// data (tensors, and from format version 4 tables of strings: a count,
// count + 1 offsets, the text), then the checksum u64 of every byte before
// it (version 3 on; version 4 is what the CLI writes and the shipped models
// are); versions 1 and 2 (the files in tests/fixtures) have their checksum
// after the table instead, over the tensor data only. Read here
// independently of the loader. For a file of version 3 on the damaged
// fields are sealed (the checksum recomputed), so that each check speaks
// for itself, and flips that are not sealed must be refused as checksum
// mismatches.
import { wordHash64 } from '../../../bench/model-file.mjs';

// The format version this build writes and reads at most.
const NEWEST_VERSION = 4;
const LABELS = ['tensor', 'tensor', 'tensor', 'strings', 'uint16 record'];

function layoutOf(bytes) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = view.readUInt32LE(12);
  const tableCount = 16 + headerSize;
  const entries = [];
  let p = tableCount + 4;
  for (let i = 0; i < view.readUInt32LE(tableCount); ++i) {
    const nameLength = view.readUInt32LE(p);
    const name = p + 4;
    const fields = name + nameLength;
    entries.push({
      nameLength: p, name, dtype: fields, rows: fields + 4, cols: fields + 8, offset: fields + 12, byteSize: fields + 20,
      dataOffset: Number(view.readBigUInt64LE(fields + 12)), dataSize: Number(view.readBigUInt64LE(fields + 20)),
      label: `${LABELS[view.readUInt32LE(fields)]} '${view.subarray(name, fields).toString('utf8')}'`,
      dtypeValue: view.readUInt32LE(fields), rowsValue: view.readUInt32LE(fields + 4),
      nameText: view.subarray(name, fields).toString('utf8'),
    });
    p = fields + 28;
  }
  const version = view.readUInt32LE(8);
  return { version, headerSize, tableCount, entries, checksum: version >= 3 ? view.length - 8 : p };
}

// Version 3 on (as the bytes now say): the last 8 bytes made the checksum
// of the rest again. Versions 1 and 2: unchanged.
function sealed(bytes) {
  const copy = Buffer.from(bytes);
  if (copy.readUInt32LE(8) >= 3) copy.writeBigUInt64LE(wordHash64(copy.subarray(0, copy.length - 8)), copy.length - 8);
  return copy;
}

function edited(bytes, edit) {
  const copy = Buffer.from(bytes);
  edit(copy);
  return sealed(copy);
}

function flipped(bytes, position, mask = 0x01) {
  return edited(bytes, (b) => { b[position] ^= mask; });
}

// A flip the checksum must catch: not sealed.
function damaged(bytes, position, mask = 0x01) {
  const copy = Buffer.from(bytes);
  copy[position] ^= mask;
  return copy;
}

// Overwrites the bytes right after the first `after` in the JSON header
// with `text` (ASCII, so nothing moves).
function headerOverwritten(bytes, after, text) {
  const { headerSize } = layoutOf(bytes);
  const header = Buffer.from(bytes).subarray(16, 16 + headerSize).toString('latin1');
  const at = header.indexOf(after);
  if (at < 0) throw new Error(`the header has no ${after}`);
  return edited(bytes, (b) => b.write(text, 16 + at + after.length, 'latin1'));
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
  '1f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4850000000049454e44ae426082', 'hex');

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Format version 4's source vocabulary record: where its offsets and text
// are, and two tokens of the same length in bytes (ids i < j, neither a
// special token), for a duplicate that keeps every offset.
function vocabularyRecord(good, l) {
  const entry = l.entries.find((e) => e.nameText === 'source_vocabulary' && e.dtypeValue === 3);
  if (!entry) return null;
  const view = Buffer.from(good.buffer, good.byteOffset, good.byteLength);
  const count = entry.rowsValue;
  const offsets = entry.dataOffset + 4;
  const text = offsets + 4 * (count + 1);
  const at = (i) => view.readUInt32LE(offsets + 4 * i);
  const byLength = new Map();
  let pair = null;
  for (let i = 4; i < count && !pair; ++i) {
    const length = at(i + 1) - at(i);
    if (byLength.has(length)) pair = [byLength.get(length), i];
    else byLength.set(length, i);
  }
  return { entry, count, offsets, text, at, pair };
}

/** [{ name, bytes, message }]: every file must be refused with an error matching `message`. */
export function badModelFiles(good) {
  const l = layoutOf(good);
  const v3 = l.version >= 3;
  const first = l.entries[0];
  const lastTensor = l.entries.findLast((e) => e.dtypeValue <= 2);
  const middleOfData = first.dataOffset + Math.floor((good.length - first.dataOffset) / 2);
  // A cut there is reported for the first record that does not fit.
  const cutRecord = l.entries.find((e) => e.dataOffset + e.dataSize > middleOfData);
  const headerText = Buffer.from(good).subarray(16, 16 + l.headerSize).toString('latin1');
  const newer = NEWEST_VERSION + 1;
  const vocabulary = vocabularyRecord(good, l);
  return [
    // Files of another kind.
    { name: 'an empty file', bytes: Buffer.alloc(0), message: /model file is empty \(0 bytes\)/ },
    { name: 'a text file', bytes: Buffer.from('hello, I am not a model\n'), message: /not a seq2seq-attention model file \(bad magic\)/ },
    { name: 'a PNG image', bytes: PNG, message: /bad magic/ },
    { name: 'a JSON file', bytes: Buffer.from('{"format":"seq2seq-attention"}'), message: /bad magic/ },
    // Truncated anywhere.
    { name: 'cut inside the magic', bytes: good.subarray(0, 5), message: /truncated/ },
    { name: 'cut after the version', bytes: good.subarray(0, 12), message: /truncated: the header size/ },
    { name: 'cut inside the header', bytes: good.subarray(0, 16 + (l.headerSize >> 1)), message: /truncated: the JSON header/ },
    { name: 'cut inside the table', bytes: good.subarray(0, first.rows), message: /truncated: the tensor table/ },
    { name: 'cut inside the data', bytes: good.subarray(0, middleOfData), message: new RegExp(`truncated: ${escaped(cutRecord.label)} needs`) },
    { name: 'cut by one byte', bytes: good.subarray(0, good.length - 1), message: v3 ? /truncated: the checksum needs bytes .*, and its checksum does not match/ : /truncated: tensor '/ },
    { name: 'bytes after the end', bytes: Buffer.concat([good, Buffer.alloc(16, 0xAB)]), message: v3 ? /16 unexpected bytes after its end .*, and its checksum does not match/ : /16 unexpected bytes after the last tensor/ },
    // A newer (or no) format version: damaged or newer (checksum mismatch), or intact and newer.
    { name: `format version ${newer}`, bytes: damaged(good, 8, l.version ^ newer), message: new RegExp(`format version ${newer}, but this build .* reads format version ${NEWEST_VERSION}, and its checksum does not match.*download or copy it again, or upgrade`) },
    { name: `an intact file of format version ${newer}`, bytes: edited(good, (b) => b.writeUInt32LE(newer, 8)), message: new RegExp(`format version ${newer}, but this build .* reads format version ${NEWEST_VERSION}; upgrade`) },
    // (Not sealed: a version below 3 has no checksum at the end, so the one
    // there still matches the file laid out as its real version.)
    { name: 'format version 0', bytes: edited(good, (b) => b.writeUInt32LE(0, 8)), message: v3 ? new RegExp(`format version field is damaged: it reads 0, but the file is laid out as version ${l.version}`) : /format version 0/ },
    ...(v3 ? [{ name: `a version ${l.version} file whose version reads 2`, bytes: damaged(good, 8, l.version ^ 2), message: new RegExp(`format version field is damaged: it reads 2, but the file is laid out as version ${l.version}`) }] : []),
    // Oversized length fields: refused before any allocation.
    { name: 'a 4 GiB header size', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFFF, 12)), message: /truncated: the JSON header \(4294967295 bytes\)/ },
    { name: '2^32 - 1 tensors', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFFF, l.tableCount)), message: /truncated: the tensor table \(4294967295 entries\)/ },
    { name: 'a 4 GiB tensor name', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFFF, first.nameLength)), message: /name of 4294967295 bytes/ },
    { name: 'a huge tensor shape', bytes: edited(good, (b) => b.writeUInt32LE(0x7FFFFFFF, first.rows)), message: /records \d+ bytes, but 2147483647 x/ },
    { name: 'a huge tensor offset', bytes: edited(good, (b) => b.writeBigUInt64LE(0xFFFFFFFFFFFFFFC0n, lastTensor.offset)), message: new RegExp(`truncated: ${escaped(lastTensor.label)}`) },
    { name: 'a huge tensor byte size', bytes: edited(good, (b) => b.writeBigUInt64LE(0xFFFFFFFFFFFFFFFFn, first.byteSize)), message: /records 18446744073709551615 bytes/ },
    // Bit flips in every part.
    { name: 'a flip in the magic', bytes: flipped(good, 0), message: /bad magic/ },
    { name: 'a flip in the header JSON', bytes: flipped(good, 16), message: /header is not valid JSON/ },
    { name: 'a header naming another format', bytes: headerOverwritten(good, '"format":"seq2seq-attentio', 'X'), message: /'format' is not "seq2seq-attention"/ },
    { name: 'a header with an unknown attention', bytes: headerOverwritten(good, '"attention":"', 'XXXX'), message: /unknown attention 'XXXX/ },
    { name: 'a flip in a tensor name', bytes: flipped(good, first.name, 0x80), message: /not valid UTF-8/ },
    // (0x08: dtypes 0 to 4 are all known from format version 4 on.)
    { name: 'a flip in a dtype', bytes: flipped(good, first.dtype, 0x08), message: /unknown dtype (8|9|10) / },
    { name: 'a flip in a tensor offset', bytes: flipped(good, first.offset, 0x01), message: /not a multiple of 64/ },
    { name: 'a flip in the tensor data', bytes: damaged(good, middleOfData, 0x10), message: /checksum mismatch/ },
    { name: 'a flip in the last byte', bytes: damaged(good, good.length - 1, 0x80), message: /checksum mismatch/ },
    { name: 'a flip in the checksum', bytes: damaged(good, l.checksum, 0x01), message: /checksum mismatch/ },
    // Version 3's checksum covers the header and the table as well (in
    // versions 1 and 2 such a flip inside a header string loads silently).
    ...(v3 ? [
      { name: 'a flip in the provenance', bytes: damaged(good, 16 + headerText.indexOf('"provenance"') + 3, 0x01), message: /checksum mismatch/ },
      { name: 'a flip in a tensor name, not sealed', bytes: damaged(good, first.name, 0x80), message: /checksum mismatch/ },
      { name: 'a flip in a dtype, not sealed', bytes: damaged(good, first.dtype, 0x08), message: /checksum mismatch/ },
      { name: 'a 4 GiB tensor name, not sealed', bytes: damaged(good, first.nameLength + 3, 0xFF), message: /checksum mismatch/ },
    ] : []),
    // Version 4's tables of strings: the vocabulary's count, offsets and
    // text, each damaged and sealed, and a flip not sealed.
    ...(vocabulary ? [
      { name: 'a string count larger than the file', bytes: edited(good, (b) => { b.writeUInt32LE(0x40000000, vocabulary.entry.rows); b.writeBigUInt64LE(BigInt(4 + 4 * (0x40000000 + 1)) + BigInt(b.readUInt32LE(vocabulary.entry.cols)), vocabulary.entry.byteSize); }), message: /truncated: strings 'source_vocabulary' needs/ },
      { name: 'a string count that differs from the table', bytes: edited(good, (b) => b.writeUInt32LE(vocabulary.count - 1, vocabulary.entry.dataOffset)), message: new RegExp(`strings 'source_vocabulary' counts ${vocabulary.count - 1} strings, but its table entry says ${vocabulary.count}`) },
      { name: 'a damaged offset table', bytes: edited(good, (b) => b.writeUInt32LE(vocabulary.at(5) - 1, vocabulary.offsets + 4 * 6)), message: /strings 'source_vocabulary' has string 5 ending at offset \d+ of its text, before it starts/ },
      { name: 'an offset past the text', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFF0, vocabulary.offsets + 4 * 6)), message: /string 5 ending at offset 4294967280 of its text, past the end of the text/ },
      { name: 'text that is not UTF-8', bytes: edited(good, (b) => { b[vocabulary.text] = 0xFF; }), message: /strings 'source_vocabulary' holds text that is not valid UTF-8/ },
      ...(vocabulary.pair ? [{ name: 'a duplicate vocabulary token', bytes: edited(good, (b) => b.copy(b, vocabulary.text + vocabulary.at(vocabulary.pair[1]), vocabulary.text + vocabulary.at(vocabulary.pair[0]), vocabulary.text + vocabulary.at(vocabulary.pair[0] + 1))), message: new RegExp(`vocabulary entry ${vocabulary.pair[1]} duplicates .* \\(already entry ${vocabulary.pair[0]}\\)`) }] : []),
      { name: 'a flip in a vocabulary token, not sealed', bytes: damaged(good, vocabulary.text + vocabulary.at(4), 0x01), message: /checksum mismatch/ },
    ] : []),
  ];
}
