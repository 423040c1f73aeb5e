// The element under a strict Content Security Policy, as a tutorial site
// may send it: scripts from its host and blob: workers, WebAssembly compiled
// with 'wasm-unsafe-eval' and nothing else, no 'unsafe-eval' (the bindings
// are built without run-time code generation, cmake/wasm.cmake
// DYNAMIC_EXECUTION=0). It translates and draws, and the browser reports no
// violation. docs/page.md gives the policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './helpers.mjs';

// The smallest policy the element needs (docs/page.md, "Content Security Policy").
const ELEMENT_CSP = "default-src 'none'; script-src 'self' blob: 'wasm-unsafe-eval'; worker-src 'self' blob:; " +
  "connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:";

const browser = useBrowser();

test('the element translates under a CSP without \'unsafe-eval\', and nothing is blocked', async () => {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const url = `${browser.server.origin}/web/csp-host.html`;
  // As a site that sends its policy with every response: the page's, and
  // the worker's script (a worker from a URL obeys its own response's policy).
  await page.route(`${browser.server.origin}/**`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': ELEMENT_CSP } });
  });
  await page.route(url, (route) => route.fulfill({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': ELEMENT_CSP },
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>CSP host</title>
<script type="module" src="/web/embed.js"></script>
<script type="module" src="/web/csp-listener.js"></script>
<seq2seq-attention-demo sentence="I love deep learning." model="en-fr" readonly></seq2seq-attention-demo>`,
  }));
  // The violations the browser reports, gathered from the first script on (a module of the same origin, allowed).
  await page.route(`${browser.server.origin}/web/csp-listener.js`, (route) => route.fulfill({
    status: 200,
    headers: { 'content-type': 'text/javascript' },
    body: "globalThis.violations = []; document.addEventListener('securitypolicyviolation', (e) => globalThis.violations.push(`${e.violatedDirective}: ${e.blockedURI}`));",
  }));
  try {
    await page.goto(url);
    const demo = page.locator('seq2seq-attention-demo');
    await demo.locator('[data-testid="attention-heatmap"] [data-row]').first().waitFor({ timeout: 60_000 });
    const text = await demo.locator('[data-testid="translation-output"]').textContent();
    assert.ok(text.trim().length > 0, 'a translation');
    assert.deepEqual(await page.evaluate(() => globalThis.violations ?? ['no listener']), []);
    assert.deepEqual(problems.filter((p) => /Content Security Policy|unsafe-eval|EvalError/i.test(p)), []);
  } finally {
    await page.close();
  }
});
