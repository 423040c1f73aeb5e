// A model's provenance record has one schema, docs/provenance.schema.json:
// every shipped model and the records of earlier runs validate against it,
// so does what today's writer (src/train/training_provenance.h) writes for
// a freshly trained model, and that writer writes every field the schema
// gives training; the page (web/demo/provenance.js) and the package's
// dataCredit read only fields the schema declares, and the package's types
// (index.d.ts) are generated from it. A field renamed on one side only
// fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { nativeCli, root, wordModelForTests } from './helpers/models.mjs';
import { declares, resolve, validate } from './helpers/json-schema.mjs';

const schema = JSON.parse(readFileSync(join(root, 'docs', 'provenance.schema.json'), 'utf8'));
const SHIPPED = ['en-fr', 'en-fr-fixed', 'en-zh', 'en-zh-fixed'];
const info = (path) => JSON.parse(spawnSync(nativeCli, ['info', '--model', path, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 }).stdout);

test('every shipped model\'s provenance validates', () => {
  for (const name of SHIPPED) assert.deepEqual(validate(schema, info(join(root, 'models', `${name}.s2s`)).provenance), [], name);
});

test('the records of earlier runs validate: every variant the shipped models\' history holds', () => {
  // tests/fixtures/provenance-variants.json: one record of each shape the
  // models/*.s2s of the repository's history recorded (arrays cut to one item).
  const variants = JSON.parse(readFileSync(join(root, 'tests', 'fixtures', 'provenance-variants.json'), 'utf8'));
  assert.ok(variants.length >= 10);
  variants.forEach((record, k) => assert.deepEqual(validate(schema, record), [], `variant ${k}`));
});

test('the validator refuses a renamed field, a wrong type and a missing one', () => {
  const record = info(join(root, 'models', 'en-zh.s2s')).provenance;
  const { init_model: initModel, ...training } = record.training;
  assert.match(validate(schema, { ...record, training: { ...training, init_models: initModel } }).join('\n'), /\$\.training: has 'init_models'/);
  assert.match(validate(schema, { ...record, training: { ...record.training, steps: '6000' } }).join('\n'), /\$\.training\.steps: is string, not integer/);
  const { source, ...data } = record.data;
  assert.match(validate(schema, { ...record, data }).join('\n'), /\$\.data: lacks the required 'source'/);
  assert.match(validate(schema, { ...record, data: { ...data, source: null } }).join('\n'), /\$\.data\.source: is null/);
});

test('an extra data file is a data file and more (allOf), and neither takes a field the other has alone', () => {
  const record = info(join(root, 'models', 'en-zh.s2s')).provenance;
  assert.ok(record.extra_data?.length > 0, 'en-zh was trained with --extra-data');
  const [extra] = record.extra_data;
  const problems = (item, data = record.data) => validate(schema, { ...record, data, extra_data: [item] }).join('\n');
  assert.equal(problems(extra), '');
  const { repeat, ...noRepeat } = extra;
  assert.match(problems(noRepeat), /\$\.extra_data\[0\]: lacks the required 'repeat'/);
  const { fnv1a64, ...noHash } = extra;
  assert.match(problems(noHash), /\$\.extra_data\[0\]: lacks the required 'fnv1a64'/);
  assert.match(problems({ ...extra, pairs: '12' }), /\$\.extra_data\[0\]\.pairs: is string, not integer/);
  assert.match(problems({ ...noRepeat, repeats: repeat }), /\$\.extra_data\[0\]: has 'repeats', which the schema does not declare/);
  assert.match(problems({ ...noHash, fnv1a: fnv1a64 }), /\$\.extra_data\[0\]: has 'fnv1a'/);
  // The training data file is closed too: the extra file's own fields are not its.
  assert.match(problems(extra, { ...record.data, repeat: 1 }), /\$\.data: has 'repeat', which the schema does not declare/);
});

