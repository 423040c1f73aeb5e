// The package's public entries (dist/, each named by package.json's
// "exports") for everything in web/: its plain data (data.js,
// 'seq2seq-attention/data') for the page and the embeddable element,
// createTranslator alone (translator.js, 'seq2seq-attention/translator')
// and createTrainerWorker alone (trainer-worker.js,
// 'seq2seq-attention/trainer-worker') for the Train view.
// tests/js/web-imports.test.mjs fails on any other dist/ file. Each is imported on first use, once per page,
// with one message saying how to build and serve dist/ when that fails.
import { t } from './i18n/index.js';

// One literal import per entry, so that a reader, a bundler or a tool can
// follow each from web/ to the package (no computed path).
const ENTRIES = {
  'data.js': () => import('../../dist/data.js'),
  'translator.js': () => import('../../dist/translator.js'),
  'trainer-worker.js': () => import('../../dist/trainer-worker.js'),
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

