// The decoder trace, temperature, coverage and beam tree through the
// JavaScript API (dist/index.js), as index.d.ts states them: the trace's
// numbers agree with its own formulas (softmax of the scores = weights,
// c_t = sum_i a_ti H_i), temperature 1 is today's translation, the option
// checks, and the beam tree's shape. Properties only: a retrained model
// changes the words, not these.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpModels, distDir, distIndex, modelForTests, requireDist } from './helpers/models.mjs';

requireDist();
const { createTranslator, loadModel, optionRanges, translationBuffer } = await import(pathToFileURL(distIndex).href);

const SENTENCE = 'i think that he will come to the party tomorrow with his sister .';
let model;
let fixed;

before(async () => {
  model = await loadModel(modelForTests().path);
  fixed = await loadModel(modelForTests({ attention: false }).path);
});

after(() => {
  model?.dispose();
  fixed?.dispose();
  cleanUpModels();
});

function softmax(scores, temperature) {
  const top = Math.max(...scores.map((e) => e / temperature));
  const exps = scores.map((e) => Math.exp(e / temperature - top));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

test('temperature is one row of the option table: range 0.05 to 20, default 1', () => {
  assert.deepEqual({ ...optionRanges.temperature }, { min: 0.05, max: 20, default: 1, integer: false });
});

test('the trace: one step per target token, scores -> weights -> context by the formulas', () => {
  for (const temperature of [1, 0.5, 4]) {
    const r = model.translate(SENTENCE, { trace: true, temperature, beamSize: 1 });
    const { trace } = r;
    assert.ok(trace, 'trace: true gives a trace');
    assert.equal(trace.scoring, 'additive');
    assert.equal(trace.temperature, temperature);
    const S = r.sourceTokens.length;
    assert.equal(trace.states.length, S);
    assert.equal(trace.keys.length, S);
    assert.equal(trace.steps.length, r.targetTokens.length);
    trace.steps.forEach((step, t) => {
      assert.equal(step.scores.length, S);
      assert.ok(step.weights instanceof Float32Array);
      assert.deepEqual(Array.from(step.weights), Array.from(r.attention[t]), 'the weights are the attention row');
      const expected = softmax(Array.from(step.scores), temperature);
      expected.forEach((w, i) => assert.ok(Math.abs(w - step.weights[i]) < 1e-6, `softmax(e/tau) = a at step ${t}`));
      assert.ok(Math.abs(step.weights.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      const C = trace.states[0].length;
      assert.equal(step.context.length, C);
      for (let c = 0; c < C; c += 1) {
        const sum = trace.states.reduce((acc, h, i) => acc + step.weights[i] * h[c], 0);
        assert.ok(Math.abs(sum - step.context[c]) < 1e-5, `c_t = sum a_ti H_i at step ${t}, dimension ${c}`);
      }
      assert.equal(step.query.length, trace.keys[0].length, 'additive: the query W_q s has the keys\' size');
      assert.equal(step.top.length, 5);
      assert.equal(step.top[0].token, r.targetTokens[t], 'greedy takes the most likely piece');
      for (let k = 1; k < 5; k += 1) assert.ok(step.top[k - 1].probability >= step.top[k].probability);
    });
  }
});

test('temperature 1 is today\'s translation; 0.05 nearly hard, 20 nearly uniform', () => {
  const plain = model.translate(SENTENCE);
  const one = model.translate(SENTENCE, { temperature: 1, trace: true });
  assert.equal(one.text, plain.text);
  assert.deepEqual(one.attention, plain.attention);
  assert.equal('trace' in plain, false, 'no trace unless asked');
  const S = plain.sourceTokens.length;
  // tau 0.05 multiplies the score gaps by 20: each row is nearly hard, all
  // its weight on one source token, or on two whose scores nearly tie.
  const hard = model.translate(SENTENCE, { temperature: 0.05 }).attention;
  for (const row of hard) {
    const [first, second] = [...row].sort((a, b) => b - a);
    assert.ok(first + second >= 0.95, `tau 0.05: at most two source tokens take nearly all (${first}, ${second})`);
  }
  const single = hard.filter((row) => Math.max(...row) >= 0.9).length;
  assert.ok(single >= 0.8 * hard.length, `tau 0.05: ${single} of ${hard.length} rows on one source token`);
  for (const row of model.translate(SENTENCE, { temperature: 20 }).attention) {
    assert.ok(row.every((w) => Math.abs(w - 1 / S) < 0.05), 'tau 20: nearly uniform');
  }
});

test('coverage: column sums of the attention; possiblyDropped under 0.1, never <eos>', () => {
  for (const beamSize of [1, 4]) {
    const r = model.translate(SENTENCE, { beamSize });
    assert.equal(r.coverage.length, r.sourceTokens.length);
    r.coverage.forEach((c, j) => {
      const sum = r.attention.reduce((acc, row) => acc + row[j], 0);
      assert.ok(Math.abs(sum - c) < 1e-4);
    });
    const expected = r.coverage.map((c, j) => (c < 0.1 && j < r.sourceTokens.length - 1 ? j : -1)).filter((j) => j >= 0);
    assert.deepEqual(r.possiblyDropped, expected);
    assert.deepEqual(r.hypotheses[0].coverage, r.coverage);
  }
  const f = fixed.translate(SENTENCE);
  assert.deepEqual(f.coverage, []);
  assert.deepEqual(f.possiblyDropped, []);
});

test('the fixed-context model: scoring none, one constant context, no scores or weights', () => {
  const { trace } = fixed.translate(SENTENCE, { trace: true });
  assert.equal(trace.scoring, 'none');
  assert.equal(trace.keys, null);
  assert.ok(trace.steps.length >= 2);
  for (const step of trace.steps) {
    assert.equal(step.scores, null);
    assert.equal(step.weights, null);
    assert.equal(step.query, null);
    assert.deepEqual(Array.from(step.context), Array.from(trace.steps[0].context));
  }
});

test('beam tree: kept and pruned candidates per step, parents kept, the best hypothesis on a kept path', () => {
  const r = model.translate(SENTENCE, { beamSize: 4, beamTree: true, trace: true });
  const tree = r.beamTree;
  assert.ok(Array.isArray(tree) && tree.length > 0);
  // The first step has one parent, whose best 4 all survive; later steps prune.
  assert.ok(tree.some((nodes) => nodes.some((n) => !n.kept)), 'some candidates are pruned');
  tree.forEach((nodes, t) => {
    assert.ok(nodes.some((n) => n.kept), `step ${t}: some candidates kept`);
    assert.ok(nodes.filter((n) => n.kept).length <= 4);
    for (const n of nodes) {
      assert.equal(typeof n.token, 'string');
      assert.equal(typeof n.score, 'number');
      if (t === 0) assert.equal(n.parent, -1);
      else assert.ok(tree[t - 1][n.parent]?.kept, 'a node grows from a kept node');
      if (n.kept) assert.equal(n.attention.length, r.sourceTokens.length);
      else assert.equal(n.attention, undefined);
    }
  });
  // Follow the best hypothesis down the tree; its attention rows are the nodes'.
  let parent = -1;
  r.targetTokens.forEach((token, t) => {
    const node = tree[t].find((n) => n.kept && n.parent === parent && n.token === token &&
      JSON.stringify(Array.from(n.attention)) === JSON.stringify(Array.from(r.attention[t])));
    assert.ok(node, `step ${t}: the best hypothesis's node`);
    parent = tree[t].indexOf(node);
  });
  // The trace follows the chosen hypothesis, not the beam's first live one.
  r.trace.steps.forEach((step, t) => assert.deepEqual(step.weights, r.attention[t]));
});

// Every float of the trace and the beam tree in the translation's one buffer,
// as the attention's: what a worker transfers.
function checkOneBuffer(r) {
  const buffer = translationBuffer(r);
  assert.ok(buffer instanceof ArrayBuffer);
  assert.equal(r.attention[0].buffer, buffer);
  for (const v of [...r.trace.states, ...r.trace.keys, ...r.trace.steps.flatMap((s) => [s.previousState, s.query, s.scores, s.context])]) {
    assert.equal(v.buffer, buffer);
  }
  const kept = r.beamTree.flat().filter((n) => n.kept);
  assert.ok(kept.length > 0);
  for (const n of kept) {
    assert.ok(n.attention instanceof Float32Array, 'a kept node\'s row is a Float32Array');
    assert.equal(n.attention.buffer, buffer);
  }
}

test('the trace and the beam tree cross in the one buffer: rows as Float32Array views, scores the search\'s doubles', async () => {
  const options = { beamSize: 4, beamTree: true, trace: true };
  const r = model.translate(SENTENCE, options);
  checkOneBuffer(r);
  // A cumulative log probability is a sum of float32s in double precision:
  // not one float32 could hold them all.
  assert.ok(r.beamTree.flat().some((n) => Math.fround(n.score) !== n.score), 'scores keep their double precision');
  assert.equal(r.trace.temperature, 1);
  assert.ok(r.trace.steps[0].top.every(({ probability }) => Math.fround(probability) === probability && probability > 0));
  // Through a worker: the same result, its buffer transferred.
  const translator = await createTranslator(modelForTests().path);
  try {
    const [posted] = await translator.translate([SENTENCE], options);
    checkOneBuffer(posted);
    assert.deepEqual(posted.beamTree, r.beamTree);
    assert.deepEqual(posted.trace, r.trace);
  } finally {
    await translator.dispose();
  }
});

// Every float of a hypothesis crosses packed too (translator.h,
// TranslationLayout::kHypothesesOnly): the module's JSON holds places, and
// the only fractions left in it are each hypothesis's score and logProb,
// doubles that a float32 slot would round. The API still gives arrays of
// numbers: the packed float32s, as the JSON of the CLI writes them.
test('a hypothesis\'s coverage, probabilities and alternatives cross packed; the result keeps plain arrays of the same floats', async () => {
  const { getCore } = await import(pathToFileURL(join(distDir, 'runtime.js')).href);  // internal: the raw module
  const core = await getCore();
  const session = new core.Session(readFileSync(modelForTests().path));
  const options = { beamSize: 4, alternatives: 3 };
  let value;
  let packed;
  try {
    value = JSON.parse(session.translate(SENTENCE, JSON.stringify(options))).value;
    packed = Float32Array.from(session.numbers(0));  // copied at once, as the wrapper does
  } finally {
    session.delete();
  }
  const fractions = [];
  (function walk(v, path) {
    if (typeof v === 'number' && !Number.isInteger(v)) fractions.push(path);
    else if (v && typeof v === 'object') for (const [key, item] of Object.entries(v)) walk(item, `${path}.${key}`);
  })(value, 'value');
  assert.deepEqual(fractions.sort(), value.hypotheses.flatMap((h, k) => [`value.hypotheses.${k}.logProb`, `value.hypotheses.${k}.score`]).sort());
  const r = model.translate(SENTENCE, options);
  const at = ([offset, length]) => Array.from(packed.subarray(offset, offset + length));
  assert.equal(r.hypotheses.length, value.hypotheses.length);
  r.hypotheses.forEach((h, k) => {
    const sent = value.hypotheses[k];
    assert.equal(sent.coverage[1], r.sourceTokens.length);
    assert.equal(sent.tokenProbabilities[1], h.targetTokens.length);
    for (const field of ['coverage', 'tokenProbabilities', 'wordProbabilities']) {
      assert.ok(Array.isArray(h[field]), `${field} is an array of numbers`);
      assert.deepEqual(h[field], at(sent[field]), `${field}: the packed float32s`);
    }
    assert.equal(h.alternatives.length, h.targetTokens.length);
    h.alternatives.forEach((choices, t) => choices.forEach(({ token, logProb, probability }, c) => {
      assert.equal(token, sent.alternatives[t][c].token);
      assert.equal(logProb, packed[sent.alternatives[t][c].logProb]);
      assert.equal(probability, Math.exp(logProb));
    }));
  });
});

test('option errors name the option and its range; the model still works after', () => {
  for (const temperature of [0, 0.01, 21, Number.NaN, '1']) {
    assert.throws(() => model.translate(SENTENCE, { temperature }), /temperature must be a number from 0\.05 to 20/);
  }
  for (const name of ['trace', 'beamTree']) {
    assert.throws(() => model.translate(SENTENCE, { [name]: 1 }), new RegExp(`${name} must be true or false`));
  }
  assert.ok(model.translate(SENTENCE, { trace: false, beamTree: false }).text.length > 0);
});

test('the package bin: --temperature, --trace (JSON with the trace as plain arrays) and --beam-tree', () => {
  const bin = new URL('../../bin/seq2seq-attention.js', import.meta.url).pathname;
  const { path } = modelForTests();
  const r = spawnSync(process.execPath, [bin, 'translate', '--model', path, '--trace', '--temperature', '0.5', SENTENCE],
    { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.equal(result.trace.temperature, 0.5);
  assert.ok(Array.isArray(result.trace.steps[0].weights));
  assert.deepEqual(result.trace.steps[0].weights, result.attention[0]);
  const bad = spawnSync(process.execPath, [bin, 'translate', '--model', path, '--temperature', '30', 'go .'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--temperature must be a number from 0.05 to 20/);
  // --beam-tree: the API's beamTree as JSON, its candidates linked to kept parents.
  const tree = spawnSync(process.execPath, [bin, 'translate', '--model', path, '--beam', '3', '--beam-tree', SENTENCE],
    { encoding: 'utf8', timeout: 60_000 });
  assert.equal(tree.status, 0, tree.stderr);
  const { beamTree } = JSON.parse(tree.stdout);
  assert.ok(beamTree.length >= 1 && beamTree.every((step) => step.some((node) => node.kept)));
  for (const [t, step] of beamTree.entries()) {
    for (const node of step) {
      assert.equal(typeof node.token, 'string');
      if (t === 0) assert.equal(node.parent, -1);
      else assert.ok(beamTree[t - 1][node.parent]?.kept, `step ${t}: the parent of ${node.token} was kept`);
    }
  }
  assert.match(spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' }).stdout, /--beam-tree/);
});
