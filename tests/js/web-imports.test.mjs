// The page is a client of the package's public API (issue 44): every file
// of dist/ that anything under web/ imports, fetches or starts (an import,
// a dynamic import, loadPackage('NAME'), new URL('../dist/...'), a script
// or link in HTML) is one that package.json's "exports" names, so what the
// page uses is what any user of the package can use, with its types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { root } from './helpers/models.mjs';

const exportsField = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports;

/** Every file path "exports" can resolve to ('./dist/x.js'), patterns as RegExps. */
function exportTargets() {
  const targets = [];
  const collect = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  Object.values(exportsField).forEach(collect);
  return targets.map((target) => new RegExp(`^${target.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('\\*', '.+').replace('*', '[^]+')}$`));
}

/** The dist/ files a web/ file refers to, with the text that refers to each. */
export function distReferences(text) {
  const found = [];
  for (const [whole, file] of text.matchAll(/['"`](?:\.\.?\/)*dist\/([^'"`$]+)['"`]/g)) found.push([file, whole]);
  for (const [whole, file] of text.matchAll(/loadPackage\(\s*['"`]([^'"`]+)['"`]/g)) found.push([file, whole]);
  return found;
}

function webFiles(dir = join(root, 'web')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(path);
    return /\.(js|mjs|html)$/.test(entry.name) && entry.name !== 'page-boot.js' ? [path] : [];
  });
}

test('the check finds each way of referring to a dist/ file (it can fail)', () => {
  const sample = `import { a } from '../dist/options.js';
const m = await import("../dist/models.js");
loadPackage('translation.js', 'what');
new Worker(new URL('../dist/model-worker.js', import.meta.url));
<script src="../dist/page-boot.js"></script>
// a comment about dist/figure.js is not a reference`;
  assert.deepEqual(distReferences(sample).map(([file]) => file), ['options.js', 'models.js', 'model-worker.js', 'page-boot.js', 'translation.js']);
  const named = exportTargets();
  assert.ok(named.some((re) => re.test('./dist/data.js')));
  assert.ok(named.some((re) => re.test('./dist/s2s-core.wasm')));
  assert.ok(!named.some((re) => re.test('./dist/options.js')));
});

test('web/ refers only to dist/ files that package.json "exports" names', () => {
  const named = exportTargets();
  const outside = [];
  const files = webFiles();
  // Every folder of web/ is read, not only its top.
  for (const folder of ['demo', 'train', 'embed', 'figures', 'figures/i18n']) {
    assert.ok(files.some((file) => dirname(relative(join(root, 'web'), file)).replace(/\\/g, '/') === folder), `no file read in web/${folder}/`);
  }
  for (const file of files) {
    for (const [target, text] of distReferences(readFileSync(file, 'utf8'))) {
      if (!named.some((re) => re.test(`./dist/${target}`))) outside.push(`${relative(root, file)}: ${text}`);
    }
  }
  assert.deepEqual(outside, []);
});

/** The web/ files `file` imports (static, dynamic with a literal, `new URL('./x.js', import.meta.url)`), relative to web/. */
export function webImports(file, text = readFileSync(file, 'utf8')) {
  const web = join(root, 'web');
  const specifiers = [
    ...[...text.matchAll(/\b(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]),
    ...[...text.matchAll(/new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/g)].map((m) => m[1]),
  ];
  return specifiers.filter((spec) => /\.m?js$/.test(spec))
    .map((spec) => relative(web, join(dirname(file), spec)).replace(/\\/g, '/')).filter((path) => !path.startsWith('..'));
}

// web/ is layered: the three apps (demo/, train/, embed/) sit side by side
// on figures/, the kit they share; the pages and the element's address
// (web/*.html, web/embed.js) sit on top.
const LEVEL = { '.': 2, demo: 1, train: 1, embed: 1, figures: 0 };
const folderOf = (path) => (path.includes('/') ? path.split('/')[0] : '.');

test('web/: no import climbs back up (figures/ imports no app), no app imports another, no cycle', () => {
  const web = join(root, 'web');
  const graph = new Map(webFiles().filter((file) => file.endsWith('.js')).map((file) => [relative(web, file).replace(/\\/g, '/'), webImports(file)]));
  const wrong = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a !== b && LEVEL[b] >= LEVEL[a]) wrong.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(wrong, []);
  const cycles = [];
  const state = new Map();
  const visit = (file, path) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') { cycles.push([...path.slice(path.indexOf(file)), file].join(' -> ')); return; }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('the layering check sees an import that climbs (it can fail)', () => {
  const file = join(root, 'web', 'figures', 'x.js');
  assert.deepEqual(webImports(file, "import { a } from '../demo/app.js';\nimport('./dom.js');\nnew URL('../train/train-worker.js', import.meta.url);"),
    ['demo/app.js', 'figures/dom.js', 'train/train-worker.js']);
  assert.ok(LEVEL[folderOf('demo/app.js')] >= LEVEL[folderOf('figures/x.js')]);
});
