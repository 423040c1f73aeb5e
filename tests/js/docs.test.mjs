// The README and docs/ say only what is true of this repository: every
// repository path they name exists, every `npm run` script they name is in
// package.json, the README stays short, and the command-line examples run
// as written (those that finish in seconds; training on the full data and
// `npm run` commands are left to their own tests).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { root } from './helpers/models.mjs';

const documents = ['README.md', 'README.zh-CN.md', 'models/README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const text = (file) => readFileSync(join(root, file), 'utf8');
const TOP = /^(src|web|tests|scripts|bench|models|docs|bin|cmake|dist|\.ci)\//;
// Placeholders and patterns, not paths: `models/NAME.s2s`, `tests/fuzz/TARGET.dict`, `src/**/*.cpp`.
// Written by the tests themselves (git-ignored), so absent from a fresh clone.
const GENERATED = new Set(['tests/e2e/artifacts']);
const PLACEHOLDER = /[*{}<>]|\b(NAME|TARGET|FILE|PATH|DIR|OLD|NEW|KEY|SECONDS)\b|\.\.\.|…/;

function namedPaths(file) {
  const body = text(file);
  const paths = new Set();
  for (const [, inline] of body.matchAll(/`([^`\n]+)`/g)) {
    for (const word of inline.split(/[\s,;()]+/)) {
      const candidate = word.replace(/^[./]*(?=[a-z])/, '').replace(/[?#].*$/, '').replace(/[.:]+$/, '');
      if (TOP.test(candidate) && !PLACEHOLDER.test(candidate)) paths.add(candidate);
    }
  }
  // Markdown links of the document itself: not those inside a fenced code
  // block, which are examples for a reader's own files.
  for (const [, target] of body.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;  // a web address
    paths.add(join(dirname(file), target).replace(/\\/g, '/'));
  }
  return [...paths].map((p) => p.replace(/\/$/, ''));
}

// The paths of README.md's fenced Layout block: each line is a folder and
// what it holds, naming files by their own name (found at any depth under
// the line's folder, as `bpe.h` under src/text) or by a path from the root
// (with a slash). Built output (dist/) and test artifacts are left out.
function layoutPaths() {
  const block = text('README.md').match(/^## Layout\n+```\n([\s\S]*?)```/m)?.[1];
  assert.ok(block, 'README.md has no fenced block under "## Layout"');
  const named = [];
  for (const line of block.split('\n').filter(Boolean)) {
    const [folder, ...words] = line.split(/\s+/);
    named.push({ path: folder.replace(/\/$/, ''), folder: '.' });
    for (const raw of words) {
      const word = raw.replace(/^[(`]+/, '').replace(/[),;:`.]+$/, '');
      // A file's own name (lowercase, or all capitals as README.md: not
      // prose such as TensorFlow.js), a folder of the line's (crashes/), or
      // a path from the root (src/wasm/).
      const isFile = /^([a-z0-9_][\w-]*|[A-Z]+)(\.[\w-]+)*\.(h|cpp|js|mjs|md|json|sh|ts|cmake)$/.test(word);
      const isPath = /^[\w.-]+\/[\w./-]*$/.test(word);
      if (!isFile && !isPath) continue;
      const own = !/\/./.test(word);  // no slash but a trailing one: under the line's folder
      named.push({ path: word.replace(/\/$/, ''), folder: own ? folder.replace(/\/$/, '') : '.' });
    }
  }
  return named;
}

// Whether `name` is a file or folder at any depth under `folder`.
function foundUnder(folder, name) {
  const full = join(root, folder);
  if (existsSync(join(full, name))) return true;
  if (!existsSync(full)) return false;
  return readdirSync(full, { recursive: true }).some((entry) => entry === name || entry.endsWith(`/${name}`));
}

test("every path README.md's Layout block names exists", () => {
  const missing = layoutPaths()
    .filter(({ path, folder }) => !/^dist(\/|$)/.test(path) && !GENERATED.has(join(folder, path)))
    .filter(({ path, folder }) => (folder === '.' ? !existsSync(join(root, path)) : !foundUnder(folder, path)))
    .map(({ path, folder }) => (folder === '.' ? path : `${folder}/…/${path}`));
  assert.deepEqual(missing, [], 'the Layout block of README.md names paths that do not exist');
});

// The first ```sh block of a README: its commands, without their comments.
const setUpCommands = (file) => text(file).match(/```sh\n([\s\S]*?)```/)[1].split('\n')
  .map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
const embedSnippet = (file) => text(file).match(/```html\n([\s\S]*?)```/)?.[1] ?? '';

test('README.zh-CN.md gives the same two set-up commands and the same embed snippet as README.md', () => {
  assert.deepEqual(setUpCommands('README.zh-CN.md'), setUpCommands('README.md'));
  assert.deepEqual(setUpCommands('README.md'), ['npm start', 'npm test']);
  assert.ok(embedSnippet('README.md').includes('<seq2seq-attention-demo'), 'README.md has no embed snippet');
  assert.equal(embedSnippet('README.zh-CN.md'), embedSnippet('README.md'));
  assert.match(text('README.zh-CN.md'), /\]\(README\.md\)/, 'README.zh-CN.md links to README.md');
});

