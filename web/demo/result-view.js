// The demo page's result, drawn from `state` (page-state.js): the
// translation, its score and notices, and for a text of several sentences
// the sentences to pick from. app.js calls render() when a new result
// arrives. The attention figure and the chips, with what pointing at them
// shows, are figure-view.js; what they hold (their units) is
// figure-data.js; the beam's hypotheses and the "what if" alternatives,
// which the reader picks, are what-if.js.
import { h, replaceChildren, UNKNOWN_TOKEN } from '../figures/dom.js';
import { copiedWordsOf, selectedHypothesis, unsureWordsOf } from './figure-data.js';
import { describeModel, infos, showNotices, state, tokenNoun, view } from './page-state.js';
import { backButton, renderHypotheses, renderWhatIf } from './what-if.js';
import { clearFigure, renderFigure } from './figure-view.js';
import { formatLog } from '../figures/step-math.js';
import { t } from '../figures/i18n/index.js';

let emptyMessage = ''; // the catalogue key shown while there is no result

/** Empties the result, with the catalogue's `key` where the translation goes. */
export function clearResult(key) {
  state.result = null;
  state.sentences = null;
  view.sentences.hidden = true;
  replaceChildren(view.sentenceItems);
  emptyMessage = key;
  view.result.dataset.state = 'empty';
  replaceChildren(view.translation, t(key));
  for (const name of ['text', 'model', 'beam', 'hyp', 'prefix', 'shortlist']) view.translation.removeAttribute(`data-${name}`);
  replaceChildren(view.meta);
  replaceChildren(view.hypotheses);
  view.whatIf.hidden = true;
  clearFigure();
}

/** Draws state.result: the translation, its notices, the figure, the hypotheses, the "what if". */
export function render() {
  const { result } = state;
  const hypothesis = selectedHypothesis();
  const info = describeModel(state.model);
  view.result.dataset.state = 'ready';

  // Attributes the tests (and curious readers of the DOM) can rely on: what
  // this output is the translation of (shortlist: 'on' or 'off' for a model
  // with a lexical shortlist, 'none' without one).
  Object.assign(view.translation.dataset, {
    text: state.text, model: state.model, beam: String(state.beam), hyp: String(state.hyp), prefix: state.prefix.join(' '),
    unit: state.unit, shortlist: !infos.get(state.model)?.shortlist ? 'none' : state.shortlist ? 'on' : 'off',
  });
  view.translation.lang = info.lang;
  renderSentences(info.lang);
  replaceChildren(view.translation, hypothesis.text || t('result.empty'));
  const finished = hypothesis.finished !== false;
  replaceChildren(view.meta,
    // Greedy decoding ranks nothing: its score is the plain log-probability
    // of what it wrote, said so (beam search's has the penalties).
    state.beam === 1 && Number.isFinite(hypothesis.logProb)
      ? t('result.scoreGreedy', { score: formatLog(hypothesis.logProb) })
      : t('result.score', { score: formatLog(hypothesis.score) }),
    result.hypotheses.length > 1 ? t('result.hypothesisOf', { k: state.hyp + 1, n: result.hypotheses.length }) : '',
    // The reader chose one token, the last of the prefix; those before it
    // are the model's own, kept as it wrote them.
    state.prefix.length ? t('result.chosenByYou', { count: state.prefix.length, noun: tokenNoun(false) }) : '',
    state.prefix.length ? ' ' : '', state.prefix.length ? backButton() : '');

  const notices = [];
  if (state.urlWarning) notices.push({ testid: 'notice-url', ...state.urlWarning });
  if (result.truncated) {
    const subword = infos.get(state.model)?.sourceTokenizer === 'bpe';
    notices.push({ testid: 'notice-truncated', key: 'notice.truncated',
      params: { count: result.sourceTokens.length - 1, noun: t(subword ? 'noun.pieces' : 'noun.wordsAndPunctuation') } });
  }
  if (mostlyUnreadable(result.sourceTokens)) notices.push({ testid: 'notice-unreadable', key: 'notice.unreadable', params: { unk: UNKNOWN_TOKEN } });
  if (!finished) {
    notices.push({ testid: 'notice-unfinished', key: 'notice.unfinished', params: { count: hypothesis.targetTokens.length, noun: tokenNoun(true) } });
  }
  const unsure = unsureWordsOf(hypothesis);
  if (unsure.length) {
    notices.push({ testid: 'notice-unsure', key: 'notice.unsure',
      params: { count: unsure.length, words: unsure.map((w) => `“${w.text}”`).join(info.lang === 'zh-CN' ? '、' : ', ') } });
  }
  const copied = copiedWordsOf(hypothesis);
  if (copied.length) {
    notices.push({ testid: 'notice-copied', key: 'notice.copied',
      params: { count: copied.length, words: copied.map((w) => `“${w.text}”`).join(info.lang === 'zh-CN' ? '、' : ', ') } });
  }
  showNotices(notices);

  view.targetLabel.textContent = info.target;
  view.explainerLanguage.textContent = info.reading;
  view.targetTokens.lang = info.lang;
  renderFigure();
  renderHypotheses();
  renderWhatIf();
}

// A text of several sentences: each sentence and its translation, one
// button each; the one shown (state.part) is pressed, and the figure, the
// step panel and "what if" below are its own.
function renderSentences(lang) {
  const { sentences } = state;
  view.sentences.hidden = sentences === null;
  if (sentences === null) {
    replaceChildren(view.sentenceItems);
    delete view.translation.dataset.part;
    return;
  }
  view.translation.dataset.part = String(state.part + 1);
  replaceChildren(view.sentencesHint, t('sentences.hint', { n: sentences.length }));
  replaceChildren(view.sentenceItems, ...sentences.map((sentence, k) => h('li', {},
    h('button', { type: 'button', class: 'sentence', 'data-part': String(k), 'aria-pressed': String(k === state.part),
      'data-testid': 'sentence' },
    h('span', { class: 'sentence-source', lang: 'en', translate: 'no' }, sentence.source),
    h('span', { class: 'sentence-target', lang, translate: 'no' },
      (k === state.part ? selectedHypothesis().text : sentence.translation.text) || t('result.empty'))))));
}

// True when most of the source's tokens (not counting <eos> and
// punctuation) are <unk>: text in a script the model never saw (Arabic,
// Chinese, emoji), which it cannot read but still "translates".
export function mostlyUnreadable(sourceTokens) {
  const content = sourceTokens.filter((token) => token !== '<eos>' && /[\p{L}\p{N}\p{So}]|<unk>/u.test(token));
  const unknown = content.filter((token) => token === UNKNOWN_TOKEN).length;
  return content.length > 0 && unknown * 2 > content.length;
}

/** Draws the result (or the empty message) again, in the page's language now. */
export function relabelResult() {
  if (state.result) render();
  else if (emptyMessage) replaceChildren(view.translation, t(emptyMessage));
}
