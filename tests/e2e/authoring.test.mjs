// The element where tutorials are written (issue 43): each snippet of
// docs/tutorials.md, exactly as written there, built by the real tool
// (Debian's mkdocs with the Material theme, sphinx-build, and jupyter
// nbconvert executing a notebook: scripts/setup.sh --tests installs them)
// and opened in Chromium from a second origin, YOUR-HOST being the
// package's server. Checked in each: every demo translates, speaks the
// language it is given without touching the host's, leaks no fallback text
// or tag, and fits its column at 700 and 375 px without making the page
// scroll sideways. Requests to any other host
// (the themes' web fonts, a notebook's CDN scripts) are refused, so nothing
// here depends on the network.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/serve.mjs';
import { root, useBrowser } from './helpers.mjs';

const browser = useBrowser();
let work;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 's2s-authoring-'));
});
after(async () => {
  rmSync(work, { recursive: true, force: true });
});

/** The first fenced block of `language` under the heading that starts with `heading`, YOUR-HOST replaced. */
function snippet(heading, language) {
  const doc = readFileSync(join(root, 'docs', 'tutorials.md'), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith(heading));
  assert.ok(section, `docs/tutorials.md has a section "${heading}"`);
  const block = section.match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'));
  assert.ok(block, `docs/tutorials.md's "${heading}" has a ${language} block`);
  return block[1].replaceAll('https://YOUR-HOST', browser.server.origin);
}

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.error?.code === 'ENOENT') assert.fail(`${command} is missing: run \`bash scripts/setup.sh --tests\` (it installs the tutorial tools)`);
  assert.equal(r.status, 0, `${command} ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
}

/**
 * Serves `folder` on its own origin and opens `file` at each width;
 * `check(page)` runs at each. `reader` selects what a reader sees of the
 * page's text (a notebook also shows its cells' code, the snippet included).
 */
async function onSite(folder, file, check, reader = 'body') {
  const site = await startServer({ root: folder, port: 0 });
  try {
    for (const width of [700, 375]) {
      const page = await browser.newPage('about:blank', { width, height: 900 });
      const allowed = new Set([new URL(browser.server.origin).host, `127.0.0.1:${site.port}`]);
      await page.route('**/*', (route) => (allowed.has(new URL(route.request().url()).host) ? route.continue() : route.abort()));
      try {
        await page.goto(`http://127.0.0.1:${site.port}/${file}`);
        await page.waitForFunction(() => {
          const demos = [...document.querySelectorAll('seq2seq-attention-demo')];
          return demos.length > 0 && demos.every((d) => d.shadowRoot?.querySelector('[data-testid="attention-heatmap"]')
            && d.shadowRoot.querySelector('[data-testid="translation-output"]').textContent.trim());
        }, null, { timeout: 60_000 });
        const seen = await page.evaluate((selector) => {
          const overflow = () => document.documentElement.scrollWidth - document.documentElement.clientWidth;
          const demos = [...document.querySelectorAll('seq2seq-attention-demo')];
          const withDemos = overflow();
          demos.forEach((d) => { d.style.display = 'none'; });
          const withoutDemos = overflow();
          demos.forEach((d) => { d.style.display = ''; });
          return {
          hostLang: document.documentElement.lang,
          text: [...document.querySelectorAll(selector)].map((e) => e.innerText).join('\n'),
          // The sideways scroll the demos add (a theme may scroll on its own at 375 px).
          overflow: withDemos - Math.max(0, withoutDemos),
          demos: [...document.querySelectorAll('seq2seq-attention-demo')].map((d) => {
            const box = d.getBoundingClientRect();
            const card = d.shadowRoot.querySelector('.card');
            const parent = d.parentElement.getBoundingClientRect();
            return { lang: card.lang, dark: card.classList.contains('dark'), width: box.width, parentWidth: parent.width, inner: card.scrollWidth - card.clientWidth };
          }),
          };
        }, reader);
        // No fallback, no tag as text, outside the element.
        assert.doesNotMatch(seen.text, /could not load|无法在此加载|open the demo on its own page|<\/?seq2seq|s2s-wait/, `${file} at ${width} px`);
        assert.ok(seen.text.length > 0, `${file}: nothing matches ${reader}`);
        assert.ok(seen.overflow <= 1, `${file} at ${width} px: the demos make the page scroll sideways by ${seen.overflow} px`);
        // Each demo fits the column it is in, and its card does not scroll sideways (only its figure's box may).
        for (const demo of seen.demos) {
          assert.ok(demo.width <= demo.parentWidth + 1 && demo.inner <= 1, `${file} at ${width} px: a demo is wider than its column (${JSON.stringify(demo)})`);
        }
        await check(page, seen);
        // The refused hosts, and the file: scripts Debian's nbconvert template names, are not ours.
        const ours = page.problems.filter((p) => !/Failed to load resource|net::ERR_FAILED|Not allowed to load local resource: file:/.test(p));
        assert.deepEqual(ours, [], `${file} at ${width} px`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await site.close();
  }
}

