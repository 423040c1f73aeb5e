// The demo page by keyboard (issue 46, item 5; web/demo/keys.js,
// web/figures/roving.js, the heatmap's keys in heatmap.js, Enter on a cell
// or an output word in step-view.js), in Debian's Chromium at 1280×900 on a
// 26-word sentence: how many Tab presses from the top of the page reach the
// step panel, each group one tab stop with a visible focus ring, the arrow
// keys, Home and End inside a group, the heatmap's keys in two dimensions,
// and Enter or Space on a cell or an output word opening that step with the
// focus in the step panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, waitForTranslation } from './helpers.mjs';

// 26 words (and a comma and a full stop): 28 source tokens, over 30 output tokens.
const SENTENCE = 'When the students finally arrived at the old station in the small town, they asked the tired driver where the nearest hotel could be found today.';
const VIEWPORT = { width: 1280, height: 900 };
const MAX_TABS = 15;
// Group by group, without the skip link: the header's links, the sentence
// box and its controls, the options, the examples and the figure's switches
// come first (17 stops on this page; 118 before each group was one stop).
const MAX_PLAIN_TABS = 18;

const browser = useBrowser({ isolated: true });

// The page on the sentence, its step panel drawn (the coverage row with it).
async function open(params = {}) {
  const page = await browser.newPage(`/web/?${new URLSearchParams({ text: SENTENCE, ...params })}`, VIEWPORT);
  await waitForTranslation(page, SENTENCE);
  await page.locator('[data-testid="step-panel"][data-step]').waitFor();
  await page.locator('#result [data-testid="attention-heatmap"][data-complete="true"]').waitFor();
  return page;
}

const waitForStep = (page, step) => page.waitForFunction((n) => document.getElementById('step-panel')?.dataset.step === String(n), step);

// What has the focus: its kind, the group it belongs to (the nearest
// toolbar, group or list around it), and whether its focus shows.
const focused = (page) => page.evaluate(() => {
  const e = document.activeElement;
  const group = e.closest('[role="toolbar"], [role="group"]:not(svg), ol, #coverage');
  const style = getComputedStyle(e);
  // An outline outside the element is cut off by a box around it that
  // clips (overflow other than visible): there it must be drawn inside.
  const clips = [];
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflow !== 'visible') clips.push(a);
  const inside = parseFloat(style.outlineOffset) <= -parseFloat(style.outlineWidth);
  // An SVG stop draws its ring as a stroke: on itself (a heatmap cell) or
  // on the box drawn as its first shape (a part of the model map).
  const shape = e instanceof SVGElement && !e.matches('rect, path, circle') ? e.querySelector(':scope > rect, :scope > .map-box') : e;
  const shapeStyle = shape ? getComputedStyle(shape) : style;
  const ring = e instanceof SVGElement
    ? shapeStyle.stroke !== 'none' && parseFloat(shapeStyle.strokeWidth) >= 2
    : style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && (clips.length === 0 || inside);
  return {
    tag: e.tagName.toLowerCase() + (e.getAttribute('class') ? `.${e.getAttribute('class').split(' ')[0]}` : ''), id: e.id, testid: e.dataset?.testid ?? null, index: e.dataset?.index ?? null,
    row: e.dataset?.row ?? null, col: e.dataset?.col ?? null, cell: e.classList.contains('cell'),
    group: group ? (group.id || group.getAttribute('aria-label') || group.className || group.parentElement.id) : null, ring,
  };
});

