// Types of seq2seq-attention's JavaScript API (src/wasm/index.js and the
// modules it re-exports). The hooks for tests and benchmarks have their own
// entry point and types: diagnostics.d.ts ('seq2seq-attention/diagnostics').
// Ranges and model names are not repeated here: optionRanges and
// shippedModels hold them (options.js, which the build generates from the
// C++ option table, src/decode/option_ranges.h; models.js).
//
// `using` and `await using`: the disposers are declared with TypeScript's
// esnext.disposable library (TypeScript 5.2 and later), referenced here as
// @types/node references it, so they type-check with or without the DOM's
// or Node's types.
/// <reference lib="esnext.disposable" />
//
// Over 400 lines on purpose: it is the reference a user's editor shows for
// the main entry point, translating then training; the other entries'
// .d.ts files re-export from it (tests/js/types.test.mjs compiles all of
// them with tsc).

/** The names of the models this package ships in its `models/` folder, e.g. `'en-fr'`. */
export declare const shippedModels: readonly string[];

/** Where a model comes from: a shipped name, a URL, a file path (Node), its bytes, a Blob or a Response. */
export type ModelSource = string | URL | Uint8Array | ArrayBuffer | ArrayBufferView | Blob | Response;

/**
 * Loads a model and returns it ready to translate.
 *
 * `source` is one of:
 * - a shipped model's name, one of {@link shippedModels} (e.g. `'en-fr'`);
 *   read from the package's `models/` folder, relative to this module (with
 *   fs in Node, with fetch in browsers).
 *   Any string of only letters, digits, `-` and `_` is taken as a name: write
 *   `./model` for a file of that name;
 * - a URL, as a string (`https:`, `http:`, `file:`, `data:`, `blob:`) or a
 *   `URL` object;
 * - a file path (Node only); in a browser any other string is a URL relative
 *   to the page;
 * - the bytes of a `.s2s` file: `Uint8Array`, `ArrayBuffer` or another
 *   ArrayBuffer view, a `Blob` (a file the user picked) or a `Response`.
 *
 * In a bundled app (Vite, webpack 5, Rollup), import the model's URL so that
 * the bundler copies that file, and only it:
 * `import url from 'seq2seq-attention/models/en-fr'; await loadModel(url)`.
 *
 * @throws {Error} when the model cannot be found or read, or the bytes are not
 *   a valid model file; the message names the problem and the fix.
 * @example
 * const model = await loadModel('en-fr');
 * console.log(model.translate('I love deep learning.').text);
 * model.dispose();
 */
export declare function loadModel(
  source: ModelSource,
  options?: LoadOptions,
): Promise<Model>;

/**
 * A compiled `WebAssembly.Module`, named without the DOM or WebAssembly
 * libraries so that these types compile under any `lib`: the platform's
 * type where it is declared, else any object.
 */
export type CompiledWasm = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: never[]) => infer M } } ? M : object;

/**
 * What {@link TranslatorOptions.worker} takes: a started Web Worker (the
 * DOM's `Worker` is one), described by the three methods the translator
 * uses, so that the types need no DOM library.
 */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: unknown[]): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the DOM's listeners take its Event types
  addEventListener(type: string, listener: (event: any) => void): void;
  terminate(): unknown;
}

/** Options of {@link loadModel}. */
export interface LoadOptions {
  /**
   * Where the translation runtime, `s2s-core.wasm`, comes from: its URL, its
   * bytes, a `Blob`, a `Response`, or a `WebAssembly.Module`. Used when the
   * runtime starts (the first load); ignored after that. By default it is
   * found next to the package's `dist/index.js` (a bundler rewrites that URL).
   */
  wasm?: string | URL | Uint8Array | ArrayBuffer | ArrayBufferView | Blob | Response | CompiledWasm;
  /** Cancels the load: the promise rejects with the signal's reason (an `AbortError`). */
  signal?: AbortSignal;
  /** Download progress of the model: bytes so far, and the total (`null` when the server does not say). */
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
}

/**
 * One step of decoding: the token written at output position `index`, its
 * log probability (`null` for a beam's steps, reported after the search),
 * and its attention row over the source tokens (`null` for the
 * fixed-context baseline). {@link Model.translate}'s `onStep` gets them as
 * greedy decoding writes them; {@link Translator.steps} yields them.
 */
export interface DecodingStep {
  index: number;
  token: string;
  logProb: number | null;
  attention: Float32Array | null;
}

/** A text translated sentence by sentence ({@link Model.translateText}). */
export interface TextTranslation {
  /** The sentences' translations joined (a space between them; none for Chinese). */
  text: string;
  /** Each sentence: its text, its UTF-16 offsets `[start, end)` in the input, and its translation. */
  sentences: { source: string; start: number; end: number; translation: Translation }[];
}

/** Options of {@link createTranslator}: those of {@link loadModel}, and where the model runs. */
export interface TranslatorOptions extends Omit<LoadOptions, 'wasm'> {
  /**
   * `'auto'` (the default): a module Web Worker in a browser (the package's
   * one-file `model-worker.bundle.js`), a `worker_threads` thread
   * in Node (which keeps the process alive only while a request waits),
   * falling back to the calling thread, with a console warning, when no
   * worker can start (see {@link Translator.backend});
   * `true`: a worker or an error; `false`: the calling thread; or a `Worker`
   * you started from the package's `model-worker.js` (or its one-file bundle
   * `dist/model-worker.bundle.js`), say early in a page: the translator owns
   * it from then on and ends it on dispose.
   */
  worker?: boolean | 'auto' | WorkerLike;
  /**
   * Where s2s-core.wasm comes from, as {@link LoadOptions.wasm}, or a Promise
   * of it: in a worker the runtime starts as soon as it settles, while the
   * model may still be downloading.
   */
  wasm?: LoadOptions['wasm'] | Promise<LoadOptions['wasm']>;
  /** Where `model-worker.js` is served, when a bundler or a server moved it. */
  workerUrl?: string | URL;
}

/**
 * The asynchronous API: a model that translates off the caller's thread (in
 * a browser, a module Web Worker), so a page never blocks while it decodes.
 * @example
 * const translator = await createTranslator('en-fr', { onProgress: ({ loaded, total }) => show(loaded, total) });
 * const r = await translator.translate('I love deep learning.', { beamSize: 4 });
 * const [a, b] = await translator.translate(['One sentence.', 'Another.']);
 * await translator.dispose();
 */
export declare function createTranslator(
  source: ModelSource | Promise<ModelSource>,
  options?: TranslatorOptions,
): Promise<Translator>;

