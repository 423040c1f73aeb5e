// The page's "Download SVG" is the package's static figure: for the same
// sentence, model and unit (words), the file the page saves is byte for
// byte what `seq2seq-attention figure` writes in Node, in English and in
// Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useBrowser, waitForTranslation } from './helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SENTENCE = 'I love deep learning.';
const browser = useBrowser();

for (const [lang, model] of [['en', 'en-fr'], ['zh-CN', 'en-zh']]) {
  test(`${lang}, ${model}: the page's SVG download is the bin's figure`, async () => {
    const page = await browser.newPage(`/web/?text=${encodeURIComponent(SENTENCE)}&model=${model}&unit=words&lang=${lang}`);
    try {
      await waitForTranslation(page, SENTENCE);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-svg"]').click()]);
      const saved = await readFile(await download.path(), 'utf8');
      const bin = spawnSync(process.execPath, [join(root, 'bin', 'seq2seq-attention.js'), 'figure', '--model', model, '--lang', lang, SENTENCE],
        { encoding: 'utf8' });
      assert.equal(bin.status, 0, bin.stderr);
      assert.equal(saved, bin.stdout);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
}
