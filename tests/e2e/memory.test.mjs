// The demo page's memory over a long session (issue 46, item 8): 1,200
// distinct short sentences translated one after another must not leave the
// page's heap larger than it was, after a forced garbage collection, by
// more than 1 MB.
//
// What is measured: Chromium's Runtime.getHeapUsage through CDP after
// HeapProfiler.collectGarbage: usedSize (V8's heap: the page's JavaScript
// objects) plus embedderHeapUsedSize (Blink's heap: the DOM and the other
// objects the page makes through the browser, such as its performance
// marks). Bytes, not time: the machine's load changes how long the test
// takes, not what it asserts.
//
// How it types: the sentence goes into the box as the page reads typing
// (its value set, an input event, Enter for "translate now"), from a loop
// inside the page that waits for each translation's panels to be drawn
// (the page's 's2s:panels-rendered' mark) before the next sentence: one
// round trip per 300 sentences instead of several per sentence. Typing
// through the keyboard would also fill the text box's undo history, which
// is the browser's own (bounded at 1,000 steps) and not the page's.
//
// Two checks say more than the 1 MB: V8's heap is flat once warm (the
// last 600 translations add at most 250 kB), and the page does not keep a
// performance mark per translation (before the fix it kept four, about
// 0.6 kB of Blink's heap a translation, and the 1,200 grew the heap by
// 1.01 MB).
//
// The baseline is taken after 60 warm-up translations, once the page has
// loaded its lazy modules and V8 has compiled the code a translation runs;
// the compiled code is not a leak, and it stops growing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const TRANSLATIONS = 1200;
const WARM_UP = 60;
const CHUNK = 300;
const LIMIT_BYTES = 1_000_000;
// Flat: from 600 to 1,200 translations, once V8 has compiled what the page
// runs, V8's heap stays within 250 kB (about 400 bytes a translation; it
// varies by some 20 kB from one reading to the next). Blink's heap is not
// held to this: after a collection it still varies by ±0.3 MB (its caches
// of shapes and layout), so it counts in the 1 MB only.
const SECOND_HALF_JS_LIMIT_BYTES = 250_000;
// The performance timeline keeps every mark until the page clears it: the
// page's own marks are those of its start and of its latest translation.
const MARKS_LIMIT = 40;

// 10 × 12 × 11 = 1,320 distinct sentences of three to five words.
const SUBJECTS = ['I', 'You', 'He', 'She', 'We', 'They', 'Tom', 'Mary', 'My father', 'The teacher'];
const VERBS = ['see', 'like', 'want', 'need', 'have', 'found', 'bought', 'lost', 'love', 'hate', 'read', 'took'];
const OBJECTS = ['the book', 'a dog', 'the car', 'some bread', 'the house', 'a letter', 'the key', 'the map', 'a cat', 'the box',
  'the window'];
const SENTENCES = SUBJECTS.flatMap((s) => VERBS.flatMap((v) => OBJECTS.map((o) => `${s} ${v} ${o}.`)));

const browser = useBrowser({ isolated: true });

// Runs in the page: each sentence typed and translated, in turn.
async function typeAll(sentences) {
  const source = document.getElementById('source');
  const output = document.querySelector('[data-testid="translation-output"]');
  const result = document.getElementById('result');
  for (const sentence of sentences) {
    const drawn = new Promise((resolve, reject) => {
      const observer = new PerformanceObserver((list) => {
        if (result.dataset.state === 'error') {
          observer.disconnect();
          reject(new Error(`the page shows an error for ${JSON.stringify(sentence)}`));
        } else if (list.getEntriesByName('s2s:panels-rendered').length && output.dataset.text === sentence) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe({ type: 'mark' });
    });
    source.value = sentence;
    source.dispatchEvent(new Event('input', { bubbles: true }));
    source.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await drawn;
  }
}

test('1,200 translations in a row leave the page heap within 1 MB of where it started (after GC)', { timeout: 30 * 60_000 }, async (t) => {
  const page = await browser.newPage('/web/', { width: 1280, height: 900 });
  await waitForTranslation(page, 'I love deep learning.');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  const heap = async () => {
    for (let k = 0; k < 3; k++) await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize, embedderHeapUsedSize = 0 } = await cdp.send('Runtime.getHeapUsage');
    return { js: usedSize, blink: embedderHeapUsedSize, total: usedSize + embedderHeapUsedSize };
  };
  const mb = (bytes) => (bytes / 1e6).toFixed(2);
  const line = (done, h) => `after ${done} translations: ${mb(h.total)} MB (V8 ${mb(h.js)}, Blink ${mb(h.blink)})`;

  await page.evaluate(typeAll, SENTENCES.slice(TRANSLATIONS, TRANSLATIONS + WARM_UP));
  const start = await heap();
  t.diagnostic(line(0, start));
  const sizes = [start];
  for (let done = 0; done < TRANSLATIONS; done += CHUNK) {
    await page.evaluate(typeAll, SENTENCES.slice(done, done + CHUNK));
    const now = await heap();
    sizes.push(now);
    t.diagnostic(line(done + CHUNK, now));
  }
  const end = sizes.at(-1);
  assert.equal(await page.locator('[data-testid="translation-output"]').getAttribute('data-text'), SENTENCES[TRANSLATIONS - 1]);
  assert.ok(end.total - start.total <= LIMIT_BYTES,
    `the heap grew by ${mb(end.total - start.total)} MB over ${TRANSLATIONS} translations (V8 ${mb(end.js - start.js)}, ` +
    `Blink ${mb(end.blink - start.blink)}): ${sizes.map((h) => mb(h.total)).join(' → ')} MB`);
  const half = sizes[TRANSLATIONS / 2 / CHUNK];  // after 600
  assert.ok(end.js - half.js <= SECOND_HALF_JS_LIMIT_BYTES,
    `V8's heap still grows: ${mb(end.js - half.js)} MB over the last ${TRANSLATIONS / 2} translations`);
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').length);
  t.diagnostic(`performance marks kept: ${marks}`);
  assert.ok(marks <= MARKS_LIMIT, `the page keeps ${marks} performance marks after ${TRANSLATIONS + WARM_UP} translations`);
  assert.deepEqual(page.problems, []);
});
