// Writes dist/translator-worker.js: the demo page's translation worker
// (web/worker.js) bundled with everything it imports (the API of dist/index.js,
// dist/diagnostics.js, emscripten's glue s2s-core.js) into one ES module, so
// that the worker starts after one fetch instead of walking a module graph
// of a dozen files, one round trip per level. scripts/build-wasm.sh runs it
// after the wasm build: node scripts/bundle-worker.mjs [DIST_DIR]
//
// esbuild is the project's existing dev dependency (the browser tests bundle
// with it too); no other tool is needed. What it must not do:
//   - follow web/load-api.js's `import(`../dist/${file}`)`, which esbuild
//     would expand to every file of dist/ (the trainer, this bundle itself):
//     load-api.js is replaced here by static imports of the modules the
//     worker uses (models.js, for its modelUrl, is index.js's already);
//   - inline the trainer (runtime.js imports ./s2s-train.js on first
//     training only): it stays an external import next to the bundle.
// The bundle lives in dist/, next to s2s-core.wasm and models.js's
// models/ folder, so every URL made from import.meta.url stays right.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.argv[2] ?? join(root, 'dist'));
const entry = join(root, 'web', 'worker.js');
const loadApi = join(root, 'web', 'load-api.js');

for (const file of ['load-model.js', 'translation.js', 'diagnostics.js', 'models.js', 's2s-core.js']) {
  if (!existsSync(join(dist, file))) {
    console.error(`bundle-worker: ${join(dist, file)} is missing; build the wasm modules first (bash scripts/build-wasm.sh)`);
    process.exit(1);
  }
}

// web/load-api.js with static imports: same exports, same failure wording.
// Only what web/worker.js calls, by name, so that esbuild leaves out the
// rest of the API (createTranslator, word attention, ...): a namespace
// import (import * as) would keep every export.
const staticLoadApi = `
import { loadModel } from ${JSON.stringify(join(dist, 'load-model.js'))};
import { translationBuffer } from ${JSON.stringify(join(dist, 'translation.js'))};
import { preloadRuntime, warmUp } from ${JSON.stringify(join(dist, 'diagnostics.js'))};
import { modelUrl, shippedModels } from ${JSON.stringify(join(dist, 'models.js'))};
const index = { loadModel, shippedModels, translationBuffer };
const bundled = { 'index.js': index, 'diagnostics.js': { preloadRuntime, warmUp }, 'models.js': { modelUrl, shippedModels } };
export function loadPackage(file, what) {
  if (bundled[file]) return Promise.resolve(bundled[file]);
  return Promise.reject(new Error('could not load the ' + what + ' (dist/' + file + '): the bundled translation worker ' +
    'holds only what web/worker.js uses of dist/index.js, dist/diagnostics.js and dist/models.js; add it in scripts/bundle-worker.mjs'));
}
export function getApi() {
  return Promise.resolve(index);
}
`;

const plugin = {
  name: 'seq2seq-worker',
  setup(b) {
    b.onLoad({ filter: /load-api\.js$/ }, (args) => (args.path === loadApi ? { contents: staticLoadApi, loader: 'js', resolveDir: dist } : undefined));
    b.onResolve({ filter: /^\.\/s2s-train\.js$/ }, () => ({ path: './s2s-train.js', external: true }));
  },
};

const result = await build({
  entryPoints: [entry],
  outfile: join(dist, 'translator-worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
  metafile: true,
  plugins: [plugin],
  banner: { js: '// Built by scripts/bundle-worker.mjs from web/worker.js and dist/: do not edit.' },
});
const [output] = Object.entries(result.metafile.outputs);
console.log(`bundle-worker: ${output[0]} (${output[1].bytes} bytes, ${Object.keys(result.metafile.inputs).length} modules)`);
