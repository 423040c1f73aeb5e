// The Train view's step panel (train.html): one decoder step of the probe's
// translation by the attention model being trained, drawn by step-panel.js
// (the main page's panel) from the trace the training worker sends with each
// probe while the panel is open. It follows the training: each new probe
// result redraws the same step with the newer model's numbers.
import { bindStepKeys, renderStepPanel, STEP_CSS } from '../figures/step-panel.js';
import { h, replaceChildren } from '../figures/dom.js';
import { t } from '../figures/i18n/index.js';

const $ = (id) => document.getElementById(id);
const parts = {
  open: $('step-open'),
  box: $('step-box'),
  panel: $('step-panel'),
  prev: $('step-prev'),
  next: $('step-next'),
  position: $('step-position'),
};

let wanted = false;   // the learner opened the panel
let step = 0;         // 0-based step shown
let shown = null;     // the probe result drawn
let setTrace = () => {};

/** Wires the panel; setTraceWanted(on) asks the attention worker for traces (or stops). */
export function wireTrainStep({ setTraceWanted }) {
  setTrace = setTraceWanted;
  document.head.append(h('style', {}, STEP_CSS));
  parts.open.addEventListener('click', () => {
    wanted = !wanted;
    setTrace(wanted);
    showToggle();
    if (wanted) parts.panel.focus({ preventScroll: true });
  });
  bindStepKeys(parts, move);
  showToggle();
}

function showToggle() {
  parts.box.hidden = !wanted;
  parts.open.setAttribute('aria-expanded', String(wanted));
  parts.open.textContent = t(wanted ? 'train.stepClose' : 'train.stepOpen');
  if (!wanted) {
    shown = null;
    replaceChildren(parts.panel);
  }
}

/** Opens the panel at 0-based step `index` (a heatmap row of the probe); traces follow from the next probe. */
export function openTrainStep(index) {
  step = Math.max(0, index);
  if (!wanted) {
    wanted = true;
    setTrace(true);
  }
  showToggle();
  if (shown?.trace) draw(shown, { force: true });
  parts.box.scrollIntoView?.({ block: 'nearest' });
}

function move(delta) {
  const steps = shown?.trace?.steps.length ?? 0;
  if (steps === 0) return;
  step = Math.max(0, Math.min(steps - 1, step + delta));
  draw(shown, { force: true });
  parts.panel.focus({ preventScroll: true });
}

/** Draws the panel for the attention model's last probe result (when open and the result has a trace). */
export function drawTrainStep(result, { force = false } = {}) {
  showToggle();
  if (!wanted) return;
  draw(result, { force });
}

function draw(result, { force }) {
  if (result === shown && !force) return;
  if (result && !result.trace) return; // sent before the worker heard the wish: the next one has it
  const trace = result?.trace;
  if (!trace || trace.steps.length === 0) {
    shown = result ?? null;
    replaceChildren(parts.panel, h('p', { class: 'hint' }, t('train.stepEmpty')));
    parts.position.textContent = '';
    parts.prev.disabled = parts.next.disabled = true;
    return;
  }
  shown = result;
  step = Math.min(step, trace.steps.length - 1);
  const hadFocus = parts.panel.contains(document.activeElement);
  renderStepPanel(parts.panel, { trace, sourceTokens: result.sourceTokens, targetTokens: result.targetTokens, step });
  parts.position.textContent = t('step.position', { step: step + 1, steps: trace.steps.length });
  parts.prev.disabled = step === 0;
  parts.next.disabled = step === trace.steps.length - 1;
  if (hadFocus && !parts.panel.contains(document.activeElement)) parts.panel.focus({ preventScroll: true });
}
