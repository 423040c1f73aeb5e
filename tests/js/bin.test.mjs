// The package's bin as a shell user runs it: --version, a text of several
// sentences translated one sentence at a time (as the page does) unless
// --no-split, and usage errors in its own words with exit code 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'bin', 'seq2seq-attention.js');
const run = (args, input = '') => spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 60_000 });

test('--version prints the package\'s version', () => {
  const r = run(['--version']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
});

test('a text of several sentences is translated sentence by sentence; --no-split reads it as one', () => {
  const text = 'I see the cat. We drink water.';
  const split = run(['translate', '--json', text]);
  assert.equal(split.status, 0, split.stderr);
  const parts = JSON.parse(split.stdout);
  assert.deepEqual(parts.sentences.map((s) => s.source), ['I see the cat.', 'We drink water.']);
  assert.equal(parts.text, parts.sentences.map((s) => s.translation.text).join(' '));
  for (const { translation } of parts.sentences) assert.equal(translation.sourceTokens.filter((t) => t === '.').length, 1, 'one sentence each');
  const plain = run(['translate', text]);
  assert.equal(plain.stdout.trim(), parts.text, 'the text is the translations joined');
  const whole = JSON.parse(run(['translate', '--json', '--no-split', text]).stdout);
  assert.equal(whole.sourceTokens.filter((t) => t === '.').length, 2, 'both sentences read as one input');
  // One sentence: translate's result, as before.
  const one = JSON.parse(run(['translate', '--json', 'I see the cat.']).stdout);
  assert.ok(Array.isArray(one.targetTokens) && Array.isArray(one.tokenProbabilities) && one.sentences === undefined);
});

test('usage errors name the flag and exit with 2', () => {
  for (const [args, message] of [
    [['translate', '--bogus', 'x'], /^seq2seq-attention: error: unknown flag --bogus \(see seq2seq-attention --help\)/],
    [['translate', '--beam'], /--beam needs a value/],
    [['translate', '--split', '--no-split', 'x'], /give --split or --no-split, not both/],
    [['translate', '--beam', '99', 'x'], /--beam must be a whole number from 1 to 16, got '99'/],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
