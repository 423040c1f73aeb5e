// The figure first (issue 46): on the demo page, the translation and the
// top of its heatmap are in the first screen at 1280×900 and within one
// scroll on a 375×812 phone; the notes on how the beam ranks its
// translations are folded under a disclosure that opens on a click.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './helpers.mjs';

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

for (const [width, height, screens] of [[1280, 900, 1], [375, 812, 2]]) {
  test(`at ${width}×${height}, the translation and the heatmap's top come within ${screens} screen(s)`, async () => {
    const page = await browser.newPage('/web/?text=I%20love%20deep%20learning.', { width, height });
    try {
      await page.locator('[data-testid="attention-heatmap"]').waitFor({ timeout: 60_000 });
      const top = await page.evaluate(() => Object.fromEntries(['translation-output', 'attention-heatmap'].map((id) => [id,
        document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect().top + scrollY])));
      assert.ok(top['translation-output'] + 30 < screens * height, `the translation starts at ${top['translation-output']} px`);
      assert.ok(top['attention-heatmap'] + 60 < screens * height, `the heatmap starts at ${top['attention-heatmap']} px`);
      if (width === 1280) {
        const notes = page.locator('[data-testid="decoding-notes"]');
        assert.equal(await notes.evaluate((d) => d.open), false, 'the decoding notes start folded');
        assert.equal(await page.locator('#penalty-hint').isVisible(), false);
        await notes.locator('summary').click();
        assert.equal(await page.locator('#penalty-hint').isVisible(), true);
      }
      assert.deepEqual(page.problems, []);
    } finally {
      await page.close();
    }
  });
}
