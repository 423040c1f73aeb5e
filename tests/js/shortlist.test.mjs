// The lexical shortlist through the JavaScript API (dist/index.js): the
// shipped en-fr model has one (info.shortlist), translate uses it unless
// { shortlist: false }, a model without one ignores the option, and a bad
// value is refused by name. (Its kernel, decoding and header field are
// tested natively: tests/cpp/test_shortlist.cpp.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIndex, requireDist, root } from './helpers/models.mjs';

requireDist();
const { loadModel } = await import(pathToFileURL(distIndex).href);
const shipped = (name) => join(root, 'models', `${name}.s2s`);
const SENTENCES = ['I love deep learning.', 'The man who lives next door has been working in the garden since early this morning.',
  "He's calm.", 'I think that the weather will be better tomorrow, so we can go to the beach with our friends.'];

let enFr;
before(async () => {
  enFr = await loadModel(shipped('en-fr'));
});
after(() => enFr?.dispose());

test('the shipped en-fr model has a shortlist: info.shortlist', () => {
  const { shortlist } = enFr.info;
  assert.ok(shortlist, 'models/en-fr.s2s has no target_shortlist (scripts/train.sh builds it)');
  assert.equal(shortlist.always, 2000);
  assert.equal(shortlist.perTarget, 4);
  // Counted on exactly the model's training pairs: the Tatoeba split and the domain files (scripts/train.sh).
  assert.equal(shortlist.builtFrom.data, 'shortlist-data.tsv');
  assert.ok(Object.isFrozen(shortlist));
});

test('translate uses the shortlist unless { shortlist: false }', () => {
  let differs = 0;
  for (const text of SENTENCES) {
    const on = enFr.translate(text);
    assert.deepEqual(enFr.translate(text, { shortlist: true }), on, 'true is the default');
    const off = enFr.translate(text, { shortlist: false });
    if (on.score !== off.score) differs += 1;
    // Over fewer pieces the softmax gives each a larger (or equal) share:
    // the same words score at least as high with the shortlist.
    if (on.text === off.text) assert.ok(on.score >= off.score - 1e-6, `${text}: ${on.score} < ${off.score}`);
    for (const result of [on, off]) {
      assert.ok(!result.targetTokens.includes('<unk>'));
      for (const row of result.attention) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-3);
    }
  }
  assert.ok(differs > 0, 'shortlist on and off gave the same scores: the option did not reach the decoder');
});

test('the alternatives with the shortlist are finite probabilities of candidate pieces', () => {
  const r = enFr.translate(SENTENCES[0], { alternatives: 8 });
  assert.ok(r.alternatives.length > 0 && r.alternatives.every((step) => step.length === 8));
  for (const step of r.alternatives) {
    for (const { token, probability } of step) {
      assert.equal(typeof token, 'string');
      assert.ok(Number.isFinite(probability) && probability >= 0 && probability <= 1, `${token}: ${probability}`);
    }
  }
});

test('a model without a shortlist ignores the option; a bad value is refused by name', async () => {
  const path = shipped('en-zh');
  if (!existsSync(path)) return;
  const enZh = await loadModel(path);
  try {
    assert.equal(enZh.info.shortlist, null);
    assert.deepEqual(enZh.translate(SENTENCES[0], { shortlist: false }), enZh.translate(SENTENCES[0]));
  } finally {
    enZh.dispose();
  }
  assert.throws(() => enFr.translate('Go.', { shortlist: 'off' }), /model\.translate: shortlist must be true or false, but got/);
  assert.ok(enFr.translate('Go.').text.length > 0, 'the model still works after the refused option');
});