test('what today\'s writer records for a freshly trained model validates, with every field the schema gives training', () => {
  const record = info(wordModelForTests()).provenance;
  assert.deepEqual(validate(schema, record), []);
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field['x-written-by'] === 'seq2seq train') assert.ok(name in record, `the writer writes ${name}`);
  }
  for (const section of ['training', 'split']) {
    const declared = Object.keys(resolve(schema, schema.properties[section]).properties);
    assert.deepEqual(Object.keys(record[section]).sort(), declared.sort(), `${section}: the fields written are the fields declared`);
  }
});

// A record holding every field the schema declares (the first option of
// each anyOf, the fields of every part of an allOf, one item per array,
// one key per map).
function fullRecord(s) {
  s = resolve(schema, s);
  if (s.anyOf) return fullRecord(s.anyOf.find((option) => option.type !== 'null'));
  if (s.allOf) return Object.assign({}, ...s.allOf.map(fullRecord));
  const type = [s.type].flat().find((t) => t !== 'null');
  if (type === 'object') {
    if (!s.properties) return { key: fullRecord(s.additionalProperties) };
    return Object.fromEntries(Object.entries(s.properties).map(([name, field]) => [name, fullRecord(field)]));
  }
  if (type === 'array') return [fullRecord(s.items)];
  if (s.enum) return s.enum[0];
  return { string: 'CC BY-SA 4.0', integer: 3, number: 0.5, boolean: true }[type];
}

// `value` behind a proxy that records each field path read ('[]' for an item).
function recording(value, read, path = []) {
  if (value === null || typeof value !== 'object') return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const field = Reflect.get(target, key, receiver);
      if (typeof key === 'symbol') return field;
      if (Array.isArray(target)) return /^\d+$/.test(key) ? recording(field, read, [...path, '[]']) : field;
      if (!Object.hasOwn(target, key) && key in Object.prototype) return field;
      read.add(JSON.stringify([...path, key]));
      return recording(field, read, [...path, key]);
    },
    has(target, key) {
      if (typeof key === 'string') read.add(JSON.stringify([...path, key]));
      return Reflect.has(target, key);
    },
  });
}

// The field paths the page's "About this model" and the package's figure credit read.
async function pathsRead() {
  const page = await import(pathToFileURL(join(root, 'web', 'demo', 'provenance.js')).href);
  const { dataCredit } = await import(pathToFileURL(join(root, 'src', 'wasm', 'figure.js')).href);
  const read = new Set();
  for (const use of [page.trainingText, page.dataText, page.licenceText, dataCredit]) use(recording(fullRecord(schema), read));
  return [...read].map((p) => JSON.parse(p));
}

test('the page and the package read only fields the schema declares', async () => {
  const read = await pathsRead();
  assert.ok(read.some((p) => p.join('.') === 'training.init_model.steps'), 'the page reads the earlier run\'s steps');
  assert.ok(read.length > 20, `${read.length} paths read`);
  assert.deepEqual(read.filter((p) => !declares(schema, p)).map((p) => p.join('.')), []);
  // And the check sees a rename: the schema's teacher renamed, the page's reads of it are undeclared.
  const renamed = structuredClone(schema);
  const training = renamed.$defs.training.properties;
  training.distilled_from = training.teacher;
  delete training.teacher;
  assert.deepEqual([...new Set(read.filter((p) => !declares(renamed, p)).map((p) => p.slice(0, 2).join('.')))], ['training.teacher']);
});

test('index.d.ts types the provenance as the schema says (scripts/provenance-types.mjs)', async () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'provenance-types.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // The field names of the generated ModelProvenance and ProvenanceTraining, compared with the schema's.
  const types = readFileSync(join(root, 'src', 'wasm', 'index.d.ts'), 'utf8');
  const fields = (name) => {
    const body = new RegExp(`export interface ${name} \\{\\n([\\s\\S]*?)\\n\\}`).exec(types)?.[1] ?? '';
    return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
  };
  assert.deepEqual(fields('ModelProvenance'), Object.keys(schema.properties));
  assert.deepEqual(fields('ProvenanceTraining'), Object.keys(schema.$defs.training.properties));
  assert.match(types, /provenance: Partial<ModelProvenance> & \{ \[key: string\]: unknown \};/);
});
