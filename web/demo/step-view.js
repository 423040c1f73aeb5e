// The page's step-through section: the temperature slider, the
// coverage row under the heatmap, the step panel (step-panel.js) for output
// step state.step, the comparison of contexts with the fixed-context twin,
// and the beam tree (beam-tree.js). It reads the last translation's trace
// (app.js asks for it: decodeOptions' trace and beamTree) and answers the
// reader: a click on an output word or on a heatmap row opens that step
// (Enter or Space on a cell or an output word also moves the focus to the
// panel), ←/→ (with the panel focused) or the buttons move between steps, the
// slider re-decodes with another τ, a kept beam node shows its attention.
import { bindStepKeys, renderStepPanel, STEP_CSS } from '../figures/step-panel.js';
import { renderBeamTree, renderCoverage, renderNodeAttention, BEAM_CSS } from '../figures/beam-tree.js';
import { MODEL_MAP_CSS, keepOpenedStage, modelMapBox, renderModelMap } from '../figures/model-map.js';
import { contextSimilarities, sliderToTau, tauToSlider, SLIDER_STEPS } from '../figures/step-math.js';
import { baselineOf, MAX_OUTPUT_TOKENS } from '../figures/page-models.js';
import { infos, page, shownText, state, view } from './page-state.js';
import { firstPieceOfRow } from './figure-view.js';
import { t } from '../figures/i18n/index.js';

const $ = (id) => document.getElementById(id);
const parts = {
  section: $('step-section'),
  panel: $('step-panel'),
  prev: $('step-prev'),
  next: $('step-next'),
  position: $('step-position'),
  tau: $('tau'),
  tauValue: $('tau-value'),
  coverage: $('coverage'),
  beamTree: $('beam-tree'),
  beamNode: $('beam-node'),
  note: $('step-note'),
};
parts.map = modelMapBox(parts.section); // the model map (model-map.js), above the step buttons

let callbacks = { retranslate: () => {}, writeUrl: () => {} };
let twin = { key: null, similarities: null, map: null }; // the fixed twin's cos(c_1, c_t) and its trace (the model map's), per sentence
let pickedNode = null; // [step, index] of the beam node shown

const TAU_DEBOUNCE_MS = 200;

/** The CSS of the section's figures (app.js adds it to the page). */
export const STEP_VIEW_CSS = STEP_CSS + BEAM_CSS + MODEL_MAP_CSS;

/** The translation options this section needs: the trace, the beam tree, τ. */
export function stepOptions() {
  const options = { trace: true };
  if (state.beam > 1) options.beamTree = true;
  return options; // the temperature comes with decodeOptions (page-state.js)
}

// The 0-based step shown: the URL's or the reader's (1-based state.step), else the first.
function currentStep(trace) {
  const last = trace.steps.length - 1;
  return Math.max(0, Math.min(last, (state.step ?? 1) - 1));
}

/** Draws the section for the last result (or hides what has nothing to show). */
export function renderStep({ focus = false } = {}) {
  const { result } = state;
  const trace = result?.trace;
  parts.section.hidden = !trace || !trace.steps.length;
  if (parts.section.hidden) return;
  showTau();
  renderCoverage(parts.coverage, result);
  const step = currentStep(trace);
  const similarities = { attention: trace.scoring === 'none' ? null : contextSimilarities(trace.steps.map((s) => Array.from(s.context))) };
  if (trace.scoring === 'none') similarities.fixed = contextSimilarities(trace.steps.map((s) => Array.from(s.context)));
  else if (twin.key === twinKey()) similarities.fixed = twin.similarities;
  // The twin's state, for readers of the markup (and tests that must know
  // the row will not come): none (the model has no twin or is the twin),
  // ready (its row is drawn), or waiting (it comes once the section is near
  // the viewport or a step is opened).
  parts.section.dataset.twin = trace.scoring === 'none' || !baselineOf(state.model) ? 'none' : similarities.fixed ? 'ready' : 'waiting';
  const shortlist = Boolean(infos.get(state.model)?.shortlist) && state.shortlist;
  const keepStage = keepOpenedStage(parts.panel);
  renderStepPanel(parts.panel, { trace, sourceTokens: result.sourceTokens, targetTokens: result.targetTokens,
    tokenProbabilities: result.tokenProbabilities, step, similarities, shortlist });
  keepStage();
  // A part of the map opens its stage of the panel: the step view is then open (view=step).
  renderModelMap(parts.map, { trace, sourceTokens: result.sourceTokens, targetTokens: result.targetTokens, step, panel: parts.panel,
    twin: twin.key === twinKey() ? twin.map : null, onOpen: () => { state.stepView = true; callbacks.writeUrl(); } });
  parts.position.textContent = t('step.position', { step: step + 1, steps: trace.steps.length });
  parts.prev.disabled = step === 0;
  parts.next.disabled = step === trace.steps.length - 1;
  parts.note.hidden = state.hyp === 0;
  parts.note.textContent = state.hyp === 0 ? '' : t('step.bestOnly');
  renderBeam();
  if (focus) {
    parts.panel.focus({ preventScroll: true });
    // The step buttons and the panel at the top of the screen (the model
    // map above them, scrolled past; it is one Shift+Tab away).
    (parts.prev.closest('.step-nav') ?? parts.panel).scrollIntoView({ block: 'start', behavior: 'instant' });
  }
  fetchTwin();
}

