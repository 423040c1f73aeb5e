// The package's types compile where its users compile (issue 47): `tsc
// --strict`, no skipLibCheck, with moduleResolution node16, nodenext and
// bundler, with no DOM library (Node's types only), with the DOM's and with
// a worker's; a DOM page may pass its Worker and its WebAssembly.Module; and
// a wrong option is an error (the check checks).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { requireDist, root } from './helpers/models.mjs';

requireDist();
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let work;
before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-types-'));
  mkdirSync(join(work, 'node_modules', '@types'), { recursive: true });
  symlinkSync(root, join(work, 'node_modules', 'seq2seq-attention'));
  symlinkSync(join(root, 'node_modules', '@types', 'node'), join(work, 'node_modules', '@types', 'node'));
  writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(work, 'app.ts'), `import { createTranslator, heatmapSvg, loadModel, UsageError, wordAttention } from 'seq2seq-attention';
import { preloadRuntime } from 'seq2seq-attention/diagnostics';
import { modelCatalog, optionSwitches, possiblyDroppedCoverage, sourceText, wordAttention as groupWords } from 'seq2seq-attention/data';
import { CELL, attentionColor, heatmapSvg as drawFigure } from 'seq2seq-attention/figure';
import { createTranslator as startTranslator, type Translator } from 'seq2seq-attention/translator';
import { createTrainerWorker, type TrainerWorkerState } from 'seq2seq-attention/trainer-worker';
export async function trainInWorker(): Promise<number> {
  const trainer = await createTrainerWorker({ task: 'reversal', steps: 20 }, {
    probe: 'a b', onProgress: ({ steps, loss }) => console.log(steps, loss), onProbe: (p) => console.log(p.result?.text ?? p.error?.message),
  });
  const state: TrainerWorkerState = await trainer.run({ until: 10, pauseAt: [5] });
  const r = await trainer.translate('a b c');
  await trainer.dispose();
  return state.steps + r.attention.length;
}
export async function main(): Promise<string> {
  await preloadRuntime({ module: null });
  const model = await loadModel('en-fr');
  const r = model.translate('I love deep learning.', { beamSize: 4, keepNames: true, shortlist: false });
  const words = wordAttention(r);
  const translator = await createTranslator('en-fr', { worker: 'auto', onProgress: ({ loaded, total }) => console.log(loaded, total) });
  const batch = await translator.translate(['a', 'b'], { signal: new AbortController().signal });
  await translator.dispose();
  model.dispose();
  if (batch.length !== 2) throw new UsageError('two results');
  const other: Translator = await startTranslator('en-zh', { worker: false });
  await other.dispose();
  const fromData: number = modelCatalog['en-fr'].targetLanguage.length + possiblyDroppedCoverage + groupWords(r).attention.length + CELL +
    (optionSwitches.shortlist ? 1 : 0);
  return heatmapSvg(r) + drawFigure(r) + attentionColor(0.5) + (sourceText(r, 'I love deep learning.', 0) ?? '') + fromData +
    words.attention.length + r.copiedWords.length + translator.backend;
}
`);
  writeFileSync(join(work, 'page.ts'), `import { createTranslator } from 'seq2seq-attention';
export async function page(): Promise<void> {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const wasm = WebAssembly.compileStreaming(fetch('s2s-core.wasm'));
  const translator = await createTranslator('en-fr', { worker, wasm });
  await translator.dispose();
}
`);
  // `using` and `await using`: compiled (TypeScript lowers them, which
  // needs only Symbol.dispose at run time) and then run on this Node.
  writeFileSync(join(work, 'using.ts'), `import { createTrainer, createTranslator, loadModel, type Model, type Trainer, type Translator } from 'seq2seq-attention';
export async function usingBlocks(): Promise<[Model, Translator, Trainer]> {
  let kept: [Model, Translator, Trainer];
  {
    using model = await loadModel('en-fr');
    await using translator = await createTranslator('en-fr', { worker: false });
    using trainer = await createTrainer({ task: 'reversal', trainSize: 50, testSize: 10 });
    trainer.step();
    if (model.disposed || translator.disposed || trainer.disposed) throw new Error('disposed too early');
    kept = [model, translator, trainer];
  }
  return kept;
}
`);
  writeFileSync(join(work, 'wrong.ts'), `import { loadModel } from 'seq2seq-attention';
export async function wrong(): Promise<void> {
  const model = await loadModel('en-fr');
  model.translate('x', { beamSize: 'four' });
}
`);
});
after(() => rmSync(work, { recursive: true, force: true }));

function compile(file, { resolution, lib }) {
  const module = resolution === 'bundler' ? 'esnext' : resolution;
  return spawnSync(process.execPath, [tsc, '--strict', '--noEmit', '--module', module, '--moduleResolution', resolution, '--target', 'es2022',
    '--lib', lib, '--types', 'node', file], { cwd: work, encoding: 'utf8' });
}

for (const resolution of ['node16', 'nodenext', 'bundler']) {
  for (const lib of ['es2022', 'es2022,dom', 'es2022,webworker']) {
    test(`tsc --strict, moduleResolution ${resolution}, lib ${lib}: the package's types compile, \`using\` included`, () => {
      const r = compile('app.ts', { resolution, lib });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const u = compile('using.ts', { resolution, lib });
      assert.equal(u.status, 0, u.stdout + u.stderr);
    });
  }
  test(`tsc --strict, moduleResolution ${resolution}, lib es2022,dom: a page passes its Worker and WebAssembly.Module; a wrong option fails`, () => {
    const page = compile('page.ts', { resolution, lib: 'es2022,dom' });
    assert.equal(page.status, 0, page.stdout + page.stderr);
    const wrong = compile('wrong.ts', { resolution, lib: 'es2022' });
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stdout, /wrong\.ts\(4,[0-9]+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });
}

test('`using` and `await using`, compiled by tsc, dispose the model, the translator and the trainer at the end of the block on this Node', async () => {
  const out = join(work, 'out');
  const r = spawnSync(process.execPath, [tsc, '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022',
    '--lib', 'es2022', '--types', 'node', '--outDir', out, 'using.ts'], { cwd: work, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  const { usingBlocks } = await import(pathToFileURL(join(out, 'using.js')).href);
  const [model, translator, trainer] = await usingBlocks();
  assert.deepEqual([model.disposed, translator.disposed, trainer.disposed], [true, true, true]);
});
