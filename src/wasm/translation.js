// What crosses the API boundary around a translation, for models and
// trainers alike: the options checked in this API's own terms before they go
// to C++ as JSON, and the results built as plain objects from the JSON that
// comes back (so they never point into the WASM heap, whose views detach
// when memory grows).
import { UsageError, describeValue } from './errors.js';
import { optionRanges, optionSwitches } from './options.js';

// The options' ranges and defaults (optionRanges) and the switches
// (optionSwitches: trace, beamTree, shortlist, keepNames) are in options.js,
// which the build generates from the C++ option tables
// (src/decode/option_ranges.h); prefix is checked on its own.
const SWITCHES = Object.keys(optionSwitches);
const OPTION_NAMES = [...Object.keys(optionRanges), 'prefix', ...SWITCHES];

// What the penalties are, for their error messages.
const PENALTY_HINTS = {
  lengthPenalty: ` (GNMT length normalization alpha for beam search; 0 ranks by raw log probability, default ${optionRanges.lengthPenalty.default})`,
  coveragePenalty: ` (GNMT coverage penalty beta for beam search; 0 turns it off, default ${optionRanges.coveragePenalty.default})`,
};

/** translate()'s options, checked against optionRanges; throws an Error naming the option and its range. */
export function checkOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new UsageError(`model.translate(text, options): options must be an object such as { beamSize: 4 }, but got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new UsageError(`model.translate: unknown option '${key}'; the options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  const checked = {};
  for (const [name, { min, max, integer }] of Object.entries(optionRanges)) {
    const value = options[name];
    if (value === undefined) continue;
    const inRange = typeof value === 'number' && value >= min && value <= max;  // false for NaN
    if (integer && !(inRange && Number.isInteger(value))) {
      throw new UsageError(`model.translate: ${name} must be a whole number from ${min} to ${max}, but got ${describeValue(value)}`);
    }
    if (!integer && !inRange) {
      throw new UsageError(`model.translate: ${name} must be a number from ${min} to ${max}${PENALTY_HINTS[name] ?? ''}, ` +
        `but got ${describeValue(value)}`);
    }
    checked[name] = value;
  }
  for (const name of SWITCHES) {
    if (options[name] === undefined) continue;
    if (typeof options[name] !== 'boolean') {
      throw new UsageError(`model.translate: ${name} must be true or false, but got ${describeValue(options[name])}`);
    }
    checked[name] = options[name];
  }
  if (options.prefix !== undefined) {
    const prefix = options.prefix;
    if (!Array.isArray(prefix) || !prefix.every((token) => typeof token === 'string')) {
      throw new UsageError(`model.translate: prefix must be an array of target tokens (strings), such as ['je', 'suis'], but got ${describeValue(prefix)}`);
    }
    // A prefix longer than the output could ever be is refused here, in the API's terms.
    if (prefix.length > optionRanges.maxLength.max) {
      throw new UsageError(`model.translate: prefix has ${prefix.length} tokens; at most ${optionRanges.maxLength.max} are allowed`);
    }
    checked.prefix = prefix;
  }
  return checked;
}

/**
 * The text with every lone UTF-16 surrogate made U+FFFD, as a TextEncoder
 * would: a lone surrogate has no UTF-8 form, and Embind encodes strings as
 * UTF-8.
 */
