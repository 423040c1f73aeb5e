// The dev server (`npm start`, scripts/serve.mjs) serves the page's folders
// and nothing else of the checkout: no .git/, no node_modules/, no dotfile,
// no source; and it takes its port from --port (an unknown flag is refused,
// not served as a folder).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server;
before(async () => { server = await startServer({ port: 0 }); });
after(() => server.close());

const status = async (path) => (await fetch(`${server.origin}${path}`)).status;

test('the page, its package files and the models are served', async () => {
  assert.equal(await status('/web/'), 200);
  assert.equal(await status('/web/demo/app.js'), 200);
  assert.equal(await status('/models/en-fr.s2s'), 200);
});

test('the rest of the checkout is not: .git, node_modules, dotfiles, sources, package.json', async () => {
  for (const path of ['/.git/config', '/.git/HEAD', '/node_modules/playwright-core/package.json', '/.gitignore',
    '/package.json', '/src/model/model.h', '/scripts/serve.mjs', '/web/.hidden', '/web/%2e%2e/.git/config',
    '/models/../.git/config', '/web/..%2fpackage.json']) {
    assert.equal(await status(path), 404, path);
  }
});

test('--port sets the port; an unknown flag is refused with the usage', async () => {
  const bad = spawnSync(process.execPath, [join(root, 'scripts', 'serve.mjs'), '--prot', '9000'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /usage: node scripts\/serve\.mjs \[--port N\]/);
  const badPort = spawnSync(process.execPath, [join(root, 'scripts', 'serve.mjs'), '--port', 'ninety'], { encoding: 'utf8' });
  assert.equal(badPort.status, 2);
  assert.match(badPort.stderr, /port must be a number/);
  // A free port from the OS, then the server on it.
  const probe = await startServer({ port: 0 });
  const port = probe.port;
  await probe.close();
  const child = spawn(process.execPath, [join(root, 'scripts', 'serve.mjs'), '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const m = out.match(/The demo page: (\S+)/);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    assert.equal(line, `http://localhost:${port}/web/`);
    assert.equal((await fetch(line)).status, 200);
  } finally {
    child.kill();
  }
});

test('every response carries the CORS header, a 404 too: a page on another origin reads a missing model as missing', async () => {
  for (const [path, expected] of [['/models/en-fr.s2s', 200], ['/models/en-xx.s2s', 404], ['/dist/nothing.wasm', 404]]) {
    const response = await fetch(`${server.origin}${path}`);
    assert.equal(response.status, expected, path);
    assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
    await response.arrayBuffer();
  }
  const post = await fetch(`${server.origin}/models/en-fr.s2s`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('access-control-allow-origin'), '*');
  // Redirects too (the root to /web/, a folder to its slash).
  for (const [path, expected] of [['/', 302], ['/web', 301]]) {
    const response = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
    assert.equal(response.status, expected, path);
    assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
  }
});
