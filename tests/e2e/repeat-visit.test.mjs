// Repeat visits in Chromium (issue 19): index.html keeps s2s-core.wasm and
// the model in the Cache API, and their ETags in localStorage ("s2s-etags"),
// and asks the server again with If-None-Match at once, without waiting for
// the cache. Checked against a server of our own (fresh origin, so the cache
// starts empty) serving copies of dist/ and the model folder:
// - the first visit downloads both (200, no If-None-Match), stores them and
//   their ETags; the second sends the stored ETags, gets 304s and boots from
//   the cache; after the model file changes (a new ETag) the next visit
//   downloads the model again, uses it and stores it and its new ETag, while
//   the unchanged .wasm still comes from the cache;
// - a tag whose cached copy is gone (the cache was cleared, localStorage
//   not): the 304 is followed by a full download without the header;
// - offline (the requests fail): the page boots from the cached copies.
//
// The page stores a downloaded file in the background (Cache API put, then the
// tag, then the mark "s2s:cached PATH"), which can finish after the
// translation is on screen: each visit waits for the marks of the files it
// downloaded before it reads the cache or closes the page (closing it could
// cut the write short and turn the next visit's 304 into a download).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { modelsFolder, root, useBrowser, waitForTranslation } from './helpers.mjs';

const browser = useBrowser();
let server;
let scratch;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 's2s-repeat-visit-'));
  cpSync(join(root, 'dist'), join(scratch, 'dist'), { recursive: true });
  cpSync(modelsFolder() ?? join(root, 'models'), join(scratch, 'models'), { recursive: true });
  server = await startServer({ port: 0, mounts: { '/dist/': join(scratch, 'dist'), '/models/': join(scratch, 'models') } });
});

after(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const WASM = '/dist/s2s-core.wasm';
const MODEL = '/models/en-fr.s2s';
const WATCHED = [WASM, MODEL];
const TEXT = 'i love deep learning .';

// One visit: each watched file's requests (the If-None-Match sent, the status
// and ETag answered), the page's marks, and afterwards the ETag of each file
// in the page's cache and in its localStorage tags. `prepare(page)` runs
// before the page opens.
async function visit(prepare = async () => {}, { waitForStored = true } = {}) {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const requests = {};
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (!WATCHED.includes(path)) return;
    (requests[path] ??= []).push({
      ifNoneMatch: response.request().headers()['if-none-match'] ?? null,
      status: response.status(),
      etag: response.headers().etag,
    });
  });
  await prepare(page);
  await page.goto(`${server.origin}/web/?text=${encodeURIComponent(TEXT)}`);
  await waitForTranslation(page, TEXT);
  // Every file this visit downloaded in full (a 200) is stored in the
  // background: wait for its mark (a state, read again until it is there).
  const downloaded = waitForStored ? WATCHED.filter((path) => (requests[path] ?? []).some((r) => r.status === 200)) : [];
  await page.waitForFunction((paths) => {
    const marks = new Set(performance.getEntriesByType('mark').map((m) => m.name));
    return paths.every((path) => marks.has(`s2s:cached ${path}`));
  }, downloaded, { timeout: 30_000 });
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));
  const stored = await page.evaluate(async (paths) => {
    const store = await caches.open('s2s-files');
    const tags = JSON.parse(localStorage.getItem('s2s-etags') ?? '{}');
    const result = {};
    for (const path of paths) {
      const href = new URL(path, location.href).href;
      result[path] = { cached: (await store.match(href))?.headers.get('ETag') ?? null, tag: tags[href] ?? null };
    }
    return result;
  }, WATCHED);
  await page.close();
  return { problems, requests, marks, stored };
}

const statuses = (r, path) => (r.requests[path] ?? []).map((x) => x.status);
const sentTags = (r, path) => (r.requests[path] ?? []).map((x) => x.ifNoneMatch);