// The element observes exactly the attributes of its table (web/embed/embed-attributes.js).
const { ATTRIBUTES } = await import(pathToFileURL(join(root, 'web', 'embed', 'embed-attributes.js')).href);
const observed = Object.keys(ATTRIBUTES);

test('the embed snippet uses only attributes the element observes', () => {
  assert.match(text('web/embed/embed.js'), /observedAttributes = Object\.keys\(ATTRIBUTES\)/);
  const element = embedSnippet('README.md').match(/<seq2seq-attention-demo([^>]*)>/)[1];
  const used = [...element.matchAll(/([\w-]+)(?:="[^"]*")?/g)].map((m) => m[1]);
  assert.deepEqual(used.filter((name) => !observed.includes(name)), []);
  for (const name of ['sentence', 'model', 'view', 'step', 'lang', 'beam', 'readonly', 'tau', 'compare']) assert.ok(observed.includes(name), name);
});

test('docs/page.md and both READMEs\' attribute tables document every attribute of the element, and no other', () => {
  const paragraph = text('docs/page.md').match(/^Attributes: [\s\S]*?\n\n/m)?.[0];
  assert.ok(paragraph, 'docs/page.md has an "Attributes:" paragraph');
  const missing = observed.filter((name) => !paragraph.includes(`\`${name}\``));
  assert.deepEqual(missing, [], 'attributes the element has and docs/page.md does not describe');
  for (const file of ['README.md', 'README.zh-CN.md']) {
    // The table's first column: one attribute a row (sentence's row also names text), then the events.
    const table = text(file).match(/^\| (attribute|属性) \|[\s\S]*?\n\n/m)?.[0];
    assert.ok(table, `${file} has the element's attribute table`);
    const rows = [...table.matchAll(/^\| `([\w-]+)` \|(.*)\|$/gm)];
    const named = rows.map(([, name]) => name);
    assert.deepEqual(observed.filter((name) => !named.includes(name) && !(name === 'text' && rows.some(([, n, rest]) => n === 'sentence' && rest.includes('`text`')))), [],
      `${file}'s attribute table lacks attributes of the element`);
    assert.deepEqual(named.filter((name) => !observed.includes(name)), [], `${file}'s attribute table names attributes the element does not have`);
  }
});

test('README.md stays short enough to read in five minutes (at most 350 lines)', () => {
  const lines = text('README.md').split('\n').length;
  assert.ok(lines <= 350, `README.md has ${lines} lines; move detail into docs/`);
});

for (const file of documents) {
  test(`every repository path ${file} names exists`, () => {
    const missing = namedPaths(file).filter((p) => !GENERATED.has(p) && !existsSync(join(root, p)));
    assert.deepEqual(missing, [], `${file} names paths that do not exist`);
  });

  test(`every npm script ${file} names is in package.json`, () => {
    const scripts = JSON.parse(text('package.json')).scripts;
    const named = [...text(file).matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1].replace(/:$/, ''))
      .filter((name) => !PLACEHOLDER.test(name));
    const unknown = named.filter((name) => !(name in scripts));
    assert.deepEqual(unknown, [], `${file} names npm scripts that package.json lacks`);
  });
}

// The ```sh blocks' lines that run the native CLI and take seconds.
function cliExamples(file) {
  const lines = [];
  for (const [, block] of text(file).matchAll(/```sh\n([\s\S]*?)```/g)) {
    let pending = '';
    for (const raw of block.split('\n')) {
      const line = pending + raw.replace(/\s+#.*$/, '');
      if (line.endsWith('\\')) {
        pending = line.slice(0, -1) + ' ';
        continue;
      }
      pending = '';
      if (!/(^|\| )build\/native\/seq2seq /.test(line)) continue;
      if (/\.\.\/shared\/data/.test(line)) continue;  // the full data: minutes, not seconds
      lines.push(line.trim());
    }
  }
  return lines;
}

test('the command-line examples of the README and docs/cli.md run as written', () => {
  const cli = join(root, 'build', 'native', 'seq2seq');
  assert.ok(existsSync(cli), 'build/native/seq2seq is missing: run npm run build:native');
  const examples = [...cliExamples('docs/cli.md'), ...cliExamples('README.md')];
  assert.ok(examples.length >= 5, `expected the CLI examples, found ${examples.length}`);
  for (const command of examples) {
    const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 0, `\`${command}\` failed (${result.status}):\n${result.stderr}`);
    assert.ok(result.stdout.trim().length > 0 || result.stderr.trim().length > 0, `\`${command}\` printed nothing`);
  }
});

// The quality tables of README.md and docs/models.md are written from the
// evaluations the model files record (scripts/bleu-tables.mjs, run by
// `npm run compare`): a model changed without them fails here.
test("the BLEU tables of README.md and docs/models.md are the model files' own figures", () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'bleu-tables.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

// The chart of docs/bleu-by-length.svg too: drawn again from the records, it
// must be the committed file byte for byte.
test('docs/bleu-by-length.svg is what the model files\' records draw', () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'bleu-chart.mjs'), '--check'], { encoding: 'utf8', cwd: root });
  assert.equal(r.status, 0, r.stderr);
});