export function wellFormed(text) {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

// A translation (index.d.ts, Translation): the beam's hypotheses, best
// first, and what belongs to the sentence (its source tokens and words,
// truncated, the trace and beam tree when asked for). The best hypothesis's
// fields (text, attention, ...) are read through accessors, never stored
// twice. Every attention row, every trace vector and every beam node's
// attention row is a Float32Array view over one buffer (translationBuffer):
// a worker transfers it, and the receiving side revives the result
// (reviveTranslation) without copying.
class Translation {
  constructor(fields) {
    Object.assign(this, fields);
  }

  /** The best hypothesis (an empty one when the input was empty). */
  get best() { return this.hypotheses[0] ?? EMPTY_HYPOTHESIS; }
  get text() { return this.best.text; }
  get targetTokens() { return this.best.targetTokens; }
  get targetWords() { return this.best.targetWords; }
  get attention() { return this.best.attention; }
  get coverage() { return this.best.coverage; }
  get possiblyDropped() { return this.best.possiblyDropped; }
  get tokenProbabilities() { return this.best.tokenProbabilities; }
  get wordProbabilities() { return this.best.wordProbabilities; }
  get unsureWords() { return this.best.unsureWords; }
  get copiedWords() { return this.best.copiedWords; }
  get score() { return this.best.score; }
  get finished() { return this.best.finished; }
  get alternatives() { return this.best.alternatives; }

  /**
   * The translation as the CLI's --json writes it: the best hypothesis's
   * fields at the top level too, every matrix and vector as numbers.
   */
  toJSON() {
    const best = this.best;
    const out = {
      text: best.text, sourceTokens: this.sourceTokens, sourceWords: this.sourceWords, sourceOffsets: this.sourceOffsets,
      targetTokens: best.targetTokens,
      targetWords: best.targetWords, attention: best.attention, coverage: best.coverage, possiblyDropped: best.possiblyDropped,
      tokenProbabilities: best.tokenProbabilities, wordProbabilities: best.wordProbabilities, unsureWords: best.unsureWords,
      copiedWords: best.copiedWords, score: best.score, truncated: this.truncated, finished: best.finished, hypotheses: this.hypotheses,
    };
    if (best.alternatives) out.alternatives = best.alternatives;
    if (this.trace) out.trace = this.trace;
    if (this.beamTree) out.beamTree = this.beamTree;
    return plainNumbers(out);
  }
}

/**
 * What the reader typed for source token `k` of `translation`: the slice of
 * `text` (the text translated) at the token's offsets, or null for <eos>.
 * An unknown piece ("<unk>") reads as the character it stands for.
 */
export function sourceText(translation, text, k) {
  const offsets = translation.sourceOffsets?.[k];
  return offsets ? text.slice(offsets[0], offsets[1]) : null;
}

const EMPTY_HYPOTHESIS = Object.freeze({
  text: '', targetTokens: Object.freeze([]), targetWords: Object.freeze([]), attention: Object.freeze([]),
  coverage: Object.freeze([]), possiblyDropped: Object.freeze([]), tokenProbabilities: Object.freeze([]),
  wordProbabilities: Object.freeze([]), unsureWords: Object.freeze([]), copiedWords: Object.freeze([]), score: 0, logProb: 0, finished: true,
});

// A copy of `value` with every typed array as an array of numbers (for JSON).
function plainNumbers(value) {
  if (ArrayBuffer.isView(value)) return Array.from(value);
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [key, item] of Object.entries(value)) out[key] = plainNumbers(item);
    return out;
  }
  return value;
}

/** The buffer every Float32Array of `translation` views (null when it has none): what a worker transfers. */
export function translationBuffer(translation) {
  for (const h of translation.hypotheses) {
    if (h.attention.length > 0) return h.attention[0].buffer;
  }
  const traced = translation.trace?.states[0] ?? translation.beamTree?.flat().find((node) => node.attention)?.attention;
  return traced?.buffer ?? null;
}

/**
 * A Translation again, from its structured clone (postMessage keeps the
 * fields and the one buffer, not the class): no copy.
 */
export function reviveTranslation(clone) {
  return clone instanceof Translation ? clone : Object.setPrototypeOf(clone, Translation.prototype);
}

// Words as { text, start, end }, in that order (the C++ JSON sorts its keys).
function makeWords(words) {
  return words.map(({ text, start, end }) => ({ text, start, end }));
}

