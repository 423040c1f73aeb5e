// WorkerChannel (src/wasm/worker-start.js), the one request channel of
// createTranslator's and createTrainerWorker's workers, on its own: over a
// real MessageChannel, whose far port plays the worker (it reads what the
// channel posts and answers as model-worker.js and training-session.js do),
// and in Node over a real worker_threads thread (startNodeWorker), where the
// channel decides whether the thread keeps the process alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, requireDist } from './helpers/models.mjs';

requireDist();
const startModule = pathToFileURL(join(distDir, 'worker-start.js')).href;
const { WorkerChannel } = await import(startModule);
const { UsageError, WorkerError, InputError } = await import(pathToFileURL(join(distDir, 'errors.js')).href);

// A Worker-shaped object over one port of a MessageChannel; `far` is the
// worker's side. crash() raises the 'error' event a browser raises when a
// worker fails to start. Every setBusy call is kept, in order. Nothing
// here waits on the channel: far.flush() resolves once all that the far
// side posted before has been handed to the channel (a port keeps order),
// and standing() says how a promise stands then.
function workerPair() {
  const { port1, port2 } = new MessageChannel();
  const errorListeners = [];
  const worker = {
    busy: [],
    terminated: false,
    postMessage: (message, transfer) => port1.postMessage(message, transfer),
    addEventListener(type, listener) {
      if (type === 'message') port1.addEventListener('message', listener);
      else if (type === 'error') errorListeners.push(listener);
    },
    setBusy(busy) { this.busy.push(busy); },
    terminate() { this.terminated = true; },
  };
  const inbox = [];
  let wake = null;
  port2.addEventListener('message', (event) => { inbox.push(event.data); wake?.(); });
  let flushed = null;
  port1.addEventListener('message', (event) => { if (event.data?.flush) flushed?.(); });
  const far = {
    // The next message the channel posted.
    async next() {
      while (inbox.length === 0) await new Promise((resolve) => { wake = resolve; });
      return inbox.shift();
    },
    post: (message) => port2.postMessage(message),
    // A message with an id no request has, which the channel drops.
    flush: () => new Promise((resolve) => { flushed = resolve; port2.postMessage({ id: -1, flush: true }); }),
    close: () => { port1.close(); port2.close(); },
  };
  const crash = (message) => errorListeners.forEach((listener) => listener({ message, preventDefault() {} }));
  return { worker, far, crash };
}

// The pair of a test, its ports closed when the test ends, passed or not
// (an open port would keep the runner waiting).
function pairFor(t) {
  const pair = workerPair();
  t.after(() => pair.far.close());
  return pair;
}

// How `promise` stands now: { value } or { error } if settled, 'pending'
// if not (a settled promise's reaction runs before that of the value
// queued after it).
async function standing(promise) {
  const pending = Symbol('pending');
  try {
    const value = await Promise.race([promise, pending]);
    return value === pending ? 'pending' : { value };
  } catch (error) {
    return { error };
  }
}

test('replies by id, in any order; an error reply is raised again as its kind\'s class; a request hears its own events, the channel the rest', async (t) => {
  const { worker, far } = pairFor(t);
  const channelEvents = [];
  const channel = new WorkerChannel(worker, { name: 'translation', file: 'model-worker.bundle.js', onMessage: (m) => channelEvents.push(m) });
  const progress = [];
  const first = channel.request({ type: 'load', model: 'x' }, { on: { progress: (p) => progress.push(p) } });
  const second = channel.request({ type: 'translate', texts: ['a'] });
  const third = channel.request({ type: 'translate', texts: [''] });
  third.catch(() => {});  // read below, by standing()
  const [a, b, c] = [await far.next(), await far.next(), await far.next()];
  assert.deepEqual([a, b, c].map((m) => m.type), ['load', 'translate', 'translate']);
  assert.equal(new Set([a.id, b.id, c.id]).size, 3, 'each request has its own id');
  far.post({ id: b.id, ok: true, value: 'second' });
  far.post({ id: a.id, progress: { loaded: 1, total: 2 } });
  far.post({ event: 'state', state: { running: true } });
  await far.flush();
  assert.deepEqual(await standing(second), { value: 'second' });
  assert.equal(await standing(first), 'pending', 'an event is not a reply');
  far.post({ id: a.id, progress: { loaded: 2, total: 2 } });
  far.post({ id: a.id, ok: true, value: 'first' });
  far.post({ id: c.id, ok: false, error: 'the text is empty', kind: 'input' });
  await far.flush();
  assert.deepEqual(await standing(first), { value: 'first' });
  const { error } = await standing(third);
  assert.ok(error instanceof InputError, `an InputError, not ${error}`);
  assert.equal(error.message, 'the text is empty');
  assert.deepEqual(progress, [{ loaded: 1, total: 2 }, { loaded: 2, total: 2 }]);
  assert.deepEqual(channelEvents, [{ event: 'state', state: { running: true } }]);
  assert.deepEqual(worker.busy, [false, true, true, true, true, true, false], 'not held until a request waits, then while any does');
});

