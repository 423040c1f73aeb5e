// How fast the Train view (web/train.html) learns its default task in
// Debian's Chromium: time from pressing Start to 95% held-out exact match of
// the attention model, the steps per second of both workers, where the
// fixed-context twin stands at that moment, and the longest gap between the
// page's animation frames while both train (is the page responsive?).
//
//   node bench/train-browser.mjs [--task reversal|dates] [--json]
//
// A benchmark, not a test: it prints what it measured and exits 0 unless the
// page could not be driven at all.
import { launchChromium } from '../tests/js/helpers/chromium.mjs';
import { startServer } from '../scripts/serve.mjs';

const args = process.argv.slice(2);
const task = args.includes('--task') ? args[args.indexOf('--task') + 1] : 'reversal';
const asJson = args.includes('--json');
const TARGET = 0.95;
const LIMIT_SECONDS = 180;

const server = await startServer({ port: 0 });
const { browser, close } = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1200 } });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${server.origin}/web/train.html?task=${encodeURIComponent(task)}`);
  await page.waitForFunction(() => !document.querySelector('[data-testid="train-start"]').disabled, null, { timeout: 60_000 });

  // The page records its longest frame gap from Start on.
  await page.evaluate(() => {
    window.__longestFrameGap = 0;
    let last = performance.now();
    const frame = (now) => {
      window.__longestFrameGap = Math.max(window.__longestFrameGap, now - last);
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const started = Date.now();
  await page.click('[data-testid="train-start"]');
  const read = () => page.evaluate(() => {
    const s = document.querySelector('[data-testid="train-status"]').dataset;
    const rate = (id) => Number.parseFloat(document.getElementById(id).textContent) || null;
    return {
      steps: Number(s.stepsAttention), exactAttention: Number(s.exactAttention), exactFixed: Number(s.exactFixed),
      stepsPerSecondAttention: rate('rate-attention'), stepsPerSecondFixed: rate('rate-fixed'),
      longestFrameGapMs: Math.round(window.__longestFrameGap),
    };
  });
  let reached = null;
  let last = null;
  while ((Date.now() - started) / 1000 < LIMIT_SECONDS) {
    await page.waitForTimeout(250);
    last = await read();
    if (last.exactAttention >= TARGET) {
      reached = { seconds: (Date.now() - started) / 1000, ...last };
      break;
    }
  }
  const result = {
    task, target: TARGET, cores: (await import('node:os')).cpus().length,
    reached: reached !== null, ...(reached ?? { seconds: null, ...last }), pageErrors: problems,
  };
  if (asJson) {
    console.log(JSON.stringify(result, null, 2));
  } else if (reached) {
    console.log(`${task}: ${Math.round(TARGET * 100)}% held-out exact match after ${reached.seconds.toFixed(1)} s (step ${reached.steps}); ` +
      `fixed context then at ${Math.round(reached.exactFixed * 100)}%; ` +
      `${reached.stepsPerSecondAttention ?? '?'} / ${reached.stepsPerSecondFixed ?? '?'} steps/s (attention / fixed); ` +
      `longest frame gap ${reached.longestFrameGapMs} ms`);
  } else {
    console.log(`${task}: did not reach ${Math.round(TARGET * 100)}% in ${LIMIT_SECONDS} s (last: ${JSON.stringify(last)})`);
  }
} finally {
  await close();
  await server.close();
}
