// One training run in a module Web Worker: the Train view starts two (the
// attention model and its fixed-context twin), so that they train side by
// side on two cores and the page never waits.
//
// Messages in:
//   { type: 'create', options, probe, pauseAt }   a new run (the old one is freed); replies 'created'.
//                                 pauseAt: steps at which the run pauses by itself (the page's
//                                 ?pause-at= test hook: a test trains an exact number of steps)
//   { type: 'run' } / { type: 'pause' }
//   { type: 'probe', text }       the probe sentence whose translation is reported
//   { type: 'trace', on }         whether the probe's result carries the decoder trace (the step panel)
// Messages out:
//   { type: 'created', info, probes }
//   { type: 'progress', steps, totalSteps, loss, stepsPerSecond }
//   { type: 'probe', steps, text, result }    every PROBE_EVERY steps and on request
//   { type: 'evaluation', evaluation }        every EVALUATE_EVERY steps
//   { type: 'state', running, finished }
//   { type: 'error', message }
import { getApi } from '../figures/load-api.js';

const CHUNK = 5;            // steps between checks for messages
const PROBE_EVERY = 10;     // redraw the heatmap this often: alignment visibly emerges
const EVALUATE_EVERY = 100; // held-out exact match by length

let trainer = null;
let api = null;             // the package's API (index.js), once a run is created
let running = false;
let probeText = '';
let pauseAt = [];           // steps at which the run pauses by itself
let withTrace = false;      // the step panel is open: probes carry the decoder trace
let generation = 0;         // a 'create' invalidates loops of the previous run
let currentSteps = 0;
let rate = { steps: 0, since: 0, value: 0 };  // steps per second, over the last half second

const post = (message) => self.postMessage(message);
const fail = (error) => post({ type: 'error', message: error?.message ?? String(error) });

function sendProbe() {
  if (!trainer || probeText.trim() === '') return;
  try {
    const result = trainer.translate(probeText, { trace: withTrace });
    const buffer = api.translationBuffer(result);
    self.postMessage({ type: 'probe', steps: currentSteps, text: probeText, result }, buffer ? [buffer] : []);
  } catch (error) {
    fail(error);
  }
}

async function loop(myGeneration) {
  const totalSteps = trainer.info.options.steps;
  while (running && myGeneration === generation) {
    const nextPause = pauseAt.find((s) => s > currentSteps) ?? totalSteps;
    const count = Math.min(CHUNK, totalSteps - currentSteps, nextPause - currentSteps);
    if (count <= 0) {
      running = false;
      post({ type: 'state', running: false, finished: true });
      break;
    }
    let report;
    try {
      report = trainer.step(count);
    } catch (error) {
      running = false;
      fail(error);
      post({ type: 'state', running: false, finished: false });
      break;
    }
    const before = currentSteps;
    currentSteps = report.steps;
    const now = performance.now();
    if (now - rate.since > 500) {
      rate.value = (currentSteps - rate.steps) / ((now - rate.since) / 1000);
      rate.steps = currentSteps;
      rate.since = now;
    }
    post({ type: 'progress', steps: currentSteps, totalSteps, loss: report.loss, stepsPerSecond: rate.value });
    if (Math.floor(currentSteps / PROBE_EVERY) > Math.floor(before / PROBE_EVERY)) sendProbe();
    if (Math.floor(currentSteps / EVALUATE_EVERY) > Math.floor(before / EVALUATE_EVERY) || currentSteps === totalSteps) {
      post({ type: 'evaluation', evaluation: trainer.evaluate() });
    }
    if (currentSteps < totalSteps && pauseAt.includes(currentSteps)) {
      running = false;
      post({ type: 'state', running: false, finished: false });
      break;
    }
    // Let 'pause' and 'probe' messages in.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

async function handle(message) {
  switch (message?.type) {
    case 'create': {
      generation += 1;
      running = false;
      trainer?.dispose();
      trainer = null;
      currentSteps = 0;
      api = await getApi('trainer');
      trainer = await api.createTrainer(message.options);
      probeText = message.probe ?? '';
      pauseAt = Array.isArray(message.pauseAt) ? message.pauseAt.filter((s) => Number.isInteger(s) && s > 0).sort((a, b) => a - b) : [];
      post({ type: 'created', info: trainer.info, probes: trainer.probes(8) });
      sendProbe();
      post({ type: 'evaluation', evaluation: trainer.evaluate() });
      return;
    }
    case 'run':
      if (!trainer || running) return;
      running = true;
      rate = { steps: currentSteps, since: performance.now(), value: 0 };
      post({ type: 'state', running: true, finished: false });
      loop(generation);
      return;
    case 'pause':
      if (!running) return;
      running = false;
      post({ type: 'state', running: false, finished: false });
      return;
    case 'probe':
      probeText = String(message.text ?? '');
      sendProbe();
      return;
    case 'trace':
      withTrace = message.on === true;
      if (withTrace) sendProbe();
      return;
    default:
      throw new Error(`unknown message type ${JSON.stringify(message?.type)}`);
  }
}

// One message at a time, in the order sent: a 'run' that arrives while a
// 'create' is still loading the trainer starts the new run once it exists
// (it was dropped before, and a quick click on Start did nothing).
let queue = Promise.resolve();
self.addEventListener('message', (event) => {
  queue = queue.then(() => handle(event.data)).catch(fail);
});

post({ type: 'ready' });
