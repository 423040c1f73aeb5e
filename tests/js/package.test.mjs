// A real client of the npm package: `npm pack` the repository, install the
// tarball into a fresh folder with its own package.json, then import
// 'seq2seq-attention' there and load a shipped model by name, and run its bin
// the way users do (npx). Until models/ holds the shipped models, the tiny
// test model stands in for models/en-fr.s2s inside the installed package.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanUpModels, modelForTests, requireDist, root } from './helpers/models.mjs';
import { readmeExample } from './helpers/readme.mjs';

requireDist();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let work;
let app;        // the client's folder
let packed;     // npm pack's report: files in the tarball

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 180_000, ...options });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-package-'));
  // --ignore-scripts: test.sh has just built dist/; prepack would only check it again.
  const pack = run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root });
  assert.equal(pack.code, 0, pack.err);
  [packed] = JSON.parse(pack.out);
  const tarball = join(work, packed.filename);

  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'client-app', private: true, type: 'module' }, null, 2));
  const install = run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: app });
  assert.equal(install.code, 0, install.err);

  const installedModels = join(app, 'node_modules', 'seq2seq-attention', 'models');
  if (!existsSync(join(installedModels, 'en-fr.s2s'))) copyFileSync(modelForTests().path, join(installedModels, 'en-fr.s2s'));
});

after(() => {
  rmSync(work, { recursive: true, force: true });
  cleanUpModels();
});

test('the tarball holds dist/, models/, web/ (the embeddable page), the bin and the types, and nothing from the source tree', (t) => {
  const files = packed.files.map((f) => f.path);
  for (const file of ['package.json', 'README.md', 'README.zh-CN.md', 'web/figures/i18n/zh-CN.js', 'dist/index.js', 'dist/index.d.ts', 'dist/s2s-core.js',
    'dist/s2s-core.wasm', 'bin/seq2seq-attention.js', 'web/embed.js', 'web/embed/embed.js', 'web/index.html']) {
    assert.ok(files.includes(file), `${file} is packed`);
  }
  const shipped = readdirSync(join(root, 'models')).filter((f) => f.endsWith('.s2s'));
  for (const model of shipped) assert.ok(files.includes(`models/${model}`), `models/${model} is packed`);
  assert.ok(files.some((f) => f.startsWith('models/')), 'models/ is packed');
  for (const file of files) assert.match(file, /^(package\.json|README(\.zh-CN)?\.md|LICENSE|dist\/|models\/|bin\/|web\/|docs\/)/, `${file} should not be packed`);
  t.diagnostic(`${packed.filename}: ${files.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
});

test('a fresh project imports seq2seq-attention and translates with a shipped model by name', () => {
  writeFileSync(join(app, 'main.js'), `
import { loadModel } from 'seq2seq-attention';
const model = await loadModel('en-fr');
const r = model.translate('I see the cat.', { beamSize: 2 });
console.log(JSON.stringify({ resolved: import.meta.resolve('seq2seq-attention'), name: model.info.name, r }));
model.dispose();
`);
  const r = run(process.execPath, ['main.js'], { cwd: app });
  assert.equal(r.code, 0, r.err);
  const { resolved, name, r: result } = JSON.parse(r.out);
  assert.match(resolved, /\/app\/node_modules\/seq2seq-attention\/dist\/index\.js$/, 'resolved through the exports map');
  assert.equal(name, 'en-fr');
  assert.ok(result.text.length > 0);
  assert.equal(result.attention.length, result.targetTokens.length);
  // The words as the model read them (lowercased); the shipped models read them as subword pieces.
  assert.deepEqual(result.sourceWords.map((word) => word.text), ['i', 'see', 'the', 'cat', '.', '<eos>']);
  assert.equal(result.sourceWords.at(-1).end, result.sourceTokens.length);
  assert.ok(existsSync(join(app, 'node_modules', 'seq2seq-attention', 'dist', 'index.d.ts')), 'types installed');
});

test("the diagnostics hooks are their own entry point, seq2seq-attention/diagnostics, sharing the API's runtime", () => {
  writeFileSync(join(app, 'diagnostics.js'), `
import { loadModel } from 'seq2seq-attention';
import { memoryStats, preloadRuntime } from 'seq2seq-attention/diagnostics';
await preloadRuntime();
const empty = (await memoryStats()).usedBytes;
const model = await loadModel('en-fr');
const loaded = (await memoryStats()).usedBytes;
model.dispose();
console.log(JSON.stringify({ resolved: import.meta.resolve('seq2seq-attention/diagnostics'), empty, loaded, after: (await memoryStats()).usedBytes }));
`);
  const r = run(process.execPath, ['diagnostics.js'], { cwd: app });
  assert.equal(r.code, 0, r.err);
  const { resolved, empty, loaded, after: disposed } = JSON.parse(r.out);
  assert.match(resolved, /\/app\/node_modules\/seq2seq-attention\/dist\/diagnostics\.js$/);
  assert.ok(loaded > empty, 'the model is on the heap memoryStats() measures');
  assert.equal(disposed, empty);
  assert.ok(existsSync(join(app, 'node_modules', 'seq2seq-attention', 'dist', 'diagnostics.d.ts')), 'its types installed');
});

test("the README's Node example runs as written", () => {
  writeFileSync(join(app, 'readme-example.mjs'), readmeExample('js'));
  const r = run(process.execPath, ['readme-example.mjs'], { cwd: app });
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.split('\n')[0].trim().length > 0, 'prints the translation first');
  assert.match(r.out, /'<eos>'/, 'then the tokens');
});

test('its bin translates from the command line: text, --json, --beam, stdin and errors', () => {
  const npx = (args, input) => run('npx', ['--offline', '--no-install', 'seq2seq-attention', ...args], { cwd: app, input });
  const plain = npx(['translate', '--model', 'en-fr', 'I see the cat.']);
  assert.equal(plain.code, 0, plain.err);
  assert.equal(plain.out.split('\n').length, 2, 'one line');
  assert.ok(plain.out.trim().length > 0);

  const json = npx(['translate', '--model', 'en-fr', '--json', '--beam', '3', 'I see the cat.']);
  assert.equal(json.code, 0, json.err);
  const result = JSON.parse(json.out);
  assert.equal(result.text, result.hypotheses[0].text);
  assert.ok(result.hypotheses.length >= 1 && result.hypotheses.length <= 3);
  assert.equal(result.attention.length, result.targetTokens.length);

  const lines = npx(['translate', '--model', 'en-fr'], 'I see the cat.\n\nWe drink water.\n');
  assert.equal(lines.code, 0, lines.err);
  const out = lines.out.split('\n');
  assert.equal(out.length, 4, 'one line out per line in');
  assert.equal(out[0], plain.out.trim());
  assert.equal(out[1], '');

  for (const [args, message] of [
    [['translate', '--model', 'en-fr', '--beam', '0', 'hi'], /--beam must be a whole number from 1 to 16/],
    [['translate', '--model', 'nope', 'hi'], /no model named 'nope'/],
    [['translate', '--bogus'], /unknown flag --bogus \(see seq2seq-attention --help\)/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ]) {
    const r = npx(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.equal(r.out, '');
  }
  const help = npx(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /usage: seq2seq-attention translate/);
});