/** What {@link createTranslator} returns. */
export interface Translator {
  /** The model's description, as {@link Model.info}. */
  readonly info: ModelInfo;
  /** Where the model runs: `'worker'` or `'main-thread'`. */
  readonly backend: 'worker' | 'main-thread';
  /** True after {@link Translator.dispose}. */
  readonly disposed: boolean;
  /**
   * Translates one text, or a batch (one {@link Translation} each, in order).
   * Options: those of {@link Model.translate}, and `signal`: an abort rejects
   * the promise with the signal's reason, and the sentences not yet started
   * are skipped.
   */
  translate(text: string, options?: TranslateOptions & { signal?: AbortSignal }): Promise<Translation>;
  translate(texts: string[], options?: TranslateOptions & { signal?: AbortSignal }): Promise<Translation[]>;
  /**
   * Decoding step by step: yields each {@link DecodingStep} as the decoder
   * writes it (greedy; from the worker, while the next step is computed).
   * With `beamSize` > 1 the best hypothesis's steps come when the search
   * ends. The whole translation is the iterator's `translation`.
   */
  steps(text: string, options?: TranslateOptions & { signal?: AbortSignal }):
    AsyncIterableIterator<DecodingStep> & { translation: Promise<Translation> };
  /** {@link Model.translateText}, off the caller's thread. */
  translateText(text: string, options?: TranslateOptions & { signal?: AbortSignal }): Promise<TextTranslation>;
  /** Frees the model and ends its worker. Calling it again does nothing. */
  dispose(): Promise<void>;
  /**
   * `await using translator = await createTranslator(...)` disposes it at
   * the end of the block; `using` too (without waiting). The runtime
   * defines Symbol.asyncDispose in Node 20 and later and in current
   * browsers; the `using` syntax itself runs natively from Node 24 and
   * Chromium 134, and anywhere once TypeScript or Babel has compiled it.
   */
  [Symbol.asyncDispose](): Promise<void>;
  [Symbol.dispose](): void;
}

/** The range and default of one option of {@link Model.translate}. */
export interface OptionRange {
  min: number;
  max: number;
  /**
   * The value used when the option is left out; `null` for maxLength (chosen per input:
   * `defaultMaxLength.perSourceToken` × source tokens + `defaultMaxLength.extra`, `seq2seq-attention/data`).
   */
  default: number | null;
  /** True when only whole numbers are allowed. */
  integer: boolean;
}

/**
 * The ranges and defaults of {@link TranslateOptions} (frozen), as the C++
 * decoder defines and checks them, e.g. to build controls:
 * `optionRanges.lengthPenalty` is `{ min, max, default, integer }`.
 */
export declare const optionRanges: Readonly<{
  beamSize: OptionRange;
  maxLength: OptionRange;
  alternatives: OptionRange;
  lengthPenalty: OptionRange;
  coveragePenalty: OptionRange;
  temperature: OptionRange;
}>;

/**
 * A target word whose probability is under this is listed in a hypothesis's
 * `unsureWords` (the model was unsure of it); the threshold is the C++
 * core's, chosen on the development splits (models/README.md, "The model's doubt").
 */
export declare const unsureWordProbability: number;

/** Options of {@link Model.translate}. Every field is optional. */
export interface TranslateOptions {
  /** Beam width, from 1 (greedy) to `optionRanges.beamSize.max`; default `optionRanges.beamSize.default` (4). */
  beamSize?: number;
  /**
   * Most output tokens, `<eos>` included, up to `optionRanges.maxLength.max`. Default:
   * `defaultMaxLength.perSourceToken` × source tokens + `defaultMaxLength.extra` (`seq2seq-attention/data`).
   */
  maxLength?: number;
  /**
   * Also return the k most likely tokens at each output position, 0 (default)
   * to `optionRanges.alternatives.max`: only tokens the model may write there
   * (never `<pad>` or `<bos>`, nor a piece outside its shortlist), so fewer
   * than k when fewer are possible.
   */
  alternatives?: number;
  /**
   * Beam search only: the length normalization alpha of GNMT (Wu et al. 2016,
   * eq. 14), range and default in `optionRanges.lengthPenalty`. Hypotheses are ranked by
   * `log P(Y|X) / ((5 + |Y|) / 6)^alpha + cp`; 0 ranks by raw log probability,
   * which favours short outputs. Greedy decoding ignores it.
   */
  lengthPenalty?: number;
  /**
   * Beam search only: the coverage penalty beta of GNMT (`optionRanges.coveragePenalty`):
   * `cp = beta × Σ_i log(min(Σ_t a_ti, 1))` penalizes hypotheses that left
   * source tokens with little attention (a dropped clause). 0 turns it off.
   * Greedy decoding ignores it.
   */
  coveragePenalty?: number;
  /**
   * Target tokens to force at the start of the output, the rest is decoded
   * from there (the page's "what if": pick another word at position t and pass
   * the tokens up to and including it). Each must be in the model's target
   * vocabulary, e.g. a token from `alternatives` or `targetTokens`: for a
   * subword model these are pieces as the model writes them, marker included
   * (`'▁appr'`, `'ent'`).
   */
  prefix?: readonly string[];
  /**
   * The temperature tau of the attention softmax, `a_t = softmax(e_t / tau)`,
   * range and default (1, the trained model) in `optionRanges.temperature`
   * (0.05 to 20). Small values make the alignment nearly hard (one source
   * token per step), large ones nearly uniform (close to averaging all
   * encoder states, like the fixed-context model). Ignored by the
   * fixed-context model.
   */
  temperature?: number;
  /** Return the decoder trace of the best hypothesis ({@link Translation.trace}). Default false. */
  trace?: boolean;
  /** Return the beam search tree ({@link Translation.beamTree}); meaningful with `beamSize` > 1. Default false. */
  beamTree?: boolean;
  /**
   * Use the model's lexical shortlist ({@link ModelInfo.shortlist}), when it
   * has one: each output step scores only the sentence's candidate target
   * pieces (the frequent ones and those its source pieces trigger), every
   * other piece getting probability 0. Faster; `false` scores every piece of
   * the vocabulary, as a model without a shortlist does. Default true.
   */
  shortlist?: boolean;
  /**
   * Write the source's names and numbers as the source spells them: a name
   * the model wrote lowercased ("mary") is recased ("Mary"), and a name or
   * number it could not translate (the words that attend to it most written
   * unsure) is copied through in their place ({@link Hypothesis.copiedWords}).
   * The tokens, attention and probabilities stay the model's. The
   * fixed-context model has no attention to copy by: only the casing applies.
   * Default true.
   */
  keepNames?: boolean;
}

