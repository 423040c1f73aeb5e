// 'seq2seq-attention/figure': the static attention figure (src/wasm/figure.js),
// a string of SVG with no DOM and no WebAssembly, and the measures, inks and
// colour bar the demo page's live heatmap shares with it.
export { dataCredit, figureLabels, heatmapSvg } from './index.js';
export type { HeatmapSvgOptions } from './index.js';

/** The colour of an attention weight in [0, 1], as a CSS `rgb()` string (light to dark indigo). */
export declare function attentionColor(weight: number): string;
/** A label's width in px at `size` (default {@link FONT_SIZE}), estimated without a font. */
export declare function textWidth(text: string, size?: number): number;
/** The colour bar under a heatmap as `[tag, attributes, text?]` shapes, 0, 0 at its top left, `title` after it. */
export declare function colourBarShapes(title: string): [string, Record<string, string | number>, string?][];
/** px per cell. */
export declare const CELL: number;
export declare const FONT_SIZE: number;
export declare const FONT_FAMILY: string;
export declare const TEXT_COLOR: string;
/** The ink of `<eos>` and other special tokens. */
export declare const SPECIAL_COLOR: string;
/** The colour bar's width in px; its caption starts 10 px after it. */
export declare const LEGEND_BAR: number;
export declare const LEGEND_CAPTION_SIZE: number;
