// A .s2s model file read in plain JavaScript, with no WebAssembly: the
// layout of src/model/model_file.h (magic, version, JSON header, table,
// 64-byte aligned records: tensors in float32, float16 or int8 with one
// float32 scale per row, and from format version 4 tables of strings and of
// uint16 values; and a checksum: over every byte, at the end, from version
// 3 on; over the data, after the table, in versions 1 and 2). The TF.js
// peer (tfjs-model.mjs) loads its weights with it; the tests and the fuzz
// seeds use its checksum (wordHash64) to write model files of their own.

const MAGIC = 'S2SMODEL';
const DTYPE_NAMES = ['float32', 'float16', 'int8'];
const STRINGS = 3;  // from format version 4: a count, count + 1 offsets, UTF-8 text
const UINT16 = 4;   // from format version 4: rows x cols little-endian uint16
const NEWEST_VERSION = 4;

let halfTable;
function halfToFloatTable() {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; ++h) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    let value;
    if (exponent === 0x1f) value = mantissa ? NaN : Infinity;
    else if (exponent === 0) value = mantissa * 2 ** -24;          // subnormal
    else value = (1 + mantissa / 1024) * 2 ** (exponent - 15);
    halfTable[h] = sign * value;
  }
  return halfTable;
}

// FNV-1a 64 over bytes, in two 32-bit halves (exact in doubles):
// prime = 2^40 + 0x1b3.
function fnv1a64Hex(bytes) {
  let lo = 0x84222325;
  let hi = 0xcbf29ce4;
  for (let i = 0; i < bytes.length; ++i) {
    lo = (lo ^ bytes[i]) >>> 0;
    const low = lo * 0x1b3;
    const carry = Math.floor(low / 0x100000000);
    hi = (hi * 0x1b3 + carry + lo * 0x100) % 0x100000000;
    lo = low % 0x100000000;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

// word_hash64 of src/common/hash.h (the checksum of format version 3 on,
// over every byte), in 32-bit halves (high, low): BigInt arithmetic would be
// tens of times slower on a 3 MB file. Its values are pinned by
// tests/cpp/test_hash.cpp and checked here by tests/js/cli.test.mjs.
const K1H = 0x9E3779B9, K1L = 0x7F4A7C15;
const K2H = 0xBF58476D, K2L = 0x1CE4E5B9;
const K3H = 0x94D049BB, K3L = 0x133111EB;
const F1H = 0xFF51AFD7, F1L = 0xED558CCD;
const F2H = 0xC4CEB9FE, F2L = 0x1A85EC53;
const TWO32 = 4294967296;
let rh = 0;  // results of the helpers below, so that nothing is allocated per word
let rl = 0;
// (ah, al) * (bh, bl) mod 2^64; al * bl is formed from 16-bit pieces, exact in doubles.
function mul64(ah, al, bh, bl) {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const mid = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (mid % 65536) * 65536;
  rl = low >>> 0;
  rh = (a1 * b1 + Math.floor(mid / 65536) + Math.floor(low / TWO32) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}
// rotl64((h, l), r) for 0 < r < 32.
function rotl(h, l, r) {
  rh = ((h << r) | (l >>> (32 - r))) >>> 0;
  rl = ((l << r) | (h >>> (32 - r))) >>> 0;
}
const hashLanes = new Uint32Array(8);  // [high, low] of lanes 0..3
// lane = rotl64(lane + word * K1, 31) * K2
function wordRound(j, wh, wl) {
  mul64(wh, wl, K1H, K1L);
  const low = hashLanes[2 * j + 1] + rl;
  rotl((hashLanes[2 * j] + rh + (low >= TWO32 ? 1 : 0)) >>> 0, low >>> 0, 31);
  mul64(rh, rl, K2H, K2L);
  hashLanes[2 * j] = rh;
  hashLanes[2 * j + 1] = rl;
}

/** word_hash64 of a Uint8Array, as a BigInt. */
export function wordHash64(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let j = 0; j < 4; ++j) {  // lane j starts at (j + 1) * K1
    mul64(0, j + 1, K1H, K1L);
    hashLanes[2 * j] = rh;
    hashLanes[2 * j + 1] = rl;
  }
  const size = bytes.length;
  let at = 0;
  for (; size - at >= 8; at += 8) wordRound((at >>> 3) & 3, view.getUint32(at + 4, true), view.getUint32(at, true));
  if (size > at) {
    const padded = new Uint8Array(8);
    padded.set(bytes.subarray(at));
    const last = new DataView(padded.buffer);
    wordRound((at >>> 3) & 3, last.getUint32(4, true), last.getUint32(0, true));
  }
  let h = 0, l = 0;
  for (const [j, r] of [[0, 1], [1, 7], [2, 12], [3, 18]]) {
    rotl(hashLanes[2 * j], hashLanes[2 * j + 1], r);
    const low = l + rl;
    h = (h + rh + (low >= TWO32 ? 1 : 0)) >>> 0;
    l = low >>> 0;
  }
  mul64(Math.floor(size / TWO32) >>> 0, size >>> 0, K3H, K3L);
  h = (h ^ rh) >>> 0;
  l = (l ^ rl) >>> 0;
  // fmix64: h ^= h >> 33; h *= F1; h ^= h >> 33; h *= F2; h ^= h >> 33
  l = (l ^ (h >>> 1)) >>> 0;
  mul64(h, l, F1H, F1L);
  h = rh; l = (rl ^ (rh >>> 1)) >>> 0;
  mul64(h, l, F2H, F2L);
  h = rh; l = (rl ^ (rh >>> 1)) >>> 0;
  return (BigInt(h) << 32n) | BigInt(l);
}

/**
 * Parses a .s2s model file. Returns { version, header, tensors, records }
 * where tensors maps a name to { rows, cols, dtype, data: Float32Array
 * (row-major) } and records (format version 4 on) maps a name to an array
 * of strings or to { rows, cols, data: Uint16Array (row-major) }. Throws an
 * Error naming the problem for a file that is not a valid model.
 */
export function parseModelFile(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const need = (n, what) => {
    if (pos + n > bytes.length) throw new Error(`model file is truncated in ${what}`);
  };
  const u32 = (what) => { need(4, what); const v = view.getUint32(pos, true); pos += 4; return v; };
  const u64 = (what) => { need(8, what); const v = view.getBigUint64(pos, true); pos += 8; return v; };
  need(8, 'the magic');
  if (new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error('not a .s2s model file (bad magic)');
  pos = 8;
  const version = u32('the version');
  if (version < 1 || version > NEWEST_VERSION) throw new Error(`model file format version ${version} is not 1 to ${NEWEST_VERSION}`);
  // Version 3 on: the last 8 bytes are the checksum of every byte before them.
  let end = bytes.length;
  if (version >= 3) {
    if (bytes.length < 24) throw new Error('model file is truncated in the checksum');
    // A cut file is named as such (as the C++ reader does), not as a checksum mismatch.
    if (16 + view.getUint32(12, true) > bytes.length - 8) throw new Error('model file is truncated in the header');
    end -= 8;
    const recorded = view.getBigUint64(end, true);
    const actual = wordHash64(bytes.subarray(0, end));
    if (actual !== recorded) {
      throw new Error(`model file checksum mismatch (0x${actual.toString(16).padStart(16, '0')}, recorded 0x${recorded.toString(16).padStart(16, '0')})`);
    }
  }
  const headerSize = u32('the header size');
  need(headerSize, 'the header');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(pos, pos + headerSize)));
  pos += headerSize;
  const count = u32('the tensor count');
  const entries = [];
  for (let i = 0; i < count; ++i) {
    const nameLength = u32('a tensor name length');
    need(nameLength, 'a tensor name');
    const name = new TextDecoder().decode(bytes.subarray(pos, pos + nameLength));
    pos += nameLength;
    const dtype = u32('a dtype');
    if (dtype > UINT16 || (dtype === 2 && version < 2) || (dtype >= STRINGS && version < 4)) {
      throw new Error(`tensor '${name}' has unknown dtype ${dtype}`);
    }
    const rows = u32('rows');
    const cols = u32('cols');
    const offset = Number(u64('an offset'));
    const byteSize = Number(u64('a byte size'));
    // A table of strings: rows strings, cols bytes of text.
    const expected = [4 * rows * cols, 2 * rows * cols, 4 * rows + rows * cols, 4 + 4 * (rows + 1) + cols, 2 * rows * cols][dtype];
    if (byteSize !== expected) throw new Error(`tensor '${name}' records ${byteSize} bytes, expected ${expected}`);
    if (offset % 64 !== 0 || offset + byteSize > end) throw new Error(`tensor '${name}' lies outside the file`);
    entries.push({ name, dtype, rows, cols, offset, byteSize });
  }
  const checksum = version < 3 ? u64('the checksum').toString(16).padStart(16, '0') : undefined;
  if (version < 3 && entries.length > 0) {
    const actual = fnv1a64Hex(bytes.subarray(entries[0].offset));
    if (actual !== checksum) throw new Error(`model file checksum mismatch (0x${actual}, recorded 0x${checksum})`);
  }
  const tensors = new Map();
  const records = new Map();
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const e of entries) {
    if (e.dtype === STRINGS) {
      if (view.getUint32(e.offset, true) !== e.rows) throw new Error(`strings '${e.name}' count differs from its table entry`);
      const text = e.offset + 4 + 4 * (e.rows + 1);
      const strings = [];
      let start = view.getUint32(e.offset + 4, true);
      if (start !== 0) throw new Error(`strings '${e.name}' do not start at offset 0`);
      for (let i = 0; i < e.rows; ++i) {
        const end = view.getUint32(e.offset + 8 + 4 * i, true);
        if (end < start || end > e.cols) throw new Error(`strings '${e.name}' has string ${i} outside its text`);
        strings.push(utf8.decode(bytes.subarray(text + start, text + end)));
        start = end;
      }
      if (start !== e.cols) throw new Error(`strings '${e.name}' end before their text does`);
      records.set(e.name, strings);
      continue;
    }
    if (e.dtype === UINT16) {
      const data = new Uint16Array(e.rows * e.cols);
      for (let i = 0; i < data.length; ++i) data[i] = view.getUint16(e.offset + 2 * i, true);
      records.set(e.name, { rows: e.rows, cols: e.cols, data });
      continue;
    }
    const n = e.rows * e.cols;
    const data = new Float32Array(n);
    if (e.dtype === 0) {
      for (let i = 0; i < n; ++i) data[i] = view.getFloat32(e.offset + 4 * i, true);
    } else if (e.dtype === 1) {
      const table = halfToFloatTable();
      for (let i = 0; i < n; ++i) data[i] = table[view.getUint16(e.offset + 2 * i, true)];
    } else {
      const values = new Int8Array(bytes.buffer, bytes.byteOffset + e.offset + 4 * e.rows, n);
      for (let r = 0; r < e.rows; ++r) {
        const scale = view.getFloat32(e.offset + 4 * r, true);
        for (let c = 0; c < e.cols; ++c) data[r * e.cols + c] = values[r * e.cols + c] * scale;
      }
    }
    tensors.set(e.name, { rows: e.rows, cols: e.cols, dtype: DTYPE_NAMES[e.dtype], data });
  }
  return { version, header, tensors, records };
}