/**
 * What the decoder computed at one output step t of the chosen hypothesis,
 * captured where it was computed (float32, after int8 dequantization). Every
 * vector is a Float32Array holding exactly those floats; a translation's
 * vectors are views of one buffer (copied out of the WebAssembly heap in one
 * piece: no JSON text for thousands of numbers), so the result stays plain,
 * postable data; `Array.from(v)` makes an array. S: source tokens, D: the
 * decoder's state size, A: the additive attention size, C: the encoder
 * states' size (2 × the encoder's hidden size).
 */
export interface TraceStep {
  /** s_{t-1}, the decoder state before this step (D). */
  previousState: Float32Array;
  /**
   * What the keys are scored against: `W_q s_{t-1}` (A) for additive
   * attention, `s_{t-1}` itself (D) for dot, scaled-dot and general; `null`
   * for the fixed-context model.
   */
  query: Float32Array | null;
  /**
   * e_t, one score per source token (S), by the model's own formula:
   * additive `v · tanh(W_q s_{t-1} + W_k H_i)`, dot `s_{t-1} · H_i`,
   * scaled-dot `s_{t-1} · H_i / √C`, general `s_{t-1} · (W_k H_i)`. Before
   * the temperature: `weights = softmax(scores / temperature)`. `null` for the
   * fixed-context model.
   */
  scores: Float32Array | null;
  /** a_t (S), the attention weights; sum to 1. Equal to this step's row of `attention`. `null` for the fixed-context model. */
  weights: Float32Array | null;
  /** c_t = Σ_i a_ti H_i (C); for the fixed-context model the final encoder state, the same at every step. */
  context: Float32Array;
  /** The 5 most likely next tokens, most likely first (the model's probabilities, `<pad>` and `<bos>` ruled out). */
  top: { token: string; probability: number }[];
}

/** The decoder trace of a translation (`trace: true`): once per sentence, then one record per output token. */
export interface DecoderTrace {
  /** The model's scoring function. */
  scoring: 'additive' | 'dot' | 'scaled-dot' | 'general' | 'none';
  /** The temperature the weights were computed with. */
  temperature: number;
  /**
   * `keys[i]`: the key of source token i, `W_k H_i` (A for additive, D for
   * general), or `H_i` itself for dot and scaled-dot; `null` for the fixed-context model.
   */
  keys: Float32Array[] | null;
  /** `states[i]`: the encoder state H_i of source token i (C). */
  states: Float32Array[];
  /** One per target token of the best hypothesis (`targetTokens`), `<eos>` included. */
  steps: TraceStep[];
}

/** One candidate of one step of the beam search ({@link Translation.beamTree}). */
export interface BeamNode {
  /** The token this candidate adds. */
  token: string;
  /** Index of its parent among the previous step's nodes; -1 at the first step (the parent is `<bos>`). */
  parent: number;
  /** The cumulative log probability of the hypothesis ending with this token. */
  score: number;
  /** True when the candidate survived the step (as a live or a finished hypothesis). */
  kept: boolean;
  /**
   * Kept nodes of a model with attention: the attention row (S) with which
   * this token was chosen, a `Float32Array` view over the translation's one
   * buffer (see {@link translationBuffer}), as `Hypothesis.attention`'s rows.
   */
  attention?: Float32Array;
}

/**
 * A word of a tokenized text and the tokens it is made of: tokens
 * `[start, end)` of its side (`sourceTokens` or `targetTokens`). Subword
 * models read and write pieces (`▁deep ▁learn ing`, where `▁`, U+2581, marks
 * a piece that starts a word); their words are the words, punctuation marks
 * and French elided articles of the text, and special tokens (`<unk>`,
 * `<eos>`) are words of their own. For word-level models every token is its
 * own word. The words of a side cover its tokens in order, each exactly once.
 */
export interface WordSpan {
  /** The word as text (its pieces joined, without the marker). */
  text: string;
  /** Index of its first token. */
  start: number;
  /** One past its last token. */
  end: number;
}

/** One token the model considered at an output position. */
export interface TokenChoice {
  token: string;
  /** Natural log of its probability. */
  logProb: number;
  /** `Math.exp(logProb)`. */
  probability: number;
}

/** One hypothesis of the beam. */
export interface Hypothesis {
  /** The translation as text (detokenized, without `<eos>`). */
  text: string;
  /** The tokens as the model wrote them, with `"<eos>"` last when finished. */
  targetTokens: string[];
  /** The words of `targetTokens`, as spans of tokens. */
  targetWords: WordSpan[];
  /**
   * `attention[i][j]`: the weight target token i put on source token j. One row
   * per target token, one column per source token; each row sums to 1.
   * `[]` for the fixed-context baseline, which has no attention. Each row is
   * a `Float32Array` view over one buffer shared by the whole translation
   * (see {@link translationBuffer}): exactly the float32 weights the decoder
   * computed.
   */
  attention: Float32Array[];
  /**
   * The attention each source token received over the whole translation,
   * `coverage[j] = Σ_t attention[t][j]` (one per source token); `[]` for the
   * fixed-context baseline.
   */
  coverage: number[];
  /**
   * Indices of the source tokens (the final `<eos>` left out) the translation
   * may have dropped: coverage under `possiblyDroppedCoverage`
   * (`seq2seq-attention/data`; a tenth of one token's attention), unless the
   * target language leaves the word untranslated ("the" into Chinese), and
   * the tokens of a source number the translation does not write. `[]` for
   * the fixed-context baseline.
   */
  possiblyDropped: number[];
  /**
   * The model's doubt: each target token's probability as the search chose it
   * (one per token of `targetTokens`, `<eos>` included), from 0 to 1.
   */
  tokenProbabilities: number[];
  /** Each target word's probability: the product of its tokens' (one per word of `targetWords`). */
  wordProbabilities: number[];
  /**
   * Indices into `targetWords` of the words the model was unsure of: word
   * probability under `unsureWordProbability` (exported), words of a forced
   * `prefix` left out. The page marks them.
   */
  unsureWords: number[];
  /**
   * Indices into `targetWords` of the words copied from the source (a name or
   * number the model could not translate, {@link TranslateOptions.keepNames}):
   * each spans the pieces the model wrote in its place. Never in `unsureWords`.
   */
  copiedWords: number[];
  /**
   * The score beam search ranks by (GNMT): `logProb / ((5 + |Y|) / 6)^lengthPenalty`
   * plus the coverage penalty (see {@link TranslateOptions.coveragePenalty}),
   * with |Y| the number of target tokens; higher is better.
   */
  score: number;
  /** Sum of the tokens' log probabilities. */
  logProb: number;
  /** False when the hypothesis was cut at maxLength instead of ending with `<eos>`. */
  finished: boolean;
  /** Per output position, the top-k possible tokens (at most k); present when `alternatives` > 0. */
  alternatives?: TokenChoice[][];
}

