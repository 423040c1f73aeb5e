// The trainer's options (createTrainer, train) have one owner for their
// ranges and defaults: the C++ table (src/wasm/run_options.h). The wasm
// build writes it into dist/trainer-options.js (scripts/write-option-ranges.mjs
// with `trainer`), which 'seq2seq-attention/trainer' exports as
// trainerOptionRanges and trainerLimits. This checks that the file is what
// the built module says now, that the module enforces exactly those ranges
// and uses exactly those defaults, and that every number in index.d.ts's
// prose about the options is the table's: a change in C++ that leaves the
// prose stale fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, requireDist, root } from './helpers/models.mjs';

requireDist();
const { createTrainer, getTrainCore, trainerLimits, trainerOptionRanges } = await import(pathToFileURL(join(distDir, 'trainer.js')).href);
const { trainerOptionsModule } = await import(pathToFileURL(join(root, 'scripts', 'write-option-ranges.mjs')).href);
const core = await getTrainCore();
const limits = JSON.parse(core.trainerLimits());
// Options that are not numbers, and so not in the table.
const OTHER_OPTIONS = ['task', 'pairs', 'characters', 'attention'];

test("dist/trainer-options.js is generated from the built module's trainerLimits(), and names every numeric option", () => {
  assert.equal(readFileSync(join(distDir, 'trainer-options.js'), 'utf8'), trainerOptionsModule(limits),
    'dist/trainer-options.js is stale or hand-edited: run npm run build:wasm');
  assert.deepEqual(trainerOptionRanges, limits.options);
  assert.deepEqual(trainerLimits, { stepCount: limits.stepCount, pairsHeldOutEvery: limits.pairsHeldOutEvery });
  assert.ok(Object.isFrozen(trainerOptionRanges) && Object.values(trainerOptionRanges).every(Object.isFrozen));
  assert.ok(Object.isFrozen(trainerLimits) && Object.isFrozen(trainerLimits.stepCount));
  assert.deepEqual([...Object.keys(trainerOptionRanges), ...OTHER_OPTIONS].sort(), JSON.parse(core.trainingOptions()).sort());
  assert.throws(() => trainerOptionsModule({ ...limits, options: { ...limits.options, symbols: { min: 2, max: 26, default: 30, integer: true } } }),
    /symbols a default \(30\)/);
});

// Each alone, at its ends and one step beyond (maxLength with minLength 1,
// minLength with maxLength 60, so that the other end allows them).
const partner = { maxLength: { minLength: 1 }, minLength: { maxLength: 60 } };

test('the module accepts each range of trainerOptionRanges and refuses one step beyond it, naming the option', async () => {
  for (const [name, { min, max, integer }] of Object.entries(trainerOptionRanges)) {
    const step = integer ? 1 : min > 0 && min < 0.001 ? min / 10 : 0.01;
    for (const value of [min, max]) {
      const trainer = await createTrainer({ ...partner[name], [name]: value });
      assert.equal(trainer.info.options[name], integer ? value : Math.fround(value), `${name} ${value}`);
      trainer.dispose();
    }
    for (const value of [min - step, max + step]) {
      await assert.rejects(createTrainer({ ...partner[name], [name]: value }), new RegExp(`option ${name} must be from`), `${name} ${value}`);
    }
  }
  const trainer = await createTrainer();
  const { min, max } = trainerLimits.stepCount;
  assert.throws(() => trainer.step(max + 1), new RegExp(`count must be a whole number from ${min} to ${max}`));
  trainer.dispose();
});

test("the module's defaults are trainerOptionRanges' defaults, with the dates task's and dot scoring's", async () => {
  const options = async (given) => {
    const trainer = await createTrainer(given);
    const { options: info } = trainer.info;
    trainer.dispose();
    return info;
  };
  const plain = await options({});
  for (const [name, { default: fallback, integer }] of Object.entries(trainerOptionRanges)) {
    assert.equal(plain[name], integer ? fallback : Math.fround(fallback), `${name} left out is ${fallback}`);
  }
  assert.equal((await options({ task: 'dates' })).hidden, trainerOptionRanges.hidden.datesDefault);
  assert.equal((await options({ attention: 'dot', hidden: 20 })).decoderHidden, trainerOptionRanges.decoderHidden.directDefaultPerHidden * 20);
  const pairs = Array.from({ length: 3 * trainerLimits.pairsHeldOutEvery }, (_, i) => `a${i}\tb${i}`).join('\n');
  const trainer = await createTrainer({ task: 'pairs', pairs });
  assert.equal(trainer.info.testExamples, 3);
  assert.deepEqual(trainer.probes(1).map((p) => p.source), [`a${trainerLimits.pairsHeldOutEvery - 1}`]);
  trainer.dispose();
});

// The doc comments of an interface in index.d.ts: property name -> the
// comment above it (properties written one after another share it).
function docComments(source, name) {
  const body = source.slice(source.indexOf(`export interface ${name} {`));
  const lines = body.slice(0, body.indexOf('\n}\n')).split('\n').slice(1);
  const comments = new Map();
  let comment = '';
  let open = false;
  for (const line of lines) {
    const text = line.trim();
    if (text.startsWith('/**')) {
      comment = '';
      open = true;
    }
    if (open) {
      comment += ` ${text.replace(/^\/\*\*|\*\/$|^\*/g, '').trim()}`;
      if (text.endsWith('*/')) open = false;
      continue;
    }
    const property = text.match(/^(?:readonly )?([A-Za-z]+)\??[:(]/);
    if (property) comments.set(property[1], comment.trim());
  }
  return comments;
}

// The numbers in prose, leaving out quoted examples ("december 2nd, 2026").
function numbers(text) {
  const prose = text.replace(/"[^"]*"/g, '');
  const found = prose.match(/\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:e-?\d+)?/g) ?? [];
  return [...new Set(found.map((n) => Number(n.replaceAll(',', ''))))].sort((a, b) => a - b);
}

const sorted = (values) => [...new Set(values)].sort((a, b) => a - b);

test("every number in index.d.ts's prose about the trainer's options is the C++ table's, and every one of the table's is there", () => {
  const source = readFileSync(join(root, 'src', 'wasm', 'index.d.ts'), 'utf8');
  const options = docComments(source, 'TrainerOptions');
  assert.deepEqual([...options.keys()].sort(), JSON.parse(core.trainingOptions()).sort(), 'TrainerOptions documents exactly the options');
  for (const [name, comment] of options) {
    const range = trainerOptionRanges[name];
    const expected = range ? Object.values(range).filter((v) => typeof v === 'number')
      : name === 'pairs' ? [trainerLimits.pairsHeldOutEvery] : [];
    assert.deepEqual(numbers(comment), sorted(expected), `index.d.ts's TrainerOptions.${name}: "${comment}"`);
  }
  const step = docComments(source, 'Trainer').get('step');
  assert.deepEqual(numbers(step), sorted([trainerLimits.stepCount.min, trainerLimits.stepCount.max]), `Trainer.step: "${step}"`);
});

test('the prose check catches a stale number', () => {
  const stale = docComments('export interface T {\n  /** Number of symbols, 2 to 24 (default 8). */\n  symbols?: number;\n}\n', 'T');
  const { min, max, default: fallback } = trainerOptionRanges.symbols;
  assert.notDeepEqual(numbers(stale.get('symbols')), sorted([min, max, fallback]));
  assert.deepEqual(numbers('from 1 to 100,000 (default 0.005; "december 2nd, 2026"), 1e-6, every 10th'), [1e-6, 0.005, 1, 10, 100000]);
});
