// The page's two catalogues (web/figures/i18n/en.js, zh-CN.js) say the same things:
// the same keys, the same {placeholders} in each string, only the markup
// rich() allows; every key the pages' HTML (data-i18n*) and scripts (t('…'),
// rich('…'), …) name is in them; and the language is chosen as documented
// (?lang=, then the saved choice, then the browser's, then English).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers/models.mjs';

const i18n = await import(pathToFileURL(join(root, 'web', 'figures', 'i18n', 'index.js')).href);
const { CATALOGUES, LANGS, chooseLang, normalizeLang, placeholdersOf, tIn } = i18n;
const web = join(root, 'web');
const read = (file) => readFileSync(join(web, file), 'utf8');
// Every file under web/ (demo/, train/, embed/, figures/ and the pages at
// the top), as a path relative to web/.
const webFiles = readdirSync(web, { recursive: true }).map((f) => f.replace(/\\/g, '/'));
const pages = webFiles.filter((f) => f.endsWith('.html'));
// (web/demo/page-boot.js is built from boot.src.js, which is read; the
// catalogues are the keys, not users of them.)
const scripts = webFiles.filter((f) => f.endsWith('.js') && !f.endsWith('page-boot.js') && !/^figures\/i18n\/(?!index\.js$)/.test(f));

// Compares two catalogues; returns the problems found (empty when they agree).
export function catalogueProblems(a, b, names = ['en', 'zh-CN']) {
  const problems = [];
  for (const key of Object.keys(a)) if (!(key in b)) problems.push(`${key} is in ${names[0]} but not in ${names[1]}`);
  for (const key of Object.keys(b)) if (!(key in a)) problems.push(`${key} is in ${names[1]} but not in ${names[0]}`);
  for (const key of Object.keys(a)) {
    if (!(key in b)) continue;
    const [pa, pb] = [placeholdersOf(a[key]), placeholdersOf(b[key])];
    if (pa.join() !== pb.join()) problems.push(`${key}: placeholders {${pa}} in ${names[0]} but {${pb}} in ${names[1]}`);
  }
  return problems;
}

test('en and zh-CN have the same keys and the same placeholders', () => {
  assert.deepEqual(LANGS, ['en', 'zh-CN']);
  assert.deepEqual(catalogueProblems(CATALOGUES.en, CATALOGUES['zh-CN']), []);
  for (const [lang, catalogue] of Object.entries(CATALOGUES)) {
    for (const [key, value] of Object.entries(catalogue)) {
      assert.equal(typeof value, 'string', `${lang} ${key}`);
      assert.notEqual(value.trim(), '', `${lang} ${key} is empty`);
    }
  }
});

test('the comparison fails on a missing key, an extra key or a different placeholder', () => {
  const en = { a: 'Hello {name}', b: 'Bye' };
  assert.deepEqual(catalogueProblems(en, { a: '你好 {name}', b: '再见' }), []);
  assert.match(catalogueProblems(en, { a: '你好 {name}' }).join(), /b is in en but not in zh-CN/);
  assert.match(catalogueProblems(en, { ...{ a: '你好 {name}', b: '再见' }, c: '多余' }).join(), /c is in zh-CN but not in en/);
  assert.match(catalogueProblems(en, { a: '你好 {nom}', b: '再见' }).join(), /a: placeholders/);
});

test('catalogue strings use only the markup rich() builds', () => {
  const allowed = new Set(['b', 'strong', 'i', 'em', 'sub', 'sup', 'code', 'a', 'br']);
  for (const [lang, catalogue] of Object.entries(CATALOGUES)) {
    for (const [key, value] of Object.entries(catalogue)) {
      // The model's special tokens (<unk>, <eos>) are text, shown as written.
      for (const [, tag] of value.matchAll(/<\/?([a-z][a-z0-9]*)[\s>]/g)) {
        assert.ok(allowed.has(tag) || tag === 'unk' || tag === 'eos', `${lang} ${key} uses <${tag}>`);
      }
      // The same tags, in the same number, in both languages.
      const tags = (text) => [...text.matchAll(/<([a-z][a-z0-9]*)[\s>]/g)].map((m) => m[1]).filter((t) => allowed.has(t)).sort().join();
      assert.equal(tags(value), tags(CATALOGUES.en[key]), `${lang} ${key}: its markup differs from English`);
    }
  }
});

test('the Chinese catalogue is Chinese: every string has Chinese text, or is the same as English (names, symbols)', () => {
  const zh = CATALOGUES['zh-CN'];
  // Latin words outside placeholders and markup, with no Chinese: left in English.
  // (Metric names stay as they are: BLEU, chrF2.)
  const latin = (value) => /[A-Za-z]{2,}/.test(value.replace(/\{\w+\}|<[^>]*>|\bBLEU\b|\bchrF2\b/g, ''));
  const notChinese = Object.entries(zh).filter(([key, value]) => latin(value) && !/\p{Script=Han}/u.test(value) &&
    value !== CATALOGUES.en[key] && key !== 'lang.toggle');
  assert.deepEqual(notChinese.map(([key]) => key), []);
  // The only string equal to English is the model label's pattern ('{source} → {target}').
  const same = Object.keys(zh).filter((key) => zh[key] === CATALOGUES.en[key]);
  assert.deepEqual(same.sort(), ['model.label']);
});

