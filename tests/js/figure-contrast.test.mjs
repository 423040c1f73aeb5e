// The text drawn on a coloured cell (the coverage values, the token chips
// lit by a heatmap row: web/figures/heatmap.js's needsLightText) is
// readable at every weight of the attention colour scale: WCAG's contrast
// ratio at least 4.5:1 (axe-core's rule for normal text) for the colour the
// page picks. With a fixed switch at 0.45 and #111 the middle of the scale
// fell to about 3:1 (issue 46: axe flagged a coverage value of 0.48).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colorFor, DARK_TEXT, needsLightText } from '../../web/figures/heatmap.js';

// [r, g, b] of "#rgb", "#rrggbb" or "rgb(r, g, b)".
function channels(color) {
  if (!color.startsWith('#')) return color.match(/\d+/g).map(Number);
  const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c).join('') : color.slice(1);
  return [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));
}

function luminance(color) {
  const [r, g, b] = channels(color).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

test('every weight of the scale gets text of at least 4.5:1 contrast', () => {
  let worst = { ratio: Infinity, weight: null };
  for (let k = 0; k <= 1000; k += 1) {
    const weight = k / 1000;
    const text = needsLightText(weight) ? '#ffffff' : DARK_TEXT;
    const ratio = contrast(colorFor(weight), text);
    if (ratio < worst.ratio) worst = { ratio, weight };
  }
  assert.ok(worst.ratio >= 4.5, `weight ${worst.weight}: contrast ${worst.ratio.toFixed(2)}:1`);
});

test('the scale\'s ends: dark text on the lightest cells, white on the darkest', () => {
  assert.equal(needsLightText(0), false);
  assert.equal(needsLightText(1), true);
});
