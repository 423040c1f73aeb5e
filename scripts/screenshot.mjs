// docs/page.png, the README's picture of the demo page: the result panel
// (translation, tokens, heatmap) for one sentence, drawn by the page in
// Debian's Chromium from the models in models/. Run after the models or
// the page change:  node scripts/screenshot.mjs ["English sentence"] [model] [lang]
// With lang zh-CN it writes docs/page.zh-CN.png (README.zh-CN.md's picture).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { startServer } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const text = process.argv[2] ?? 'I love deep learning.';
const model = process.argv[3] ?? 'en-fr';
const lang = process.argv[4] ?? 'en';
const file = lang === 'en' ? 'page.png' : `page.${lang}.png`;
const server = await startServer({ port: 0 });
const { browser, close } = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 }, deviceScaleFactor: 1 });
  const params = new URLSearchParams({ text, model, beam: '4', lang });
  await page.goto(`${server.url}?${params}`);
  await page.locator('[data-testid="attention-heatmap"] [data-row]').first().waitFor({ timeout: 30000 });
  await page.locator('#result').screenshot({ path: join(root, 'docs', file) });
  console.log(`wrote docs/${file} (${model}, ${lang}: "${text}")`);
} finally {
  await close();
  await server.close();
}
