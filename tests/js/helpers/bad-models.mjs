// Damaged and foreign model files made from a good one, each with the
// message that must name its problem. The CLI tests and the JavaScript API
// tests feed the same list through their layer, so every layer refuses the
// same files the same way.
//
//   for (const { name, bytes, message } of badModelFiles(readFileSync(path))) ...
//
// The layout (src/model/model_file.h): magic (8), version u32, header_size
// u32, JSON header, table_count u32, table entries (name_length u32, name,
// dtype u32, rows u32, cols u32, offset u64, byte_size u64), checksum u64,
// tensor data. Read here independently of the loader.

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
  return { headerSize, tableCount, entries, checksum: p };
}

function edited(bytes, edit) {
  const copy = Buffer.from(bytes);
  edit(copy);
  return copy;
}

function flipped(bytes, position, mask = 0x01) {
  return edited(bytes, (b) => { b[position] ^= mask; });
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
  const first = l.entries[0];
  const last = l.entries.at(-1);
  const middleOfData = first.dataOffset + Math.floor((good.length - first.dataOffset) / 2);
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
    { name: 'cut by one byte', bytes: good.subarray(0, good.length - 1), message: /truncated: tensor '/ },
    // A newer (or no) format version.
    { name: 'format version 3', bytes: edited(good, (b) => b.writeUInt32LE(3, 8)), message: /format version 3, but this build .* reads format version 2; upgrade/ },
    { name: 'format version 0', bytes: edited(good, (b) => b.writeUInt32LE(0, 8)), message: /format version 0/ },
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
    { name: 'a flip in the tensor data', bytes: flipped(good, middleOfData, 0x10), message: /checksum mismatch/ },
    { name: 'a flip in the last byte', bytes: flipped(good, good.length - 1, 0x80), message: /checksum mismatch/ },
    { name: 'a flip in the checksum', bytes: flipped(good, l.checksum, 0x01), message: /checksum mismatch/ },
  ];
}