/**
 * The result of {@link Model.translate}: the beam's hypotheses, best first,
 * and what belongs to the sentence. The best hypothesis's fields (`text`,
 * `attention`, ...) are read through accessors on the result, not stored
 * twice. Data only (no handle into the WebAssembly heap): safe to keep. To
 * post it from a worker, transfer {@link translationBuffer} and call
 * {@link reviveTranslation} on the other side. `JSON.stringify` writes what
 * the CLI's `--json` writes.
 */
export interface Translation extends Readonly<Pick<Hypothesis,
  'text' | 'targetTokens' | 'targetWords' | 'attention' | 'coverage' | 'possiblyDropped' | 'tokenProbabilities' |
  'wordProbabilities' | 'unsureWords' | 'copiedWords' | 'score' | 'finished' | 'alternatives'>> {
  /** Every hypothesis the beam kept, best first; `[]` for empty input. */
  hypotheses: Hypothesis[];
  /** `hypotheses[0]`, or an empty hypothesis (text `''`, finished) for empty input. */
  readonly best: Hypothesis;
  /**
   * The source as the model read it: lowercased tokens (words, or subword
   * pieces such as `"▁learn"`, `"ing"`), unknown ones as `"<unk>"`, `"<eos>"` last.
   */
  sourceTokens: string[];
  /** The words of `sourceTokens`, as spans of tokens (see {@link WordSpan}). */
  sourceWords: WordSpan[];
  /**
   * Where each source token is in the text translated: `[start, end)` in
   * UTF-16 code units (`text.slice(start, end)`, see {@link sourceText}),
   * `null` for `"<eos>"`. An `"<unk>"` piece points at the character the
   * model could not read.
   */
  sourceOffsets: (readonly [number, number] | null)[];
  /** True when the input was longer than `maxSourceTokens` − 1 tokens (`seq2seq-attention/data`; `<eos>` is the last) and was cut. */
  truncated: boolean;
  /** The decoder trace of the best hypothesis; present when `trace: true` and the input was not empty. */
  trace?: DecoderTrace;
  /**
   * The beam search tree, present when `beamTree: true`: one array per
   * output step of every candidate considered (kept and pruned), best first.
   */
  beamTree?: BeamNode[][];
  /** The translation as the CLI's `--json` writes it (the best hypothesis's fields on top, numbers as arrays). */
  toJSON(): object;
}

/**
 * The one `ArrayBuffer` that every attention row (a hypothesis's or a beam
 * node's) and trace vector of a translation views, or `null` when it has
 * none: what a worker lists in
 * `postMessage(result, [translationBuffer(result)])`, so the matrices move
 * instead of being copied.
 */
export declare function translationBuffer(translation: Translation): ArrayBuffer | null;

/**
 * What the reader typed for source token `k`: `text.slice(...translation.sourceOffsets[k])`,
 * or `null` for `"<eos>"`. `text` is the text translated (a sentence's `source` for
 * {@link Model.translateText}).
 */
export declare function sourceText(translation: Pick<Translation, 'sourceOffsets'>, text: string, k: number): string | null;

/** A {@link Translation} again from its structured clone (what `postMessage` delivers), without copying. */
export declare function reviveTranslation(clone: object): Translation;

/** BLEU on one bucket of development sentences by source length. */
export interface BleuBucket {
  /** `'1-4'`, `'5-7'`, `'8-11'` or `'12+'` source words. */
  bucket: string;
  /** Corpus BLEU-4, 0 to 100. */
  bleu: number;
  sentences: number;
}

/** What a model is. Frozen. */
export interface ModelInfo {
  /** The shipped name it was loaded by, else the name recorded when it was trained (or null). */
  name: string | null;
  /** Attention scoring: `'additive'` (Bahdanau), `'dot'`, `'scaled-dot'`, `'general'`, or `'none'` for the fixed-context baseline. */
  attention: string;
  /** False for the fixed-context baseline. */
  hasAttention: boolean;
  /** Architecture and sizes as recorded in the model file (snake_case keys). */
  config: {
    attention: string;
    embedding_size: number;
    encoder_hidden_size: number;
    decoder_hidden_size: number;
    attention_size: number;
    output_hidden_size: number;
    source_vocab_size: number;
    target_vocab_size: number;
    [key: string]: unknown;
  };
  sourceLanguage: string;
  /** `'fr'` or `'zh'`. */
  targetLanguage: string | null;
  /** How each side is cut into tokens: `'bpe'` (subword pieces), `'words'` or `'characters'`. */
  sourceTokenizer: 'bpe' | 'words' | 'characters';
  targetTokenizer: 'bpe' | 'words' | 'characters';
  sourceVocabularySize: number;
  targetVocabularySize: number;
  /** Development BLEU measured when the model was trained, overall and by source length; null if not recorded. */
  devBleu: { overall: number | null; sentences: number; byLength: BleuBucket[] } | null;
  /**
   * The beam search penalties {@link Model.translate} uses for this model
   * when `lengthPenalty` / `coveragePenalty` are not given: those its file
   * records (`recorded: true`, chosen on its development split; `seq2seq
   * convert --length-penalty A --coverage-penalty B` records them), else the
   * package's defaults (`limits().options`).
   */
  beamDefaults: { lengthPenalty: number; coveragePenalty: number; recorded: boolean };
  /**
   * The model's lexical shortlist (`seq2seq shortlist`), or null when it has
   * none: target ids below `always` are candidates in every sentence, and
   * each other target piece when one of its `perTarget` trigger source
   * pieces is in the sentence. `builtFrom`: the training data it was counted
   * on (snake_case keys, as recorded).
   */
  shortlist: { always: number; perTarget: number; builtFrom: Record<string, unknown> | null } | null;
  /**
   * Where the model came from, as recorded in the file: data, split,
   * training, dev_bleu (snake_case keys; docs/provenance.schema.json). A
   * file may lack any of them (a model trained in the browser records its
   * own fields instead), so every field is optional here.
   */
  provenance: Partial<ModelProvenance> & { [key: string]: unknown };
}

