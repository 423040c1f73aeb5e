// The step-through panel: one decoder step t of the translation, with the
// model's own numbers (the API's trace, `translate(text, { trace: true })`):
// the query W_q s_{t-1} and each key W_k h_i as coloured vector strips, the
// score e_ti = vᵀ tanh(W_q s_{t-1} + W_k h_i) of each source token, the
// softmax a_t = softmax(e_t / τ) as bars summing to 1, the context
// c_t = Σ_i a_ti h_i as the weighted encoder states adding up, and the top-k
// next tokens. For the fixed-context model: its one context vector, the same
// at every step. Drawing only; step-view.js decides what to show.
//
// Test hooks (DESIGN.md): every source position is an element
// [data-testid="step-source"] with data-index, data-score (e_ti) and
// data-weight (a_ti); the context strip carries data-values (c_t).
import { h, pieceLabel, replaceChildren } from './dom.js';
import { maxAbs, possibleChoices, softmax, valueColor, weightedSum } from './step-math.js';
import { lang, rich as richIn, tIn } from './i18n/index.js';

// The language the panel speaks: the page's, or an embedded element's own
// (renderStepPanel's `language`).
let language = lang();
const t = (key, params) => tIn(language, key, params);
const rich = (key, params = {}) => richIn(key, params, language);

const fmt = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));

/**
 * A vector as a strip of coloured bands, one per dimension, scaled by
 * `scale`; the band under the pointer gives its dimension and value as the
 * tooltip. The strip scrolls inside its own box when it is too long for the
 * screen; focusable, with a summary as its label.
 *
 * The bands are one element painted with a gradient of hard stops, not an
 * element each: a step of a short sentence has about 3,000 dimensions in
 * its strips, and building a span for each took about 200 ms of the main
 * thread right after the first result on a slow machine
 * (bench/page-profile.mjs).
 */
export function vectorStrip(values, { scale = maxAbs(values), label, testid = null, keepValues = false } = {}) {
  const n = values.length;
  const stops = [];
  for (let d = 0; d < n; ++d) {
    stops.push(`${valueColor(values[d], scale)} ${(d * 100 / n).toFixed(4)}% ${((d + 1) * 100 / n).toFixed(4)}%`);
  }
  const bands = h('span', {
    class: 'strip-bands',
    style: `min-width:${2 * n}px${n ? `;background:linear-gradient(to right,${stops.join(',')})` : ''}`,
  });
  bands.addEventListener('pointermove', (event) => {
    const box = bands.getBoundingClientRect();
    if (!n || !box.width) return;
    const d = Math.min(n - 1, Math.max(0, Math.floor((event.clientX - box.left) / box.width * n)));
    bands.title = `${label} [${d}] = ${fmt(values[d], 4)}`;
  });
  let low = Infinity, high = -Infinity;
  for (const value of values) {
    low = Math.min(low, value);
    high = Math.max(high, value);
  }
  return h('div', {
    class: 'strip', tabindex: '0', role: 'img', 'data-testid': testid,
    'aria-label': t('step.stripLabel', { name: label, size: values.length, min: fmt(low), max: fmt(high) }),
    title: t('step.stripLabel', { name: label, size: values.length, min: fmt(low), max: fmt(high) }),
    'data-values': keepValues ? Array.from(values, (x) => x.toPrecision(9)).join(' ') : null,
  }, bands);
}

// The catalogue keys of each stage: its heading and its explanation (written
// out, so that a search for a key finds where it is used).
const STAGES = {
  query: ['step.stage.query', 'step.explain.query'],
  scores: ['step.stage.scores', 'step.explain.scores'],
  weights: ['step.stage.weights', 'step.explain.weights'],
  context: ['step.stage.context', 'step.explain.context'],
  fixed: ['step.stage.fixed', 'step.explain.fixed'],
  top: ['step.stage.top', 'step.explain.top'],
  similarity: ['step.stage.similarity', 'step.explain.similarity'],
};

