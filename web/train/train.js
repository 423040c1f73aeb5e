// The Train view (train.html): two training runs, attention and fixed
// context, each in its own worker (the package's createTrainerWorker, from
// 'seq2seq-attention/trainer-worker', as any user of the package would),
// drawn live: the probe's attention heatmap, both outputs for the probe,
// loss curves and held-out exact match by input length.
import { h, replaceChildren } from '../figures/dom.js';
import { missingFeatures } from '../figures/features.js';
import { renderHeatmap } from '../figures/heatmap.js';
import { renderAccuracyChart, renderLossChart } from './train-charts.js';
import { loadPackage } from '../figures/load-api.js';
import { drawTrainStep, openTrainStep, wireTrainStep } from './train-step.js';
import { expectedSymbols, renderProbeCheck } from './train-expected.js';
import { drawSnapshot, noteProbe, resetSnapshot } from './train-snapshot.js';
import { TASKS, samplePairs } from './train-tasks.js';
import { applyStatic, speakDocument, browserLang, lang, onLangChange, setLang, t } from '../figures/i18n/index.js';

const COLORS = { attention: '#4338ca', fixed: '#d97706' };
const LABELS = { attention: 'train.labelAttention', fixed: 'train.labelFixed' }; // catalogue keys (web/figures/i18n/)

const view = {
  task: document.getElementById('task'),
  scoring: document.getElementById('scoring'),
  start: document.getElementById('start'),  // Start, Pause or Continue: what a click does now
  reset: document.getElementById('reset'),
  withFixed: document.getElementById('with-fixed'),
  pairsBox: document.getElementById('pairs-box'),
  pairs: document.getElementById('pairs'),
  characters: document.getElementById('characters'),
  explain: document.getElementById('task-explain'),
  status: document.getElementById('train-status'),
  probe: document.getElementById('probe'),
  probeExamples: document.getElementById('probe-examples'),
  heatmap: document.getElementById('train-heatmap'),
  lossChart: document.getElementById('loss-chart'),
  accuracyChart: document.getElementById('accuracy-chart'),
  output: { attention: document.getElementById('output-attention'), fixed: document.getElementById('output-fixed') },
  rate: { attention: document.getElementById('rate-attention'), fixed: document.getElementById('rate-fixed') },
  snapshot: document.getElementById('train-snapshot'),
};

function emptyRun() {
  return { ready: false, running: false, finished: false, steps: 0, totalSteps: 0, loss: null, rate: 0, losses: [], evaluation: null, probe: null, error: null, info: null };
}

const runs = { attention: emptyRun(), fixed: emptyRun() };
const trainers = {};    // kind -> Promise of the package's TrainerWorker for runs[kind]
let traceWanted = false; // the step panel is open: the attention run's probes carry the decoder trace
let drawPending = false;
let drawnProbe = null;  // the probe result the heatmap shows

// A fresh run of `kind` in its own worker. Its callbacks write into `run`,
// this run's record; once create() has replaced it (Reset, a new task),
// the old run's trainer is disposed and nothing it says is drawn.
function startTrainer(kind) {
  const run = runs[kind];
  const current = () => runs[kind] === run;
  const noted = (change) => (value) => {
    change(value);
    if (current()) scheduleDraw();
  };
  const created = loadPackage('trainer-worker.js', 'what.trainer').then(({ createTrainerWorker }) => createTrainerWorker(trainerOptions(kind), {
    worker: true,
    probe: view.probe.value,
    trace: kind === 'attention' && traceWanted,
    onProgress: noted((p) => {
      run.steps = p.steps;
      run.loss = p.loss;
      run.rate = p.stepsPerSecond;
      run.losses.push([p.steps, p.loss]);
    }),
    onProbe: noted((p) => {
      if (p.error) {
        run.error = p.error.message;
        return;
      }
      run.probe = p.result;
      run.probeSteps = p.steps;
      run.probeText = p.text;
      if (!current()) return;
      noteProbe(kind, p.steps, p.text, p.result, {
        expectedFor,
        sourceLength: (result) => result.sourceTokens.filter((token) => token !== '<eos>').length,
        evaluations: { attention: runs.attention.evaluation, fixed: runs.fixed.evaluation },
      });
    }),
    onEvaluation: noted((evaluation) => { run.evaluation = evaluation; }),
    onStateChange: noted((state) => {
      run.running = state.running;
      run.finished = state.finished;
    }),
  }));
  created.then(async (trainer) => {
    if (!current()) return;
    run.info = trainer.info;
    run.totalSteps = trainer.info.options.steps;
    if (kind === 'attention') showProbeExamples(await trainer.probes(8));
    run.ready = true;
    scheduleDraw();
  }).catch(noted((error) => { run.error = error.message; }));
  return created;
}

