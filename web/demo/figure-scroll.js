// Long sentences in a narrow box (issue 46, item 4): the figure's room, the
// "fit to width" switch of the heatmap, a cue when the figure is wider than
// its box (a shade on the edge with more to see, and a line of text that
// the figure names as its description), and the heatmap's labels kept in
// sight while it scrolls: the source words (column labels) at the top of
// the window while the rows go by, the output words (row labels) at the
// left of the box while the columns go by. The heatmap draws its label
// groups over its cells, on white (web/figures/heatmap.js); this moves them.
import { t } from '../figures/i18n/index.js';

const FIT_KEY = 'seq2seq-attention:fit-width';
const $ = (id) => document.getElementById(id);

/** Whether the reader asked for the heatmap to fit its box (remembered for the session). */
export function fitWanted() {
  try {
    return sessionStorage.getItem(FIT_KEY) === 'on';
  } catch {
    return false; // storage refused (a sandboxed frame): not remembered
  }
}

function rememberFit(on) {
  try {
    sessionStorage.setItem(FIT_KEY, on ? 'on' : 'off');
  } catch {
    // not remembered
  }
}

/** The widest the figure can be without its box scrolling, in px (the figure's row less the box's border). */
export function figureRoom() {
  const box = $('heatmap');
  const row = box.closest('.figure-row') ?? box.parentElement;
  return Math.max(120, row.clientWidth - (box.offsetWidth - box.clientWidth || 2));
}

/**
 * The heatmap, fitted to its room when the reader asked and it needs it:
 * draw(extra) draws it with the renderHeatmap options in `extra`. The
 * switch shows only for a figure wider than its room.
 */
export function drawHeatmap(draw) {
  const room = figureRoom();
  let figure = draw({});
  const wide = Number(figure.element.getAttribute('width')) > room + 0.5;
  if (wide && fitWanted()) figure = draw({ fitWidth: room });
  const toggle = $('fit-toggle');
  if (toggle) {
    toggle.hidden = !wide;
    toggle.setAttribute('aria-pressed', String(wide && fitWanted()));
  }
  return figure;
}

/** The lines view has no switch: it fits by itself. */
export function hideFitToggle() {
  const toggle = $('fit-toggle');
  if (toggle) toggle.hidden = true;
}

let frame = 0;
function soon() {
  if (!frame) frame = requestAnimationFrame(update);
}

/** Call after the figure is drawn again: the cue and the labels follow it. */
export function followFigure() {
  cancelAnimationFrame(frame);
  frame = 0;
  update();
}

function update() {
  frame = 0;
  const box = $('heatmap');
  const frameElement = $('figure-frame');
  const hint = $('scroll-hint');
  if (!box || !frameElement || !hint) return;
  const figure = box.querySelector(':scope > svg');
  const overflow = figure ? box.scrollWidth - box.clientWidth : 0;
  const more = overflow <= 1 ? 'none'
    : box.scrollLeft <= 1 ? 'right' : box.scrollLeft >= overflow - 1 ? 'left' : 'both';
  frameElement.dataset.more = more;
  hint.hidden = more === 'none';
  // The heatmap offers its fit, unless fitted already (a very long sentence
  // still scrolls a little: its cells are as small as they get).
  const fitted = figure?.dataset.fit === 'true' || !figure?.classList.contains('heatmap');
  const text = more === 'none' ? '' : t(fitted ? 'figure.scrollHintPlain' : 'figure.scrollHint');
  if (hint.textContent !== text) hint.textContent = text;
  if (figure) {
    // Read with the figure's name by a screen reader: it scrolls.
    if (more === 'none') figure.removeAttribute('aria-describedby');
    else figure.setAttribute('aria-describedby', 'scroll-hint');
  }
  if (figure?.classList.contains('heatmap')) keepLabelsInSight(figure, box);
}

// The column labels move down by as much as the figure's top has gone
// above the window (never past its last row); the row labels right by as
// much as the box has scrolled (never past its last column).
function keepLabelsInSight(figure, box) {
  const columns = figure.querySelector(':scope > .col-labels');
  const rows = figure.querySelector(':scope > .row-labels');
  const corner = figure.querySelector(':scope > .label-corner');
  if (!columns || !rows) return;
  const number = (name) => Number(figure.dataset[name]);
  const bounds = figure.getBoundingClientRect();
  const scale = bounds.width / Number(figure.getAttribute('width')) || 1;
  const down = Math.max(0, Math.min(-bounds.top / scale, number('gridHeight') - number('cellHeight')));
  const right = Math.max(0, Math.min(box.scrollLeft / scale, number('gridWidth') - number('cellWidth')));
  const move = (element, x, y) => {
    if (x || y) element.setAttribute('transform', `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
    else element.removeAttribute('transform');
  };
  move(columns, 0, down);
  move(rows, right, 0);
  if (corner) move(corner, right, down);
  figure.dataset.labelsMoved = String(down > 0 || right > 0);
}

/** Once: the switch, and the events that move the cue and the labels. redraw() draws the figure again. */
export function watchFigureScroll({ redraw }) {
  const box = $('heatmap');
  const toggle = $('fit-toggle');
  toggle?.addEventListener('click', () => {
    rememberFit(toggle.getAttribute('aria-pressed') !== 'true');
    redraw();
    toggle.focus();
  });
  box.addEventListener('scroll', soon, { passive: true });
  window.addEventListener('scroll', soon, { passive: true });
  // A new width (a phone turned, a window resized) draws the figure again
  // for its new room: fitted, or the lines laid out anew.
  let width = null;
  const row = box.closest('.figure-row') ?? box.parentElement;
  new ResizeObserver(() => {
    const now = row.clientWidth;
    if (width !== null && Math.abs(now - width) > 1) redraw();
    else soon();
    width = now;
  }).observe(row);
}
