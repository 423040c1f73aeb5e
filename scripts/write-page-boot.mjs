// Writes web/demo/page-boot.js (git-ignored), the demo page's start script, from its source
// web/demo/boot.src.js with its two lists filled in from their owners:
//   /*@PAGE_MODELS*/[]  the models the page offers, default first
//                        (web/figures/page-model-list.js over the package's data, read from dist/);
//   /*@PRELOAD*/[]       the modules the page imports as it starts, as
//                        modulepreload hrefs relative to web/ (the page is
//                        web/index.html): the static import graph of
//                        web/demo/app.js, and the package modules
//                        (dist/) that its start-up modules load with
//                        loadPackage('NAME'), with their own imports.
// The CMake wasm build runs it after copying src/wasm/ to dist/:
//   node scripts/write-page-boot.mjs [DIST_DIR]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');

// The page's modules that load package modules by name as the page starts
// (the first translation needs createTranslator at once: translator.js).
export const START_MODULES = ['demo/app.js', 'figures/page-models.js', 'figures/translator.js'];

// Static imports only (`import ... from './x.js'`, `import './x.js'`,
// `export ... from './x.js'`); dynamic import() is loaded when used.
function staticImports(file) {
  const body = readFileSync(file, 'utf8');
  const specifiers = [];
  for (const [, spec] of body.matchAll(/^\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]/gm)) specifiers.push(spec);
  for (const [, spec] of body.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specifiers.push(spec);
  return specifiers.filter((spec) => spec.startsWith('.')).map((spec) => join(dirname(file), spec));
}

/** Every file `entry` imports, directly or not (absolute paths). */
export function importGraph(entry) {
  const seen = new Set();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop();
    for (const dep of staticImports(file)) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      pending.push(dep);
    }
  }
  return seen;
}

/** The modulepreload list: every module the page imports as it starts, relative to web/, sorted. */
export function startUpModules(dist) {
  const files = new Set(importGraph(join(web, 'demo', 'app.js')));
  for (const file of START_MODULES) {
    const body = readFileSync(join(web, file), 'utf8');
    for (const [, name] of body.matchAll(/loadPackage\(\s*'([^']+)'/g)) {
      const entry = join(dist, name);
      files.add(entry);
      for (const dep of importGraph(entry)) files.add(dep);
    }
  }
  return [...files].map((file) => relative(web, file).replace(/\\/g, '/')).sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? join(root, 'dist'));
  const { pageModels } = await import(pathToFileURL(join(web, 'figures', 'page-model-list.js')).href);
  const data = await import(pathToFileURL(join(dist, 'data.js')).href);
  const source = readFileSync(join(web, 'demo', 'boot.src.js'), 'utf8');
  const fill = (text, marker, list) => {
    const placeholder = `/*@${marker}*/[]`;
    if (!text.includes(placeholder)) throw new Error(`write-page-boot: web/demo/boot.src.js has no ${placeholder}`);
    return text.replace(placeholder, JSON.stringify(list).replaceAll('"', "'").replaceAll("','", "', '"));
  };
  let out = fill(source, 'PAGE_MODELS', pageModels(data));
  out = fill(out, 'PRELOAD', startUpModules(dist));
  writeFileSync(join(web, 'demo', 'page-boot.js'), `// Built by scripts/write-page-boot.mjs from web/demo/boot.src.js: do not edit.\n${out}`);
  console.log(`write-page-boot: ${join(web, 'demo', 'page-boot.js')}`);
}
