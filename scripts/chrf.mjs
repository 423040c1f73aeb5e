// Sentence chrF2 as sacreBLEU computes it (src/eval/chrf.h is the corpus
// form): character n-grams of order 1..6 with whitespace removed,
// case-sensitive, precision and recall averaged over the orders both sides
// have ("effective order"), F-beta with beta = 2; with several references,
// the best one. 0..100.

function ngrams(text, n) {
  const chars = [...text];
  const counts = new Map();
  for (let i = 0; i + n <= chars.length; i++) {
    const g = chars.slice(i, i + n).join('');
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return counts;
}

function against(hypothesis, reference) {
  const hyp = hypothesis.replace(/\s+/gu, '');
  const ref = reference.replace(/\s+/gu, '');
  let precision = 0, recall = 0, orders = 0;
  for (let n = 1; n <= 6; n++) {
    const h = ngrams(hyp, n), r = ngrams(ref, n);
    if (h.size === 0 || r.size === 0) continue;
    let hypCount = 0, refCount = 0, match = 0;
    for (const c of h.values()) hypCount += c;
    for (const c of r.values()) refCount += c;
    for (const [g, c] of h) match += Math.min(c, r.get(g) ?? 0);
    precision += match / hypCount;
    recall += match / refCount;
    orders++;
  }
  if (orders === 0) return 0;
  precision /= orders;
  recall /= orders;
  return precision + recall === 0 ? 0 : (100 * 5 * precision * recall) / (4 * precision + recall);
}

/** chrF2 of `hypothesis` against the best of `references`. */
export function chrf2(hypothesis, references) {
  return Math.max(0, ...references.map((r) => against(hypothesis, r)));
}
