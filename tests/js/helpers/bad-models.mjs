// Damaged and foreign model files made from a good one, each with the
// message that must name its problem. The CLI tests and the JavaScript API
// tests feed the same list through their layer, so every layer refuses the
// same files the same way.
//
//   for (const { name, bytes, message } of badModelFiles(readFileSync(path))) ...
//
// The layout (src/model/model_file.h): magic (8), version u32, header_size
// u32, JSON header, table_count u32, table entries (name_length u32, name,
// dtype u32, rows u32, cols u32, offset u64, byte_size u64), tensor data,
// then the checksum u64 of every byte before it (format version 3, what the
// CLI writes and the shipped models are); versions 1 and 2 (the files in
// tests/fixtures) have their checksum
// after the table instead, over the tensor data only. Read here
// independently of the loader. For a version 3 file the damaged fields are
// sealed (the checksum recomputed), so that each check speaks for itself,
// and flips that are not sealed must be refused as checksum mismatches.
import { wordHash64 } from '../../../bench/model-file.mjs';

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

/** [{ name, bytes, message }]: every file must be refused with an error matching `message`. */
export function badModelFiles(good) {
  const l = layoutOf(good);
  const v3 = l.version >= 3;
  const first = l.entries[0];
  const last = l.entries.at(-1);
  const middleOfData = first.dataOffset + Math.floor((good.length - first.dataOffset) / 2);
  const headerText = Buffer.from(good).subarray(16, 16 + l.headerSize).toString('latin1');
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
    { name: 'cut inside the data', bytes: good.subarray(0, middleOfData), message: /truncated: tensor '/ },
    { name: 'cut by one byte', bytes: good.subarray(0, good.length - 1), message: v3 ? /truncated: the checksum needs bytes .*, and its checksum does not match/ : /truncated: tensor '/ },
    { name: 'bytes after the end', bytes: Buffer.concat([good, Buffer.alloc(16, 0xAB)]), message: v3 ? /16 unexpected bytes after its end .*, and its checksum does not match/ : /16 unexpected bytes after the last tensor/ },
    // A newer (or no) format version: damaged or newer (checksum mismatch), or intact and newer.
    { name: 'format version 4', bytes: damaged(good, 8, l.version ^ 4), message: /format version 4, but this build .* reads format version 3, and its checksum does not match.*download or copy it again, or upgrade/ },
    { name: 'an intact file of format version 4', bytes: edited(good, (b) => b.writeUInt32LE(4, 8)), message: /format version 4, but this build .* reads format version 3; upgrade/ },
    { name: 'format version 0', bytes: edited(good, (b) => b.writeUInt32LE(0, 8)), message: /format version 0/ },
    ...(v3 ? [{ name: 'a version 3 file whose version reads 2', bytes: damaged(good, 8, 0x01), message: /format version field is damaged: it reads 2/ }] : []),
    // Oversized length fields: refused before any allocation.
    { name: 'a 4 GiB header size', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFFF, 12)), message: /truncated: the JSON header \(4294967295 bytes\)/ },
    { name: '2^32 - 1 tensors', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFFF, l.tableCount)), message: /truncated: the tensor table \(4294967295 entries\)/ },
    { name: 'a 4 GiB tensor name', bytes: edited(good, (b) => b.writeUInt32LE(0xFFFFFFFF, first.nameLength)), message: /name of 4294967295 bytes/ },
    { name: 'a huge tensor shape', bytes: edited(good, (b) => b.writeUInt32LE(0x7FFFFFFF, first.rows)), message: /records \d+ bytes, but 2147483647 x/ },
    { name: 'a huge tensor offset', bytes: edited(good, (b) => b.writeBigUInt64LE(0xFFFFFFFFFFFFFFC0n, last.offset)), message: /truncated: tensor '/ },
    { name: 'a huge tensor byte size', bytes: edited(good, (b) => b.writeBigUInt64LE(0xFFFFFFFFFFFFFFFFn, first.byteSize)), message: /records 18446744073709551615 bytes/ },
    // Bit flips in every part.
    { name: 'a flip in the magic', bytes: flipped(good, 0), message: /bad magic/ },
    { name: 'a flip in the header JSON', bytes: flipped(good, 16), message: /header is not valid JSON/ },
    { name: 'a header naming another format', bytes: headerOverwritten(good, '"format":"seq2seq-attentio', 'X'), message: /'format' is not "seq2seq-attention"/ },
    { name: 'a header with an unknown attention', bytes: headerOverwritten(good, '"attention":"', 'XXXX'), message: /unknown attention 'XXXX/ },
    { name: 'a flip in a tensor name', bytes: flipped(good, first.name, 0x80), message: /not valid UTF-8/ },
    { name: 'a flip in a dtype', bytes: flipped(good, first.dtype, 0x04), message: /unknown dtype [4-7] / },
    { name: 'a flip in a tensor offset', bytes: flipped(good, first.offset, 0x01), message: /not a multiple of 64/ },
    { name: 'a flip in the tensor data', bytes: damaged(good, middleOfData, 0x10), message: /checksum mismatch/ },
    { name: 'a flip in the last byte', bytes: damaged(good, good.length - 1, 0x80), message: /checksum mismatch/ },
    { name: 'a flip in the checksum', bytes: damaged(good, l.checksum, 0x01), message: /checksum mismatch/ },
    // Version 3's checksum covers the header and the table as well (in
    // versions 1 and 2 such a flip inside a header string loads silently).
    ...(v3 ? [
      { name: 'a flip in the provenance', bytes: damaged(good, 16 + headerText.indexOf('"provenance"') + 3, 0x01), message: /checksum mismatch/ },
      { name: 'a flip in a tensor name, not sealed', bytes: damaged(good, first.name, 0x80), message: /checksum mismatch/ },
      { name: 'a flip in a dtype, not sealed', bytes: damaged(good, first.dtype, 0x04), message: /checksum mismatch/ },
      { name: 'a 4 GiB tensor name, not sealed', bytes: damaged(good, first.nameLength + 3, 0xFF), message: /checksum mismatch/ },
    ] : []),
  ];
}
