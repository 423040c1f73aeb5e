// What the probe should read, and which of the model's output symbols are
// wrong (train.html). The expected output comes from the task's own rule
// (src/train/tasks.cpp): reversal reverses the symbols, dates become ISO
// 8601, and your own pairs look the input up among the pasted lines. An
// input the rule cannot read (a date it cannot parse, a source not among the
// pairs) has no expected output: null.
import { h } from '../figures/dom.js';
import { t } from '../figures/i18n/index.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december'];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

// As the trainer's word tokenizer: split at spaces, and a punctuation mark is a token of its own.
const words = (text) => text.match(/[\p{L}\p{N}\p{M}'’_-]+|[^\s\p{L}\p{N}\p{M}]/gu) ?? [];
const characters = (text) => [...text].filter((c) => !/\s/u.test(c));
const pad = (n) => String(n).padStart(2, '0');
const daysIn = (year, month) => new Date(Date.UTC(year, month, 0)).getUTCDate();

// The six ways the date task writes a date ("december 2nd, 2026", "2 december
// 2026", "dec 2, 2026", "12/02/2026", "wednesday, december 2, 2026", "the
// 2nd of december 2026"), read back into year, month and day.
export function isoDate(text) {
  const lower = text.toLowerCase().trim();
  let year, month, day;
  const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(lower);
  if (slashed) {
    [month, day, year] = [Number(slashed[1]), Number(slashed[2]), Number(slashed[3])];
  } else {
    const parts = lower.split(/[\s,]+/).filter((p) => p && p !== 'the' && p !== 'of' && !WEEKDAYS.includes(p));
    for (const part of parts) {
      const named = MONTHS.findIndex((m) => m === part || (part.length === 3 && m.startsWith(part)));
      const number = /^(\d{1,4})(st|nd|rd|th)?$/.exec(part);
      if (named >= 0 && month === undefined) month = named + 1;
      else if (number && number[1].length === 4 && !number[2] && year === undefined) year = Number(number[1]);
      else if (number && number[1].length <= 2 && day === undefined) day = Number(number[1]);
      else return null;
    }
  }
  if (!year || !month || !day || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * The expected output of `text` as symbols (tokens), or null when the task's
 * rule does not know it. pairs: the pasted lines; characters: whether the
 * pairs are split into characters.
 */
export function expectedSymbols(task, text, { pairs = '', characters: byCharacter = false } = {}) {
  if (text.trim() === '') return null;
  if (task === 'reversal') return words(text).reverse();
  if (task === 'dates') {
    const iso = isoDate(text);
    return iso === null ? null : [...iso];
  }
  if (task === 'pairs') {
    const split = byCharacter ? characters : words;
    const wanted = split(text).join(' ');
    for (const line of pairs.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab >= 0 && split(line.slice(0, tab)).join(' ') === wanted) return split(line.slice(tab + 1));
    }
  }
  return null;
}

/**
 * Symbol by symbol, in order: output[i] is right when it equals expected[i].
 * wrong counts the expected symbols the output did not write in their place;
 * extra the output symbols past the expected length.
 */
export function compareSymbols(output, expected) {
  const outputRight = output.map((symbol, i) => symbol === expected[i]);
  const expectedRight = expected.map((symbol, i) => symbol === output[i]);
  return {
    outputRight,
    expectedRight,
    wrong: expectedRight.filter((right) => !right).length,
    extra: Math.max(0, output.length - expected.length),
    total: expected.length,
  };
}

// One line of symbols, each in a span; the wrong ones carry class "wrong"
// (underlined and outlined, not only coloured) and a title that says so.
function symbolLine(symbols, right, { testid, joiner, wrongTitle }) {
  const children = [];
  symbols.forEach((symbol, i) => {
    if (i > 0 && joiner) children.push(joiner);
    children.push(h('span', right[i]
      ? { class: 'sym' }
      : { class: 'sym wrong', 'data-wrong': '', title: wrongTitle }, symbol));
  });
  return h('span', { class: 'symbols', 'data-testid': testid }, children);
}

/**
 * The model's output with its wrong symbols marked, the expected output under
 * it, and a sentence that counts the wrong ones ("3 of 9 symbols wrong").
 * expected null: the output alone, and a note that the task's rule does not
 * know this input.
 */
export function renderProbeCheck(output, expected, { unit, characters: byCharacter = false, kind }) {
  const joiner = byCharacter ? '' : ' ';
  if (expected === null) {
    return [
      symbolLine(output, output.map(() => true), { testid: `train-output-symbols-${kind}`, joiner }),
      h('span', { class: 'expected unknown', 'data-testid': `train-expected-${kind}` }, t('train.expectedUnknown')),
    ];
  }
  const check = compareSymbols(output, expected);
  const summary = check.wrong === 0 && check.extra === 0
    ? t('train.allRight', { total: check.total, unit })
    : t(check.extra > 0 ? 'train.wrongCountExtra' : 'train.wrongCount', { wrong: check.wrong, total: check.total, unit, extra: check.extra });
  return [
    symbolLine(output, check.outputRight, { testid: `train-output-symbols-${kind}`, joiner, wrongTitle: t('train.symbolWrong') }),
    h('span', { class: 'expected', 'data-testid': `train-expected-${kind}` },
      h('span', { class: 'expected-label' }, t('train.expectedLabel')), ' ',
      symbolLine(expected, check.expectedRight, { testid: `train-expected-symbols-${kind}`, joiner, wrongTitle: t('train.symbolMissed') })),
    h('span', {
      class: check.wrong || check.extra ? 'check-summary has-wrong' : 'check-summary',
      'data-testid': `train-check-${kind}`, 'data-wrong-count': check.wrong, 'data-extra-count': check.extra, 'data-total': check.total,
    }, summary),
  ];
}
