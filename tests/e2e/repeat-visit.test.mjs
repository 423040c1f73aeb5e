// Repeat visits in Chromium (issue 19): index.html keeps s2s-core.wasm and
// the model in the Cache API with their ETags and asks the server again with
// If-None-Match. Checked against a server of our own (fresh origin, so the
// cache starts empty) serving copies of dist/ and the model folder: the
// first visit downloads both (200), the second gets 304s and boots from the
// cache, and after the model file changes (a new ETag) the third downloads
// the model again, uses it and stores its new ETag, while the unchanged
// .wasm still comes from the cache.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { modelsFolder, root, startBrowser, waitForTranslation } from './helpers.mjs';

let browser;
let server;
let scratch;

before(async () => {
  browser = await startBrowser();
  scratch = mkdtempSync(join(tmpdir(), 's2s-repeat-visit-'));
  cpSync(join(root, 'dist'), join(scratch, 'dist'), { recursive: true });
  cpSync(modelsFolder() ?? join(root, 'models'), join(scratch, 'models'), { recursive: true });
  server = await startServer({ port: 0, mounts: { '/dist/': join(scratch, 'dist'), '/models/': join(scratch, 'models') } });
});

after(async () => {
  await server?.close();
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const WATCHED = ['/dist/s2s-core.wasm', '/models/en-fr.s2s'];

// One visit: the status and ETag of each watched file's responses, the
// page's marks, and the ETag the page's cache holds for each afterwards.
async function visit() {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const responses = {};
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (WATCHED.includes(path)) (responses[path] ??= []).push({ status: response.status(), etag: response.headers().etag });
  });
  await page.goto(`${server.origin}/web/?text=${encodeURIComponent('i love deep learning .')}`);
  await waitForTranslation(page, 'i love deep learning .');
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));
  const cachedTags = await page.evaluate(async (paths) => {
    const store = await caches.open('s2s-files');
    const tags = {};
    for (const path of paths) tags[path] = (await store.match(new URL(path, location.href).href))?.headers.get('ETag') ?? null;
    return tags;
  }, WATCHED);
  await page.close();
  return { problems, responses, marks, cachedTags };
}

const statuses = (r, path) => (r.responses[path] ?? []).map((x) => x.status);

test('a repeat visit reads unchanged files from the cache (304, no body) and downloads a changed model again', async () => {
  const first = await visit();
  assert.deepEqual(first.problems, []);
  for (const path of WATCHED) {
    assert.deepEqual(statuses(first, path), [200], `${path} on the first visit`);
    assert.equal(first.cachedTags[path], first.responses[path][0].etag, `${path} is cached with its ETag`);
  }

  const second = await visit();
  assert.deepEqual(second.problems, []);
  for (const path of WATCHED) {
    assert.deepEqual(statuses(second, path), [304], `${path} on the second visit: asked again, not downloaded`);
    assert.ok(second.marks.includes(`s2s:from-cache ${path}`), `marks: ${second.marks}`);
  }

  // The model changes on the server: a new modification time is a new ETag.
  const model = join(scratch, 'models', 'en-fr.s2s');
  const later = new Date(statSync(model).mtimeMs + 60_000);
  utimesSync(model, later, later);
  const third = await visit();
  assert.deepEqual(third.problems, []);
  assert.deepEqual(statuses(third, '/models/en-fr.s2s'), [200], 'the changed model is downloaded again');
  const newTag = third.responses['/models/en-fr.s2s'][0].etag;
  assert.notEqual(newTag, first.responses['/models/en-fr.s2s'][0].etag);
  assert.equal(third.cachedTags['/models/en-fr.s2s'], newTag, 'the cache now holds the new model');
  assert.ok(!third.marks.includes('s2s:from-cache /models/en-fr.s2s'), `marks: ${third.marks}`);
  assert.deepEqual(statuses(third, '/dist/s2s-core.wasm'), [304], 'the unchanged .wasm still comes from the cache');
});
