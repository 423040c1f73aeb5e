// translate's option ranges and defaults have one owner, the C++ option
// table (src/decode/option_ranges.h); the wasm build writes them into
// dist/options.js (scripts/write-option-ranges.mjs). This checks that the
// file is what the built module says now (the generation ran and is not
// stale), and that the module, without the wrapper's checks in front of it,
// enforces exactly those ranges and uses exactly those defaults. maxLength
// is the one option with an automatic default (null): C++ reads 0 as
// "automatic" and caps a longer value instead of refusing it, so only its
// ends are translated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpModels, distDir, modelForTests, requireDist, root } from './helpers/models.mjs';

requireDist();
// runtime.js is internal to the package; this test needs the raw Embind
// modules that the API keeps private.
const { getCore } = await import(pathToFileURL(join(distDir, 'runtime.js')).href);
const { getTrainCore } = await import(pathToFileURL(join(distDir, 'trainer.js')).href);
const { optionRanges, optionSwitches, maxSourceTokens } = await import(pathToFileURL(join(distDir, 'options.js')).href);
const { optionRangesModule } = await import(pathToFileURL(join(root, 'scripts', 'write-option-ranges.mjs')).href);
const SENTENCE = 'I see the cat.';
let core;
let session;

before(async () => {
  core = await getCore();
  session = new core.Session(readFileSync(modelForTests().path));
  assert.equal(session.loadError(), '');
});

after(() => {
  session?.delete();
  cleanUpModels();
});

const raw = (options) => JSON.parse(session.translate(SENTENCE, JSON.stringify(options)));

test("dist/options.js is generated from the built module's limits(), and both modules report the same", async () => {
  const limits = JSON.parse(core.limits());
  assert.equal(readFileSync(join(distDir, 'options.js'), 'utf8'), optionRangesModule(limits),
    'dist/options.js is stale or hand-edited: run npm run build:wasm');
  assert.deepEqual(optionRanges, limits.options);
  assert.deepEqual(optionSwitches, limits.switches);
  assert.ok(Object.isFrozen(optionSwitches));
  assert.equal(maxSourceTokens, limits.maxSourceTokens);
  assert.ok(Object.isFrozen(optionRanges) && Object.values(optionRanges).every(Object.isFrozen));
  const trainCore = await getTrainCore();
  assert.deepEqual(JSON.parse(trainCore.limits()), limits);
});

test('the module accepts each range of optionRanges and refuses one step beyond it', () => {
  for (const [name, { min, max, integer, default: fallback }] of Object.entries(optionRanges)) {
    const step = integer ? 1 : 0.01;
    const beam = name === 'lengthPenalty' || name === 'coveragePenalty' ? { beamSize: 2 } : {};
    for (const value of [min, max]) {
      const r = raw({ ...beam, [name]: value });
      assert.equal(r.ok, true, `${name} ${value}: ${r.message}`);
    }
    if (fallback === null) continue;  // automatic (see above)
    for (const value of [min - step, max + step]) {
      const r = raw({ ...beam, [name]: value });
      assert.equal(r.ok, false, `${name} ${value} is refused by the module too`);
      assert.equal(r.kind, 'usage');
    }
  }
});

test("the module's defaults are optionRanges' defaults", () => {
  for (const [name, { default: fallback }] of Object.entries(optionRanges)) {
    if (fallback === null) continue;
    // A beam, so that the penalties count; beamSize's own default on its own.
    const base = name === 'beamSize' ? {} : { beamSize: 4 };
    const implicit = raw(base);
    const explicit = raw({ ...base, [name]: fallback });
    assert.equal(implicit.ok && explicit.ok, true);
    assert.deepEqual(implicit.value, explicit.value, `${name} left out decodes as ${name}: ${fallback}`);
  }
});

test("the module's switches default to optionSwitches' defaults, and take only true or false", () => {
  assert.deepEqual(Object.keys(optionSwitches), ['trace', 'beamTree', 'shortlist', 'keepNames']);
  for (const [name, fallback] of Object.entries(optionSwitches)) {
    const implicit = raw({ beamSize: 2 });
    const explicit = raw({ beamSize: 2, [name]: fallback });
    assert.equal(implicit.ok && explicit.ok, true);
    assert.deepEqual(implicit.value, explicit.value, `${name} left out decodes as ${name}: ${fallback}`);
    const wrong = raw({ [name]: 1 });
    assert.equal(wrong.ok, false);
    assert.match(wrong.message, new RegExp(`option ${name} must be true or false`));
  }
});

test('the generation refuses a table the wrapper could not use, naming the option', () => {
  const good = JSON.parse(core.limits());
  const broken = (name, range) => ({ ...good, options: { ...good.options, [name]: range } });
  assert.throws(() => optionRangesModule(broken('beamSize', { min: 1, max: 0, default: 1, integer: true })), /beamSize no range/);
  assert.throws(() => optionRangesModule(broken('beamSize', { min: 1, max: 4, default: 9, integer: true })), /beamSize a default \(9\)/);
  assert.throws(() => optionRangesModule(broken('beam-size', { min: 1, max: 4, default: 1, integer: true })), /'beam-size'/);
  assert.throws(() => optionRangesModule({ ...good, options: {} }), /has no options/);
  assert.throws(() => optionRangesModule({ ...good, switches: { ...good.switches, trace: 0 } }), /switch trace a default/);
  assert.match(optionRangesModule(good), /^\/\/ GENERATED/);
});