// A stage of the panel: its heading, the formula in the chapter's notation, its content.
// `key` may be [stage, explanation key] when the explanation depends on the scoring function.
function stage(key, formula, ...content) {
  const [name, explainKey] = Array.isArray(key) ? key : [key, null];
  const [heading, standard] = STAGES[name];
  return h('section', { class: 'step-stage', 'data-stage': name },
    h('h4', {}, t(heading)),
    formula ? h('p', { class: 'formula', translate: 'no' }, formulaNodes(formula)) : null,
    h('p', { class: 'hint' }, t(explainKey ?? standard)),
    ...content);
}

// Formulas in the chapter's notation, the same in every language: text with
// <sub>…</sub> and <sup>…</sup> only (formulaNodes builds them; not a catalogue string).
function formulaNodes(text) {
  return text.split(/(<su[bp]>[^<]*<\/su[bp]>)/).filter(Boolean).map((part) => {
    const tag = /^<(su[bp])>([^<]*)<\/su[bp]>$/.exec(part);
    return tag ? h(tag[1], {}, tag[2]) : part;
  });
}

const FORMULA = {
  query: 'q<sub>t</sub> = W<sub>q</sub> s<sub>t−1</sub>',
  queryDirect: 'q<sub>t</sub> = s<sub>t−1</sub>',
  scores: 'e<sub>ti</sub> = v<sup>⊤</sup> tanh(W<sub>q</sub> s<sub>t−1</sub> + W<sub>k</sub> h<sub>i</sub>)',
  scoresDot: 'e<sub>ti</sub> = s<sub>t−1</sub> · h<sub>i</sub>',
  scoresScaled: 'e<sub>ti</sub> = s<sub>t−1</sub> · h<sub>i</sub> / √d',
  scoresGeneral: 'e<sub>ti</sub> = s<sub>t−1</sub> · (W<sub>k</sub> h<sub>i</sub>)',
  weights: 'a<sub>t</sub> = softmax(e<sub>t</sub> / τ),  Σ<sub>i</sub> a<sub>ti</sub> = 1',
  context: 'c<sub>t</sub> = Σ<sub>i</sub> a<sub>ti</sub> h<sub>i</sub>',
  fixed: 'c = h<sub>n</sub>  (c<sub>t</sub> = c at every t)',
  similarity: 'cos(c<sub>1</sub>, c<sub>t</sub>)',
  top: 'P(y<sub>t</sub> | y<sub>1</sub>, …, y<sub>t−1</sub>, c<sub>t</sub>)',
};
const SCORE_FORMULA = { additive: 'scores', dot: 'scoresDot', 'scaled-dot': 'scoresScaled', general: 'scoresGeneral' };
// The explanation of the scores for each scoring function (additive: STAGES's own).
const SCORE_EXPLAIN = { dot: 'step.explain.scoresDot', 'scaled-dot': 'step.explain.scoresScaled', general: 'step.explain.scoresGeneral' };

/**
 * Draws step `step` (0-based) of `trace` into `container`.
 * sourceTokens / targetTokens: the translation's tokens (the trace's rows and columns).
 * language: 'en' or 'zh-CN' (default the page's).
 * similarities: optional { attention: [...], fixed: [...] } of cos(c_1, c_t) per step, for the comparison with the fixed twin
 *   (which decoded its own translation: its row is as long as that, and no step of it is this one).
 * shortlist: true when the decoder scored only this sentence's shortlist (the explanation of the next-token stage says so).
 * tokenProbabilities: the translation's probability of each of its tokens (Translation.tokenProbabilities), or null:
 *   the token written at this step is named with its probability beside the top 5.
 */