test('MkDocs (Material, light and slate): the Markdown snippet builds into a working, Chinese-speaking demo that follows the palette', async () => {
  for (const scheme of ['default', 'slate']) {
    const dir = join(work, `mkdocs-${scheme}`);
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'mkdocs.yml'), `site_name: Lesson\ntheme:\n  name: material\n  palette:\n    scheme: ${scheme}\n`);
    writeFileSync(join(dir, 'docs', 'index.md'), `# Attention\n\nThe decoder looks back at the source.\n\n${snippet('MkDocs', 'markdown')}\nEach row of the figure sums to one.\n`);
    run('mkdocs', ['build', '-q', '-d', 'site'], dir);
    const html = readFileSync(join(dir, 'site', 'index.html'), 'utf8');
    assert.match(html, /<p><seq2seq-attention-demo/, 'Markdown wrapped the element in a paragraph, as it does: the case this snippet is for');
    await onSite(join(dir, 'site'), 'index.html', async (page, seen) => {
      assert.equal(seen.hostLang, 'en', 'the host keeps its language');
      assert.deepEqual(seen.demos.map((d) => d.lang), ['zh-CN']);
      assert.deepEqual(seen.demos.map((d) => d.dark), [scheme === 'slate'], `the card follows Material's ${scheme} palette`);
    });
  }
});

test('Sphinx: the raw-HTML snippet builds into a working demo', async () => {
  const dir = join(work, 'sphinx');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'conf.py'), 'project = "Lesson"\nhtml_theme = "alabaster"\n');
  writeFileSync(join(dir, 'index.rst'), `Attention\n=========\n\nThe decoder looks back at the source.\n\n${snippet('Sphinx', 'rst')}\nEach row of the figure sums to one.\n`);
  run('sphinx-build', ['-q', '-b', 'html', '.', '_build'], dir);
  await onSite(join(dir, '_build'), 'index.html', async (page, seen) => {
    assert.equal(seen.demos.length, 1);
    assert.equal(seen.demos[0].lang, 'en');
  });
});

test('Jupyter: a notebook executed by nbconvert keeps the demo of its code cell (IPython.display.HTML) and of a %%html cell', async () => {
  const dir = join(work, 'notebook');
  mkdirSync(dir, { recursive: true });
  const python = snippet('Jupyter', 'python');
  const html = snippet('HTML', 'html').replace(/<script[^>]*><\/script>\n/, '');  // the script once per page: the first cell loads it
  const lines = (text) => text.split('\n').map((line, i, all) => (i < all.length - 1 ? `${line}\n` : line));
  const notebook = {
    cells: [
      { cell_type: 'markdown', metadata: {}, source: lines('# Attention\n\nThe decoder looks back at the source.') },
      { cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: lines(python.trimEnd()) },
      { cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: lines(`%%html\n${html.trimEnd()}`) },
    ],
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(join(dir, 'lesson.ipynb'), JSON.stringify(notebook));
  run('jupyter', ['nbconvert', '--to', 'html', '--execute', 'lesson.ipynb'], dir);
  await onSite(dir, 'lesson.html', async (page, seen) => {
    assert.equal(seen.demos.length, 2, 'both cells\' demos are in the exported page');
  }, '.jp-OutputArea, .output_wrapper, .jp-MarkdownCell');
});

test('the fallback link stays hidden while the script loads and shows when the script never runs', async () => {
  const dir = join(work, 'unreachable');
  mkdirSync(dir, { recursive: true });
  // The HTML snippet with its script pointing where nothing is served.
  const html = snippet('HTML', 'html').replace(`${browser.server.origin}/web/embed.js`, `${browser.server.origin}/web/missing-embed.js`);
  writeFileSync(join(dir, 'lesson.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><h1>Lesson</h1>\n${html}`);
  const site = await startServer({ root: dir, port: 0 });
  const page = await browser.newPage('about:blank');
  try {
    await page.goto(`http://127.0.0.1:${site.port}/lesson.html`, { waitUntil: 'domcontentloaded' });
    const early = await page.evaluate(() => getComputedStyle(document.querySelector('seq2seq-attention-demo > a')).visibility);
    assert.equal(early, 'hidden', 'no flash of the fallback while the script may still come');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('seq2seq-attention-demo > a')).visibility === 'visible',
      null, { timeout: 20_000 });
    assert.match(await page.locator('seq2seq-attention-demo > a').textContent(), /open it on its own page/);
  } finally {
    await page.close();
    await site.close();
  }
});
