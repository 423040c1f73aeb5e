// No translation and no beam candidate is empty: <eos> cannot be the first
// token (src/decode/search.cpp), so the page never offers "(empty)". Beam 4
// over the development samples of Tatoeba (tests/fixtures) and over the
// in-domain development split (data/corpus/dev.tsv), for every shipped model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedModels, modelCatalog } from '../../src/wasm/models.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.S2S_CLI ?? join(root, 'build', 'native', 'seq2seq');
const english = (path, column = 0) => [...new Set(readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[column]))];

for (const model of shippedModels) {
  const file = join(root, 'models', `${model}.s2s`);
  const skip = (!existsSync(cli) && 'build the CLI first: npm run build:native') || (!existsSync(file) && `models/${model}.s2s is missing`);
  test(`${model}: no empty hypothesis at beam 4 on unseen sentences`, { skip }, () => {
    const language = modelCatalog[model].targetLanguage;
    const sentences = [...english(join(root, 'tests', 'fixtures', `en-${language}-dev.tsv`)), ...english(join(root, 'data', 'corpus', 'dev.tsv'))];
    const r = spawnSync(cli, ['translate', '--model', file, '--beam', '4', '--json'], { input: `${sentences.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    const results = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(results.length, sentences.length);
    const empty = results.flatMap((result, k) => result.hypotheses
      .filter((h) => h.targetTokens.length === 0 || h.targetTokens[0] === '<eos>')
      .map(() => sentences[k]));
    assert.deepEqual(empty, [], `${empty.length} results list an empty hypothesis`);
  });
}
