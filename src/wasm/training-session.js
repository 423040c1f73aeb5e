// The training loop behind createTrainerWorker (trainer-worker.js): one
// trainer (trainer.js's createTrainer) trained in chunks of steps, with the
// owner's requests answered between chunks. It runs in a worker
// (training-worker.js) or, with { worker: false }, on the owner's thread;
// either way it speaks in messages, through `post(message, transfer)`.
//
// Requests in: { id, type, ... }; each is answered { id, ok: true, value }
// or { id, ok: false, error, kind }:
//   create { options, wasm, probe, trace, probeEvery, evaluateEvery, chunkSize }
//                                        -> info; then a probe and an evaluation at step 0
//   run { until, pauseAt }               -> when the loop stops: { steps, finished }
//   pause                                -> when it has stopped (after the chunk under way)
//   probe { text, trace }                -> null; sets the periodic probe and probes now
//   translate { text, options }, evaluate { limit }, probes { count }, toBytes
//   dispose                              -> null; frees the trainer
// Events out: { event: 'progress', progress: { steps, totalSteps, loss, learningRate, stepsPerSecond } },
//   { event: 'probe', probe: { steps, text, result } or { steps, text, error, kind } },
//   { event: 'evaluation', evaluation }, { event: 'state', state: { running, finished, steps } }.
import { UsageError, describeValue } from './errors.js';
import { nextTask } from './platform.js';
import { createTrainer, setTrainRuntimeSource } from './trainer.js';
import { translationBuffer } from './translation.js';

const RATE_WINDOW_MS = 500;  // steps per second over about the last half second

