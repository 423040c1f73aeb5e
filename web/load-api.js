// The package's modules (dist/) for everything in web/: the API (index.js)
// for the workers (worker.js, train-worker.js), its plain-data modules
// (options.js, models.js, word-attention.js) for the page and the
// embeddable element. Each is imported on first use, once per page or
// worker, with one message saying how to build and serve dist/ when that
// fails.
import { t } from './i18n/index.js';

const loaded = new Map(); // file -> Promise<module>

/** dist/FILE, imported once; `what` (a catalogue key, or plain words) names what needs it in the failure's message. */
export function loadPackage(file, what) {
  if (!loaded.has(file)) {
    loaded.set(file, import(`../dist/${file}`).catch((cause) => {
      loaded.delete(file);
      throw new Error(t('error.packageMissing', { what: t(what), file, message: cause?.message ?? cause }));
    }));
  }
  return loaded.get(file);
}

/** The JavaScript API, for a worker; `what` names the worker's job ('translator', 'trainer'). */
export function getApi(what) {
  return loadPackage('index.js', what);
}
