// The page is a client of the package's public API (issue 44): every file
// of dist/ that anything under web/ imports, fetches or starts (an import,
// a dynamic import, loadPackage('NAME'), new URL('../dist/...'), a script
// or link in HTML) is one that package.json's "exports" names, so what the
// page uses is what any user of the package can use, with its types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
  for (const file of webFiles()) {
    for (const [target, text] of distReferences(readFileSync(file, 'utf8'))) {
      if (!named.some((re) => re.test(`./dist/${target}`))) outside.push(`${relative(root, file)}: ${text}`);
    }
  }
  assert.deepEqual(outside, []);
});