// The C++ side offers only possible tokens (top_tokens, src/decode/search.cpp);
// a log probability that is not a finite number (JSON writes none: null) is
// read as impossible.
function makeChoices(position, numbers) {
  return position.map(({ token, logProb: place }) => {
    const logProb = numbers.float32(place);
    return logProb === null || !Number.isFinite(logProb)
      ? { token, logProb: -Infinity, probability: 0 }
      : { token, logProb, probability: Math.exp(logProb) };
  });
}

/**
 * A Translation from the bindings' JSON value. Two layouts come in
 * (translator.h, TranslationLayout): a model's module sends each hypothesis
 * once with its attention's shape, [rows, cols], and `heap` reads the floats
 * where the search wrote them ({ attention(k), numbers() }: heap views; every
 * other float packed in numbers(), the JSON holding its place: the
 * hypotheses' coverage, probabilities and alternatives, the trace, the beam
 * tree); a trainer's module sends numbers (heap null). With a heap, every
 * float is copied once, into one buffer.
 */
export function makeResult(value, withAlternatives, heap = null) {
  const shapes = value.hypotheses.map((h) => (heap
    ? { rows: h.attention[0], cols: h.attention[1] }
    : { rows: h.attention.length, cols: h.attention[0]?.length ?? 0 }));
  const packed = heap ? heap.numbers() : null;
  const packedLength = packed ? packed.length : 0;
  const floats = new Float32Array(packedLength + shapes.reduce((sum, { rows, cols }) => sum + rows * cols, 0));
  if (packed) floats.set(packed);  // at once (a heap view detaches when memory grows), bit for bit
  const numbers = packed ? packedNumbers(floats) : JSON_NUMBERS;
  let offset = packedLength;
  const hypotheses = value.hypotheses.map((h, k) => {
    const { rows, cols } = shapes[k];
    if (heap && rows * cols > 0) floats.set(heap.attention(k), offset);
    const attention = new Array(rows);
    for (let r = 0; r < rows; ++r, offset += cols) {
      attention[r] = floats.subarray(offset, offset + cols);
      if (!heap) attention[r].set(h.attention[r]);
    }
    const hypothesis = {
      text: h.text,
      targetTokens: h.targetTokens,
      targetWords: makeWords(h.targetWords),
      attention,
      coverage: numbers.array(h.coverage),
      possiblyDropped: h.possiblyDropped,
      tokenProbabilities: numbers.array(h.tokenProbabilities),
      wordProbabilities: numbers.array(h.wordProbabilities),
      unsureWords: h.unsureWords,
      copiedWords: h.copiedWords ?? [],
      score: h.score,
      logProb: h.logProb,
      finished: h.finished,
    };
    if (withAlternatives) hypothesis.alternatives = (h.alternatives ?? []).map((position) => makeChoices(position, numbers));
    return hypothesis;
  });
  const fields = {
    sourceTokens: value.sourceTokens,
    sourceWords: makeWords(value.sourceWords),
    sourceOffsets: value.sourceOffsets,
    truncated: value.truncated,
    hypotheses,
  };
  // Present only when asked for (translate's trace and beamTree options).
  if (value.trace) fields.trace = makeTrace(value.trace, numbers);
  if (value.beamTree) fields.beamTree = makeBeamTree(value.beamTree, numbers);
  return new Translation(fields);
}

// How the numbers beside the attention are read. A model's module packs
// them (NumberWriter, src/decode/translation_trace.h): the JSON holds only
// their places in the floats copied out of the heap, which start the
// result's buffer (a vector [offset, length], a float32 its offset, a
// float64 the offset of its 8 bytes, little-endian), so every vector of the
// trace and the beam tree is a view of the one buffer a worker transfers
// (floats), and a hypothesis's coverage and probabilities, which the API
// gives as arrays of numbers (index.d.ts), are arrays of the same float32s
// (array). (Printed as JSON text and parsed again they cost more than the
// decoding.) A trainer's module writes them as JSON numbers: a float32 as
// the double it equals, each trace vector made a Float32Array here.
function packedNumbers(floats) {
  const bytes = new DataView(floats.buffer, floats.byteOffset, floats.byteLength);
  return {
    floats: (place) => (place === null ? null : floats.subarray(place[0], place[0] + place[1])),
    array: (place) => Array.from(floats.subarray(place[0], place[0] + place[1])),
    float32: (place) => floats[place],
    float64: (place) => bytes.getFloat64(place * Float32Array.BYTES_PER_ELEMENT, true),
  };
}