// BEGIN provenance types: generated from docs/provenance.schema.json by scripts/provenance-types.mjs; do not edit.
/** The provenance record of a model file (its header's "provenance"), as seq2seq train writes it (src/train/training_provenance.h) and seq2seq convert, shortlist and eval add to it. A field that is not required may be missing in files of earlier runs (its description says when). x-written-by names the command that writes a field. Checked by tests/js/provenance-schema.test.mjs. */
export interface ModelProvenance {
  /** the model's name (train --name, convert --name) */
  name: string;
  /** the run's start date, YYYY-MM-DD */
  created: string;
  /** A training data file (train --data): src/train/data_source.h */
  data: ProvenanceDataFile;
  /** absent in records before train --extra-data */
  extra_data?: ProvenanceExtraDataFile[];
  /** How the data was split into training and development sentences (by English sentence) */
  split: ProvenanceSplit;
  /** How the run trained (train's flags), its time and its development BLEU history */
  training: ProvenanceTraining;
  /** the whole development split scored at the end (absent in a checkpoint) */
  dev_bleu?: ProvenanceBleuReport;
  /** a checkpoint's Adam step */
  checkpoint_step?: number;
  /** a checkpoint's fingerprint of its Adam moments */
  checkpoint_moments?: string;
  conversions?: ProvenanceConversion[];
  /** convert --interpolate: the model averaged in, weight by weight */
  interpolation?: ProvenanceInterpolation;
  /** by the KEY of eval --record KEY */
  evaluations?: { [key: string]: ProvenanceEvaluation };
}
/** convert --interpolate: the model averaged in, weight by weight */
export interface ProvenanceInterpolation {
  /** the model file's name */
  file: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  fnv1a64: string;
  /** the name its own provenance records; "" if none */
  name: string;
  /** the other model's share */
  weight: number;
  extra_data?: ProvenanceExtraDataFile[];
}
/** A training data file (train --data): src/train/data_source.h */
export interface ProvenanceDataFile {
  /** the file's name */
  file: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  fnv1a64: string;
  /** sentence pairs read from it */
  pairs: number;
  /** who made the data and where it is from ("unknown" when nothing says) */
  source: string;
  /** absent when not stated */
  license?: string;
  /** absent when not stated */
  attribution?: string;
}
/** A training-only data file (train --extra-data): a data file's record and what the run used of it */
export interface ProvenanceExtraDataFile extends ProvenanceDataFile {
  /** pairs of it trained on, before repeats */
  pairs_used: number;
  /** times each pair was repeated */
  repeat: number;
}
/** The model every weight started from (train --init-model); stored_dtype and target_tokens_added since later runs */
export interface ProvenanceInitModel {
  /** the model file's name */
  file: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  fnv1a64: string;
  /** the name its own provenance records; "" if none */
  name: string;
  /** its training steps; null if not recorded */
  steps: number | null;
  stored_dtype?: "f32" | "f16" | "i8";
  /** target tokens this run added at random */
  target_tokens_added?: number;
}
/** The model the encoder started from (train --init-encoder) */
export interface ProvenanceInitEncoder {
  /** the model file's name */
  file: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  fnv1a64: string;
  /** the name its own provenance records; "" if none */
  name: string;
  source_embeddings_copied: number;
}
/** The model distilled from (train --teacher) */
export interface ProvenanceTeacher {
  /** the model file's name */
  file: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  fnv1a64: string;
  /** the name its own provenance records; "" if none */
  name: string;
  /** the teacher's share of each target distribution */
  weight: number;
  method: string;
}
/** BLEU and chrF2 of a set of sentences (src/eval/bleu_report.h); chrf2, counts, totals and the signatures are absent in reports of earlier runs */
export interface ProvenanceScore {
  bleu: number;
  chrf2?: number;
  brevity_penalty: number;
  precisions: number[];
  counts?: number[];
  totals?: number[];
  hypothesis_length: number;
  reference_length: number;
  sentences: number;
  /** sacreBLEU's signature of the BLEU figure */
  signature?: string;
  chrf2_signature?: string;
  metric?: string;
}
/** The score of the sentences of one source length bucket (eval --record keeps only bucket, min_words, max_words, sentences, bleu and chrf2; earlier records kept more) */
export interface ProvenanceLengthBucketScore {
  bleu: number;
  chrf2?: number;
  brevity_penalty?: number;
  precisions?: number[];
  counts?: number[];
  totals?: number[];
  hypothesis_length?: number;
  reference_length?: number;
  sentences: number;
  /** sacreBLEU's signature of the BLEU figure */
  signature?: string;
  chrf2_signature?: string;
  metric?: string;
  /** e.g. "1-5" */
  bucket: string;
  min_words: number;
  max_words: number;
}
/** A development score: overall and by source length */
export interface ProvenanceBleuReport {
  /** BLEU and chrF2 of a set of sentences (src/eval/bleu_report.h); chrf2, counts, totals and the signatures are absent in reports of earlier runs */
  overall: ProvenanceScore;
  by_length: ProvenanceLengthBucketScore[];
}
/** A measurement recorded by seq2seq eval --record KEY */
export interface ProvenanceEvaluation {
  /** BLEU and chrF2 of a set of sentences (src/eval/bleu_report.h); chrf2, counts, totals and the signatures are absent in reports of earlier runs */
  overall: ProvenanceScore;
  by_length: ProvenanceLengthBucketScore[];
  data: { file: string; fnv1a64: string; sentences: number };
  beam?: number;
  /** with beam > 1 */
  length_penalty?: number;
  /** with beam > 1 */
  coverage_penalty?: number;
  /** only for a model with a lexical shortlist: whether it was used */
  shortlist?: boolean;
  keep_names?: boolean;
  /** the fingerprint of the model measured */
  model_fingerprint?: string;
  /** eval --memory: no model decoded */
  system?: "translation memory";
  terms?: ProvenanceTermAccuracy;
}
export interface ProvenanceTermAccuracy {
  accuracy: number;
  expected: number;
  found: number;
  /** the glossary file's name */
  glossary: string;
  most_missed: ((string | number)[])[];
}
/** A rewrite of the file: seq2seq convert (from, to and what it changed) or seq2seq shortlist (target_shortlist, built_from) */
export interface ProvenanceConversion {
  from?: "f32" | "f16" | "i8";
  to?: "f32" | "f16" | "i8";
  from_int8_levels?: number;
  to_int8_levels?: number;
  /** convert --name: the name it replaced */
  renamed_from?: string | null;
  /** convert --init-name: the training.init_model name it replaced */
  init_renamed_from?: string | null;
  /** convert --data-dir: the data files whose source was filled in */
  data_sources_filled?: string[];
  target_shortlist?: { always: number; per_target: number };
  built_from?: ProvenanceShortlistSource;
}
export interface ProvenanceShortlistSource {
  data: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  data_fnv1a64: string;
  pairs: number;
  split: string;
  score: string;
  min_count: number;
  max_source_share: number;
}
export interface ProvenanceDevBleuPoint {
  step: number;
  bleu: number;
}
/** How the run trained (train's flags), its time and its development BLEU history */
export interface ProvenanceTraining {
  /** optimizer steps done */
  steps: number;
  /** train --init-encoder, else null */
  init_encoder: ProvenanceInitEncoder | null;
  /** train --init-model, else null; absent in records before it existed */
  init_model?: ProvenanceInitModel | null;
  /** train --average-last: the checkpoints whose mean weights the file holds; null until the run finished */
  averaged_checkpoints?: ProvenanceAveragedCheckpoints | null;
  /** train --teacher, else null */
  teacher?: ProvenanceTeacher | null;
  /** false in a checkpoint of an unfinished run */
  finished: boolean;
  batch_size: number;
  learning_rate: number;
  warmup_steps: number;
  dropout: number;
  label_smoothing: number;
  /** BPE-dropout: each merge skipped with this probability */
  piece_dropout?: number;
  clip_norm: number;
  threads: number;
  seed: number;
  min_frequency: number;
  max_source_vocab: number;
  max_target_vocab: number;
  /** BPE pieces of the English side (0 = words or characters) */
  source_pieces?: number;
  target_pieces?: number;
  max_source_words: number;
  /** of the whole run, resumed parts included */
  wall_seconds: number;
  tokens_per_second: number;
  dev_bleu_history: ProvenanceDevBleuPoint[];
}
export interface ProvenanceAveragedCheckpoints {
  count: number;
  steps: number[];
}
/** How the data was split into training and development sentences (by English sentence) */
export interface ProvenanceSplit {
  method: string;
  dev_fraction: number;
  seed: number;
  train_pairs: number;
  /** train --exclude-sources, else null */
  excluded_sources: ProvenanceExcludedSources | null;
  dev_sentences: number;
}
export interface ProvenanceExcludedSources {
  file: string;
  /** FNV-1a 64 hash of the file's bytes, 16 hex digits */
  fnv1a64: string;
  pairs_dropped: number;
}
// END provenance types

