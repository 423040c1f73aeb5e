// A user's app, as the bundler tests build it (tests/js/bundlers.test.mjs:
// the translator; tests/js/bundlers-trainer.test.mjs: the trainer): the
// package packed with `npm pack`, installed into a fresh folder as `npm
// install` would, and the app built by each bundler the README names, each
// configured as the README says (Rollup with its two plugins, esbuild with
// the README's `cp` step run as written). Nothing is copied by hand.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './models.mjs';
import { readmeBlockAfter } from './readme.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command to its end; { code, out, err }. */
export function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000, ...options });
  return { code: r.status, out: r.stdout, err: r.stderr ?? String(r.error ?? '') };
}

function mustRun(command, args, options) {
  const r = run(command, args, options);
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.code}): ${r.err}`);
  return r.out;
}

/**
 * Packs this checkout into `work`, and installs the tarball into `work`/app,
 * whose package.json is the app's own; then writes `files` ({ 'src/main.js':
 * text, ... }) there. Resolves to the app's folder. Both offline: neither
 * needs the registry, and npm's update check alone, with no network, kept
 * `npm pack` waiting almost 4 minutes.
 */
export function packedApp(work, files) {
  const [packed] = JSON.parse(mustRun(npm, ['pack', '--json', '--ignore-scripts', '--offline', '--pack-destination', work], { cwd: root }));
  const app = join(work, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'bundled-app', private: true, type: 'module' }, null, 2));
  mustRun(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)], { cwd: app });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(app, path, '..'), { recursive: true });
    writeFileSync(join(app, path), text);
  }
  return app;
}

// Each bundler builds the app's src/main.js into outDir (main.js there, with
// index.html from `html`, except Vite, which builds the app's own
// index.html); each resolves to the warnings it gave, as text.
export const builders = {
  async vite(app, outDir) {
    const { build } = await import('vite');
    const warnings = [];
    const logger = { info() {}, warn: (m) => warnings.push(m), warnOnce: (m) => warnings.push(m), error: (m) => warnings.push(m),
      clearScreen() {}, hasErrorLogged: () => false, hasWarned: false };
    await build({ root: app, logLevel: 'warn', customLogger: logger, configFile: false, build: { outDir, emptyOutDir: true } });
    return warnings;
  },
  async webpack(app, outDir, html) {
    const { default: webpack } = await import('webpack');
    const stats = await new Promise((resolve, reject) => {
      webpack({
        mode: 'production', context: app, entry: './src/main.js', devtool: false,
        output: { path: outDir, filename: 'main.js', clean: true },
        // Size hints are about the app's own assets (a 3 MB model is one):
        // off, so that any warning left is the package's.
        performance: { hints: false },
      }, (error, result) => (error ? reject(error) : resolve(result)));
    });
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    writeFileSync(join(outDir, 'index.html'), html);
    return stats.hasWarnings() ? [stats.toString('errors-warnings')] : [];
  },
  async rollup(app, outDir, html) {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const { importMetaAssets } = await import('@web/rollup-plugin-import-meta-assets');
    const warnings = [];
    const bundle = await rollup({
      input: join(app, 'src', 'main.js'),
      plugins: [nodeResolve({ rootDir: app }), importMetaAssets()],
      onwarn: (warning) => warnings.push(warning.message),
    });
    await bundle.write({ dir: outDir, format: 'es', entryFileNames: 'main.js' });
    await bundle.close();
    writeFileSync(join(outDir, 'index.html'), html);
    return warnings;
  },
  // esbuild, then the README's step that follows the line containing
  // `readmeMarker`, run as written from the app's folder, its `dist/`
  // (where the README's bundle is) made outDir.
  async esbuild(app, outDir, html, readmeMarker = '**esbuild**') {
    const { build } = await import('esbuild');
    const built = await build({
      absWorkingDir: app, entryPoints: ['src/main.js'], bundle: true, format: 'esm', outfile: join(outDir, 'main.js'), logLevel: 'silent',
    });
    if (built.errors.length) throw new Error(built.errors.map((e) => e.text).join('; '));
    const step = readmeBlockAfter(readmeMarker, 'sh').trim().replace(/ dist\/$/gm, ` ${relative(app, outDir)}/`);
    mustRun('bash', ['-c', step], { cwd: app });
    writeFileSync(join(outDir, 'index.html'), html);
    return built.warnings.map((w) => w.text);
  },
};
