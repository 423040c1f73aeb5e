// The possibly-dropped mark (coverage under 0.1, src/decode/translator.h):
// into Chinese, which has no articles, "the", "a" and "an" are never
// flagged however little attention they get; into French they still can be,
// and other words are flagged as before. Native CLI, shipped models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { nativeCli, root } from './helpers/models.mjs';

const translate = (model, text) => {
  const r = spawnSync(nativeCli, ['translate', '--model', join(root, 'models', `${model}.s2s`), '--json'], { input: `${text}\n`, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const ARTICLES = new Set(['▁the', '▁a', '▁an']);

test('into Chinese no English article is flagged as dropped, though some get almost no attention', () => {
  const sentences = ['The cat sat on the mat near a window.', 'An apple a day keeps the doctor away.', 'The students read the chapter on attention.'];
  let unattended = 0;
  for (const text of sentences) {
    const j = translate('en-zh', text);
    j.sourceTokens.forEach((token, i) => { if (ARTICLES.has(token) && j.coverage[i] < 0.1) unattended++; });
    const flagged = j.possiblyDropped.map((i) => j.sourceTokens[i]);
    assert.deepEqual(flagged.filter((token) => ARTICLES.has(token)), [], `${text}: ${flagged}`);
    for (const i of j.possiblyDropped) assert.ok(j.coverage[i] < 0.1);
  }
  assert.ok(unattended > 0, 'the measurement measures: some article had coverage under 0.1');
});

test('into French the rule is unchanged: every source token under 0.1 but <eos> is flagged', () => {
  const j = translate('en-fr', 'The cat sat on the mat near a window.');
  const expected = j.coverage.map((c, i) => i).filter((i) => i < j.sourceTokens.length - 1 && j.coverage[i] < 0.1);
  assert.deepEqual(j.possiblyDropped, expected);
});