export function renderStepPanel(container, { trace, sourceTokens, targetTokens, step, similarities = null, shortlist = false,
  tokenProbabilities = null, language: speak = lang() }) {
  language = speak;
  const record = trace.steps[step];
  container.dataset.step = String(step + 1);
  container.dataset.steps = String(trace.steps.length);
  container.dataset.scoring = trace.scoring;
  container.dataset.temperature = String(trace.temperature);
  const heading = h('h3', { class: 'step-heading', id: 'step-heading' },
    rich('step.heading', { step: step + 1, steps: trace.steps.length, token: h('b', { translate: 'no' }, `“${pieceLabel(targetTokens[step] ?? '')}”`) }));
  const stages = trace.scoring === 'none'
    ? [fixedStage(trace, step, similarities)]
    : attentionStages(trace, record, sourceTokens);
  const chosen = targetTokens[step] === undefined ? null
    : { token: targetTokens[step], probability: tokenProbabilities?.[step] ?? null };
  replaceChildren(container, heading, ...stages, topStage(record, shortlist, chosen),
    similarities && trace.scoring !== 'none' ? similarityStage(similarities, step) : null);
  rovingStrips(container);
}

// The vector strips are one tab stop (roving tabindex): Tab reaches the
// first, ↑/↓ move between them, so a keyboard reader crosses the panel in
// one press instead of one per vector (30 for a long sentence).
function rovingStrips(container) {
  const strips = [...container.querySelectorAll('.strip')];
  strips.forEach((strip, i) => strip.setAttribute('tabindex', i === 0 ? '0' : '-1'));
  container.onkeydown = (event) => {
    if (!event.target.classList?.contains('strip') || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const at = strips.indexOf(event.target);
    const next = strips[Math.max(0, Math.min(strips.length - 1, at + (event.key === 'ArrowUp' ? -1 : 1)))];
    if (!next || next === event.target) return;
    event.preventDefault();
    event.target.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
  };
}

function attentionStages(trace, record, sourceTokens) {
  const { keys, states } = trace;
  const additive = trace.scoring === 'additive' || trace.scoring === 'general';
  const keyScale = maxAbs(record.query, ...(keys ?? []));
  const scores = Array.from(record.scores);
  const weights = Array.from(record.weights);
  const scoreScale = maxAbs(scores);
  const rows = sourceTokens.map((token, i) => h('div', {
    class: 'step-source', 'data-testid': 'step-source', 'data-index': String(i),
    'data-score': String(scores[i]), 'data-weight': String(weights[i]),
  },
  h('span', { class: 'step-token', translate: 'no' }, pieceLabel(token)),
  additive && keys ? vectorStrip(keys[i], { scale: keyScale, label: `W_k h_${i + 1}` }) : vectorStrip(states[i], { label: `h_${i + 1}` }),
  h('span', { class: 'step-score', title: `e_{t,${i + 1}}` }, fmt(scores[i])),
  h('span', { class: 'step-bar', 'aria-hidden': 'true' }, h('span', {
    class: 'bar-fill', style: `width:${(weights[i] * 100).toFixed(2)}%`,
  })),
  h('span', { class: 'step-weight', title: `a_{t,${i + 1}}` }, fmt(weights[i]))));
  const sum = weights.reduce((a, b) => a + b, 0);
  const check = softmax(scores, trace.temperature);
  const worst = Math.max(...check.map((w, i) => Math.abs(w - weights[i])));
  const query = record.query
    ? stage(trace.scoring === 'additive' ? 'query' : ['query', 'step.explain.queryDirect'],
      trace.scoring === 'additive' ? FORMULA.query : FORMULA.queryDirect, vectorStrip(record.query, { scale: keyScale, label: trace.scoring === 'additive' ? 'W_q s_{t−1}' : 's_{t−1}', testid: 'step-query' }))
    : null;
  const scoring = stage(['scores', SCORE_EXPLAIN[trace.scoring] ?? null], FORMULA[SCORE_FORMULA[trace.scoring] ?? 'scores'],
    h('div', { class: 'step-sources', role: 'list', 'aria-label': t('step.sourcesLabel') }, rows.map((row) => {
      row.setAttribute('role', 'listitem');
      row.setAttribute('aria-label', t('step.sourceRow', { token: row.firstChild.textContent, score: fmt(Number(row.dataset.score)), weight: fmt(Number(row.dataset.weight)) }));
      row.style.setProperty('--score', (Number(row.dataset.score) / scoreScale).toFixed(3));
      return row;
    })));
  const softmaxStage = stage('weights', FORMULA.weights,
    h('p', { class: 'step-check', 'data-testid': 'step-sum', 'data-sum': String(sum) },
      t('step.sum', { sum: fmt(sum, 6), tau: String(trace.temperature), diff: worst < 1e-6 ? '0.000001' : worst.toFixed(6) })));
  // c_t: each h_i scaled by a_ti (fainter for small weights), then their sum.
  // One colour scale for the terms and their sum, so that a small weight
  // fades its state towards white and the strips visibly add up to c_t.
  const order = weights.map((w, i) => i).sort((a, b) => weights[b] - weights[a]);
  const scaled = states.map((state, i) => weightedSum([weights[i]], [state]));
  const contextScale = maxAbs(record.context, ...scaled);
  const terms = order.map((i) => h('div', { class: 'step-term' },
    h('span', { class: 'step-token', translate: 'no' }, `${fmt(weights[i], 2)} × h`, sub(i + 1), ` ${pieceLabel(sourceTokens[i])}`),
    vectorStrip(scaled[i], { scale: contextScale, label: `a_{t,${i + 1}} h_${i + 1}` })));
  const context = stage('context', FORMULA.context,
    h('div', { class: 'step-terms' }, terms),
    h('div', { class: 'step-term step-total' }, h('span', { class: 'step-token' }, '= c', sub('t')),
      vectorStrip(record.context, { scale: contextScale, label: 'c_t', testid: 'step-context', keepValues: true })));
  return [query, scoring, softmaxStage, context];
}

const sub = (text) => h('sub', {}, String(text));

function fixedStage(trace, step, similarities) {
  const context = trace.steps[step].context;
  return stage('fixed', FORMULA.fixed,
    vectorStrip(context, { label: 'c', testid: 'step-context', keepValues: true }),
    similarities ? similarityList(similarities, step) : null);
}

function similarityStage(similarities, step) {
  // The explanation promises the fixed-context row only when it is there.
  return stage(['similarity', similarities.fixed ? 'step.explain.similarity' : 'step.explain.similarityAlone'],
    FORMULA.similarity, similarityList(similarities, step));
}

// cos(c_1, c_t) per step, for the attention model and (when known) the fixed
// twin. Only the model drawn here has a current step: the twin decoded its
// own translation, whose steps are not these.
function similarityList({ attention = null, fixed = null }, step) {
  const row = (label, values, testid, current) => values && h('div', { class: 'similarity-row', 'data-testid': testid },
    h('span', { class: 'similarity-label' }, label),
    values.map((value, k) => h('span', {
      class: `similarity${k === current ? ' current' : ''}`, 'data-cosine': String(value),
      title: t('step.cosineTitle', { step: k + 1, value: fmt(value, 4) }),
      style: `--cos:${Math.max(0, value).toFixed(3)}`,
    }, fmt(value, 2))));
  return h('div', { class: 'similarities' },
    row(t('step.cosineAttention'), attention, 'similarity-attention', attention ? step : null),
    row(t(attention ? 'step.cosineFixedOwn' : 'step.cosineFixed', { steps: fixed?.length ?? 0 }), fixed, 'similarity-fixed', attention ? null : step));
}

// The next tokens the model could write (a piece outside the shortlist, at
// probability 0, is left out), the one written marked; and the token written
// with its probability, which beam search may have taken from outside the
// top 5.
function topStage(record, shortlist, chosen) {
  const list = h('ol', { class: 'step-top', 'data-testid': 'step-top' }, possibleChoices(record.top).map(({ token, probability }) =>
    h('li', { 'data-probability': String(probability), class: token === chosen?.token ? 'chosen' : null },
      h('span', { class: 'step-token', translate: 'no' }, pieceLabel(token)),
      h('span', { class: 'step-bar', 'aria-hidden': 'true' }, h('span', { class: 'bar-fill', style: `width:${(probability * 100).toFixed(2)}%` })),
      h('span', { class: 'step-weight' }, fmt(probability)))));
  const written = chosen && chosen.probability !== null
    ? h('p', { class: 'step-chosen', 'data-testid': 'step-chosen', 'data-probability': String(chosen.probability) },
      rich('step.chosen', { token: h('b', { translate: 'no' }, pieceLabel(chosen.token)), p: fmt(chosen.probability) }))
    : null;
  return stage(['top', shortlist ? 'step.explain.topShortlist' : 'step.explain.top'], FORMULA.top, written, list);
}

/**
 * Steps through a panel: the Previous/Next buttons, and ←/→ while the panel
 * (or one of its vector strips) has focus, call move(-1) or move(+1); Home
 * and End move(-Infinity) and move(+Infinity), which each caller clamps to
 * the first and the last step. The page's step section, the training page
 * and the element share it.
 */
export function bindStepKeys({ prev, next, panel }, move) {
  prev.addEventListener('click', () => move(-1));
  next.addEventListener('click', () => move(1));
  panel.addEventListener('keydown', (event) => {
    if (event.target !== panel && !event.target.classList?.contains('strip')) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      move(event.key === 'ArrowLeft' ? -1 : 1);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      move(event.key === 'Home' ? -Infinity : Infinity);
    }
  });
}

