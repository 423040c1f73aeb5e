// Paragraphs (issue: a text of several sentences came back as one garbled
// sentence): model.translateText and translator.translateText split it
// with the C++ splitter (src/text/sentences.h) and translate each sentence
// as translate() would on its own. On three-sentence paragraphs made of the
// committed development samples, the sentences come back as the three
// inputs, and each translation equals translating that sentence alone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpModels, distIndex, modelForTests, nativeCli, requireDist, root } from './helpers/models.mjs';

requireDist();
const api = await import(pathToFileURL(distIndex).href);

after(() => cleanUpModels());

// Triples of consecutive development sentences that end with . ! or ? (the
// splitter's cue), as one paragraph each.
function paragraphs(sample, count) {
  const sources = readFileSync(join(root, 'tests', 'fixtures', sample), 'utf8').split('\n')
    .filter(Boolean).map((line) => line.split('\t')[0]).filter((s) => /[.!?]$/.test(s) && !/^[a-z]/.test(s));
  const out = [];
  for (let i = 0; i + 3 <= sources.length && out.length < count; i += 3) out.push(sources.slice(i, i + 3));
  return out;
}

for (const [name, sample] of [['en-fr', 'en-fr-dev.tsv'], ['en-zh', 'en-zh-dev.tsv']]) {
  test(`${name}: 3-sentence paragraphs come back one result per sentence, each as translating it alone`, async (t) => {
    const path = join(root, 'models', `${name}.s2s`);
    if (!existsSync(path)) {
      t.skip(`models/${name}.s2s is not shipped yet`);
      return;
    }
    const model = await api.loadModel(path);
    const triples = paragraphs(sample, 60);
    assert.ok(triples.length >= 30, `${triples.length} paragraphs`);
    let split = 0;
    let same = 0;
    for (const triple of triples) {
      const text = triple.join(' ');
      const r = model.translateText(text, { beamSize: 2 });
      for (const s of r.sentences) assert.equal(text.slice(s.start, s.end), s.source, 'offsets into the text');
      if (r.sentences.length !== 3 || r.sentences.some((s, k) => s.source !== triple[k])) continue;
      split += 1;
      if (r.sentences.every((s, k) => s.translation.text === model.translate(triple[k], { beamSize: 2 }).text)) same += 1;
      assert.equal(r.text, r.sentences.map((s) => s.translation.text).join(name === 'en-zh' ? '' : ' '));
    }
    t.diagnostic(`${split} of ${triples.length} paragraphs split at the sentences' own ends; ${same} translated as one by one`);
    assert.ok(split / triples.length >= 0.95, `${split} of ${triples.length} split right`);
    assert.equal(same, split, 'every sentence translated as on its own');
    model.dispose();
  });
}

test('translateText: the example of the issue; empty and one-sentence texts; bad input', async () => {
  const model = await api.loadModel(modelForTests().path);
  const r = model.translateText('The cat is sleeping on the sofa. The dog is playing in the garden. Mr. Smith reads a book.');
  assert.deepEqual(r.sentences.map((s) => s.source), ['The cat is sleeping on the sofa.', 'The dog is playing in the garden.', 'Mr. Smith reads a book.']);
  assert.ok(r.sentences.every((s) => s.translation.targetTokens.length > 0));
  assert.deepEqual(model.translateText('   ').sentences, []);
  assert.equal(model.translateText('   ').text, '');
  assert.equal(model.translateText('One sentence only').sentences.length, 1);
  // UTF-16 offsets past characters outside the BMP.
  const emoji = '😀 Hello there. 😀 Bye now.';
  const spans = model.translateText(emoji).sentences.map((s) => emoji.slice(s.start, s.end));
  assert.deepEqual(spans, ['😀 Hello there.', '😀 Bye now.']);
  // Each sentence's source offsets are of its own text: the emoji (<unk>) of the second is its first character.
  const second = model.translateText(emoji).sentences[1];
  const unknown = second.translation.sourceTokens.indexOf('<unk>');
  assert.ok(unknown >= 0, `${second.translation.sourceTokens}`);
  assert.equal(api.sourceText(second.translation, second.source, unknown), '😀');
  assert.deepEqual(second.translation.sourceOffsets[unknown], [0, 2]);
  assert.throws(() => model.translateText(42), /text must be a string, but got the number 42/);
  const translator = await api.createTranslator(modelForTests().path);
  const viaTranslator = await translator.translateText('The cat is sleeping on the sofa. The dog is playing in the garden.');
  assert.deepEqual(viaTranslator.sentences.map((s) => s.translation.text),
    ['The cat is sleeping on the sofa.', 'The dog is playing in the garden.'].map((s) => model.translate(s).text));
  await translator.dispose();
  model.dispose();
});

test('translateText is one call into C++ that gives, sentence by sentence, what translate gives: attention, scores, trace, beam tree, alternatives', async () => {
  const model = await api.loadModel(modelForTests().path);
  const text = 'The cat is sleeping on the sofa. 😀 The dog is playing in the garden!\n\nMr. Smith reads a book';
  for (const options of [{}, { beamSize: 1, trace: true }, { beamSize: 3, beamTree: true, alternatives: 2, keepNames: false }]) {
    const r = model.translateText(text, options);
    assert.equal(r.sentences.length, 3);
    for (const s of r.sentences) {
      assert.equal(text.slice(s.start, s.end), s.source);
      const alone = model.translate(s.source, options);
      assert.deepEqual(s.translation.toJSON(), alone.toJSON(), `${JSON.stringify(options)}: ${s.source}`);
      // Each sentence's floats in a buffer of its own (a worker transfers each).
      assert.ok(r.sentences.every((o) => o === s || api.translationBuffer(o.translation) !== api.translationBuffer(s.translation)));
    }
  }
  // Options are checked once, in the API's terms, even for a text with no sentence.
  assert.throws(() => model.translateText('   ', { beamSize: 0 }), /beamSize must be a whole number from 1/);
  assert.throws(() => model.translateText('Hello.', { prefix: ['certainly-not-a-word'] }), /not in this model's target vocabulary/);
  model.dispose();
});

test('the CLI: translate --split writes the joined translations, or with --json each sentence with its byte range', () => {
  const model = modelForTests().path;
  const input = 'The cat is sleeping. The dog is playing.\nOne more.\n';
  const plain = spawnSync(nativeCli, ['translate', '--model', model, '--split'], { input, encoding: 'utf8' });
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(plain.stdout.trim().split('\n').length, 2, 'one line out per line in');
  const json = spawnSync(nativeCli, ['translate', '--model', model, '--split', '--json'], { input, encoding: 'utf8' });
  assert.equal(json.status, 0, json.stderr);
  const [first] = json.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(first.sentences.map((s) => [s.source, s.begin, s.end]), [['The cat is sleeping.', 0, 20], ['The dog is playing.', 21, 40]]);
  assert.ok(first.sentences.every((s) => Array.isArray(s.attention) && s.attention.length === s.targetTokens.length));
  assert.equal(first.text, plain.stdout.trim().split('\n')[0]);
});
