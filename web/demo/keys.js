// The demo page by keyboard: each group of controls is one tab stop
// (rovingGroup, web/figures/roving.js; the arrow keys, Home and End move
// inside it), so that Tab goes from group to group instead of through every
// chip: the examples, the figure's switches, the chips of each sentence, the
// sentences of a longer text, the "what if" choices, the coverage row, the
// downloads, the beam's translations, the Previous/Next buttons and the beam
// tree's kept nodes. The heatmap's grid is its own one stop (heatmap.js),
// as are the step panel's strips (step-panel.js). What Enter does on a cell
// or an output word (open its step, focus in the step panel) is
// step-view.js's.
import { rovingGroup } from '../figures/roving.js';
import { view } from './page-state.js';

/** Makes every group of the page one tab stop. */
export function wireKeys() {
  const $ = (id) => document.getElementById(id);
  const groups = [
    [view.examples, 'button.example'],
    [document.querySelector('.switches'), 'button'],
    [view.sentenceItems, 'button.sentence'],
    [view.sourceTokens, '.chip'],
    [view.targetTokens, '.chip'],
    [view.whatIf, '.alternative'],
    [$('coverage'), '.coverage-cell'],
    [document.querySelector('.actions'), 'button'],
    [view.hypotheses, 'button.hypothesis'],
    [document.querySelector('.step-nav'), 'button'],
    [$('beam-tree'), '.beam-node[role="button"]'],
  ];
  for (const [container, selector] of groups) if (container) rovingGroup(container, { selector });
  // The second skip link: the figure's own tab stop (the heatmap's current
  // cell, or the lines view), from which Enter opens the step panel. A
  // link to a box that cannot take focus would only move where the next
  // Tab starts, so the link focuses the stop itself.
  $('skip-figure')?.addEventListener('click', (event) => {
    const stop = $('heatmap')?.querySelector('[tabindex="0"]');
    if (!stop) return; // no figure yet: the link scrolls to its place
    event.preventDefault();
    stop.focus();
  });
}
