// jest, as the README tells its users to run it: the packed tarball installed
// into a fresh folder as `npm install` would, and one test file per jest 30
// environment (node, jsdom from jest-environment-jsdom, happy-dom from
// @happy-dom/jest-environment; each chosen by a @jest-environment docblock)
// that loads en-fr by name, by the model module's URL and by its bytes,
// translates a sentence and translates it again with createTranslator. jest
// runs with the README's NODE_OPTIONS and no configuration at all: no
// setupFiles, no globals, so no TextDecoder or other polyfill (jest's jsdom
// has no TextDecoder: issue 47). jest and the environments come from the
// project's devDependencies, as the bundlers do in bundlers.test.mjs.
//
// Each jest test writes what it saw to a JSON file, so that the checks here
// fail on a wrong translation as well as on a failed jest run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireDist, root } from './helpers/models.mjs';

requireDist();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const SENTENCE = 'The cat is sleeping.';
// name in the report, the docblock's environment, whether it has a window
const ENVIRONMENTS = [
  ['node', 'node', false],
  ['jsdom', 'jsdom', true],
  ['happy-dom', '@happy-dom/jest-environment', true],
];
let work;
let app;

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000, ...options });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? String(r.error ?? '') };
}

// The README's jest command: "jest run as ES modules (`NODE_OPTIONS=… npx jest`)".
function readmeNodeOptions() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const match = readme.match(/`NODE_OPTIONS=(\S+) npx jest`/);
  assert.ok(match, 'README.md names the NODE_OPTIONS jest runs with (`NODE_OPTIONS=… npx jest`)');
  return match[1];
}

const testFile = (environment, report) => `/** @jest-environment ${environment} */
import { readFile, writeFile } from 'node:fs/promises';
import { createTranslator, loadModel } from 'seq2seq-attention';
import enFr from 'seq2seq-attention/models/en-fr';

test('translates with the package', async () => {
  const byName = await loadModel('en-fr');
  const byUrl = await loadModel(enFr);
  const byBytes = await loadModel(await readFile(enFr));
  const texts = [byName, byUrl, byBytes].map((m) => m.translate(${JSON.stringify(SENTENCE)}).text);
  for (const m of [byName, byUrl, byBytes]) m.dispose();
  const translator = await createTranslator(enFr);
  const off = await translator.translate(${JSON.stringify(SENTENCE)});
  await translator.dispose();
  await writeFile(${JSON.stringify(report)}, JSON.stringify({
    texts, translator: { backend: translator.backend, text: off.text },
    window: typeof window, TextDecoder: typeof TextDecoder,
  }));
  expect(texts[0]).toMatch(/chat/i);
  expect(texts[1]).toBe(texts[0]);
  expect(texts[2]).toBe(texts[0]);
  expect(off.text).toBe(texts[0]);
}, 120000);
`;

before(() => {
  work = mkdtempSync(join(tmpdir(), 's2s-jest-'));
  const pack = run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root });
  assert.equal(pack.code, 0, pack.err);
  const [packed] = JSON.parse(pack.out);
  app = join(work, 'app');
  mkdirSync(join(app, 'test'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'jest-app', private: true, type: 'module' }, null, 2));
  const install = run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)], { cwd: app });
  assert.equal(install.code, 0, install.err);
  for (const [name, environment] of ENVIRONMENTS) {
    writeFileSync(join(app, 'test', `${name}.test.js`), testFile(environment, join(work, `${name}.json`)));
  }
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// jest as a user runs it from the app's folder: the README's NODE_OPTIONS,
// jest's own NODE_ENV (test), its cache inside the temporary folder.
function jestRun(args) {
  const { NODE_ENV, NODE_OPTIONS, ...env } = process.env;
  return run(process.execPath, [jest, '--ci', '--cacheDirectory', join(work, 'jest-cache'), ...args],
    { cwd: app, env: { ...env, NODE_OPTIONS: readmeNodeOptions(), CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' } });
}

test('jest runs with no configuration: no setup files, no globals, no transform of the package', () => {
  const r = jestRun(['--showConfig']);
  assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  const [config] = JSON.parse(r.out).configs;
  assert.deepEqual(config.setupFiles, [], 'no setupFiles (a polyfill would go there)');
  assert.deepEqual(config.setupFilesAfterEnv, []);
  assert.deepEqual(config.globals, {});
  assert.deepEqual(config.moduleNameMapper, []);
  assert.ok(config.transformIgnorePatterns.some((p) => p.includes('node_modules')), 'the package is not transformed');
});

for (const [name, environment, hasWindow] of ENVIRONMENTS) {
  const label = name === environment ? name : `${name} (${environment})`;
  test(`jest 30, ${label} environment: the package translates, in the package's worker too`, (t) => {
    const report = join(work, `${name}.json`);
    const r = jestRun(['--runTestsByPath', join('test', `${name}.test.js`)]);
    const summary = r.err.split('\n').filter((line) => /✓|✕|Tests:|●/.test(line)).join(' | ');
    t.diagnostic(summary);
    assert.equal(r.code, 0, `jest failed under ${environment}:\n${r.out}\n${r.err}`);
    assert.match(r.err, /Tests:\s+1 passed, 1 total/);
    assert.ok(existsSync(report), `the jest test under ${environment} wrote its report`);
    const seen = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(seen.window, hasWindow ? 'object' : 'undefined', `the test ran in ${environment}`);
    assert.match(seen.texts[0], /chat/i, 'the cat is a chat');
    assert.deepEqual(seen.texts, [seen.texts[0], seen.texts[0], seen.texts[0]], 'by name, by URL and by bytes alike');
    assert.equal(seen.translator.backend, 'worker', 'createTranslator runs in a worker_threads worker');
    assert.equal(seen.translator.text, seen.texts[0]);
    t.diagnostic(`${name}: "${seen.texts[0]}"; global TextDecoder: ${seen.TextDecoder}; createTranslator: ${seen.translator.backend}`);
  });
}