export const STEP_CSS = `
.step-panel { min-width: 0; }
.step-stage { border-top: 1px solid var(--panel-line, #e5e7eb); padding: .5rem 0; min-width: 0; }
.step-stage h4 { margin: .2rem 0; font-size: 1rem; }
.formula { font-family: "Cambria Math", "STIX Two Math", serif; font-style: italic; margin: .2rem 0; overflow-wrap: anywhere; }
.strip { display: flex; height: 14px; min-width: 0; flex: 1 1 8rem; overflow-x: auto; border: 1px solid var(--panel-line, #d1d5db); border-radius: 2px; }
.strip:focus-visible, .step-panel button:focus-visible, .beam-node:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.strip-bands { flex: 1 0 auto; display: block; height: 100%; }
.step-source, .step-term, .step-top li { display: flex; align-items: center; gap: .4rem; margin: 2px 0; min-width: 0; }
.step-token { flex: 0 0 5.5rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: .9rem; }
.step-score, .step-weight { flex: 0 0 3.4rem; text-align: right; font-variant-numeric: tabular-nums; font-size: .85rem; }
.step-bar { flex: 0 1 5rem; height: 10px; background: var(--panel-track, #f3f4f6); border-radius: 2px; min-width: 2rem; }
.bar-fill { display: block; height: 100%; background: var(--panel-bar, #1d4ed8); border-radius: 2px; }
.step-top { padding-left: 1.2rem; margin: .2rem 0; }
.step-top .step-bar { flex: 1 1 8rem; }
.step-top li.chosen .step-token { font-weight: 700; }
.step-top li.chosen::after { content: " ←"; }
.step-term .step-token { flex-basis: 9rem; }
.step-total { border-top: 1px dashed #9ca3af; padding-top: 2px; font-weight: 600; }
.similarities { display: grid; gap: .3rem; }
.similarity-row { display: flex; flex-wrap: wrap; gap: 2px; align-items: center; }
.similarity-label { flex: 0 0 100%; font-size: .85rem; }
.similarity { font-size: .75rem; padding: 1px 3px; border-radius: 2px; background: rgba(29, 78, 216, calc(var(--cos) * .35)); }
.similarity.current { outline: 2px solid var(--panel-ink, #111827); }
.step-check { font-size: .85rem; color: var(--panel-muted, #374151); }
@media (max-width: 480px) {
  /* A phone keeps every number (softmax(scores) = weights must stay
     checkable): each row's label takes a line of its own, whole, and the
     strip, score, bar and weight share the next. */
  .step-source, .step-term { flex-wrap: wrap; row-gap: 0; }
  .step-token, .step-term .step-token { flex: 1 1 100%; white-space: normal; overflow: visible; overflow-wrap: anywhere; }
  .step-score, .step-weight { flex-basis: 3rem; font-size: .8rem; }
  .step-source .strip, .step-term .strip { flex-basis: 4rem; }
}
`;