/** A loaded model. Free it with {@link Model.dispose} when done. */
export interface Model {
  /** What the model is: name, architecture, development BLEU, provenance. */
  readonly info: ModelInfo;
  /** True after {@link Model.dispose}. */
  readonly disposed: boolean;
  /**
   * Translates `text` (one input; any string: empty gives an empty
   * translation, inputs over `maxSourceTokens` − 1 tokens are cut and flagged
   * `truncated`; `maxSourceTokens` is exported by `seq2seq-attention/data`).
   * @throws {Error} for a non-string text, bad options or a disposed model;
   *   the model stays usable afterwards.
   * @example
   * const r = model.translate('I love deep learning.', { beamSize: 4 });
   * r.attention[0]; // how the first target word spread its attention over the source
   */
  translate(text: string, options?: TranslateOptions, onStep?: (step: DecodingStep) => void): Translation;
  /**
   * Translates a text of several sentences one sentence at a time (the
   * models were trained on single sentences); see {@link TextTranslation}.
   */
  translateText(text: string, options?: TranslateOptions): TextTranslation;
  /**
   * Frees the model's memory now. Calling it twice is harmless; any other call
   * afterwards throws. A model that is never disposed is freed when it is
   * garbage-collected, but that may be late.
   */
  dispose(): void;
  /** `using model = await loadModel(...)` disposes it at the end of the block (see {@link Translator}'s disposers for where `using` runs). */
  [Symbol.dispose](): void;
}

/** Options of {@link heatmapSvg}: text shown as given (the caller's language). */
export interface HeatmapSvgOptions {
  /** A line above the figure, such as the sentence and its translation. */
  title?: string;
  /** The columns' (source units') title. */
  cols?: string;
  /** The rows' (target units') title. */
  rows?: string;
  /** The colour bar's caption (default 'attention weight'). */
  legend?: string;
  /** A line under the figure, such as the model and its data's credit. */
  footer?: string;
  /** The document's language ('en' by default). */
  lang?: string;
}

/**
 * The attention heatmap as a standalone SVG document (a string; no DOM, so
 * Node as well as a page): one column per source unit, one row per target
 * unit, each cell coloured by its weight, labels, a colour bar, and the
 * options' text. `attention` rows may be arrays or Float32Arrays.
 */
export declare function heatmapSvg(
  data: { sourceTokens: readonly string[]; targetTokens: readonly string[]; attention: ArrayLike<ArrayLike<number>> },
  options?: HeatmapSvgOptions): string;

/**
 * {@link heatmapSvg}'s options for a translation by a model: the sentence and
 * its translation as the title, the axes with their languages, the model and
 * its data's credit as the footer, in English or Chinese.
 */
export declare function figureLabels(what: { info?: ModelInfo; source?: string; translation?: string; lang?: 'en' | 'zh-CN' }): HeatmapSvgOptions;

/** Who a model's training data is from, with the licences, read from its provenance. */
export declare function dataCredit(provenance: Record<string, unknown> | null | undefined): string;

/** The attention of a translation word by word (see {@link wordAttention}). */
export interface WordAttention {
  /** The columns: the source words (copies of the input's `sourceWords`). */
  sourceWords: WordSpan[];
  /** The rows: the target words. */
  targetWords: WordSpan[];
  /**
   * `attention[i][j]`: target word i's weight on source word j. A word's
   * column is the SUM of its pieces' columns; a word's row is the MEAN of its
   * pieces' rows (one decoding step each). So every row still sums to 1.
   * `[]` for the fixed-context baseline.
   */
  attention: number[][];
}

/**
 * Regroups a translation's attention (between tokens, which are subword
 * pieces for subword models) by words: source columns summed, target rows
 * averaged, every row still summing to 1. For a word-level model it returns
 * the same matrix. Pure: it needs no model and no WebAssembly.
 * For another beam hypothesis, pass it with the translation's source words:
 * `wordAttention({ ...r.hypotheses[k], sourceWords: r.sourceWords })`.
 * @throws {Error} when the words do not cover the matrix's rows and columns
 *   in order (the message names the field).
 * @example
 * const r = model.translate('I love deep learning.');
 * const w = wordAttention(r);
 * w.sourceWords.map((word) => word.text); // ['i', 'love', 'deep', 'learning', '.', '<eos>']
 * w.attention[0];                          // the first target word's attention over those words
 */
export declare function wordAttention(
  result: Pick<Translation, 'sourceWords' | 'targetWords'> & { attention: ArrayLike<number>[] },
): WordAttention;

/** What went wrong, as every error of the package names it (`error.kind`). */
export type ErrorKind = 'usage' | 'model-file' | 'input' | 'load' | 'environment' | 'worker' | 'memory' | 'internal';

/**
 * Every error the package raises is a `Seq2SeqError` of the class its `kind`
 * names, with a message naming the problem and the fix (a wrong type of
 * argument to the runtime's loaders is a `TypeError` with `kind: 'usage'`;
 * an abort is the platform's `AbortError`, a `DOMException`). Errors from a
 * worker are raised again as the same class.
 */
