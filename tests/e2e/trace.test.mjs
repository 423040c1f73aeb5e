// The decoder trace through the page's worker in Chromium: the page's own
// translator (web/figures/translator.js, the bundled worker behind it) passes
// trace, temperature and beamTree through to the API and returns the trace,
// whose numbers agree with its formulas in the browser too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const browser = useBrowser();

const SENTENCE = 'i think that he will come to the party tomorrow with his sister .';

test('the worker returns the trace, the beam tree and coverage; softmax(scores / tau) = weights, c_t = sum a_ti H_i', async () => {
  const page = await browser.newPage(`/web/?text=${encodeURIComponent('Go.')}`);
  await waitForTranslation(page, 'Go.');
  const checks = await page.evaluate(async (text) => {
    const { getTranslator } = await import('/web/figures/translator.js');
    const translator = getTranslator();
    const options = { trace: true, temperature: 0.5, beamSize: 3, beamTree: true };
    const { value: r } = await translator.translate('en-fr', text, options);
    const { value: plain } = await translator.translate('en-fr', text, { beamSize: 3 });
    const { value: one } = await translator.translate('en-fr', text, { beamSize: 3, temperature: 1 });
    let softmaxError = 0;
    let contextError = 0;
    let sumError = 0;
    for (const step of r.trace.steps) {
      const scaled = Array.from(step.scores, (e) => e / r.trace.temperature);
      const top = Math.max(...scaled);
      const total = scaled.reduce((a, e) => a + Math.exp(e - top), 0);
      scaled.forEach((e, i) => { softmaxError = Math.max(softmaxError, Math.abs(Math.exp(e - top) / total - step.weights[i])); });
      sumError = Math.max(sumError, Math.abs(step.weights.reduce((a, b) => a + b, 0) - 1));
      step.context.forEach((c, d) => {
        const sum = r.trace.states.reduce((acc, h, i) => acc + step.weights[i] * h[d], 0);
        contextError = Math.max(contextError, Math.abs(sum - c));
      });
    }
    return {
      scoring: r.trace.scoring,
      steps: r.trace.steps.length,
      targetTokens: r.targetTokens.length,
      weightsAreAttention: r.trace.steps.every((s, t) => s.weights instanceof Float32Array &&
        JSON.stringify(Array.from(s.weights)) === JSON.stringify(Array.from(r.attention[t]))),
      softmaxError, sumError, contextError,
      treeSteps: r.beamTree.length,
      treeHasPruned: r.beamTree.some((nodes) => nodes.some((n) => !n.kept)),
      coverage: r.coverage.length,
      sourceTokens: r.sourceTokens.length,
      tauOneSame: one.text === plain.text && JSON.stringify(one.attention) === JSON.stringify(plain.attention),
      plainHasTrace: 'trace' in plain,
    };
  }, SENTENCE);
  assert.equal(checks.scoring, 'additive');
  assert.equal(checks.steps, checks.targetTokens);
  assert.ok(checks.weightsAreAttention);
  assert.ok(checks.softmaxError < 1e-6, `softmax error ${checks.softmaxError}`);
  assert.ok(checks.sumError < 1e-5);
  assert.ok(checks.contextError < 1e-4, `context error ${checks.contextError}`);
  assert.ok(checks.treeSteps >= 1 && checks.treeHasPruned);
  assert.equal(checks.coverage, checks.sourceTokens);
  assert.ok(checks.tauOneSame);
  assert.equal(checks.plainHasTrace, false);
  assert.deepEqual(page.problems, []);
  await page.close();
});
