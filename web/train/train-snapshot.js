// "The moment the fixed context failed" (train.html): a copy, kept beside
// the live probe, of both models' outputs and the attention heatmap at the
// first step where the fixed-context twin gets a long probe wrong while the
// attention model gets it right.
//
// The rule, exactly: both workers report the probe every 10 steps (and when
// it changes). The snapshot is taken at the first step s for which both
// models have translated the same probe input at step s, the input has at
// least LONG symbols (of the task's unit: symbols, characters, tokens), its
// expected output is known (train-expected.js), the attention model's
// output equals it symbol for symbol and the fixed twin's does not. Once
// taken it stays, while training goes on, until Reset or a new task.
import { h, replaceChildren } from '../figures/dom.js';
import { renderHeatmap } from '../figures/heatmap.js';
import { lang, t } from '../figures/i18n/index.js';
import { compareSymbols, renderProbeCheck } from './train-expected.js';

export const LONG = 9;
const KEEP = 32;  // probe reports kept per model while waiting for the other model's report of the same step

const outputSymbols = (result) => result.targetTokens.filter((token) => token !== '<eos>');
const isRight = (output, expected) => {
  const check = compareSymbols(output, expected);
  return check.wrong === 0 && check.extra === 0;
};

// The share of held-out inputs of LONG or more symbols exactly right, or null.
export function longExactMatch(evaluation) {
  const long = (evaluation?.byLength ?? []).filter((b) => b.length >= LONG);
  const total = long.reduce((a, b) => a + b.total, 0);
  return total ? long.reduce((a, b) => a + b.correct, 0) / total : null;
}

let reports = { attention: new Map(), fixed: new Map() };  // step -> { text, result }
let snapshot = null;  // { steps, text, length, expected, results: { attention, fixed }, held: { attention, fixed } }

export function resetSnapshot() {
  reports = { attention: new Map(), fixed: new Map() };
  snapshot = null;
}

export const snapshotTaken = () => snapshot !== null;

/**
 * A probe report from one model. context: { expectedFor(text) -> symbols or
 * null, sourceLength(result) -> the input's length in symbols, evaluations:
 * { attention, fixed } the latest of each }. Returns true when this report
 * took the snapshot.
 */
export function noteProbe(kind, steps, text, result, context) {
  if (snapshot || !result) return false;
  const mine = reports[kind];
  mine.set(steps, { text, result });
  if (mine.size > KEEP) mine.delete(mine.keys().next().value);
  const other = reports[kind === 'attention' ? 'fixed' : 'attention'].get(steps);
  if (!other || other.text !== text) return false;
  const results = kind === 'attention' ? { attention: result, fixed: other.result } : { attention: other.result, fixed: result };
  const length = context.sourceLength(results.attention);
  const expected = context.expectedFor(text);
  if (length < LONG || expected === null) return false;
  if (!isRight(outputSymbols(results.attention), expected) || isRight(outputSymbols(results.fixed), expected)) return false;
  snapshot = {
    steps, text, length, expected, results,
    held: { attention: context.evaluations.attention, fixed: context.evaluations.fixed },
  };
  reports = { attention: new Map(), fixed: new Map() };
  return true;
}

/** Draws the snapshot (or what it waits for) into `box`. */
let drawn = null;  // what the box shows: redrawn only when the snapshot, the language or the unit changes
export function drawSnapshot(box, { unit, characters }) {
  const key = [snapshot, lang(), unit, characters];
  if (drawn && drawn.every((value, i) => value === key[i])) return;
  drawn = key;
  if (!snapshot) {
    box.dataset.state = 'waiting';
    delete box.dataset.steps;
    replaceChildren(box,
      h('h3', {}, t('train.snapshotHeading')),
      h('p', { class: 'hint' }, t('train.snapshotWaiting', { long: LONG, unit })));
    return;
  }
  const { steps, text, length, expected, results, held } = snapshot;
  box.dataset.state = 'taken';
  box.dataset.steps = steps;
  const card = (kind, labelKey) => h('div', { class: `snapshot-output ${kind}` },
    h('span', { class: 'snapshot-label' }, t(labelKey)), ' ',
    h('p', { class: 'probe-output', 'data-testid': `train-snapshot-output-${kind}` },
      renderProbeCheck(outputSymbols(results[kind]), expected, { unit, characters, kind: `snapshot-${kind}` })));
  const heatmap = results.attention.attention.length > 0
    ? renderHeatmap(results.attention, { testid: 'train-snapshot-heatmap', label: t('train.snapshotHeatmapLabel', { steps }) }).element
    : null;
  const share = (evaluation) => {
    const value = longExactMatch(evaluation);
    return value === null ? '–' : `${Math.round(value * 100)}%`;
  };
  const heldSteps = held.attention?.steps ?? held.fixed?.steps;
  replaceChildren(box,
    h('h3', {}, t('train.snapshotHeading')),
    h('p', { 'data-testid': 'train-snapshot-step' }, t('train.snapshotStep', { steps, input: text, length, unit })),
    card('attention', 'train.labelAttention'),
    card('fixed', 'train.labelFixed'),
    heldSteps !== undefined && heldSteps > 0
      ? h('p', { class: 'hint' }, t('train.snapshotHeld', { long: LONG, unit, steps: heldSteps, attention: share(held.attention), fixed: share(held.fixed) }))
      : null,
    heatmap ? h('div', { class: 'heatmap-scroll' }, heatmap) : null);
}