export declare class Seq2SeqError extends Error {
  readonly kind: ErrorKind;
}
/** A bad argument or option, or a call on a disposed model, translator or trainer (`kind: 'usage'`). */
export declare class UsageError extends Seq2SeqError { readonly kind: 'usage'; }
/** The bytes are not a usable model file: truncated, damaged, another format (`kind: 'model-file'`). */
export declare class ModelFileError extends Seq2SeqError { readonly kind: 'model-file'; }
/** The text or the forced prefix cannot be translated (`kind: 'input'`). */
export declare class InputError extends Seq2SeqError { readonly kind: 'input'; }
/** A model, the runtime or the trainer could not be read: HTTP status, network, missing file (`kind: 'load'`). */
export declare class LoadError extends Seq2SeqError { readonly kind: 'load'; }
/** The runtime lacks what the call needs, such as Web Workers (`kind: 'environment'`). */
export declare class EnvironmentError extends Seq2SeqError { readonly kind: 'environment'; }
/** The translation worker could not start, crashed or sent an unreadable message (`kind: 'worker'`). */
export declare class WorkerError extends Seq2SeqError { readonly kind: 'worker'; }
/** The WebAssembly heap could not grow (`kind: 'memory'`). */
export declare class ResourceError extends Seq2SeqError { readonly kind: 'memory'; }
/** A bug in this package: please report it (`kind: 'internal'`). */
export declare class InternalError extends Seq2SeqError { readonly kind: 'internal'; }

// ---------------------------------------------------------------------------
// Training in the browser (or Node): the project's C++ trainer, compiled to
// a second WebAssembly module that is fetched only when something trains.

/**
 * Options of {@link createTrainer} and {@link train}. Every field is optional.
 * The numbers below are the C++ trainer's (`trainerOptionRanges` of
 * 'seq2seq-attention/trainer' has them as data; tests/js/trainer-options.test.mjs
 * checks this prose against it).
 */
export interface TrainerOptions {
  /**
   * The task: `'reversal'` (default: symbols a, b, c, ... separated by spaces,
   * target = the sequence reversed), `'dates'` ("december 2nd, 2026" →
   * "2026-12-02", by character) or `'pairs'` (your own `pairs`).
   */
  task?: 'reversal' | 'dates' | 'pairs';
  /** Task `'pairs'`: lines of `source<TAB>target`; every 10th pair is held out. */
  pairs?: string;
  /** Task `'pairs'`: tokenize by character instead of by word (default false). */
  characters?: boolean;
  /** Task `'reversal'`: number of symbols, 2 to 26 (default 8). */
  symbols?: number;
  /** Task `'reversal'`: the shortest sequence, 1 to 60 (default 3). */
  minLength?: number;
  /** Task `'reversal'`: the longest sequence, 1 to 60 and at least `minLength` (default 12). */
  maxLength?: number;
  /** Generated tasks: training examples, 1 to 100,000 (default 4000). */
  trainSize?: number;
  /** Generated tasks: held-out examples, 1 to 5000 (default 200). */
  testSize?: number;
  /** `'additive'` (Bahdanau, the default) or `'none'`: the fixed-context baseline. Also `'dot'`, `'scaled-dot'`, `'general'`. */
  attention?: string;
  /** Embedding size, 1 to 512 (default 16). */
  embedding?: number;
  /** Encoder GRU size per direction, 1 to 512 (default 32; 48 for task `'dates'`). */
  hidden?: number;
  /** Decoder GRU size, 1 to 1024 (default 64; for `'dot'` and `'scaled-dot'` scoring 2 × `hidden`, the encoder states' width). */
  decoderHidden?: number;
  /** Attention size, 1 to 512 (default 32). */
  attentionSize?: number;
  /** Deep output layer size, 1 to 1024 (default 32). */
  outputHidden?: number;
  /** Sentences per batch, 1 to 1024 (default 32). */
  batchSize?: number;
  /** Peak Adam learning rate, 0.000001 to 1 (default 0.005). */
  learningRate?: number;
  /** Warm-up steps, 1 to 100,000 (default 20). */
  warmupSteps?: number;
  /** Length of the learning-rate schedule (warm-up, then cosine decay), and what {@link train} runs, 1 to 10,000,000 (default 2000). */
  steps?: number;
  /** Dropout, 0 to 0.9 (default 0). */
  dropout?: number;
  /** Seed of the data, the initial weights and the batch order, 0 to 2147483647 (default 1): runs are repeatable. */
  seed?: number;
}

/** What {@link Trainer.step} reports. */
export interface StepReport {
  /** Steps done so far. */
  steps: number;
  epoch: number;
  /** Mean cross-entropy per target token over the steps just taken. */
  loss: number;
  targetTokens: number;
  sourceTokens: number;
  learningRate: number;
  gradientNorm: number;
}

/** Greedy exact match on held-out examples (see {@link Trainer.evaluate}). */
export interface Evaluation {
  steps: number;
  /** Share of held-out examples whose whole output is right, 0 to 1. */
  exactMatch: number;
  correct: number;
  total: number;
  /** Share of target positions that are right. */
  tokenAccuracy: number;
  /** By source length (tokens, without `<eos>`), ascending. */
  byLength: { length: number; correct: number; total: number }[];
}

/** A training run. Free it with {@link Trainer.dispose} when done. */
export interface Trainer {
  /** Options with defaults filled in, architecture, vocabularies, data sizes, parameter count. */
  readonly info: {
    options: Required<Omit<TrainerOptions, 'pairs' | 'characters'>>;
    config: Record<string, unknown>;
    sourceVocabulary: string[];
    targetVocabulary: string[];
    trainExamples: number;
    testExamples: number;
    parameters: number;
    steps: number;
  };
  readonly disposed: boolean;
  /** Trains `count` batches (1 to 10000; default 1). Synchronous: run it in a worker, in small counts. */
  step(count?: number): StepReport;
  /** Greedy exact match on the first `limit` held-out examples (0 = all, the default). */
  evaluate(options?: { limit?: number }): Evaluation;
  /** As {@link Model.translate}, with the model as trained so far. */
  translate(text: string, options?: TranslateOptions): Translation;
  /** The first `count` held-out examples as text (default 10). */
  probes(count?: number): { source: string; target: string; length: number }[];
  /** The model as a `.s2s` file: `loadModel(trainer.toBytes())` translates with it. */
  toBytes(): Uint8Array;
  dispose(): void;
  /** `using trainer = await createTrainer(...)` disposes it at the end of the block. */
  [Symbol.dispose](): void;
}

/** Progress of {@link train}, after every chunk of steps. */
export interface TrainProgress {
  steps: number;
  totalSteps: number;
  /** Mean loss per target token over the last chunk. */
  loss: number;
  learningRate: number;
  stepsPerSecond: number;
  seconds: number;
  /** Every `evaluateEvery` steps, else null. */
  evaluation: Evaluation | null;
}

