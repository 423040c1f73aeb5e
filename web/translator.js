// The page's side of the translation worker: one worker per page, shared by
// the demo and every embedded <seq2seq-attention-demo>, behind promises.
//
//   const translator = getTranslator();
//   const { value, ms } = await translator.request({ type: 'translate', model: 'en-fr', text, options });
import { loadPackage } from './load-api.js';
import { startWorker, watchStart } from './start-worker.js';
import { t } from './i18n/index.js';

const workerUrl = new URL('./worker.js', import.meta.url);

class Translator {
  #worker;
  #pending = new Map(); // id -> { resolve, reject }
  #nextId = 1;
  #failure = null;

  constructor() {
    // A worker that cannot even start fails every request, now and later,
    // with a message saying so.
    const watch = { what: 'translation', onFailure: (error) => this.#fail(error) };
    // index.html starts the worker before the page's modules have loaded.
    const early = globalThis.__s2sEarlyWorker;
    delete globalThis.__s2sEarlyWorker;
    this.#worker = early ? watchStart(early, watch) : startWorker(workerUrl, { name: 'seq2seq-attention', ...watch });
    this.#worker.addEventListener('message', (event) => {
      const { id, ok, value, ms, error } = event.data ?? {};
      const waiting = this.#pending.get(id);
      if (!waiting) return;
      this.#pending.delete(id);
      if (ok) waiting.resolve({ value, ms });
      else waiting.reject(new Error(error));
    });
    this.#worker.addEventListener('messageerror', () => this.#fail(new Error(t('error.workerMessage'))));
    loadPackage('translation.js', 'what.results').catch(() => {});  // fetched while the worker starts: translate() revives with it
  }

  #fail(error) {
    this.#failure = error;
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
  }

  /** Sends a request; resolves to { value, ms } or rejects with an Error. */
  request(message) {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  /** Resolves to { value: a Translation (the API's, revived from the worker's message), ms }. */
  async translate(model, text, options) {
    const [{ value, ms }, { reviveTranslation }] = await Promise.all([
      this.request({ type: 'translate', model, text, options }), loadPackage('translation.js', 'what.results')]);
    return { value: reviveTranslation(value), ms };
  }

  async info(model) {
    return (await this.request({ type: 'info', model })).value;
  }
}

let shared = null;

/** The page's translator (started on first use). */
export function getTranslator() {
  shared ??= new Translator();
  return shared;
}
