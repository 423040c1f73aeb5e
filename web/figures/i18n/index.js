// The page's languages: one catalogue per language (en.js, zh-CN.js, the
// same keys), the reader's choice, and the functions that put a string on
// the page.
//
//   t(key, params)       a plain string: "{name}" placeholders filled in
//   rich(key, params)    a DocumentFragment for strings with a little markup
//                        (<b> <i> <sub> <sup> <code> <a href> <br>, nothing
//                        else); params become text nodes (or the nodes given),
//                        so the reader's text is never parsed as markup
//   applyStatic(root)    fills the elements of a page's HTML that name a key:
//                        data-i18n (content, rich), data-i18n-title,
//                        data-i18n-aria-label, data-i18n-placeholder,
//                        data-i18n-content (a <meta>'s content)
//
// The language: ?lang= first, then the reader's saved choice (localStorage),
// then navigator.language (zh* → zh-CN), else English. setLang() switches
// without a reload: listeners (onLangChange) draw their part again. Safe to
// import in Node (no DOM needed for t), where the language is English.
import en from './en.js';
import zhCN from './zh-CN.js';

export const CATALOGUES = { en, 'zh-CN': zhCN };
export const LANGS = Object.keys(CATALOGUES);
export const DEFAULT_LANG = 'en';
const STORAGE_KEY = 'seq2seq-attention.lang';

/** A supported language from a tag ('zh', 'zh-TW', 'ZH-cn' → 'zh-CN'; 'en-GB' → 'en'), else null. */
export function normalizeLang(tag) {
  if (typeof tag !== 'string') return null;
  const lower = tag.trim().toLowerCase();
  if (/^zh(\b|[-_])/.test(lower) || lower === 'zh') return 'zh-CN';
  if (/^en(\b|[-_])/.test(lower) || lower === 'en') return 'en';
  return null;
}

/** The language the reader's browser asks for, when it is one of ours (else English). */
export function browserLang() {
  return normalizeLang(globalThis.navigator?.language) ?? DEFAULT_LANG;
}

/** The language to open with: the URL's ?lang=, the saved choice, the browser's, English. */
export function chooseLang({ query = null, saved = null, browser = null } = {}) {
  return normalizeLang(query) ?? normalizeLang(saved) ?? normalizeLang(browser) ?? DEFAULT_LANG;
}

function readSaved() {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null; // storage blocked (private mode, sandboxed frame): no saved choice
  }
}

function initialLang() {
  const query = globalThis.location ? new URLSearchParams(globalThis.location.search).get('lang') : null;
  return chooseLang({ query, saved: readSaved(), browser: globalThis.navigator?.language });
}

let current = initialLang();
const listeners = new Set();

/** The page's language now. */
// A count with its thousands grouped by commas, as both catalogues write
// numbers (English and Chinese alike: 10,000). Not toLocaleString: its
// first call in a page loads the browser's locale data, which took 130 to
// 320 ms of the first result's rendering in Chromium here (a CPU profile of
// a cold load: all of it in showShortlist's two calls).
export function formatCount(value) {
  if (!Number.isFinite(value)) return String(value);
  const [whole, fraction] = String(Math.abs(value)).split('.');
  const grouped = /e/i.test(whole) ? whole : whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return (value < 0 ? '-' : '') + grouped + (fraction ? `.${fraction}` : '');
}

export function lang() {
  return current;
}

/**
 * Switches to `next` ('en' or 'zh-CN'): saves the choice (unless save is
 * false) and tells every listener. Unknown tags are ignored. It never
 * touches the document: a page of the project's own that speaks the
 * chosen language says so with speakDocument().
 */
export function setLang(next, { save = true } = {}) {
  const chosen = normalizeLang(next);
  if (!chosen) return current;
  if (save) {
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, chosen);
    } catch {
      // not saved: the choice still holds for this page
    }
  }
  if (chosen === current) return current;
  current = chosen;
  for (const listener of listeners) listener(current);
  return current;
}