// The README's benchmark and script commands (`node bench/...`, `node
// scripts/...`) start: every such file parses, so a command the docs give is
// never a syntax error (bench/cold-start.mjs once was, unnoticed until run).
test('every script under bench/ and scripts/ parses (node --check)', () => {
  const files = ['bench', 'scripts'].flatMap((dir) => readdirSync(join(root, dir)).filter((f) => /\.m?js$/.test(f)).map((f) => `${dir}/${f}`));
  assert.ok(files.length > 10, `scripts found: ${files}`);
  const broken = files.filter((file) => spawnSync(process.execPath, ['--check', join(root, file)]).status !== 0);
  assert.deepEqual(broken, [], `these do not parse: run node --check on them`);
});

test('docs/api.md\'s table of entries has a row for every key of package.json\'s "exports", naming every export of each module entry', async () => {
  const table = text('docs/api.md').split('\n').filter((line) => line.startsWith('| `seq2seq-attention'));
  const row = (entry) => table.find((line) => line.startsWith(`| \`${entry}\` |`)) ?? '';
  const { exports } = JSON.parse(text('package.json'));
  for (const key of Object.keys(exports).filter((k) => k !== './package.json')) {
    const entry = `seq2seq-attention${key.slice(1)}`;
    // './models/*' is written models/NAME; './dist/*.wasm' as …/dist/*.wasm in a row of files.
    const spellings = [entry, entry.replace('*', 'NAME'), `…${key.slice(1)}`];
    assert.ok(table.some((line) => spellings.some((s) => line.includes(`\`${s}\``))), `docs/api.md's entries table has no row for ${key}`);
    const file = typeof exports[key] === 'object' ? exports[key].import : null;
    if (!file || key === './diagnostics') continue;
    const names = Object.keys(await import(join(root, file)));
    for (const name of names) {
      if (key === './figure' && /^[A-Z_]+$/.test(name)) continue;  // the measures, named as "…" after the first
      assert.ok(row(entry).includes(`\`${name}\``), `docs/api.md's row for ${entry} should name ${name}`);
    }
  }
});