test(`a ${SENTENCE.split(' ').length}-word sentence at 1280×900: at most ${MAX_TABS} Tab presses from the top to the step panel (the skip link to the figure, then Enter on the heatmap), at most ${MAX_PLAIN_TABS} to the heatmap without it; every group is one stop, each stop shows its focus`, async () => {
  assert.equal(SENTENCE.split(' ').length, 26);
  const page = await open();
  // From the top: nothing focused, the page at its start.
  const fromTop = (p) => p.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await fromTop(page);
  // The skip link's route: Tab to "Skip to the figure", Enter (the heatmap's
  // own stop takes the focus), Enter (the step panel takes it).
  let skipTabs = 0;
  let at = null;
  while (skipTabs < 60) {
    await page.keyboard.press('Tab');
    skipTabs += 1;
    at = await focused(page);
    if (at.testid === 'skip-figure' || at.cell) break;
  }
  assert.equal(at.testid, 'skip-figure', 'a skip link to the figure comes before the heatmap');
  await page.keyboard.press('Enter');
  at = await focused(page);
  assert.ok(at.cell, 'Enter on the skip link puts the focus on the heatmap');
  await page.keyboard.press('Enter');
  await waitForStep(page, Number(at.row) + 1);
  assert.equal((await focused(page)).id, 'step-panel', 'Enter on the cell puts the focus in the step panel');
  console.log(`# Tab presses from the top to the step panel: ${skipTabs} to the skip link, then Enter twice`);
  assert.ok(skipTabs <= MAX_TABS, `${skipTabs} Tab presses to the skip link (at most ${MAX_TABS})`);

  // Without the skip link: Tab from group to group to the heatmap (a page
  // of its own: blur() leaves where the next Tab starts at the panel).
  const plain = await open();
  await fromTop(plain);
  let tabs = 0;
  while (tabs < 60) {
    await plain.keyboard.press('Tab');
    tabs += 1;
    at = await focused(plain);
    if (at.cell) break;
  }
  assert.ok(at.cell, 'Tab reaches the heatmap');
  console.log(`# Tab presses from the top to the heatmap without the skip link: ${tabs}`);
  assert.ok(tabs <= MAX_PLAIN_TABS, `${tabs} Tab presses to the heatmap (at most ${MAX_PLAIN_TABS})`);

  // Tab alone, from the top to the step panel: each group of controls is
  // passed in one stop, and every stop shows where the focus is.
  const straight = await open();
  await straight.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const stops = [];
  for (let k = 0; k < 60; k += 1) {
    await straight.keyboard.press('Tab');
    const stop = await focused(straight);
    stops.push(stop);
    if (stop.id === 'step-panel') break;
  }
  assert.equal(stops.at(-1)?.id, 'step-panel', 'Tab alone reaches the step panel');
  console.log(`# Tab alone from the top to the step panel: ${stops.length} presses`);
  const groups = stops.map((s) => s.group).filter(Boolean);
  assert.deepEqual(groups.filter((g, k) => groups.indexOf(g) !== k), [], `each group is one stop: ${groups.join(', ')}`);
  assert.equal(stops.filter((s) => s.cell).length, 1, 'the heatmap is one stop');
  for (const id of ['source-token', 'target-token', 'coverage-cell', 'example', 'hypothesis']) {
    assert.ok(stops.filter((s) => s.testid === id).length <= 1, `${id}: one stop`);
  }
  assert.deepEqual(stops.filter((s) => !s.ring).map((s) => `${s.tag}#${s.id} ${s.testid ?? ''}`), [], 'every stop shows a focus ring');
  assert.deepEqual([...page.problems, ...straight.problems], []);
});

// The groups that are one stop each, and a test id or selector of their items.
const GROUPS = [
  ['examples', '#examples button.example'],
  ['the figure switches', '.switches button'],
  ['source chips', '#source-tokens .chip'],
  ['output chips', '#target-tokens .chip'],
  ['coverage row', '#coverage .coverage-cell'],
  ['downloads', '.actions button'],
  ['beam translations', '#hypotheses button.hypothesis'],
  ['"what if" choices', '#whatif .alternative'],
  ['beam tree', '#beam-tree .beam-node[role="button"]'],
];

test('in each group: one item is the tab stop; ←/→ move, Home and End go to the first and last; Tab leaves and Shift+Tab comes back to the same item', async () => {
  const page = await open();
  // The "what if" choices of the second output word, opened as a reader would.
  await page.locator('#target-tokens .chip').nth(1).click();
  await page.locator('#whatif .alternative').first().waitFor();
  for (const [name, selector] of GROUPS) {
    const items = page.locator(selector);
    const count = await items.count();
    assert.ok(count >= 2, `${name}: ${count} items`);
    const stops = await items.evaluateAll((list) => list.filter((e) => e.getAttribute('tabindex') === '0' || (e.tabIndex === 0 && !e.hasAttribute('tabindex'))).length);
    assert.equal(stops, 1, `${name}: one item is the tab stop`);
    await page.locator(`${selector}[tabindex="0"]`).focus();
    const index = () => page.evaluate((s) => [...document.querySelectorAll(s)].indexOf(document.activeElement), selector);
    await page.keyboard.press('End');
    assert.equal(await index(), count - 1, `${name}: End`);
    await page.keyboard.press('Home');
    assert.equal(await index(), 0, `${name}: Home`);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await index(), 0, `${name}: ← on the first stays`);
    await page.keyboard.press('ArrowRight');
    assert.equal(await index(), 1, `${name}: →`);
    await page.keyboard.press('ArrowDown');
    assert.equal(await index(), Math.min(2, count - 1), `${name}: ↓`);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    assert.equal(await index(), 1, `${name}: ↑ and ← go back`);
    assert.equal(await items.evaluateAll((list) => list.filter((e) => e.getAttribute('tabindex') === '0').length), 1, `${name}: still one stop`);
    await page.keyboard.press('Tab');
    assert.equal(await index(), -1, `${name}: Tab leaves the group`);
    await page.keyboard.press('Shift+Tab');
    assert.equal(await index(), 1, `${name}: Shift+Tab comes back to the item left`);
  }
  assert.deepEqual(page.problems, []);
});