test('every key the pages\' HTML names is in the catalogues', () => {
  const named = [];
  for (const file of pages) {
    for (const [, attribute, key] of read(file).matchAll(/data-i18n(-[a-z-]+)?="([^"]*)"/g)) named.push({ file, attribute, key });
  }
  assert.ok(named.length > 60, `only ${named.length} data-i18n attributes found`);
  const missing = named.filter(({ key }) => !(key in CATALOGUES.en) || !(key in CATALOGUES['zh-CN']));
  assert.deepEqual(missing, []);
});

test('every key the scripts name literally is in the catalogues', () => {
  const missing = [];
  let count = 0;
  for (const file of scripts) {
    const source = read(file);
    // t('key'), tIn(lang, 'key'), rich('key'), setRich(el, 'key'), this.#t('key'), #say('key'), setStatus('key'), clearResult('key')
    const calls = /\b(?:t|tIn\([^,()]+,|rich|setRich\([^,()]+,|#t|#say|setStatus|clearResult)\(\s*'([a-zA-Z][\w.-]*)'/g;
    for (const [, key] of source.matchAll(calls)) {
      count += 1;
      if (!(key in CATALOGUES.en)) missing.push(`${file}: ${key}`);
    }
    // Keys kept in tables: 'train.…', 'what.…', 'features.…' string literals.
    for (const [, key] of source.matchAll(/'((?:train|what|features|status|error|notice)\.[a-zA-Z][\w.-]*)'/g)) {
      if (!(key in CATALOGUES.en)) missing.push(`${file}: ${key}`);
    }
  }
  assert.ok(count > 100, `only ${count} catalogue calls found`);
  assert.deepEqual(missing, []);
});

test('every catalogue key is used by a page or a script (no stale strings)', () => {
  const sources = [...pages, ...scripts].map(read).join('\n');
  // Keys built at run time: `reading.${lang}`, `language.${code}`, `attention.${kind}`.
  const DYNAMIC = /^(reading|language|attention)\./;
  const unused = Object.keys(CATALOGUES.en).filter((key) => !DYNAMIC.test(key) &&
    !sources.includes(`'${key}'`) && !sources.includes(`"${key}"`));
  assert.deepEqual(unused, []);
});

test('t fills placeholders, leaves unknown ones, and falls back to English, then the key', () => {
  assert.equal(tIn('en', 'status.translated', { ms: 12 }), 'Translated in 12 ms, in your browser.');
  assert.equal(tIn('zh-CN', 'status.translated', { ms: 12 }), '翻译用时 12 毫秒，在你的浏览器中完成。');
  assert.equal(tIn('en', 'status.translated'), 'Translated in {ms} ms, in your browser.');
  assert.equal(tIn('fr', 'status.translating'), 'Translating…');
  assert.equal(tIn('en', 'no.such.key'), 'no.such.key');
});

test('the language comes from ?lang=, then the saved choice, then the browser, then English', () => {
  assert.equal(normalizeLang('zh'), 'zh-CN');
  assert.equal(normalizeLang('zh-TW'), 'zh-CN');
  assert.equal(normalizeLang('ZH-cn'), 'zh-CN');
  assert.equal(normalizeLang('en-GB'), 'en');
  assert.equal(normalizeLang('fr-FR'), null);
  assert.equal(normalizeLang('zhx'), null);
  assert.equal(chooseLang({}), 'en');
  assert.equal(chooseLang({ browser: 'zh-CN' }), 'zh-CN');
  assert.equal(chooseLang({ browser: 'de-DE' }), 'en');
  assert.equal(chooseLang({ saved: 'en', browser: 'zh-CN' }), 'en');
  assert.equal(chooseLang({ query: 'zh-CN', saved: 'en', browser: 'en-US' }), 'zh-CN');
  assert.equal(chooseLang({ query: 'klingon', saved: 'zh-CN' }), 'zh-CN');
});

test('formatCount groups thousands as both languages write them, and the page never calls toLocaleString', () => {
  const { formatCount } = i18n;
  for (const value of [0, 7, 999, 1000, 2000, 10000, 133845, 1234567, -4500, 12.5, 1234.25]) {
    assert.equal(formatCount(value), value.toLocaleString('en', { maximumFractionDigits: 20 }), String(value));
    assert.equal(formatCount(value), value.toLocaleString('zh-CN', { maximumFractionDigits: 20 }), String(value));
  }
  assert.equal(formatCount(NaN), 'NaN');
  // Its first call loads the browser's locale data: 130-320 ms of a cold
  // page's first result in Chromium here (bench/history.md).
  for (const file of scripts) assert.doesNotMatch(read(file).replace(/\/\/.*$/gm, ''), /toLocaleString|Intl\./, file);
});

test('no catalogue defines a key twice (an object literal keeps the last silently)', () => {
  for (const file of readdirSync(join(web, 'figures', 'i18n')).filter((f) => f !== 'index.js' && f.endsWith('.js'))) {
    const keys = [...read(`figures/i18n/${file}`).matchAll(/^\s*'([^']+)'\s*:/gm)].map((m) => m[1]);
    assert.ok(keys.length > 100, `${file}: ${keys.length} keys found; the test reads 'key': lines`);
    const seen = new Set();
    const twice = keys.filter((key) => seen.has(key) || !seen.add(key));
    assert.deepEqual(twice, [], `${file} defines ${twice.join(', ')} more than once`);
  }
});
