// Starting the package's workers, shared by createTranslator (translator.js,
// model-worker.js) and createTrainerWorker (trainer-worker.js,
// training-worker.js): a Worker someone passed is recognized, a failure to
// start is a WorkerError with code S2S_WORKER_FAILED (on which worker:
// 'auto' falls back to the calling thread), and in Node a worker_threads
// thread is dressed as a Web Worker. Each caller writes its own `new
// Worker(new URL('./file', import.meta.url))` in full, the form bundlers
// follow.
import { WorkerError, describe } from './errors.js';
import { inPackage } from './platform.js';

/** True for a Worker object (the browser's, or one that behaves like it). */
export function isWorker(value) {
  return value !== null && typeof value === 'object' && typeof value.postMessage === 'function' &&
    typeof value.addEventListener === 'function' && typeof value.terminate === 'function';
}

/** A WorkerError whose code says that no worker could start. */
export function workerFailed(message, cause) {
  const error = new WorkerError(message, cause === undefined ? undefined : { cause });
  error.code = 'S2S_WORKER_FAILED';
  return error;
}

/**
 * `start()`'s worker; a throw becomes a WorkerError naming `what` (the
 * file), prefixed by `context` ('createTranslator'), ending with `fix`.
 */
export function started(start, what, context, fix) {
  try {
    return start();
  } catch (cause) {
    throw workerFailed(`${context}: could not start the worker ${String(what)} (${describe(cause)}); ${fix}`, cause);
  }
}

// Not a literal in `new Worker(new URL(…))`: browser bundlers (Vite,
// webpack) would take it for a Web Worker to bundle.
const NODE_WORKER = './node-worker.js';

/**
 * Node: a worker_threads Worker running node-worker.js, which imports
 * `entry` ('model' or 'training'), dressed as a Web Worker. It keeps the
 * process alive only while a request is pending (setBusy), so a script that
 * forgets dispose() still exits.
 */
export async function startNodeWorker(entry, context) {
  let Worker;
  try {
    ({ Worker } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:worker_threads'));
  } catch (cause) {
    throw workerFailed(`${context}: worker_threads is not available here (${describe(cause)}); use { worker: false }`, cause);
  }
  // The process's flags, but --input-type (of `node -e`), which a worker
  // started from a file refuses.
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
  const worker = started(() => new Worker(inPackage(NODE_WORKER), { execArgv, workerData: { entry } }), NODE_WORKER, context,
    'use { worker: false } to run on this thread');
  worker.unref();
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    addEventListener(type, listener) {
      if (type === 'message') worker.on('message', (data) => listener({ data }));
      else if (type === 'error') worker.on('error', (error) => listener({ message: error?.message ?? String(error), error }));
      else if (type === 'messageerror') worker.on('messageerror', () => listener({}));
    },
    setBusy: (busy) => (busy ? worker.ref() : worker.unref()),
    terminate: () => worker.terminate(),
  };
}
