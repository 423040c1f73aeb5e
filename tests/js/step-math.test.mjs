// Unit tests of the step panel's pure numbers (web/figures/step-math.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  softmax, weightedSum, maxAbsDiff, cosine, contextSimilarities, tauToSlider, sliderToTau, tauFromText, valueColor,
  SLIDER_STEPS,
} from '../../web/figures/step-math.js';

test('softmax sums to 1, keeps order, and follows the temperature', () => {
  const scores = [2, 0.5, -1, 3];
  const weights = softmax(scores);
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.equal(weights.indexOf(Math.max(...weights)), 3);
  assert.ok(Math.max(...softmax(scores, 0.05)) > 0.999, 'a small temperature is nearly hard');
  for (const w of softmax(scores, 1000)) assert.ok(Math.abs(w - 0.25) < 0.01, 'a large one nearly uniform');
  // Huge scores do not overflow.
  assert.deepEqual(softmax([1000, 1000]), [0.5, 0.5]);
});

test('weightedSum is Σ a_i v_i', () => {
  assert.deepEqual(weightedSum([0.25, 0.75], [[4, 8], [0, -4]]), [1, -1]);
  assert.deepEqual(weightedSum([], []), []);
});

test('maxAbsDiff and cosine', () => {
  assert.equal(maxAbsDiff([1, 2], [1, 2.5]), 0.5);
  assert.equal(maxAbsDiff([1], [1, 2]), Infinity);
  assert.ok(Math.abs(cosine([1, 2], [2, 4]) - 1) < 1e-12);
  assert.ok(Math.abs(cosine([1, 0], [0, 1])) < 1e-12);
  assert.equal(cosine([0, 0], [0, 0]), 1);
  assert.equal(cosine([0, 0], [1, 0]), 0);
  assert.deepEqual(contextSimilarities([[1, 1], [1, 1], [2, 2]]).map((x) => Number(x.toFixed(12))), [1, 1, 1]);
  assert.ok(contextSimilarities([[1, 0], [0, 1]])[1] < 0.5);
});

test('the temperature slider is logarithmic, with τ = 1 exactly in reach', () => {
  const [min, max] = [0.05, 20];
  assert.equal(tauToSlider(min, min, max), 0);
  assert.equal(tauToSlider(max, min, max), SLIDER_STEPS);
  assert.equal(sliderToTau(tauToSlider(1, min, max), min, max), 1);
  assert.ok(Math.abs(sliderToTau(0, min, max) - min) < 1e-9);
  assert.ok(Math.abs(sliderToTau(SLIDER_STEPS, min, max) - max) < 1e-9);
  const middle = sliderToTau(SLIDER_STEPS / 2, min, max);
  assert.ok(Math.abs(middle - 1) < 0.01, `the middle of 0.05..20 on a log scale is 1, got ${middle}`);
  assert.ok(sliderToTau(100, min, max) < sliderToTau(200, min, max));
  assert.equal(tauToSlider(100, min, max), SLIDER_STEPS, 'out of range is clamped');
});

test('tauFromText accepts numbers in range only', () => {
  assert.equal(tauFromText('0.5', 0.05, 20), 0.5);
  assert.equal(tauFromText('30', 0.05, 20), null);
  assert.equal(tauFromText('abc', 0.05, 20), null);
  assert.equal(tauFromText('', 0.05, 20), null);
  assert.equal(tauFromText(null, 0.05, 20), null);
});

test('valueColor is white at 0 and saturated at the scale', () => {
  assert.equal(valueColor(0, 1), 'rgb(255,255,255)');
  assert.equal(valueColor(-5, 1), 'rgb(37,99,235)');
  assert.equal(valueColor(1, 1), 'rgb(234,88,12)');
});