// Empties the origin's cache and tags (each test starts as a first visit).
async function forget() {
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/web/figures/features.js`);
  await page.evaluate(async () => {
    localStorage.removeItem('s2s-etags');
    await caches.delete('s2s-files');
  });
  await page.close();
}

test('a repeat visit sends the stored ETags (If-None-Match), gets 304s and reads the cache; a changed model is downloaded again', async () => {
  await forget();
  const first = await visit();
  assert.deepEqual(first.problems, []);
  for (const path of WATCHED) {
    assert.deepEqual(statuses(first, path), [200], `${path} on the first visit`);
    assert.deepEqual(sentTags(first, path), [null], `${path}: no ETag to send yet`);
    const etag = first.requests[path][0].etag;
    assert.ok(etag, `${path} has an ETag`);
    assert.deepEqual(first.stored[path], { cached: etag, tag: etag }, `${path} is cached, its ETag in localStorage`);
  }

  const second = await visit();
  assert.deepEqual(second.problems, []);
  for (const path of WATCHED) {
    assert.deepEqual(sentTags(second, path), [first.requests[path][0].etag], `${path}: the stored ETag is sent`);
    assert.deepEqual(statuses(second, path), [304], `${path} on the second visit: asked again, not downloaded`);
    assert.ok(second.marks.includes(`s2s:from-cache ${path}`), `marks: ${second.marks}`);
  }

  // The model changes on the server: a new modification time is a new ETag.
  const model = join(scratch, 'models', 'en-fr.s2s');
  const later = new Date(statSync(model).mtimeMs + 60_000);
  utimesSync(model, later, later);
  const third = await visit();
  assert.deepEqual(third.problems, []);
  assert.deepEqual(sentTags(third, MODEL), [first.requests[MODEL][0].etag], 'the old ETag is sent');
  assert.deepEqual(statuses(third, MODEL), [200], 'the changed model is downloaded again');
  const newTag = third.requests[MODEL][0].etag;
  assert.notEqual(newTag, first.requests[MODEL][0].etag);
  assert.deepEqual(third.stored[MODEL], { cached: newTag, tag: newTag }, 'the cache and the tags now hold the new model');
  assert.ok(!third.marks.includes(`s2s:from-cache ${MODEL}`), `marks: ${third.marks}`);
  assert.deepEqual(statuses(third, WASM), [304], 'the unchanged .wasm still comes from the cache');

  // And the visit after that reads the new model from the cache.
  const fourth = await visit();
  assert.deepEqual(fourth.problems, []);
  assert.deepEqual(sentTags(fourth, MODEL), [newTag]);
  assert.deepEqual(statuses(fourth, MODEL), [304]);
});

test('a stored ETag whose cached copy is gone: the 304 is followed by a download without If-None-Match', async () => {
  await forget();
  const first = await visit();
  assert.deepEqual(first.problems, []);
  // The cache loses the model; localStorage still has its tag.
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/web/figures/features.js`);
  await page.evaluate(async (path) => (await caches.open('s2s-files')).delete(new URL(path, location.href).href), MODEL);
  await page.close();

  const second = await visit();
  assert.deepEqual(second.problems, []);
  const etag = first.requests[MODEL][0].etag;
  assert.deepEqual(sentTags(second, MODEL), [etag, null], 'asked with the tag, then again without it');
  assert.deepEqual(statuses(second, MODEL), [304, 200]);
  assert.ok(second.marks.includes(`s2s:cache-missing ${MODEL}`), `marks: ${second.marks}`);
  assert.deepEqual(second.stored[MODEL], { cached: etag, tag: etag }, 'stored again');
  assert.deepEqual(statuses(second, WASM), [304], 'the .wasm still in the cache');
});

test('offline, a repeat visit boots from the cached copies', async () => {
  await forget();
  const first = await visit();
  assert.deepEqual(first.problems, []);
  let refused = 0;
  const offline = await visit((page) => page.route(/\/(dist\/s2s-core\.wasm|models\/en-fr\.s2s)$/, (route) => {
    refused += 1;
    return route.abort('internetdisconnected');
  }));
  assert.deepEqual(offline.problems, []);
  assert.equal(refused, 2, 'both requests were made, and failed');
  for (const path of WATCHED) assert.deepEqual(statuses(offline, path), [], `${path}: no response`);
});

test('a damaged cached model is dropped and downloaded again, never served on every later visit', async () => {
  await forget();
  const first = await visit();
  assert.deepEqual(first.problems, []);
  const etag = first.requests[MODEL][0].etag;
  // The cached copy loses a byte in its middle; its ETag (and localStorage's tag) stay.
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/web/figures/features.js`);
  await page.evaluate(async (path) => {
    const store = await caches.open('s2s-files');
    const href = new URL(path, location.href).href;
    const entry = await store.match(href);
    const bytes = new Uint8Array(await entry.arrayBuffer());
    bytes[bytes.length >> 1] ^= 0xff;
    await store.put(href, new Response(bytes, { headers: entry.headers }));
  }, MODEL);
  await page.close();

  // (The worker downloads the model again itself; index.html stores nothing this time.)
  const second = await visit(undefined, { waitForStored: false });
  assert.deepEqual(second.problems, []);
  assert.deepEqual(statuses(second, MODEL).slice(0, 1), [304], 'the damaged copy was read from the cache');
  assert.deepEqual(second.stored[MODEL], { cached: null, tag: etag }, 'the damaged copy is gone from the cache (its tag stays)');
  // The next visit finds no copy behind its tag and downloads the file again.
  const third = await visit();
  assert.deepEqual(third.problems, []);
  assert.deepEqual(statuses(third, MODEL), [304, 200]);
  assert.deepEqual(third.stored[MODEL], { cached: etag, tag: etag }, 'a good copy is stored again');
  const fourth = await visit();
  assert.deepEqual(statuses(fourth, MODEL), [304]);
  assert.deepEqual(fourth.stored[MODEL], { cached: etag, tag: etag }, 'the copy read now is whole: it stays');
});
