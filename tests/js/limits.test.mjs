// optionRanges (src/wasm/options.js) is the JavaScript side's one copy of the
// decoder's limits; the C++ side has its own (DecodeOptions in
// src/decode/search.h). Until C++ exports them, this checks that the two
// agree: the raw module, without the wrapper's checks in front of it,
// accepts every range's ends and refuses one step past them, and its default
// penalties are the ones optionRanges states. maxLength is the exception:
// C++ clamps a longer one to its maximum instead of refusing it, so only its
// maximum is translated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpModels, distDir, modelForTests, requireDist } from './helpers/models.mjs';

requireDist();
// runtime.js is internal to the package; this test needs the raw Embind
// session that the API keeps private.
const { getCore } = await import(pathToFileURL(join(distDir, 'runtime.js')).href);
const { optionRanges } = await import(pathToFileURL(join(distDir, 'options.js')).href);
const SENTENCE = 'I see the cat.';
let session;

before(async () => {
  const core = await getCore();
  session = new core.Session(readFileSync(modelForTests().path));
  assert.equal(session.loadError(), '');
});

after(() => {
  session?.delete();
  cleanUpModels();
});

const raw = (options) => JSON.parse(session.translate(SENTENCE, JSON.stringify(options)));

test('the module accepts each range of optionRanges and refuses one step beyond it', () => {
  for (const [name, { min, max, integer }] of Object.entries(optionRanges)) {
    const step = integer ? 1 : 0.01;
    const beam = name === 'lengthPenalty' || name === 'coveragePenalty' ? { beamSize: 2 } : {};
    for (const value of [min, max]) {
      const r = raw({ ...beam, [name]: value });
      assert.equal(r.ok, true, `${name} ${value}: ${r.message}`);
    }
    if (name === 'maxLength') continue;  // C++ clamps it (see above); its minimum, 1, is the wrapper's: 0 means "default" in C++
    for (const value of [min - step, max + step]) {
      const r = raw({ ...beam, [name]: value });
      assert.equal(r.ok, false, `${name} ${value} is refused by the module too`);
      assert.equal(r.kind, 'usage');
    }
  }
});

test("the module's default penalties are optionRanges' defaults", () => {
  const { lengthPenalty, coveragePenalty } = optionRanges;
  const implicit = raw({ beamSize: 4 });
  const explicit = raw({ beamSize: 4, lengthPenalty: lengthPenalty.default, coveragePenalty: coveragePenalty.default });
  assert.equal(implicit.ok && explicit.ok, true);
  assert.deepEqual(implicit.value, explicit.value);
});
