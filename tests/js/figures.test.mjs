// The quality figures of README.md and docs/models.md, measured again. The
// tables are written from the evaluations each model file records
// (scripts/bleu-tables.mjs, checked in docs.test.mjs); here the records are
// checked against a fresh measurement: for every shipped model the in-domain
// split at beam 4 in full (the `domain` table's bold column, chrF2 and
// terms) and the first 200 sentences of Tatoeba's split (the record
// dev-beam4-sample, written by `npm run compare` beside the full split's),
// each equal to 0.01, and each record measured on the file as it is now
// (model_fingerprint). Native CLI: seconds per model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { nativeCli, root } from './helpers/models.mjs';

const { shippedModels, modelCatalog } = await import(pathToFileURL(join(root, 'src', 'wasm', 'models.js')).href);
const shared = join(root, '..', 'shared', 'data');
const glossary = join(root, 'data', 'glossary', 'glossary.tsv');

function run(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

let work;
before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-figures-'));
  // The splits of scripts/compare-models.sh: Tatoeba's, and the in-domain
  // split as scripts/domain-data.mjs writes it.
  run(nativeCli, ['split', '--data', join(shared, 'fra-eng.txt'), '--dev-fraction', '0.04', '--split-seed', '1', '--dev-output', join(work, 'en-fr-dev.tsv')]);
  run(nativeCli, ['split', '--data', join(shared, 'cmn-eng.txt'), '--dev-fraction', '0.05', '--split-seed', '1', '--dev-output', join(work, 'en-zh-dev.tsv')]);
  run(process.execPath, [join(root, 'scripts', 'domain-data.mjs'), '--out', join(work, 'data'), '--tatoeba-zh', join(shared, 'cmn-eng.txt')]);
});
after(() => rmSync(work, { recursive: true, force: true }));

const close = (measured, recorded, what) => assert.ok(Math.abs(measured - recorded) < 0.005,
  `${what}: measured ${measured.toFixed(4)}, the file records ${recorded.toFixed(4)}`);

for (const name of shippedModels) {
  test(`${name}: the recorded in-domain figures and the samples of Tatoeba's and the long corpus's splits, measured again to 0.01`, () => {
    const model = join(root, 'models', `${name}.s2s`);
    const info = JSON.parse(run(nativeCli, ['info', '--model', model, '--json']));
    const language = modelCatalog[name].targetLanguage;
    for (const [key, data, extra] of [
      ['domain-beam4', join(work, 'data', `domain-dev.en-${language}.tsv`), []],
      ['dev-beam4-sample', join(work, `${name.replace(/-fixed$/, '')}-dev.tsv`), ['--limit', '200']],
      ['long-beam4-sample', join(work, 'data', `long-dev.en-${language}.tsv`), ['--limit', '100']],
    ]) {
      const recorded = info.provenance.evaluations?.[key];
      assert.ok(recorded, `models/${name}.s2s records no ${key}: run npm run compare`);
      assert.equal(recorded.model_fingerprint, info.fingerprint, `${key} was measured on another version of the file`);
      const again = JSON.parse(run(nativeCli, ['eval', '--model', model, '--data', data, '--beam', '4', '--terms', glossary, ...extra, '--json']));
      assert.equal(again.data.fnv1a64, recorded.data.fnv1a64, `${key}: the same data`);
      assert.equal(again.overall.sentences, recorded.overall.sentences, `${key}: the same sentences`);
      close(again.overall.bleu, recorded.overall.bleu, `${name} ${key} BLEU`);
      close(again.overall.chrf2, recorded.overall.chrf2, `${name} ${key} chrF2`);
      if (recorded.terms) close(again.terms.accuracy, recorded.terms.accuracy, `${name} ${key} terms`);
    }
  });
}
