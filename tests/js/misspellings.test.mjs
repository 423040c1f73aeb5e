// Robustness to what people type: scripts/noise-pairs.mjs misspells one word
// of a sentence the way people mistype (two neighbouring letters swapped,
// one dropped, one doubled; never the first letter, never a word of under
// four letters), the same way for the same seed; and the shipped en-zh,
// trained with such pairs, keeps most of its chrF2 on misspelt input of the
// in-domain development split (models/README.md, "Misspellings").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { random } from '../../scripts/concat-pairs.mjs';
import { misspell } from '../../scripts/noise-pairs.mjs';
import { readCorpus } from '../../scripts/domain-data.mjs';
import { misspellingCost } from '../../scripts/misspelling-table.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// True when `typed` is `word` with two neighbouring letters swapped, one letter dropped or one doubled.
function oneTypo(word, typed) {
  if (typed.length === word.length - 1) return [...word].some((_, k) => word.slice(0, k) + word.slice(k + 1) === typed);
  if (typed.length === word.length + 1) return [...word].some((c, k) => word.slice(0, k + 1) + c + word.slice(k + 1) === typed);
  if (typed.length !== word.length) return false;
  const diff = [...word].map((c, k) => (c === typed[k] ? -1 : k)).filter((k) => k >= 0);
  return diff.length === 2 && diff[1] === diff[0] + 1 && word[diff[0]] === typed[diff[1]] && word[diff[1]] === typed[diff[0]];
}

test('misspell: one word of four letters or more, one typing error, the first letter kept, the same for the same seed', () => {
  const sentence = 'The decoder reads every hidden state of the encoder, then writes a word.';
  const next = random(7);
  let changed = 0;
  for (let i = 0; i < 300; i++) {
    const typed = misspell(sentence, next);
    const a = sentence.split(' ');
    const b = typed.split(' ');
    assert.equal(b.length, a.length, typed);
    const differing = a.map((w, k) => [w, b[k]]).filter(([w, t]) => w !== t);
    if (differing.length === 0) continue;
    changed++;
    assert.equal(differing.length, 1, typed);
    const [[word, mistyped]] = differing;
    const bare = word.replace(/[^\p{L}]+$/u, '');
    assert.ok(bare.length >= 4, `"${word}" is too short to misspell`);
    assert.equal(mistyped[0], word[0], 'the first letter is kept');
    assert.ok(oneTypo(bare, mistyped.slice(0, mistyped.length - (word.length - bare.length))), `${word} -> ${mistyped}`);
  }
  assert.ok(changed > 250, `${changed} of 300 changed`);
  const again = random(7);
  const first = random(7);
  assert.equal(misspell(sentence, again), misspell(sentence, first), 'the same seed, the same misspelling');
  assert.equal(misspell('Go to it, Ann.', random(1)), 'Go to it, Ann.', 'no word of four letters: unchanged');
});

test('en-zh keeps at least 0.8 of its chrF2 when each in-domain development sentence has one word misspelt', () => {
  const work = mkdtempSync(join(tmpdir(), 's2s-misspelt-dev-'));
  try {
    const dev = join(work, 'domain-dev.en-zh.tsv');
    writeFileSync(dev, readCorpus(join(root, 'data', 'corpus', 'dev.tsv')).map((p) => `${p.en}\t${p.zh}\n`).join(''));
    const { clean, misspelt, ratio } = misspellingCost(join(root, 'models', 'en-zh.s2s'), dev);
    assert.ok(ratio >= 0.8, `chrF2 ${misspelt.chrf.toFixed(2)} misspelt against ${clean.chrf.toFixed(2)} clean: ${ratio.toFixed(3)}`);
    assert.ok(misspelt.chrf < clean.chrf, 'a misspelling still costs something (the measurement measures)');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