const JSON_NUMBERS = {
  floats: (v) => (v === null ? null : Float32Array.from(v)),
  array: (v) => v,
  float32: (v) => v,
  float64: (v) => v,
};

// The decoder trace (index.d.ts, DecoderTrace), keys in a fixed order. Every
// vector is a Float32Array: exactly the float32 values the decoder used.
function makeTrace(trace, numbers) {
  return {
    scoring: trace.scoring,
    temperature: numbers.float64(trace.temperature),
    keys: trace.keys === null ? null : trace.keys.map(numbers.floats),
    states: trace.states.map(numbers.floats),
    steps: trace.steps.map((s) => ({
      previousState: numbers.floats(s.previousState),
      query: numbers.floats(s.query),
      scores: numbers.floats(s.scores),
      weights: numbers.floats(s.weights),
      context: numbers.floats(s.context),
      top: s.top.map(({ token, probability }) => ({ token, probability: numbers.float32(probability) })),
    })),
  };
}

// The beam tree (index.d.ts, BeamNode), keys in a fixed order; a kept
// node's attention row is a Float32Array, as every other row.
function makeBeamTree(tree, numbers) {
  return tree.map((nodes) => nodes.map(({ token, parent, score, kept, attention }) => {
    const node = { token, parent, score: numbers.float64(score), kept };
    if (attention) node.attention = numbers.floats(attention);
    return node;
  }));
}

/** A ModelInfo (index.d.ts), frozen, from the model file's JSON header. */
export function makeInfo(header, name) {
  const provenance = header.provenance ?? {};
  const devBleu = provenance.dev_bleu;
  const info = {
    name: name ?? (typeof provenance.name === 'string' ? provenance.name : null),
    attention: header.config.attention,
    hasAttention: header.config.attention !== 'none',
    config: header.config,
    sourceLanguage: header.source_tokenizer?.language ?? 'en',
    targetLanguage: header.target_tokenizer?.language ?? null,
    sourceTokenizer: header.source_tokenizer?.kind ?? 'words',
    targetTokenizer: header.target_tokenizer?.kind ?? 'words',
    sourceVocabularySize: header.source_vocabulary_size,
    targetVocabularySize: header.target_vocabulary_size,
    devBleu: devBleu ? {
      overall: devBleu.overall?.bleu ?? null,
      sentences: devBleu.overall?.sentences ?? 0,
      byLength: (devBleu.by_length ?? []).map((b) => ({ bucket: b.bucket, bleu: b.bleu, sentences: b.sentences })),
    } : null,
    // The beam search penalties translate uses for this model when none are
    // given: those its file records (chosen on its development split), else
    // the package's defaults, as the C++ core resolves them
    // (decode_defaults, src/wasm/bindings.cpp's infoBytes).
    beamDefaults: {
      lengthPenalty: header.decode_defaults.lengthPenalty,
      coveragePenalty: header.decode_defaults.coveragePenalty,
      recorded: header.decoding !== undefined,
    },
    // The model's lexical shortlist (the header's target_shortlist, without
    // its triggers), or null: translate uses it unless { shortlist: false }.
    shortlist: header.target_shortlist ? {
      always: header.target_shortlist.always,
      perTarget: header.target_shortlist.per_target,
      builtFrom: header.target_shortlist.built_from ?? null,
    } : null,
    provenance,
  };
  return deepFreeze(info);
}

/** Freezes an object and everything it holds. */
export function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}