// Calls `use(trainer)` on the current trainer of `kind` once it exists; a
// failure (a step that throws: bad data) stops that run with its message.
function withTrainer(kind, use) {
  const run = runs[kind];
  trainers[kind]?.then(use).catch((error) => {
    if (runs[kind] !== run) return;
    run.error = error.message;
    run.running = false;
    scheduleDraw();
  });
}

// Many messages a second arrive; draw at most every DRAW_INTERVAL ms, in an
// animation frame, so that the page's own thread stays free.
const DRAW_INTERVAL = 100;
let lastDraw = 0;
function scheduleDraw() {
  if (drawPending) return;
  drawPending = true;
  setTimeout(() => requestAnimationFrame(() => {
    drawPending = false;
    lastDraw = performance.now();
    draw();
  }), Math.max(0, lastDraw + DRAW_INTERVAL - performance.now()));
}

const active = () => (view.withFixed.checked ? ['attention', 'fixed'] : ['attention']);
const percent = (value) => `${Math.round(value * 100)}%`;

const byCharacter = () => runs.attention.info?.targetTokenizer?.kind === 'characters';

// The probe's expected output by the task's rule (train-expected.js), or null.
function expectedFor(text) {
  return expectedSymbols(view.task.value, text, { pairs: view.pairs.value, characters: view.characters.checked });
}

// What the run button does if clicked now: its label and data-action.
function runAction(anyRunning, allReady) {
  if (anyRunning) return 'pause';
  if (allReady && active().every((k) => runs[k].finished)) return 'finished';
  return runs.attention.steps > 0 ? 'continue' : 'start';
}
const ACTION_LABELS = { start: 'train.start', pause: 'train.pause', continue: 'train.continue', finished: 'train.finishedButton' };

