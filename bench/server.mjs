// The benchmark page's server (bench/browser.html, driven by bench/run.mjs):
// the demo page's server (scripts/serve.mjs: web/, dist/, models/) plus
// bench/, and TF.js's UMD bundles and .wasm files, node_modules/@tensorflow,
// mounted at /tfjs/ (the page server never serves a URL with node_modules in
// it). tests/js/bench-server.test.mjs fetches every file the page names.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVED_FOLDERS, startServer } from '../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Starts it on a free port; resolves to startServer's { origin, url, close() }. */
export function startBenchServer() {
  return startServer({ port: 0, folders: [...SERVED_FOLDERS, 'bench'], mounts: { '/tfjs/': join(root, 'node_modules', '@tensorflow') } });
}
