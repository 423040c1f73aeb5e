// 'seq2seq-attention/data': plain data and pure functions, no WebAssembly
// (src/wasm/data.js). The same values as the main entry's, where it has them.
export {
  optionRanges, unsureWordProbability, shippedModels, reviveTranslation, sourceText, translationBuffer, wordAttention,
} from './index.js';
export type { OptionRange, TranslateOptions, Translation, WordAttention } from './index.js';

/**
 * Each switch of {@link TranslateOptions} (`true` or `false`) and its default,
 * from the C++ option table (src/decode/option_ranges.h).
 */
export declare const optionSwitches: Readonly<{ trace: boolean; beamTree: boolean; shortlist: boolean; keepNames: boolean }>;
/** The longest source the decoder reads, in tokens (pieces with <eos>); a longer one is an InputError. */
export declare const maxSourceTokens: number;
/** The default output bound: `perSourceToken` × the source's tokens + `extra`. */
export declare const defaultMaxLength: Readonly<{ perSourceToken: number; extra: number }>;
/** A source piece whose coverage (its attention summed over the output) is below this is "possibly dropped". */
export declare const possiblyDroppedCoverage: number;
/** Each shipped model's languages; a fixed-context baseline names the attention model it was trained beside. */
export declare const modelCatalog: Readonly<Record<string, Readonly<{
  sourceLanguage: string;
  targetLanguage: string;
  baselineOf?: string;
}>>>;
/** The model used when none is named (the bin's, the page's and the element's default). */
export declare const defaultModel: string;
/** True when `text` is a shipped model's kind of name (letters, digits, '-', '_'), not a path or URL. */
export declare function isModelName(text: unknown): boolean;
/** Where a shipped model's file lives, beside the package's dist/ folder. */
export declare function modelUrl(name: string): URL;
