// The model's doubt, measured again: on the in-domain development split
// (data/corpus/dev.tsv, in the repository), the words the shipped attention
// models mark as unsure (word probability under unsureWordProbability, the
// C++ threshold as dist/options.js exports it) are wrong at least twice as
// often as the words they do not mark, and the figures are models/README.md's
// ("The model's doubt"). Native CLI, beam 4: a few seconds per model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpus } from '../../scripts/domain-data.mjs';
import { measureDoubt } from '../../scripts/doubt-table.mjs';
import { unsureWordProbability } from '../../dist/options.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dev = readCorpus(join(root, 'data', 'corpus', 'dev.tsv'));
const readme = readFileSync(join(root, 'models', 'README.md'), 'utf8');

for (const [model, column] of [['en-fr', 'fr'], ['en-zh', 'zh']]) {
  test(`${model}: marked words are wrong at least twice as often as unmarked ones, as models/README.md says`, () => {
    const refs = new Map(dev.map((p) => [p.en, [p[column]]]));
    const [row] = measureDoubt(join(root, 'models', `${model}.s2s`), refs, [unsureWordProbability]);
    assert.ok(row.ratio >= 2, `${model}: marked words wrong ${row.markedWrong}, unmarked ${row.unmarkedWrong}, ratio ${row.ratio}`);
    const pct = (x) => `${(100 * x).toFixed(1)}%`;
    const line = `| ${model}, in-domain (464) | ${row.words.toLocaleString('en')} | ${pct(row.marked)} | ${pct(row.markedWrong)} | ${pct(row.unmarkedWrong)} | **${row.ratio.toFixed(2)}** |`;
    assert.ok(readme.includes(line), `models/README.md should hold the measured row\n${line}`);
  });
}
