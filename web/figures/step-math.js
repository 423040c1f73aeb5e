// Pure numbers behind the step-through panel (step-panel.js): the softmax
// with temperature, the context Σ_i a_ti H_i, cosine similarity, the
// temperature slider's log scale, the colour of one vector dimension, and
// log probabilities as text (−∞ for a piece outside the shortlist). No DOM:
// Node's tests import it (tests/js/step-math.test.mjs).

/** softmax(scores / tau), computed stably (the largest score subtracted first). */
export function softmax(scores, tau = 1) {
  const scaled = Array.from(scores, (e) => e / tau);
  const top = Math.max(...scaled);
  const exps = scaled.map((x) => Math.exp(x - top));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((x) => x / total);
}

/** Σ_i weights[i] × vectors[i] (vectors all of one length). */
export function weightedSum(weights, vectors) {
  const size = vectors[0]?.length ?? 0;
  const sum = new Array(size).fill(0);
  weights.forEach((a, i) => {
    const vector = vectors[i];
    for (let d = 0; d < size; d++) sum[d] += a * vector[d];
  });
  return sum;
}

/** The largest |a_d − b_d| (Infinity when the lengths differ). */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let d = 0; d < a.length; d++) worst = Math.max(worst, Math.abs(a[d] - b[d]));
  return worst;
}

/** cos(a, b); 1 for two zero vectors (they are the same), 0 when only one is. */
export function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += a[d] * b[d];
    na += a[d] * a[d];
    nb += b[d] * b[d];
  }
  if (na === 0 && nb === 0) return 1;
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

/** cos(c_1, c_t) for every step's context: 1.0 throughout for a fixed context. */
export function contextSimilarities(contexts) {
  return contexts.map((c) => cosine(contexts[0], c));
}

// The temperature slider: positions 0..SLIDER_STEPS on a log scale from
// TAU_MIN to TAU_MAX (the package's optionRanges.temperature), τ = 1 in between.
export const SLIDER_STEPS = 1000;

/** The slider position (0..SLIDER_STEPS) of temperature tau in [min, max]. */
export function tauToSlider(tau, min, max) {
  const clamped = Math.min(max, Math.max(min, tau));
  return Math.round((Math.log(clamped / min) / Math.log(max / min)) * SLIDER_STEPS);
}

/** The temperature at slider position p, rounded to 3 significant digits (1 exactly near its position). */
export function sliderToTau(position, min, max) {
  const tau = min * (max / min) ** (position / SLIDER_STEPS);
  if (Math.abs(Math.log(tau)) < Math.log(max / min) / SLIDER_STEPS) return 1;
  return Number(tau.toPrecision(3));
}

/** A temperature from text (the URL): a number in [min, max], else null (the default, 1). */
export function tauFromText(text, min, max) {
  if (text === null || text === undefined || String(text).trim() === '') return null;
  const tau = Number(text);
  return Number.isFinite(tau) && tau >= min && tau <= max ? tau : null;
}

/** The largest |value| of some vectors (at least a tiny number, so that dividing by it is safe). */
export function maxAbs(...vectors) {
  let top = 1e-12;
  for (const vector of vectors) for (const x of vector) top = Math.max(top, Math.abs(x));
  return top;
}

/**
 * The colour of one dimension's value on a diverging scale: blue for
 * negative, white at 0, orange for positive, full at ±scale.
 */
export function valueColor(value, scale) {
  const x = Math.max(-1, Math.min(1, value / scale));
  const [r, g, b] = x < 0 ? [37, 99, 235] : [234, 88, 12];
  const mix = (c) => Math.round(255 + (c - 255) * Math.abs(x));
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

// With the model's lexical shortlist, the decoder scores only this
// sentence's candidate pieces: every other piece has probability 0, log
// probability −∞. The core never offers an impossible piece (a piece
// outside the shortlist, <pad>, <bos>, <eos> as the first token: top_tokens
// in src/decode/search.cpp skips them, and tests/cpp/test_shortlist.cpp
// checks it), so the page needs no rule of its own for them; a −∞ that does
// arrive (-Infinity, or null once it went through JSON) shows as −∞, never
// as "-Infinity" or "NaN".
/**
 * A log probability or score as text, `digits` decimals: −∞ for a piece the
 * model cannot write (-Infinity, or null from JSON), '—' for anything else
 * that is not a number.
 */
export function formatLog(value, digits = 3) {
  if (value === null || value === -Infinity) return '−∞';
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/**
 * The choices the model could write, in their order: those with a log
 * probability above −∞ (when they carry one, as `alternatives` do) and a
 * probability above 0 (the trace's top tokens carry only that).
 */
export function possibleChoices(choices) {
  return (choices ?? []).filter(({ logProb, probability }) => (logProb === undefined || Number.isFinite(logProb)) &&
    Number.isFinite(probability) && probability > 0);
}
