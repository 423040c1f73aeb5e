// docs/page.png, the README's picture of the demo page: the result panel
// (translation, tokens, heatmap) for one sentence, drawn by the page in
// Debian's Chromium from the models in models/. Run after the models or
// the page change:  node scripts/screenshot.mjs ["English sentence"] [model] [lang]
// With lang zh-CN it writes docs/page.zh-CN.png (README.zh-CN.md's picture).
// With --step it writes the step panel instead (docs/step-panel.png,
// docs/step-panel.zh-CN.png), at output step 3; with --map, the model map
// of that step (docs/model-map.png, docs/model-map.zh-CN.png).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { startServer } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2).filter((a) => a !== '--step' && a !== '--map');
const map = process.argv.includes('--map');
const step = map || process.argv.includes('--step');
const text = args[0] ?? 'I love deep learning.';
const model = args[1] ?? 'en-fr';
const lang = args[2] ?? 'en';
const base = map ? 'model-map' : step ? 'step-panel' : 'page';
const file = lang === 'en' ? `${base}.png` : `${base}.${lang}.png`;
const server = await startServer({ port: 0 });
const { browser, close } = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1400 }, deviceScaleFactor: 1 });
  const params = new URLSearchParams({ text, model, beam: step ? '1' : '4', lang, ...(step ? { view: 'step', step: '3' } : {}) });
  await page.goto(`${server.url}?${params}`);
  await page.locator('[data-testid="attention-heatmap"] [data-row]').first().waitFor({ timeout: 30000 });
  if (step) {
    await page.locator('[data-testid="step-panel"][data-step="3"]').waitFor({ timeout: 30000 });
    const shot = map ? page.locator('.model-map-box').first() : page.locator('[data-testid="step-panel"]');
    await shot.screenshot({ path: join(root, 'docs', file) });
  } else {
    await page.locator('#result').screenshot({ path: join(root, 'docs', file) });
  }
  console.log(`wrote docs/${file} (${model}, ${lang}: "${text}")`);
} finally {
  await close();
  await server.close();
}
