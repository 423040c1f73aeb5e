// The package's public entries (dist/, each named by package.json's
// "exports") for everything in web/: the API (index.js, '.') for the
// workers (train-worker.js), its plain data (data.js,
// 'seq2seq-attention/data') for the page and the embeddable element, and
// createTranslator alone (translator.js, 'seq2seq-attention/translator').
// tests/js/web-imports.test.mjs fails on any other dist/ file. Each is imported on first use, once per page or
// worker, with one message saying how to build and serve dist/ when that
// fails.
import { t } from './i18n/index.js';

const loaded = new Map(); // file -> Promise<module>

/** dist/FILE, imported once; `what` (a catalogue key, or plain words) names what needs it in the failure's message. */
export function loadPackage(file, what) {
  if (!loaded.has(file)) {
    loaded.set(file, import(`../../dist/${file}`).catch((cause) => {
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
