// The package's public entries (dist/, each named by package.json's
// "exports") for everything in web/: the API (index.js, '.') for the
// workers (train-worker.js), its plain data (data.js,
// 'seq2seq-attention/data') for the page and the embeddable element, and
// createTranslator alone (translator.js, 'seq2seq-attention/translator').
// tests/js/web-imports.test.mjs fails on any other dist/ file. Each is imported on first use, once per page or
// worker, with one message saying how to build and serve dist/ when that
// fails.
import { t } from './i18n/index.js';

// One literal import per entry, so that a reader, a bundler or a tool can
// follow each from web/ to the package (no computed path).
const ENTRIES = {
  'index.js': () => import('../../dist/index.js'),
  'data.js': () => import('../../dist/data.js'),
  'translator.js': () => import('../../dist/translator.js'),
};

const loaded = new Map(); // file -> Promise<module>

/** dist/FILE (one of ENTRIES), imported once; `what` (a catalogue key, or plain words) names what needs it in the failure's message. */
export function loadPackage(file, what) {
  if (!Object.hasOwn(ENTRIES, file)) throw new Error(`loadPackage: dist/${file} is not one of the package's public entries web/ uses (${Object.keys(ENTRIES).join(', ')})`);
  if (!loaded.has(file)) {
    loaded.set(file, ENTRIES[file]().catch((cause) => {
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
