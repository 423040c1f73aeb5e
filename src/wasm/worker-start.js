// Starting the package's workers, shared by createTranslator (translator.js,
// model-worker.js) and createTrainerWorker (trainer-worker.js,
// training-worker.js): a Worker someone passed is recognized, a failure to
// start is a WorkerError with code S2S_WORKER_FAILED (on which worker:
// 'auto' falls back to the calling thread), in Node a worker_threads
// thread is dressed as a Web Worker, and WorkerChannel carries the
// requests to either worker and their replies. Each caller writes its own
// `new Worker(new URL('./file', import.meta.url))` in full, the form
// bundlers follow.
import { WorkerError, describe, errorOfKind } from './errors.js';
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
 * The console warning when no worker could start and the work runs on the
 * calling thread: the error's own message (prefixed once with the package's
 * name) and what happens instead (`instead`).
 */
export function warnFallback(error, instead) {
  const message = error.message.startsWith('seq2seq-attention: ') ? error.message : `seq2seq-attention: ${error.message}`;
  console.warn(`${message}; ${instead}`);
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

/**
 * Requests to one of the package's workers, by id, and their replies
 * ({ id, ok: true, value } or { id, ok: false, error, kind }: the worker's
 * error raised again as the class its kind names). Before its reply a
 * request may hear { id, [name]: value } messages, each given to its
 * `on[name]` callback (a load's progress, a decoding step); a message with
 * no id goes to `onMessage` (the trainer's events). `name` ('translation')
 * and `file` (its one-file bundle) word the error of a worker that fails.
 */
export class WorkerChannel {
  #worker;
  #onMessage;
  #pending = new Map();  // id -> { resolve, reject, on }
  #nextId = 1;
  #failure = null;

  constructor(worker, { name, file, onMessage = null }) {
    this.#worker = worker;
    this.#onMessage = onMessage;
    worker.addEventListener('message', (event) => this.#receive(event.data ?? {}));
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      this.#fail(workerFailed(`seq2seq-attention: the ${name} worker failed to start or crashed (${event.message || 'no message'}); ` +
        `check that ${file} is served next to the package (a bundler must bundle or copy it), or pass workerUrl`));
    });
    worker.addEventListener('messageerror', () => this.#fail(new WorkerError(`seq2seq-attention: a message from the ${name} worker could not be read`)));
    // Not held until a request waits: in Node, listening to a worker
    // thread's messages holds the process again, after startNodeWorker's unref.
    this.#busy();
  }

  #receive(message) {
    const { id, ok, value, error, kind } = message;
    if (id === undefined) {
      this.#onMessage?.(message);
      return;
    }
    const waiting = this.#pending.get(id);
    if (!waiting) return;  // cancelled
    if (ok === undefined) {
      for (const [name, callback] of Object.entries(waiting.on)) {
        if (message[name] !== undefined) callback?.(message[name]);
      }
      return;
    }
    this.#pending.delete(id);
    this.#busy();
    if (ok) waiting.resolve(value);
    else waiting.reject(errorOfKind(kind, error));
  }

  #fail(error) {
    this.#failure = error;
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
    this.#busy();
  }

  // A Node worker thread (startNodeWorker) keeps the process alive only
  // while a request waits: a script that forgets dispose() still exits.
  #busy() {
    this.#worker.setBusy?.(this.#pending.size > 0);
  }

  /**
   * Posts `message` with a fresh id (and `transfer`'s buffers moved, not
   * copied); resolves to the reply's value. After a failure, rejects with
   * it. When `signal` aborts first, the worker is sent { type: 'cancel',
   * id } and the promise rejects with the signal's reason.
   */
  request(message, { signal, on = {}, transfer = [] } = {}) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const settle = () => signal?.removeEventListener('abort', abort);
      const abort = () => {
        this.#pending.delete(id);
        this.#busy();
        this.#worker.postMessage({ type: 'cancel', id });
        settle();
        reject(signal.reason);
      };
      this.#pending.set(id, {
        resolve: (value) => { settle(); resolve(value); },
        reject: (error) => { settle(); reject(error); },
        on,
      });
      this.#busy();
      signal?.addEventListener('abort', abort, { once: true });
      this.#worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** Rejects every pending and later request with `reason` (an Error), and ends the worker. */
  close(reason) {
    this.#fail(reason);
    this.#worker.terminate();
  }
}