/**
 * Starts a training run that you drive with {@link Trainer.step}.
 * @throws {Error} on bad options (the message names the option and its range) or bad pairs (naming the line).
 */
export declare function createTrainer(options?: TrainerOptions): Promise<Trainer>;

/**
 * Trains a small model, yielding to the event loop between chunks of steps.
 * @example
 * const { trainer, evaluation } = await train({
 *   task: 'reversal', stopAtExactMatch: 0.95,
 *   onProgress: (p) => console.log(p.steps, p.loss.toFixed(3), p.evaluation?.exactMatch),
 * });
 * trainer.translate('a b c d').attention; // the mirrored diagonal
 * trainer.dispose();
 */
export declare function train(options?: TrainerOptions & {
  /** Evaluate every this many steps (default 100). */
  evaluateEvery?: number;
  /** Held-out examples per evaluation (0 = all, the default). */
  evaluateLimit?: number;
  /** Stop once held-out exact match reaches this (0 to 1; default: run all steps). */
  stopAtExactMatch?: number | null;
  /** Steps between yields to the event loop (default 10). */
  chunkSize?: number;
  onProgress?: ((progress: TrainProgress) => void) | null;
  /** Stops training after the current chunk; the result's reason is then 'aborted'. */
  signal?: AbortSignal | null;
}): Promise<{ trainer: Trainer; evaluation: Evaluation; reason: 'steps' | 'target' | 'aborted'; seconds: number }>;

/** Where a {@link TrainerWorker}'s loop is: running or not, at the end of its schedule or not, and its step. */
export interface TrainerWorkerState {
  running: boolean;
  /** True once the run has trained all of its schedule's `steps`. */
  finished: boolean;
  steps: number;
}

/** Progress of a {@link TrainerWorker}, after every chunk of steps. */
export interface TrainerWorkerProgress {
  steps: number;
  totalSteps: number;
  /** Mean loss per target token over the last chunk. */
  loss: number;
  learningRate: number;
  /** Over about the last half second (0 until then). */
  stepsPerSecond: number;
}

/** The periodic probe: the probe text translated at `steps`, or the error that translating it raised. */
export type TrainerWorkerProbe =
  | { steps: number; text: string; result: Translation; error?: undefined }
  | { steps: number; text: string; result?: undefined; error: Seq2SeqError };

/** How {@link createTrainerWorker} runs the loop and what it reports. */
export interface TrainerWorkerOptions {
  /**
   * `'auto'` (the default): a module Web Worker in a browser (the package's
   * one-file `training-worker.bundle.js`), a `worker_threads` thread in Node,
   * falling back to the calling thread, with a console warning, when no
   * worker can start (see {@link TrainerWorker.backend}); `true`: a worker or
   * an error; `false`: the calling thread, yielding between chunks; or a
   * `Worker` you started from `training-worker.js` or
   * `dist/training-worker.bundle.js` (the trainer owns it from then on).
   */
  worker?: boolean | 'auto' | WorkerLike;
  /** Where `training-worker.bundle.js` is served, when a bundler or a server moved it. */
  workerUrl?: string | URL;
  /** Where s2s-train.wasm comes from, as {@link LoadOptions.wasm}, or a Promise of it (by default, beside this module). */
  wasm?: LoadOptions['wasm'] | Promise<LoadOptions['wasm']>;
  /** A text translated right after creation, every `probeEvery` steps and on {@link TrainerWorker.setProbe}, for `onProbe` (default '': none). */
  probe?: string;
  /** Whether the probe's result carries the decoder's trace (default false). */
  trace?: boolean;
  /** Steps between probes (default 10). */
  probeEvery?: number;
  /** Steps between held-out evaluations (default 100), also made right after creation and at the end of the schedule. */
  evaluateEvery?: number;
  /** Steps per chunk: requests are answered between chunks (default 5). */
  chunkSize?: number;
  onProgress?: (progress: TrainerWorkerProgress) => void;
  onProbe?: (probe: TrainerWorkerProbe) => void;
  onEvaluation?: (evaluation: Evaluation) => void;
  /** The loop started or stopped; called before the promise of the run or pause that stopped it settles. */
  onStateChange?: (state: TrainerWorkerState) => void;
}

/**
 * A training run off the caller's thread (see {@link createTrainerWorker}):
 * run, pause and continue it, and ask it things between its steps.
 */
export interface TrainerWorker {
  /** As {@link Trainer.info}. */
  readonly info: Trainer['info'];
  /** Where the loop runs: `'worker'` or `'main-thread'`. */
  readonly backend: 'worker' | 'main-thread';
  readonly disposed: boolean;
  /** The last state the loop reported. */
  readonly state: TrainerWorkerState;
  /**
   * Trains until step `until`, or the first of `pauseAt`'s steps past the
   * current one, or the end of the schedule, whichever comes first, exactly;
   * resolves to the state then (also when {@link TrainerWorker.pause} stopped
   * it). Called while running, it changes where the run stops. A step that
   * fails rejects it with the error, and the run stops.
   */
  run(options?: { until?: number; pauseAt?: number[] }): Promise<TrainerWorkerState>;
  /** Stops after the chunk of steps under way; resolves to the state then. `run()` continues. */
  pause(): Promise<TrainerWorkerState>;
  /** Changes the periodic probe's text or trace, and probes at once (`onProbe`). */
  setProbe(probe: { text?: string; trace?: boolean }): Promise<void>;
  /** As {@link Trainer.translate}, with the model as trained so far, answered between two chunks of steps. */
  translate(text: string, options?: TranslateOptions): Promise<Translation>;
  evaluate(options?: { limit?: number }): Promise<Evaluation>;
  probes(count?: number): Promise<{ source: string; target: string; length: number }[]>;
  toBytes(): Promise<Uint8Array>;
  /** Frees the run and ends the worker; pending promises reject with a UsageError. Calling it again does nothing. */
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
  [Symbol.dispose](): void;
}

/**
 * Starts a training run (the options of {@link createTrainer}) in a worker,
 * so that the caller's thread never blocks while it trains.
 * In a bundled app import it from 'seq2seq-attention/trainer-worker'.
 * @example
 * const trainer = await createTrainerWorker({ task: 'reversal' }, {
 *   probe: 'a b c d', onProgress: (p) => console.log(p.steps, p.loss), onProbe: ({ result }) => draw(result),
 * });
 * await trainer.run({ until: 300 });   // stops exactly at step 300
 * trainer.run();                       // continues to the end of the schedule
 * const r = await trainer.translate('a b c d e');
 * await trainer.dispose();
 * @throws {UsageError} on bad options (named), {@link WorkerError} when `worker: true` and no worker could start.
 */
export declare function createTrainerWorker(options?: TrainerOptions, how?: TrainerWorkerOptions): Promise<TrainerWorker>;
