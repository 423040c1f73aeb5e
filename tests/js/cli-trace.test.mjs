// The native CLI's trace flags as a user runs them: `seq2seq translate
// --trace` (JSON with the decoder trace, implies --json), --temperature
// (range from the option table; translate and eval), --beam-tree, and
// coverage in --json. On the
// shipped models (or the tiny stand-ins of helpers/models.mjs when absent);
// properties only, never exact words.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cleanUpModels, modelForTests, nativeCli, root } from './helpers/models.mjs';

const SENTENCE = 'i think that he will come to the party tomorrow with his sister .';

function run(args, input = '') {
  const r = spawnSync(nativeCli, args, { input, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function translate(model, flags, input = `${SENTENCE}\n`) {
  const r = run(['translate', '--model', model, ...flags], input);
  assert.equal(r.code, 0, r.err);
  return r.out.trim().split('\n').map((line) => JSON.parse(line));
}

after(() => cleanUpModels());

test('--trace prints JSON with the trace; softmax(scores / T) = weights = the attention rows', () => {
  const { path } = modelForTests();
  for (const temperature of ['1', '0.3']) {
    const [r] = translate(path, ['--trace', '--temperature', temperature]);
    const { trace } = r;
    assert.equal(trace.scoring, 'additive');
    assert.equal(trace.temperature, Number(temperature));
    assert.equal(trace.steps.length, r.targetTokens.length);
    assert.equal(trace.states.length, r.sourceTokens.length);
    trace.steps.forEach((step, t) => {
      assert.deepEqual(step.weights, r.attention[t]);
      const scaled = step.scores.map((e) => e / Number(temperature));
      const top = Math.max(...scaled);
      const total = scaled.reduce((a, e) => a + Math.exp(e - top), 0);
      scaled.forEach((e, i) => assert.ok(Math.abs(Math.exp(e - top) / total - step.weights[i]) < 1e-6));
      assert.equal(step.previousState.length, trace.steps[0].previousState.length);
      assert.equal(step.top.length, 5);
    });
  }
});

test('--temperature 1 gives the same output as no flag; the flag range comes from the option table', () => {
  const { path } = modelForTests();
  const [plain] = translate(path, ['--json']);
  const [one] = translate(path, ['--json', '--temperature', '1']);
  assert.deepEqual(one, plain);
  assert.ok('coverage' in plain && 'possiblyDropped' in plain && !('trace' in plain));
  assert.equal(plain.coverage.length, plain.sourceTokens.length);
  for (const bad of ['0', '0.01', '25']) {
    const r = run(['translate', '--model', path, '--temperature', bad], 'go .\n');
    assert.equal(r.code, 2);
    assert.match(r.err, new RegExp(`--temperature: temperature ${bad} is out of range; use 0.05 to 20`));
  }
  const r = run(['translate', '--model', path, '--temperature', 'hot'], 'go .\n');
  assert.equal(r.code, 2);
  assert.match(r.err, /--temperature must be a number \(0.05 to 20\), not 'hot'/);
  const help = run(['translate', '--help']);
  assert.match(help.out, /--temperature T .* 0.05 to 20/);
  assert.match(help.out, /--trace/);
  assert.match(help.out, /--beam-tree/);
});

test('eval --temperature: 1 scores as no flag, a far τ scores differently; the range is the option table\'s', () => {
  const { path } = modelForTests();
  const data = join(root, 'tests', 'fixtures', 'en-fr-dev.tsv');
  const evaluate = (flags) => {
    const r = run(['eval', '--model', path, '--data', data, '--limit', '60', '--json', ...flags]);
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out).overall;
  };
  const plain = evaluate([]);
  assert.deepEqual(evaluate(['--temperature', '1']).counts, plain.counts);
  const flat = evaluate(['--temperature', '20']);
  assert.notDeepEqual(flat.counts, plain.counts, 'nearly uniform attention writes other translations');
  const r = run(['eval', '--model', path, '--data', data, '--temperature', '30']);
  assert.equal(r.code, 2);
  assert.match(r.err, /--temperature: temperature 30 is out of range; use 0.05 to 20/);
  assert.match(run(['eval', '--help']).out, /--temperature T .* 0.05 to 20/);
});

test('--beam-tree: every step lists kept and pruned candidates with parents and scores', () => {
  const { path } = modelForTests();
  const [r] = translate(path, ['--beam', '4', '--beam-tree']);
  assert.ok(Array.isArray(r.beamTree) && r.beamTree.length > 0);
  r.beamTree.forEach((nodes, t) => {
    assert.ok(nodes.filter((n) => n.kept).length >= 1);
    for (const n of nodes) {
      assert.ok(t === 0 ? n.parent === -1 : r.beamTree[t - 1][n.parent].kept);
      assert.equal(Array.isArray(n.attention), n.kept);
    }
  });
});

test('the fixed-context model: constant context, null scores, no coverage', () => {
  const { path } = modelForTests({ attention: false });
  const [r] = translate(path, ['--trace']);
  assert.equal(r.trace.scoring, 'none');
  assert.deepEqual(r.coverage, []);
  for (const step of r.trace.steps) {
    assert.equal(step.weights, null);
    assert.deepEqual(step.context, r.trace.steps[0].context);
  }
});