function renderBeam() {
  const tree = state.result?.beamTree;
  if (pickedNode && !tree?.[pickedNode[0]]?.[pickedNode[1]]) pickedNode = null;
  renderBeamTree(parts.beamTree, state.beam > 1 ? tree : null, {
    selected: pickedNode,
    onPick(step, index) {
      pickedNode = [step, index];
      renderBeam();
      parts.beamTree.querySelector(`[data-step="${step}"][data-index="${index}"]`)?.focus();
    },
  });
  const node = pickedNode ? tree[pickedNode[0]][pickedNode[1]] : null;
  renderNodeAttention(parts.beamNode, { node, step: pickedNode?.[0] ?? 0, sourceTokens: state.result.sourceTokens });
}

// The fixed-context twin of the model (en-fr → en-fr-fixed): its trace for
// the same sentence, once per sentence, for the comparison of contexts. It
// is a second model download, so it starts only once the section comes near
// the viewport or the reader opens a step (as the comparison section does).
const twinKey = () => `${baselineOf(state.model)}\n${shownText()}`;
let twinWanted = false;
function watchSection() {
  if (typeof IntersectionObserver !== 'function') {
    twinWanted = true;
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    parts.section.dataset.deferred = String(!entries.some((entry) => entry.isIntersecting));
    if (parts.section.dataset.deferred === 'true') return;
    observer.disconnect();
    twinWanted = true;
    fetchTwin();
  }, { rootMargin: '200px' });
  observer.observe(parts.section);
}

async function fetchTwin() {
  const fixed = baselineOf(state.model);
  if (!fixed || !state.result?.trace || (!twinWanted && !state.stepView)) return;
  if (twin.key === twinKey() || twin.pending === twinKey()) return;
  const key = twinKey();
  twin.pending = key;
  try {
    const { value } = await page.translator.translate(fixed, shownText(), { trace: true, maxLength: MAX_OUTPUT_TOKENS });
    if (!value.trace || key !== twinKey()) return;
    twin = { key, similarities: contextSimilarities(value.trace.steps.map((s) => Array.from(s.context))),
      map: { trace: value.trace, sourceTokens: value.sourceTokens, targetTokens: value.targetTokens } };
    if (state.result?.trace) renderStep();
  } catch {
    // the comparison is optional: without the twin the panel shows the attention model alone
  } finally {
    if (twin.pending === key) twin.pending = null;
  }
}

/** Opens step `step` (1-based) of the last result. */
export function openStep(step, { focus = true } = {}) {
  if (!state.result?.trace) return;
  state.step = Math.max(1, Math.min(state.result.trace.steps.length, step));
  state.stepView = true;
  renderStep({ focus });
  callbacks.writeUrl();
}

function moveStep(delta) {
  if (!state.result?.trace) return;
  openStep(currentStep(state.result.trace) + 1 + delta, { focus: false });
  parts.panel.focus({ preventScroll: true });
}

function showTau() {
  const { min, max } = page.optionRanges.temperature;
  const tau = state.tau ?? 1;
  if (document.activeElement !== parts.tau) parts.tau.value = String(tauToSlider(tau, min, max));
  parts.tauValue.textContent = String(tau);
  parts.tau.setAttribute('aria-valuetext', `τ = ${tau}`);
}

/** Wires the section: retranslate() decodes again (τ changed), writeUrl() records the state. */
export function wireStep({ retranslate, writeUrl }) {
  callbacks = { retranslate, writeUrl };
  const { min, max } = page.optionRanges.temperature;
  Object.assign(parts.tau, { min: '0', max: String(SLIDER_STEPS), step: '1' });
  showTau();
  let timer = 0;
  parts.tau.addEventListener('input', () => {
    const tau = sliderToTau(Number(parts.tau.value), min, max);
    parts.tauValue.textContent = String(tau);
    parts.tau.setAttribute('aria-valuetext', `τ = ${tau}`);
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.tau = tau === 1 ? null : tau;
      retranslate();
    }, TAU_DEBOUNCE_MS);
  });
  bindStepKeys(parts, moveStep);
  // A click on an output word (the chips) or on a heatmap row opens its step;
  // in the words view, a word opens the step of its first piece.
  // Pressed with Enter or Space (a click of detail 0), the step also takes
  // the focus: the panel is far below, and the reader's keys go there.
  view.targetTokens.addEventListener('click', (event) => {
    const chip = event.target.closest?.('.chip');
    if (chip) openStep(Number(chip.dataset.start) + 1, { focus: event.detail === 0 });
  });
  // A row label opens the step and brings the panel into view, as Enter or
  // Space on a focused cell does (with the focus on the panel); a click on a
  // cell opens it where it is, below.
  // In the words view a row is a word: it opens the step of its first piece.
  const heatmapRow = (event) => {
    if (state.view !== 'heatmap') return null;
    const label = event.target.closest?.('[data-row-label]');
    if (label) return { row: firstPieceOfRow(Number(label.getAttribute('data-row-label'))), focus: true };
    const cell = event.target.closest?.('[data-row]');
    return cell ? { row: firstPieceOfRow(Number(cell.getAttribute('data-row'))), focus: false } : null;
  };
  view.heatmap.addEventListener('click', (event) => {
    const picked = heatmapRow(event);
    if (picked) openStep(picked.row + 1, { focus: picked.focus });
  });
  view.heatmap.addEventListener('keydown', (event) => {
    const picked = event.key === 'Enter' || event.key === ' ' ? heatmapRow(event) : null;
    if (!picked) return;
    event.preventDefault(); // Space would scroll the page
    openStep(picked.row + 1, { focus: true });
  });
  watchSection();
}

/** A new sentence or model: the beam node picked no longer applies. */
export function resetStepPicks() {
  pickedNode = null;
}

/** Says the section again in the page's language. */
export function relabelStep() {
  if (state.result) renderStep();
}

