// The possibly-dropped mark (src/decode/dropped.h): a source token under
// 0.1 coverage, unless the target language leaves its word untranslated
// (measured by scripts/coverage-skips.mjs: into Chinese "the", "is", "to"...),
// and a number of the source the translation does not write, whatever its
// coverage. Native CLI, shipped models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nativeCli, root } from './helpers/models.mjs';

const translateAll = (model, lines) => {
  const r = spawnSync(nativeCli, ['translate', '--model', join(root, 'models', `${model}.s2s`), '--json'],
    { input: `${lines.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
};
const translate = (model, text) => translateAll(model, [text])[0];
const ARTICLES = new Set(['▁the', '▁a', '▁an']);

test('into Chinese no English article is flagged in 50 in-domain dev sentences, though some get almost no attention', () => {
  const dev = readFileSync(join(root, 'data', 'corpus', 'dev.tsv'), 'utf8').split('\n').map((l) => l.split('\t')[0]);
  const sentences = ['The cat sat on the mat near a window.', 'An apple a day keeps the doctor away.',
    ...dev.filter((en) => /\b(the|a|an)\b/i.test(en)).slice(0, 50)];
  let unattended = 0;
  for (const j of translateAll('en-zh', sentences)) {
    j.sourceTokens.forEach((token, i) => { if (ARTICLES.has(token) && j.coverage[i] < 0.1) unattended++; });
    const flagged = j.possiblyDropped.map((i) => j.sourceTokens[i]);
    assert.deepEqual(flagged.filter((token) => ARTICLES.has(token)), [], `${j.text}: ${flagged}`);
  }
  assert.ok(unattended > 0, 'the measurement measures: some article had coverage under 0.1');
});

test('into French articles are not skipped: every token under 0.1 but <eos> is flagged', () => {
  const j = translate('en-fr', 'The cat sat on the mat near a window.');
  const expected = j.coverage.map((c, i) => i).filter((i) => i < j.sourceTokens.length - 1 && j.coverage[i] < 0.1);
  assert.deepEqual(j.possiblyDropped, expected);
});

// Does `text` write the number `n` (digits, or a Chinese or French number word up to 3)?
const WORDS = { 1: /一|\bune?\b/u, 2: /两|二|\bdeux\b/u, 3: /三|\btrois\b/u };
const writes = (text, n) => (text.match(/\d+/gu) ?? []).includes(String(n)) || WORDS[n]?.test(text.toLowerCase());

test('a real drop: "I have 3 cats 🐱 and 2 dogs." flags "2" when the translation loses it, though its coverage is high', () => {
  let dropped = 0;
  for (const model of ['en-zh', 'en-fr']) {
    const j = translate(model, 'I have 3 cats 🐱 and 2 dogs.');
    for (const n of [2, 3]) {
      const i = j.sourceTokens.indexOf(`▁${n}`);
      assert.ok(i >= 0, j.sourceTokens.join(' '));
      const flagged = j.possiblyDropped.includes(i);
      assert.equal(flagged, !writes(j.text, n) || j.coverage[i] < 0.1, `${model}: ${j.text}, ${n} flagged: ${flagged}`);
      if (!writes(j.text, n)) {
        dropped++;
        assert.ok(j.coverage[i] >= 0.1, 'coverage alone would not see this drop');
      }
    }
  }
  // The shipped en-zh model writes "我有三只猫和20只猫。": the drop the issue reports.
  assert.ok(dropped > 0, 'a shipped model drops a number of this sentence');
});

test('the minutes of a time may be written as words: "8:30" into Chinese as 八点半 flags nothing', () => {
  const j = translate('en-zh', 'School begins at 8:30 a.m.');
  assert.deepEqual(j.possiblyDropped.filter((i) => j.coverage[i] >= 0.1), [], `${j.text}: ${j.possiblyDropped.map((i) => j.sourceTokens[i])}`);
});