/** A session that answers `post`'s owner; `handle(message)` takes each request, in order. */
export function trainingSession(post) {
  let trainer = null;
  let steps = 0;
  let totalSteps = 0;
  let settings = null;              // { probe, trace, probeEvery, evaluateEvery, chunkSize }
  let running = false;
  let pauseAsked = false;           // a pause waits for the chunk under way
  let stopAt = { until: Infinity, pauseAt: [] };
  let waiting = [];                 // ids of run and pause requests answered when the loop stops
  let rate = { steps: 0, since: 0, value: 0 };
  let queue = Promise.resolve();

  const reply = (id, value, transfer = []) => post({ id, ok: true, value }, transfer);
  const fail = (id, error) => post({ id, ok: false, error: error?.message ?? String(error), kind: error?.kind });
  const state = () => ({ running, finished: trainer !== null && steps >= totalSteps, steps });
  const live = (what) => {
    if (trainer === null) throw new UsageError(`trainer.${what}: this trainer was disposed; create another with createTrainerWorker()`);
    return trainer;
  };

  function sendProbe() {
    if (trainer === null || settings.probe.trim() === '') return;
    const text = settings.probe;
    try {
      const result = trainer.translate(text, { trace: settings.trace });
      const buffer = translationBuffer(result);
      post({ event: 'probe', probe: { steps, text, result } }, buffer ? [buffer] : []);
    } catch (error) {
      post({ event: 'probe', probe: { steps, text, error: error?.message ?? String(error), kind: error?.kind } });
    }
  }

  // The loop stops at `until`, at the first pauseAt step past the current
  // one, or at the end of the schedule, whichever comes first: exactly, as
  // no chunk crosses a stop (nor a probe's or an evaluation's step).
  function nextStop() {
    const pause = stopAt.pauseAt.find((s) => s > steps) ?? Infinity;
    return Math.min(stopAt.until, pause, totalSteps);
  }

  function stopped(error = null) {
    running = false;
    pauseAsked = false;
    const answered = waiting;
    waiting = [];
    post({ event: 'state', state: state() });  // before the replies: a caller's callback knows when its promise settles
    for (const id of answered) {
      if (error) fail(id, error);
      else reply(id, state());
    }
  }

  async function loop() {
    while (!pauseAsked && trainer !== null) {
      const stop = nextStop();
      const next = (every) => (Math.floor(steps / every) + 1) * every;
      const count = Math.min(settings.chunkSize, stop - steps, next(settings.probeEvery) - steps, next(settings.evaluateEvery) - steps);
      if (count <= 0) break;
      let report;
      try {
        report = trainer.step(count);
      } catch (error) {
        stopped(error);
        return;
      }
      steps = report.steps;
      const now = performance.now();
      if (now - rate.since > RATE_WINDOW_MS) {
        rate = { steps, since: now, value: (steps - rate.steps) / ((now - rate.since) / 1000) };
      }
      post({ event: 'progress', progress: { steps, totalSteps, loss: report.loss, learningRate: report.learningRate, stepsPerSecond: rate.value } });
      if (steps % settings.probeEvery === 0) sendProbe();
      if (steps % settings.evaluateEvery === 0 || steps === totalSteps) post({ event: 'evaluation', evaluation: trainer.evaluate() });
      if (steps >= stop) break;
      await nextTask();  // lets a pause, a probe or a translate in
    }
    stopped();
  }

  const HANDLERS = {
    async create({ options, wasm, probe = '', trace = false, probeEvery = 10, evaluateEvery = 100, chunkSize = 5 }) {
      if (trainer !== null) throw new UsageError('createTrainerWorker: this worker already has a trainer');
      if (wasm !== undefined && wasm !== null) setTrainRuntimeSource(wasm);
      trainer = await createTrainer(options);
      totalSteps = trainer.info.options.steps;
      settings = { probe, trace, probeEvery, evaluateEvery, chunkSize };
      return trainer.info;
    },
    run({ until = Infinity, pauseAt = [] }, id) {
      live('run');
      stopAt = { until: until ?? Infinity, pauseAt: [...pauseAt].sort((a, b) => a - b) };
      if (nextStop() <= steps) return state();  // nothing to do: finished, or already at the stop
      waiting.push(id);
      pauseAsked = false;  // a run after a pause that has not yet taken effect goes on
      if (!running) {
        running = true;
        rate = { steps, since: performance.now(), value: 0 };
        post({ event: 'state', state: state() });
        loop();
      }
      return undefined;  // answered when the loop stops
    },
    pause(message, id) {
      if (!running) return state();
      pauseAsked = true;   // the loop sees it after its chunk
      waiting.push(id);
      return undefined;
    },
    probe({ text, trace }) {
      live('setProbe');
      if (text !== undefined) settings.probe = text;
      if (trace !== undefined) settings.trace = trace;
      sendProbe();
      return null;
    },
    translate({ text, options }) {
      const result = live('translate').translate(text, options);
      return { value: result, transfer: [translationBuffer(result)].filter(Boolean) };
    },
    evaluate: ({ limit }) => live('evaluate').evaluate({ limit }),
    probes: ({ count }) => live('probes').probes(count),
    toBytes() {
      const bytes = live('toBytes').toBytes();
      return { value: bytes, transfer: [bytes.buffer] };
    },
    dispose() {
      pauseAsked = true;
      trainer?.dispose();
      trainer = null;
      return null;
    },
  };

  async function answer(message) {
    const handler = HANDLERS[message.type];
    if (!handler) throw new UsageError(`training worker: unknown request ${describeValue(message.type)}`);
    const value = await handler(message, message.id);
    if (value === undefined) return;  // answered later
    if (value !== null && typeof value === 'object' && 'transfer' in value) reply(message.id, value.value, value.transfer);
    else reply(message.id, value);
    if (message.type === 'create') {
      sendProbe();
      post({ event: 'evaluation', evaluation: trainer.evaluate() });
    }
  }

  // One request at a time, in the order sent; the loop runs beside them.
  return {
    handle(message) {
      queue = queue.then(() => answer(message)).catch((error) => fail(message.id, error));
      return queue;
    },
  };
}
