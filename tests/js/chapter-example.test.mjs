// The chapter's own example, the page's first button: "I love deep
// learning." comes out right from the shipped models, at greedy and at
// beam 4, and the en-zh heatmap tells the chapter's story by itself: the
// characters of 深度学习 look at the pieces of "deep" and "learning", and 我
// looks at "I". The sentence is in no training file
// (tests/js/training-data.test.mjs): the models compose it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const SENTENCE = 'I love deep learning.';

function translate(model, beam) {
  const r = spawnSync(cli, ['translate', '--model', join(root, 'models', `${model}.s2s`), '--beam', String(beam), '--json'],
    { input: `${SENTENCE}\n`, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// The source columns that belong to an English word (its pieces).
function columnsOf(result, word) {
  const span = result.sourceWords.find((w) => w.text.toLowerCase() === word);
  assert.ok(span, `no source word "${word}" in ${JSON.stringify(result.sourceWords)}`);
  return Array.from({ length: span.end - span.start }, (_, k) => span.start + k);
}

const skip = !existsSync(cli) && 'build the CLI first: npm run build:native';

for (const beam of [1, 4]) {
  test(`en-zh, beam ${beam}: 深度学习, its rows on "deep" and "learning", 我 on "I"`, { skip }, () => {
    const r = translate('en-zh', beam);
    assert.match(r.text, /^我(爱|喜欢)深度学习。$/, `en-zh wrote ${r.text}`);
    const tokens = r.targetTokens;
    const at = tokens.join('').indexOf('深度学习');
    const rows = [...'深度学习'].map((ch, k) => tokens.indexOf(ch, at + k));
    const deepLearning = [...columnsOf(r, 'deep'), ...columnsOf(r, 'learning')];
    for (const row of rows) {
      const weight = deepLearning.reduce((sum, col) => sum + r.attention[row][col], 0);
      assert.ok(weight > 0.5, `${tokens[row]} puts ${weight.toFixed(2)} of its weight on "deep learning": ${JSON.stringify(r.attention[row])}`);
    }
    const [iColumn] = columnsOf(r, 'i');
    const wo = r.attention[tokens.indexOf('我')];
    assert.equal(wo.indexOf(Math.max(...wo)), iColumn, `我 looks most at column ${wo.indexOf(Math.max(...wo))}, not "I": ${JSON.stringify(wo)}`);
  });

  test(`en-fr, beam ${beam}: apprentissage profond`, { skip }, () => {
    const r = translate('en-fr', beam);
    assert.match(r.text, /^J'(adore|aime) l'apprentissage profond\s?\.$/, `en-fr wrote ${r.text}`);
  });
}
