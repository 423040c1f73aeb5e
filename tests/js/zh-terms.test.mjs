// The Chinese interface names the chapter's things one way (issue 46,
// item 2): a hypothesis of beam search is 候选 everywhere (候选译文, 候选),
// never 假设; checked over the whole catalogue and the pages' Chinese
// strings, and against the English one: every English string that speaks
// of a hypothesis or a candidate has 候选 in its Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers/models.mjs';

const { CATALOGUES } = await import(pathToFileURL(join(root, 'web', 'figures', 'i18n', 'index.js')).href);
const en = CATALOGUES.en;
const zh = CATALOGUES['zh-CN'];

test('no Chinese string calls a hypothesis 假设', () => {
  assert.deepEqual(Object.entries(zh).filter(([, text]) => /假设/.test(text)).map(([key]) => key), []);
  // The pages and scripts under web/ (their few literal Chinese strings) and docs/ too.
  const files = [...readdirSync(join(root, 'web'), { recursive: true }).map((f) => join('web', f)),
    ...readdirSync(join(root, 'docs')).map((f) => join('docs', f))].filter((f) => /\.(js|html|md)$/.test(f));
  assert.deepEqual(files.filter((f) => readFileSync(join(root, f), 'utf8').includes('假设')), []);
});

test('every English string about a hypothesis or a candidate says 候选 in Chinese', () => {
  const keys = Object.keys(en).filter((key) => /\bhypothes[ie]s\b|\bcandidates?\b/i.test(en[key]));
  assert.ok(keys.length >= 4, `expected the beam's strings, found ${keys}`);
  assert.deepEqual(keys.filter((key) => !zh[key].includes('候选')), []);
});