/**
 * For the project's own pages (the demo, the training page), and only them:
 * sets their <html lang> to the chosen language. Each calls it where it says
 * everything again (at start and after every switch). The element (embed.js)
 * never calls it: a tutorial's page keeps its language.
 */
export function speakDocument() {
  document.documentElement.lang = current;
}

/** Calls fn(lang) after every switch; returns a function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The raw catalogue string of `key` in `language` (English when the catalogue lacks it, else the key). */
export function raw(key, language = current) {
  return CATALOGUES[language]?.[key] ?? en[key] ?? key;
}

/** The string of `key` in `language`, with {name} placeholders filled from params. */
export function tIn(language, key, params = {}) {
  return raw(key, language).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The string of `key` in the page's language. */
export function t(key, params = {}) {
  return tIn(current, key, params);
}

/** The {name} placeholders of a catalogue string, sorted (the tests compare them across languages). */
export function placeholdersOf(text) {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

// ---------------------------------------------------------------------------
// Rich text: a catalogue string with a few inline tags, built node by node.

const INLINE_TAGS = new Set(['b', 'strong', 'i', 'em', 'sub', 'sup', 'code', 'a', 'br']);
const TOKEN = /<(\/?)([a-z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*\/?>|\{(\w+)\}/g;

// A link target a catalogue may use: https, or a path on this site.
const safeHref = (href) => /^https:\/\//.test(href) || /^[\w./#?=&-]+$/.test(href) && !href.includes(':');

function richNodes(text, params) {
  const fragment = document.createDocumentFragment();
  const stack = [fragment];
  const top = () => stack[stack.length - 1];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) top().append(text.slice(last, match.index));
    last = match.index + match[0].length;
    const [, closing, tag, attributes, param] = match;
    if (param !== undefined) {
      const value = params[param];
      if (value === undefined || value === null) top().append(match[0]);
      else top().append(value instanceof Node ? value : String(value));
    } else if (!INLINE_TAGS.has(tag)) {
      top().append(match[0]); // not markup we allow: shown as written
    } else if (closing) {
      if (stack.length > 1 && top().localName === tag) stack.pop();
    } else {
      const element = document.createElement(tag);
      for (const [, name, value] of (attributes ?? '').matchAll(/([a-z-]+)="([^"]*)"/g)) {
        if (tag === 'a' && name === 'href' && safeHref(value)) element.setAttribute('href', value);
      }
      top().append(element);
      if (tag !== 'br') stack.push(element);
    }
  }
  if (last < text.length) top().append(text.slice(last));
  return fragment;
}

/** `key` as a DocumentFragment: its inline markup as elements, params as text (or the nodes given). */
export function rich(key, params = {}, language = current) {
  return richNodes(raw(key, language), params);
}

/** Puts `key` (rich) into `element`, replacing its children. */
export function setRich(element, key, params = {}, language = current) {
  element.replaceChildren(rich(key, params, language));
  return element;
}

const ATTRIBUTES = [['i18nTitle', 'title'], ['i18nAriaLabel', 'aria-label'], ['i18nPlaceholder', 'placeholder'],
  ['i18nContent', 'content']];

/** Fills the elements under `root` (a document, an element or a shadow root) that name catalogue keys. */
export function applyStatic(root = document, language = current) {
  const selector = '[data-i18n],[data-i18n-title],[data-i18n-aria-label],[data-i18n-placeholder],[data-i18n-content]';
  const elements = [...root.querySelectorAll(selector)];
  if (root instanceof Element && root.matches(selector)) elements.unshift(root);
  for (const element of elements) {
    if (element.dataset.i18n) {
      if (element.localName === 'title') element.textContent = tIn(language, element.dataset.i18n);
      else setRich(element, element.dataset.i18n, {}, language);
    }
    for (const [data, attribute] of ATTRIBUTES) {
      if (element.dataset[data]) element.setAttribute(attribute, tIn(language, element.dataset[data]));
    }
  }
}
