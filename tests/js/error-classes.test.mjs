// Errors by class: every failure the package raises is a Seq2SeqError of
// the class its kind names (UsageError, ModelFileError, InputError,
// LoadError, ...), exported for instanceof, in Node and through the
// translator's worker path (createTranslator in Node runs in a worker
// thread: its errors cross as a browser worker's do and are revived).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const api = await import(join(root, 'dist', 'index.js'));
const { Seq2SeqError, UsageError, ModelFileError, InputError, LoadError, InternalError } = api;
let model;
let work;
before(async () => {
  model = await api.loadModel('en-fr');
  work = mkdtempSync(join(tmpdir(), 's2s-error-classes-'));
});
after(() => {
  model?.dispose();
  rmSync(work, { recursive: true, force: true });
});

function throwsClass(fn, ErrorClass, kind, message) {
  let caught;
  try { fn(); } catch (error) { caught = error; }
  assert.ok(caught instanceof ErrorClass, `expected ${ErrorClass.name}, got ${caught?.constructor?.name}: ${caught?.message}`);
  assert.ok(caught instanceof Seq2SeqError && caught instanceof Error);
  assert.equal(caught.kind, kind);
  assert.equal(caught.name, ErrorClass.name);
  if (message) assert.match(caught.message, message);
}

async function rejectsClass(promise, ErrorClass, kind, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof ErrorClass, `expected ${ErrorClass.name}, got ${error?.constructor?.name}: ${error?.message}`);
    assert.equal(error.kind, kind);
    if (message) assert.match(error.message, message);
    return true;
  });
}

test('bad arguments and options are UsageErrors, from the JavaScript checks and from C++', () => {
  throwsClass(() => model.translate(42), UsageError, 'usage', /text must be a string/);
  throwsClass(() => model.translate('Hi.', { beamSize: 99 }), UsageError, 'usage', /beamSize must be a whole number from 1 to 16/);
  throwsClass(() => model.translate('Hi.', { nonsense: 1 }), UsageError, 'usage', /unknown option 'nonsense'/);
  throwsClass(() => api.wordAttention({}), UsageError, 'usage');
});

test('a prefix the model cannot write is an InputError (raised in C++)', () => {
  throwsClass(() => model.translate('I see the cat.', { prefix: ['zzzqqqxxx-not-a-piece'] }), InputError, 'input', /not in this model's target vocabulary/);
});

test('a damaged model file is a ModelFileError; a missing one a LoadError; an unknown name a UsageError', async () => {
  await rejectsClass(api.loadModel(new Uint8Array([1, 2, 3, 4])), ModelFileError, 'model-file');
  const gif = join(work, 'not-a-model.s2s');
  writeFileSync(gif, 'GIF89a not a model');
  await rejectsClass(api.loadModel(gif), ModelFileError, 'model-file', /not a seq2seq-attention model file/);
  await rejectsClass(api.loadModel(join(work, 'missing.s2s')), LoadError, 'load', /could not read/);
  await rejectsClass(api.loadModel('en-xx'), UsageError, 'usage', /no model named 'en-xx'/);
});

test('a disposed model and a disposed translator are UsageErrors; the translator\'s errors keep their class', async () => {
  const disposed = await api.loadModel('en-fr');
  disposed.dispose();
  throwsClass(() => disposed.translate('Hi.'), UsageError, 'usage', /disposed/);
  const translator = await api.createTranslator('en-fr');
  await rejectsClass(translator.translate('Hi.', { beamSize: 0 }), UsageError, 'usage', /beamSize/);
  await rejectsClass(translator.translate('I see the cat.', { prefix: ['zzzqqqxxx-not-a-piece'] }), InputError, 'input');
  await translator.dispose();
  await rejectsClass(translator.translate('Hi.'), UsageError, 'usage', /disposed/);
});

test('every class names its kind; an unknown kind is an internal error', async () => {
  const { errorOfKind } = await import(join(root, 'dist', 'errors.js'));
  for (const [kind, name] of [['usage', 'UsageError'], ['model-file', 'ModelFileError'], ['input', 'InputError'], ['load', 'LoadError'],
    ['environment', 'EnvironmentError'], ['worker', 'WorkerError'], ['memory', 'ResourceError'], ['internal', 'InternalError']]) {
    const error = errorOfKind(kind, 'm');
    assert.equal(error.kind, kind);
    assert.equal(error.name, name);
    assert.ok(error instanceof api[name]);
  }
  assert.ok(errorOfKind(undefined, 'm') instanceof InternalError);
});