test('the heatmap: arrows in two dimensions, Home/End along the row, Ctrl+Home/Ctrl+End to the corners, Page Up/Down to the first and last row', async () => {
  const page = await open();
  const heatmap = page.locator('#result [data-testid="attention-heatmap"]');
  const rows = Number(await heatmap.getAttribute('data-rows'));
  const cols = Number(await heatmap.getAttribute('data-cols'));
  await heatmap.locator('.cell[tabindex="0"]').focus();
  const cell = async () => {
    const { row, col } = await focused(page);
    return [Number(row), Number(col)];
  };
  assert.deepEqual(await cell(), [0, 0]);
  const steps = [
    ['ArrowRight', [0, 1]], ['ArrowDown', [1, 1]], ['ArrowLeft', [1, 0]], ['ArrowUp', [0, 0]], ['ArrowDown', [1, 0]],
    ['End', [1, cols - 1]], ['Home', [1, 0]], ['Control+End', [rows - 1, cols - 1]], ['Control+Home', [0, 0]],
    ['PageDown', [rows - 1, 0]], ['PageUp', [0, 0]],
  ];
  for (const [key, expected] of steps) {
    await page.keyboard.press(key);
    assert.deepEqual(await cell(), expected, key);
  }
  assert.equal(await heatmap.locator('.cell[tabindex="0"]').count(), 1, 'still one stop');
  assert.deepEqual(page.problems, []);
});

test('Enter or Space on a heatmap cell opens its step and moves the focus into the step panel, in view', async () => {
  const page = await open();
  const heatmap = page.locator('#result [data-testid="attention-heatmap"]');
  await heatmap.locator('.cell[tabindex="0"]').focus();
  for (const [key, downs, step] of [['Enter', 2, 3], [' ', 2, 5]]) {
    await heatmap.locator('.cell[tabindex="0"]').focus();
    for (let k = 0; k < downs; k += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    await waitForStep(page, step);
    const at = await focused(page);
    assert.equal(at.id, 'step-panel', `${key}: the focus is in the step panel`);
    assert.ok(at.ring, `${key}: the panel shows its focus`);
    const top = await page.locator('#step-panel').evaluate((panel) => panel.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 900, `${key}: the panel is in view (top ${top})`);
    assert.match(page.url(), new RegExp(`step=${step}`));
  }
  assert.deepEqual(page.problems, []);
});

test('Enter or Space on an output word opens its step with the focus in the step panel; a click leaves the focus on the word', async () => {
  const page = await open();
  const chips = page.locator('#target-tokens .chip');
  for (const [key, index] of [['Enter', 2], ['Space', 4]]) {
    await page.locator('#target-tokens .chip[tabindex="0"]').focus();
    await page.keyboard.press('Home');
    for (let k = 0; k < index; k += 1) await page.keyboard.press('ArrowRight');
    assert.equal((await focused(page)).index, String(index));
    await page.keyboard.press(key);
    await waitForStep(page, index + 1);
    assert.equal((await focused(page)).id, 'step-panel', `${key}: the focus is in the step panel`);
    // The click's other answer, the "what if" choices, opened as with a click.
    assert.equal(await chips.nth(index).getAttribute('aria-expanded'), 'true', `${key}: the "what if" is open`);
  }
  await chips.nth(1).click();
  await waitForStep(page, 2);
  const at = await focused(page);
  assert.deepEqual([at.testid, at.index], ['target-token', '1'], 'a click keeps the focus on the word');
  assert.deepEqual(page.problems, []);
});

test('a group drawn again keeps one stop, on the item the reader left', async () => {
  const page = await open();
  // The output chips are drawn again on a new view (words ↔ pieces and back).
  await page.locator('#target-tokens .chip[tabindex="0"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.locator('[data-testid="view-lines"]').click();
  await page.locator('[data-testid="attention-lines"]').waitFor();
  await page.locator('[data-testid="view-heatmap"]').click();
  await page.locator('#result [data-testid="attention-heatmap"]').waitFor();
  const stops = await page.locator('#target-tokens .chip').evaluateAll((list) => list.flatMap((e, k) => (e.getAttribute('tabindex') === '0' ? [k] : [])));
  assert.deepEqual(stops, [2], 'the third chip is still the stop');
  assert.deepEqual(page.problems, []);
});