function draw() {
  const attention = runs.attention;
  const error = active().map((k) => runs[k].error).find(Boolean);
  const anyRunning = active().some((k) => runs[k].running);
  const allReady = active().every((k) => runs[k].ready);
  const action = runAction(anyRunning, allReady);
  view.start.dataset.action = action;
  view.start.disabled = action === 'finished' || (!allReady && action !== 'pause') || Boolean(error);
  view.start.textContent = t(ACTION_LABELS[action]);

  if (error) {
    view.status.dataset.state = 'error';
    replaceChildren(view.status, t('train.stopped', { error }));
  } else if (!allReady) {
    view.status.dataset.state = 'loading';
    replaceChildren(view.status, t('train.preparing'));
  } else {
    view.status.dataset.state = anyRunning ? 'running' : attention.finished ? 'finished' : 'paused';
    const parts = active().map((k) => {
      const r = runs[k];
      return t('train.runStatus', {
        label: t(LABELS[k]), steps: r.steps, total: r.totalSteps,
        loss: r.loss !== null ? t('train.loss', { loss: r.loss.toFixed(3) }) : '',
        exact: r.evaluation ? t('train.exact', { percent: percent(r.evaluation.exactMatch) }) : '',
      });
    });
    const state = anyRunning ? 'train.stateTraining' : attention.finished ? 'train.stateFinished' : attention.steps > 0 ? 'train.statePaused' : 'train.stateReady';
    replaceChildren(view.status, h('strong', {}, t(state)), ' — ', parts.join('  |  '));
  }
  view.status.dataset.stepsAttention = attention.steps;
  view.status.dataset.exactAttention = attention.evaluation?.exactMatch ?? '';
  view.status.dataset.exactFixed = runs.fixed.evaluation?.exactMatch ?? '';

  for (const kind of ['attention', 'fixed']) {
    const r = runs[kind];
    const shown = kind === 'attention' || view.withFixed.checked;
    view.output[kind].closest('figure').hidden = !shown;
    replaceChildren(view.rate[kind], r.running && r.rate > 0 ? t('train.rate', { rate: Math.round(r.rate) }) : '');
    view.output[kind].dataset.steps = r.probeSteps ?? 0;
    const output = r.probe ? r.probe.targetTokens.filter((token) => token !== '<eos>') : null;
    replaceChildren(view.output[kind], !output ? ''
      : renderProbeCheck(output, expectedFor(r.probeText ?? ''), { unit: t(TASKS[view.task.value].unit), characters: byCharacter(), kind }),
      output?.length === 0 ? h('span', { class: 'nothing-yet' }, t('train.nothingYet')) : null);
  }
  view.snapshot.hidden = !view.withFixed.checked;
  drawSnapshot(view.snapshot, { unit: t(TASKS[view.task.value].unit), characters: byCharacter() });

  if (attention.probe && attention.probe !== drawnProbe && attention.probe.attention.length > 0) {
    drawnProbe = attention.probe;
    const map = renderHeatmap(attention.probe, {
      testid: 'train-heatmap',
      label: t('train.heatmapLabel', { steps: attention.probeSteps }),
    });
    map.element.dataset.steps = attention.probeSteps;
    replaceChildren(view.heatmap, map.element);
  } else if (!attention.probe && drawnProbe) {
    drawnProbe = null;
    replaceChildren(view.heatmap);
  }

  drawTrainStep(attention.probe);

  const width = Math.min(560, view.lossChart.parentElement.clientWidth || 420);
  const chartWidth = width > 700 ? width / 2 - 12 : width;
  const series = active().map((k) => ({ label: t(LABELS[k]), color: COLORS[k], points: runs[k].losses, evaluation: runs[k].evaluation }));
  replaceChildren(view.lossChart, renderLossChart(series, { width: chartWidth }));
  replaceChildren(view.accuracyChart, renderAccuracyChart(series, { width: chartWidth, unit: t(TASKS[view.task.value].unit) }));
}

let probes = []; // the held-out examples shown under the probe
let pauseAt = []; // steps at which both runs pause by themselves (?pause-at=)

function showProbeExamples(list = probes) {
  probes = list;
  replaceChildren(view.probeExamples, h('span', { class: 'examples-label' }, t('train.heldOut')),
    probes.map((p) => h('button', {
      type: 'button', class: 'example', 'data-testid': 'train-probe-example',
      onclick: () => setProbe(p.source),
      title: t('train.expected', { target: p.target }),
    }, p.source)));
}

function setProbe(text) {
  view.probe.value = text;
  for (const kind of Object.keys(trainers)) withTrainer(kind, (trainer) => trainer.setProbe({ text }));
}

function trainerOptions(kind) {
  const task = view.task.value;
  const scoring = view.scoring.value;
  // (For dot scoring the trainer makes the decoder as wide as the
  // bidirectional encoder states by itself: train_bindings.cpp.)
  const options = { task, attention: kind === 'attention' ? scoring : 'none' };
  if (task === 'pairs') {
    options.pairs = view.pairs.value;
    options.characters = view.characters.checked;
  }
  return options;
}

// A fresh pair of runs for the chosen task (Reset, or a new task).
function create() {
  const task = view.task.value;
  view.pairsBox.hidden = task !== 'pairs';
  replaceChildren(view.explain, t(TASKS[task].explain));
  if (task !== 'pairs' || view.probe.value === '' || view.probe.dataset.task !== task) {
    view.probe.value = TASKS[task].probe || (task === 'pairs' ? view.pairs.value.split('\n')[9]?.split('\t')[0] ?? '' : '');
  }
  view.probe.dataset.task = task;
  resetSnapshot();
  for (const kind of ['attention', 'fixed']) {
    trainers[kind]?.then((trainer) => trainer.dispose(), () => {});
    runs[kind] = emptyRun();
    trainers[kind] = startTrainer(kind);
  }
  // Not ready until the trainers exist: the buttons follow now, not at the next draw.
  view.start.disabled = true;
  view.status.dataset.state = 'loading';
  replaceChildren(view.heatmap);
  scheduleDraw();
}

