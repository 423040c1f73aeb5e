// Starting the translation runtime from a WebAssembly.Module compiled
// elsewhere (preloadRuntime({ module }), dist/diagnostics.js), as
// createTranslator's worker does with the module the demo page compiled: the module is the
// one instantiated, a module of another build falls back to the file, and
// anything else is refused with a message. The runtime is one per process,
// so each case runs in its own Node process. warmUp() (the worker runs it
// while its model downloads) is checked here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, modelForTests, requireDist } from './helpers/models.mjs';

requireDist();
const modelPath = modelForTests().path;

// Runs `body` (an async function's text, given `api`, `diagnostics`,
// `compile(file)` and `modelPath`) in a fresh process; returns its JSON result.
function inFreshProcess(body) {
  const script = `
    import { readFileSync } from 'node:fs';
    const api = await import(${JSON.stringify(pathToFileURL(join(distDir, 'index.js')).href)});
    const diagnostics = await import(${JSON.stringify(pathToFileURL(join(distDir, 'diagnostics.js')).href)});
    const compile = (file) => WebAssembly.compile(readFileSync(${JSON.stringify(distDir)} + '/' + file));
    const modelPath = ${JSON.stringify(modelPath)};
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify(result));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

test('preloadRuntime({ module }) instantiates that module, and models load and translate on it', () => {
  const r = inFreshProcess(`
    const module = await compile('s2s-core.wasm');
    // Record what gets instantiated: the runtime must use this module.
    const instantiated = [];
    const original = WebAssembly.instantiate;
    WebAssembly.instantiate = (what, imports) => { instantiated.push(what); return original(what, imports); };
    await diagnostics.preloadRuntime({ module });
    WebAssembly.instantiate = original;
    const model = await api.loadModel(modelPath);
    const translation = model.translate('I see the cat.');
    return { count: instantiated.length, usedModule: instantiated.every((x) => x === module),
      text: translation.text, rows: translation.attention.length };`);
  assert.equal(r.count, 1);
  assert.equal(r.usedModule, true, 'the runtime compiled the file again instead of using the module');
  assert.ok(r.text.length > 0);
  assert.ok(r.rows > 0);
});

test("a module of another build (the trainer's) does not fit: the runtime loads its own file and works", () => {
  const r = inFreshProcess(`
    await diagnostics.preloadRuntime({ module: await compile('s2s-train.wasm') });
    const model = await api.loadModel(modelPath);
    return { text: model.translate('I see the cat.').text };`);
  assert.ok(r.text.length > 0);
});

test('preloadRuntime refuses what is not a WebAssembly.Module, and the runtime can still start after', () => {
  const r = inFreshProcess(`
    let message = null;
    try { await diagnostics.preloadRuntime({ module: new Uint8Array(8) }); } catch (error) { message = error instanceof TypeError && error.message; }
    await diagnostics.preloadRuntime();
    const model = await api.loadModel(modelPath);
    return { message, text: model.translate('I see the cat.').text };`);
  assert.match(r.message, /WebAssembly\.Module/);
  assert.ok(r.text.length > 0);
});

test('a module given after the runtime started is ignored: the same runtime, no second instance', () => {
  const r = inFreshProcess(`
    await diagnostics.preloadRuntime();
    const before = await diagnostics.memoryStats();
    let instantiated = 0;
    const original = WebAssembly.instantiate;
    WebAssembly.instantiate = (what, imports) => { instantiated += 1; return original(what, imports); };
    await diagnostics.preloadRuntime({ module: await compile('s2s-core.wasm') });
    WebAssembly.instantiate = original;
    return { instantiated, same: (await diagnostics.memoryStats()).heapBytes === before.heapBytes };`);
  assert.equal(r.instantiated, 0);
  assert.equal(r.same, true);
});

test('warmUp() runs its tiny model, keeps nothing in the heap, and a real model loads after it', () => {
  const r = inFreshProcess(`
    await diagnostics.preloadRuntime();
    const before = (await diagnostics.memoryStats()).usedBytes;
    const ran = await diagnostics.warmUp();
    const after = (await diagnostics.memoryStats()).usedBytes;
    const model = await api.loadModel(modelPath);
    return { ran, before, after, text: model.translate('I see the cat.').text };`);
  assert.equal(r.ran, true);
  assert.equal(r.after, r.before, 'warmUp left bytes allocated in the heap');
  assert.ok(r.text.length > 0);
});
