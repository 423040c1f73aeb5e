// docs/page.png, the README's picture of the demo page: the result panel
// (translation, tokens, heatmap) for one sentence, drawn by the page in
// Debian's Chromium from the models in models/. Run after the models or
// the page change:  node scripts/screenshot.mjs ["English sentence"] [model]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { startServer } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const text = process.argv[2] ?? 'I love deep learning.';
const model = process.argv[3] ?? 'en-fr';
const server = await startServer({ port: 0 });
const { browser, close } = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 }, deviceScaleFactor: 1 });
  const params = new URLSearchParams({ text, model, beam: '4' });
  await page.goto(`${server.url}?${params}`);
  await page.locator('[data-testid="attention-heatmap"] [data-row]').first().waitFor({ timeout: 30000 });
  await page.locator('#result').screenshot({ path: join(root, 'docs', 'page.png') });
  console.log(`wrote docs/page.png (${model}: "${text}")`);
} finally {
  await close();
  await server.close();
}