function wire() {
  view.start.addEventListener('click', () => {
    if (view.start.dataset.action === 'pause') {
      for (const kind of ['attention', 'fixed']) withTrainer(kind, (trainer) => trainer.pause());
    } else {
      for (const kind of active()) withTrainer(kind, (trainer) => trainer.run({ pauseAt }));
    }
  });
  view.reset.addEventListener('click', create);
  view.scoring.addEventListener('change', () => {
    const url = new URL(location.href);
    url.searchParams.set('scoring', view.scoring.value);
    history.replaceState(null, '', url);
    create();
  });
  wireTrainStep({
    setTraceWanted: (on) => {
      traceWanted = on;
      withTrainer('attention', (trainer) => trainer.setProbe({ trace: on }));
    },
  });
  // A heatmap row (its label or a cell; Enter on a focused cell) opens that step, as on the main page.
  const heatmapRow = (event) => {
    const target = event.target.closest?.('[data-row-label], [data-row]');
    if (!target) return null;
    return Number(target.getAttribute('data-row-label') ?? target.getAttribute('data-row'));
  };
  view.heatmap.addEventListener('click', (event) => {
    const row = heatmapRow(event);
    if (row !== null) openTrainStep(row);
  });
  view.heatmap.addEventListener('keydown', (event) => {
    const row = event.key === 'Enter' ? heatmapRow(event) : null;
    if (row !== null) openTrainStep(row);
  });
  view.task.addEventListener('change', () => {
    const url = new URL(location.href);
    url.searchParams.set('task', view.task.value);
    history.replaceState(null, '', url);
    create();
  });
  view.withFixed.addEventListener('change', () => {
    if (!view.withFixed.checked) withTrainer('fixed', (trainer) => trainer.pause());
    else if (runs.attention.running) withTrainer('fixed', (trainer) => trainer.run({ pauseAt }));
    scheduleDraw();
  });
  let probeTimer = 0;
  view.probe.addEventListener('input', () => {
    clearTimeout(probeTimer);
    probeTimer = setTimeout(() => setProbe(view.probe.value), 150);
  });
  let pairsTimer = 0;
  view.pairs.addEventListener('input', () => {
    clearTimeout(pairsTimer);
    pairsTimer = setTimeout(create, 600);
  });
  view.characters.addEventListener('change', create);
  window.addEventListener('resize', scheduleDraw);
}

// The language (web/figures/i18n/): the toggle switches it without a reload; the
// URL's ?lang= follows it when it differs from what the browser asks for.
function showLanguage() {
  speakDocument();
  applyStatic(document);
  document.getElementById('lang-toggle').lang = lang() === 'zh-CN' ? 'en' : 'zh-CN';
}

function wireLanguage() {
  document.getElementById('lang-toggle').addEventListener('click', () => setLang(lang() === 'zh-CN' ? 'en' : 'zh-CN'));
  onLangChange(() => {
    showLanguage();
    const url = new URL(location.href);
    if (lang() === browserLang()) url.searchParams.delete('lang');
    else url.searchParams.set('lang', lang());
    history.replaceState(null, '', url);
    replaceChildren(view.explain, t(TASKS[view.task.value].explain));
    showProbeExamples();
    drawnProbe = null; // the heatmap too: its legend and description
    drawTrainStep(runs.attention.probe, { force: true });
    scheduleDraw();
  });
}

function main() {
  showLanguage();
  wireLanguage();
  const missing = missingFeatures();
  if (missing) {
    for (const control of [view.task, view.scoring, view.start, view.reset]) control.disabled = true;
    view.status.dataset.state = 'error';
    replaceChildren(view.status, missing);
    return;
  }
  const task = new URL(location.href).searchParams.get('task');
  if (task && Object.hasOwn(TASKS, task)) view.task.value = task;
  const scoring = new URL(location.href).searchParams.get('scoring');
  if ([...view.scoring.options].some((o) => o.value === scoring)) view.scoring.value = scoring;
  view.pairs.value = samplePairs();
  // A test hook: ?pause-at=300,320 pauses both runs at exactly those steps,
  // so that a test trains a known number of steps (tests/e2e/train.test.mjs).
  pauseAt = (new URL(location.href).searchParams.get('pause-at') ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  wire();
  create();
}

main();