test('a worker that fails rejects every pending request and every later one with a WorkerError naming the fix', async (t) => {
  const { worker, crash } = pairFor(t);
  const channel = new WorkerChannel(worker, { name: 'training', file: 'training-worker.bundle.js' });
  const pending = [channel.request({ type: 'run' }), channel.request({ type: 'probes' })];
  crash('Failed to fetch');
  const failures = (await Promise.all(pending.map(standing))).map((result) => result.error);
  for (const error of failures) {
    assert.ok(error instanceof WorkerError, `a WorkerError, not ${error}`);
    assert.equal(error.code, 'S2S_WORKER_FAILED');
    assert.equal(error.message, 'seq2seq-attention: the training worker failed to start or crashed (Failed to fetch); check that ' +
      'training-worker.bundle.js is served next to the package (a bundler must bundle or copy it), or pass workerUrl');
  }
  assert.equal(failures[0], failures[1], 'one failure');
  assert.equal((await standing(channel.request({ type: 'pause' }))).error, failures[0], 'a later request rejects with it at once');
  assert.deepEqual(worker.busy, [false, true, true, false], 'the thread is let go once nothing waits');
});

test('an abort posts a cancel for its request and rejects with the signal\'s reason; a late reply is dropped; an aborted signal posts nothing', async (t) => {
  const { worker, far } = pairFor(t);
  const channel = new WorkerChannel(worker, { name: 'translation', file: 'model-worker.bundle.js' });
  const controller = new AbortController();
  const steps = [];
  const cancelled = channel.request({ type: 'steps', text: 'a b' }, { signal: controller.signal, on: { step: (s) => steps.push(s) } });
  const request = await far.next();
  far.post({ id: request.id, step: { index: 0 } });
  await far.flush();
  const reason = new Error('the user typed again');
  controller.abort(reason);
  assert.deepEqual(await standing(cancelled), { error: reason });
  assert.deepEqual(worker.busy, [false, true, false], 'nothing waits once it is aborted');
  const next = channel.request({ type: 'translate', texts: ['b'] });
  assert.deepEqual(await far.next(), { type: 'cancel', id: request.id }, 'the cancel, before the next request');
  far.post({ id: request.id, step: { index: 1 } });
  far.post({ id: request.id, ok: true, value: 'too late' });
  far.post({ id: (await far.next()).id, ok: true, value: 'b' });
  await far.flush();
  assert.deepEqual(await standing(next), { value: 'b' });
  assert.deepEqual(steps, [{ index: 0 }], 'no step after the abort');
  // Already aborted: rejected at once, nothing posted, the thread not held.
  const busyBefore = worker.busy.length;
  assert.deepEqual(await standing(channel.request({ type: 'translate', texts: ['c'] }, { signal: AbortSignal.abort(reason) })), { error: reason });
  assert.equal(worker.busy.length, busyBefore);
  channel.request({ type: 'translate', texts: ['d'] }).catch(() => {});
  assert.deepEqual((await far.next()).texts, ['d'], 'the aborted request was never posted');
});

test('transfer moves buffers to the worker; close() rejects what waits with its reason, and every later request, and ends the worker', async (t) => {
  const { worker, far } = pairFor(t);
  const channel = new WorkerChannel(worker, { name: 'translation', file: 'model-worker.bundle.js' });
  const bytes = new ArrayBuffer(16);
  const load = channel.request({ type: 'load', model: bytes }, { transfer: [bytes] });
  assert.equal(bytes.byteLength, 0, 'the caller\'s buffer was moved, not copied');
  assert.equal((await far.next()).model.byteLength, 16);
  const reason = new UsageError('translator.translate: this translator was disposed; create another with createTranslator()');
  channel.close(reason);
  assert.deepEqual(await standing(load), { error: reason });
  assert.deepEqual(await standing(channel.request({ type: 'translate', texts: ['a'] })), { error: reason });
  assert.equal(worker.terminated, true);
  assert.deepEqual(worker.busy, [false, true, false]);
});

test('Node: a worker_threads thread keeps the process alive while a request waits, and not before or once it is answered', () => {
  // In a fresh process: the script awaits a reply (only the thread, held
  // by setBusy(true), keeps the process up until it comes), then leaves
  // the channel open; the process must still exit. So must one whose
  // channel never asked anything.
  const script = (ask) => `
    const { WorkerChannel, startNodeWorker } = await import(${JSON.stringify(startModule)});
    const worker = await startNodeWorker('model', 'test');
    const busy = [];
    const setBusy = worker.setBusy;
    worker.setBusy = (value) => { busy.push(value); setBusy(value); };
    const channel = new WorkerChannel(worker, { name: 'translation', file: 'model-worker.bundle.js' });
    const value = ${ask ? "await channel.request({ type: 'runtime' })" : 'undefined'};
    console.log(JSON.stringify({ value, busy }));
  `;
  for (const [ask, expected] of [[true, { value: null, busy: [false, true, false] }], [false, { busy: [false] }]]) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(ask)], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr}`);
    assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').at(-1)), expected);
  }
});

test('the fallback warning names the package once, whether or not the error already does', async () => {
  const { warnFallback, workerFailed } = await import(startModule);
  const said = [];
  const original = console.warn;
  console.warn = (text) => said.push(text);
  try {
    warnFallback(workerFailed('seq2seq-attention: the training worker failed to start or crashed (boom)'), 'training on the main thread instead');
    warnFallback(workerFailed('createTranslator: worker_threads is not available here (x); use { worker: false }'), 'translating on the main thread instead');
  } finally {
    console.warn = original;
  }
  assert.deepEqual(said, [
    'seq2seq-attention: the training worker failed to start or crashed (boom); training on the main thread instead',
    'seq2seq-attention: createTranslator: worker_threads is not available here (x); use { worker: false }; translating on the main thread instead',
  ]);
});
