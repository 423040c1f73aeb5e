// Where the demo page's main thread spends a cold load: a CPU profile
// (Chrome DevTools Protocol, Profiler domain) of each load in a fresh
// browser context, from navigation until the panels after the first result
// are drawn (the mark s2s:panels-rendered of web/demo/app.js).
//
//   node bench/page-profile.mjs [--loads N] [--text SENTENCE] [--top K] [--save DIR]
//
// Prints, per load, the page's step marks, then over all loads the
// functions with the most time (inclusive and self, summed over the loads,
// in ms). The time of a built-in (toLocaleString, measureText, a DOM call)
// is the self time of the page function that called it. --save DIR keeps
// each load's .cpuprofile (open it in Chromium's DevTools, Performance).
// This is how the 130 to 320 ms of the first toLocaleString call were found
// (bench/history.md). It runs Chromium: stop any training first, or
// compare only loads of one run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { startServer } from '../scripts/serve.mjs';

const { values } = parseArgs({
  options: {
    loads: { type: 'string', default: '3' },
    text: { type: 'string', default: 'I love deep learning.' },
    top: { type: 'string', default: '25' },
    save: { type: 'string' },
  },
});
const loads = Number(values.loads);
const top = Number(values.top);
if (!(loads >= 1) || !(top >= 1)) throw new Error('--loads and --top must be positive numbers');

// Each node's name: function, file and line (anonymous ones included).
function nodeName({ callFrame }) {
  const path = callFrame.url.split('?')[0];
  const file = path.split('/').pop() || (path ? 'index.html' : '');  // the document itself: /web/
  return `${callFrame.functionName || '(anonymous)'} ${file}:${callFrame.lineNumber + 1}`;
}

// Self and inclusive microseconds by name (a recursive name counted once per sample).
function summarize(profile, inclusive, self) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const name = nodeName(nodes.get(id));
    self.set(name, (self.get(name) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const n = nodeName(nodes.get(at));
      if (seen.has(n)) continue;
      seen.add(n);
      inclusive.set(n, (inclusive.get(n) ?? 0) + dt);
    }
  });
}

const server = await startServer({ port: 0 });
const { browser, close } = await launchChromium();
const inclusive = new Map();
const self = new Map();
try {
  for (let i = 0; i < loads; ++i) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${server.origin}/web/?text=${encodeURIComponent(values.text)}`);
    await page.waitForFunction(() => performance.getEntriesByName('s2s:panels-rendered').length > 0, null,
      { timeout: 120_000 });
    const { profile } = await cdp.send('Profiler.stop');
    const marks = await page.evaluate(() => performance.getEntriesByType('mark')
      .map((mark) => [mark.name, Math.round(mark.startTime)]));
    await context.close();
    if (values.save) {
      mkdirSync(values.save, { recursive: true });
      writeFileSync(join(values.save, `load-${i + 1}.cpuprofile`), JSON.stringify(profile));
    }
    summarize(profile, inclusive, self);
    console.log(`load ${i + 1}: ${marks.map(([name, ms]) => `${name.replace(/^s2s:/, '')} ${ms}`).join(', ')}`);
  }
} finally {
  await close();
  await server.close();
}
const table = (title, map) => {
  console.log(`\n| ${title}, ms summed over ${loads} loads | |\n|---|---:|`);
  [...map].filter(([name]) => !/^\((idle|root|program)\)/.test(name))
    .sort((a, b) => b[1] - a[1]).slice(0, top)
    .forEach(([name, us]) => console.log(`| \`${name}\` | ${(us / 1000).toFixed(1)} |`));
};
table('inclusive', inclusive);
table('self', self);
