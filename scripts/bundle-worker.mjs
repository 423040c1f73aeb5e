// Writes the package's workers as one-file bundles: dist/model-worker.bundle.js
// (the translation worker, dist/model-worker.js, behind createTranslator)
// and dist/training-worker.bundle.js (the training worker,
// dist/training-worker.js, behind createTrainerWorker), each bundled with
// everything it imports (loadModel or the trainer, the results, emscripten's
// glue) into one ES module, so that a page starts a worker after one fetch
// instead of walking a module graph of a dozen files, one round trip per
// level. The demo page starts the first (web/index.html) and hands it to
// createTranslator({ worker }); so can any page that serves dist/ as it is.
// The CMake wasm build runs it: node scripts/bundle-worker.mjs [DIST_DIR]
//
// esbuild is the project's existing dev dependency (the browser tests bundle
// with it too). In the translation worker the trainer's glue (trainer.js
// imports ./s2s-train.js on first training only) is not inlined: it stays
// an external import next to the bundle; the training worker inlines it,
// and carries nothing of the translation runtime (s2s-core: runtime.js,
// which trainer.js does not import; wasm-common.js holds what both share). Each
// bundle lives in dist/, next to the .wasm files and models.js's models/
// folder, so every URL made from import.meta.url stays right.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.argv[2] ?? join(root, 'dist'));

for (const file of ['model-worker.js', 'training-worker.js', 'load-model.js', 'translation.js', 'runtime.js', 'wasm-common.js', 'models.js', 's2s-core.js', 's2s-train.js']) {
  if (!existsSync(join(dist, file))) {
    console.error(`bundle-worker: ${join(dist, file)} is missing; build the wasm modules first (bash scripts/build-wasm.sh)`);
    process.exit(1);
  }
}

const plugin = {
  name: 'seq2seq-worker',
  setup(b) {
    b.onResolve({ filter: /^\.\/s2s-train\.js$/ }, () => ({ path: './s2s-train.js', external: true }));
  },
};

// One worker: dist/NAME.js into dist/NAME.bundle.js; `external` leaves those imports as they are.
async function bundle(name, plugins) {
  const result = await build({
    entryPoints: [join(dist, `${name}.js`)],
    outfile: join(dist, `${name}.bundle.js`),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Minified but for whitespace: the magic comments on the dynamic import
    // of node:fs (wasm-common.js, /* webpackIgnore: true */ /* @vite-ignore */)
    // survive, so that a bundler that bundles this file again (Vite, webpack:
    // the package's default workers) leaves that import alone.
    minifySyntax: true,
    minifyIdentifiers: true,
    legalComments: 'eof',
    logLevel: 'warning',
    metafile: true,
    plugins,
    banner: { js: `// Built by scripts/bundle-worker.mjs from dist/${name}.js and its imports: do not edit.` },
  });
  const [output] = Object.entries(result.metafile.outputs);
  console.log(`bundle-worker: ${output[0]} (${output[1].bytes} bytes, ${Object.keys(result.metafile.inputs).length} modules)`);
}

await bundle('model-worker', [plugin]);
await bundle('training-worker', []);
