// What crosses the API boundary around a translation, for models and
// trainers alike: the options checked in this API's own terms before they go
// to C++ as JSON, and the results built as plain objects from the JSON that
// comes back (so they never point into the WASM heap, whose views detach
// when memory grows).
import { describeValue } from './errors.js';
import { optionRanges } from './options.js';

// The options' ranges and defaults are in options.js (optionRanges), which the
// build generates from the C++ option table (src/decode/option_ranges.h);
// prefix and the switches (trace, beamTree, shortlist) are checked on their own.
const SWITCHES = ['trace', 'beamTree', 'shortlist'];
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
    throw new Error(`model.translate(text, options): options must be an object such as { beamSize: 4 }, but got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new Error(`model.translate: unknown option '${key}'; the options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  const checked = {};
  for (const [name, { min, max, integer }] of Object.entries(optionRanges)) {
    const value = options[name];
    if (value === undefined) continue;
    const inRange = typeof value === 'number' && value >= min && value <= max;  // false for NaN
    if (integer && !(inRange && Number.isInteger(value))) {
      throw new Error(`model.translate: ${name} must be a whole number from ${min} to ${max}, but got ${describeValue(value)}`);
    }
    if (!integer && !inRange) {
      throw new Error(`model.translate: ${name} must be a number from ${min} to ${max}${PENALTY_HINTS[name] ?? ''}, ` +
        `but got ${describeValue(value)}`);
    }
    checked[name] = value;
  }
  for (const name of SWITCHES) {
    if (options[name] === undefined) continue;
    if (typeof options[name] !== 'boolean') {
      throw new Error(`model.translate: ${name} must be true or false, but got ${describeValue(options[name])}`);
    }
    checked[name] = options[name];
  }
  if (options.prefix !== undefined) {
    const prefix = options.prefix;
    if (!Array.isArray(prefix) || !prefix.every((token) => typeof token === 'string')) {
      throw new Error(`model.translate: prefix must be an array of target tokens (strings), such as ['je', 'suis'], but got ${describeValue(prefix)}`);
    }
    // A prefix longer than the output could ever be is refused here, in the API's terms.
    if (prefix.length > optionRanges.maxLength.max) {
      throw new Error(`model.translate: prefix has ${prefix.length} tokens; at most ${optionRanges.maxLength.max} are allowed`);
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

function makeHypothesis(h, matrix) {
  const hypothesis = {
    text: h.text,
    targetTokens: h.targetTokens,
    targetWords: makeWords(h.targetWords),
    attention: matrix(h.attention),
    coverage: h.coverage,
    possiblyDropped: h.possiblyDropped,
    score: h.score,
    logProb: h.logProb,
    finished: h.finished,
  };
  if (h.alternatives) hypothesis.alternatives = h.alternatives.map(makeChoices);
  return hypothesis;
}

// Rows of numbers from [offset, rows, cols] into `floats`.
function unpackMatrix(floats, [offset, rows, cols]) {
  const out = new Array(rows);
  for (let r = 0, at = offset; r < rows; ++r) {
    const row = new Array(cols);
    for (let c = 0; c < cols; ++c) row[c] = floats[at++];
    out[r] = row;
  }
  return out;
}

// Words as { text, start, end }, in that order (the C++ JSON sorts its keys).
function makeWords(words) {
  return words.map(({ text, start, end }) => ({ text, start, end }));
}

// The C++ side offers only possible tokens (top_tokens, src/decode/search.cpp);
// a log probability that JSON could not carry (null) is read as impossible.
function makeChoices(position) {
  return position.map(({ token, logProb }) => (logProb === null
    ? { token, logProb: -Infinity, probability: 0 }
    : { token, logProb, probability: Math.exp(logProb) }));
}

/**
 * A Translation (index.d.ts) from the bindings' JSON value. numbers: when
 * the value's attention or trace is packed, a function returning the
 * module's floats of this translation (a heap view, copied here at once).
 */
export function makeResult(value, withAlternatives, numbers) {
  const floats = value.packedAttention || value.trace?.packed ? new Float32Array(numbers()) : null;
  // A packed matrix is [offset, rows, cols] into the floats: rows of numbers
  // again, as the JSON path gives them (each float32 exactly).
  const matrix = value.packedAttention ? (packed) => unpackMatrix(floats, packed) : (rows) => rows;
  const hypotheses = value.hypotheses.map((h) => makeHypothesis(h, matrix));
  const best = hypotheses[0];
  const result = {
    text: value.text,
    sourceTokens: value.sourceTokens,
    sourceWords: makeWords(value.sourceWords),
    targetTokens: value.targetTokens,
    targetWords: makeWords(value.targetWords),
    attention: matrix(value.attention),
    coverage: value.coverage,
    possiblyDropped: value.possiblyDropped,
    score: value.score,
    truncated: value.truncated,
    finished: best ? best.finished : true,
    hypotheses,
  };
  // Present only when asked for (translate's trace and beamTree options).
  if (value.trace) result.trace = makeTrace(value.trace, value.trace.packed ? floats : null);
  if (value.beamTree) result.beamTree = value.beamTree.map(makeBeamStep);
  if (withAlternatives) result.alternatives = best?.alternatives ?? [];
  return result;
}

// The decoder trace (index.d.ts, DecoderTrace), keys in a fixed order. Every
// vector is a Float32Array: exactly the float32 values the decoder used. A
// model's module hands them over packed (trace.packed): the JSON holds
// [offset, length] into one float array copied out of the heap (`numbers`),
// and the vectors are views of one buffer, which postMessage clones once.
// (Printed as JSON text and parsed again they cost more than the decoding.)
// A trainer's module sends them as JSON numbers, made Float32Arrays here.
function makeTrace(trace, numbers) {
  const vector = trace.packed
    ? ((v) => (v === null ? null : numbers.subarray(v[0], v[0] + v[1])))
    : ((v) => (v === null ? null : Float32Array.from(v)));
  return {
    scoring: trace.scoring,
    temperature: trace.temperature,
    keys: trace.keys === null ? null : trace.keys.map(vector),
    states: trace.states.map(vector),
    steps: trace.steps.map((s) => ({
      previousState: vector(s.previousState),
      query: vector(s.query),
      scores: vector(s.scores),
      weights: vector(s.weights),
      context: vector(s.context),
      top: s.top.map(({ token, probability }) => ({ token, probability })),
    })),
  };
}

function makeBeamStep(nodes) {
  return nodes.map(({ token, parent, score, kept, attention }) => {
    const node = { token, parent, score, kept };
    if (attention) node.attention = attention;
    return node;
  });
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
    // the package's defaults.
    beamDefaults: {
      lengthPenalty: header.decoding?.length_penalty ?? optionRanges.lengthPenalty.default,
      coveragePenalty: header.decoding?.coverage_penalty ?? optionRanges.coveragePenalty.default,
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
