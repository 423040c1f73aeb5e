// The demo page's controller: starts the page (the package's modules, the
// translation worker, the URL's state), and answers the reader: the
// sentence box, the model, beam, penalty and shortlist controls (controls.js
// fills them), the examples, the switches, the picks in the result. Every
// change updates `state` (page-state.js, mirrored in the URL by
// page-url.js), asks the worker for a translation when needed and hands
// the result to the modules that draw it: result-view.js (translation,
// notices), figure-view.js (chips, figure; figure-data.js what it holds),
// what-if.js (hypotheses, "what if"), compare.js (the fixed-context
// comparison and BLEU chart) and about.js (the model's provenance);
// sharing.js has the downloads and the link.
import { h, replaceChildren } from '../figures/dom.js';
import { HEATMAP_CSS } from '../figures/heatmap.js';
import { ALIGNMENT_CSS } from '../figures/alignment.js';
import { missingFeature } from '../figures/features.js';
import { getTranslator } from '../figures/translator.js';
import { loadPackage } from '../figures/load-api.js';
import { DEBOUNCE_MS, isShipped, loadModelList } from '../figures/page-models.js';
import {
  ALTERNATIVES, EXAMPLES, decodeOptions, examplesFor, describeModel, fileName, infos, modelInfo, page, penaltyDefault, resetPicks, setStatus,
  relabelStatus, showError, showNotices, shownText, state, view,
} from './page-state.js';
import { penaltyFromText, readUrl, startModel, writeUrl } from './page-url.js';
import {
  addModelOption, setUpBeamMenu, setUpModelMenu, setUpPenalties, showFatal, showPenalties, showPenaltyHint, showShortlist,
} from './controls.js';
import { clearResult, relabelResult, render } from './result-view.js';
import { renderFigure, showSwitches, wireFigure } from './figure-view.js';
import { wireSharing } from './sharing.js';
import { selectedHypothesis } from './figure-data.js';
import { onPicks } from './what-if.js';
import { clearCompare, compareIfWanted, relabelCompare, watchCompare } from './compare.js';
import { showAbout } from './about.js';
import { acceptPenalty, openOptionsForBeam, optionsFromUrl, refusePenalty, relabelOptions } from './options-view.js';
import { STEP_VIEW_CSS, relabelStep, renderStep, resetStepPicks, stepOptions, wireStep } from './step-view.js';
import { applyStatic, speakDocument, lang, onLangChange, setLang, t } from '../figures/i18n/index.js';
import { wireKeys } from './keys.js';

// ---------------------------------------------------------------------------
// The examples

// The example sentences, for the chosen model (examplesFor: into Chinese, ones a reader of d2l-zh knows).
function showExamples() {
  const label = view.examples.querySelector('.examples-label');
  replaceChildren(view.examples, label, examplesFor(state.model).map((sentence) => h('button', {
    type: 'button', class: 'example', 'data-testid': 'example', translate: 'no', title: sentence.length > 40 ? sentence : null,
    onclick: () => {
      view.source.value = sentence;
      resetPicks({ prefix: [], step: null });
      resetStepPicks();
      translateNow();
    },
  }, sentence.length > 40 ? `${sentence.slice(0, 38)}…` : sentence)));
}

// ---------------------------------------------------------------------------
// Translating

// The marks of a translation's steps (bench/report.mjs, bench/page-profile.mjs
// and tests/e2e/cold-start.test.mjs read them): each name holds the latest
// translation's only. The browser keeps every performance.mark until the
// page clears it (user timing has no buffer limit): four a translation, kept
// for ever, were most of what the page's heap grew by in a long session
// (tests/e2e/memory.test.mjs).
function markLatest(name) {
  performance.clearMarks(name);
  performance.mark(name);
}

async function translate() {
  const text = view.source.value;
  if (state.text && text !== state.text) state.part = 0;  // another text: its first sentence
  state.text = text;
  const request = ++page.serial;
  if (text.trim() === '') {
    state.part = 0;
    clearResult('status.typeSentence');
    renderStep();  // no result: the step section hides
    clearCompare();
    showNotices([]);
    setStatus('');
    writeUrl();
    return;
  }
  const { model, prefix } = state;
  view.result.dataset.state = 'busy';
  const loading = isShipped(model) ? ['status.loadingModel', { label: describeModel(model).label }]
    : ['status.loadingYourModel', { file: fileName(model) }];
  setStatus(...(infos.has(model) ? ['status.translating', {}] : loading), { busy: true });
  const options = { ...decodeOptions({ alternatives: ALTERNATIVES }), ...stepOptions() };
  markLatest('s2s:translation-asked');
  try {
    // The info says how the model cuts text (words or pieces); asked once.
    const [{ value, sentences, ms }] = await Promise.all([translateParts(model, text, prefix, options), modelInfo(model)]);
    if (request !== page.serial) return;
    state.result = value;
    state.sentences = sentences;
    state.ms = ms;
    if (state.hyp >= value.hypotheses.length) state.hyp = 0;
    markLatest('s2s:result-received');
    showPenaltyHint();  // the model's own defaults, now that its info is here
    showPenalties();
    showShortlist();  // and whether it has a shortlist
    render();
    // The heatmap first: the step section (below the figure, unless the URL
    // asks for view=step), "About this model" and the fixed-context
    // comparison are drawn after the next paint, so the first result is not
    // held back by panels that are not on screen yet.
    const openStep = openStepOnce();
    if (openStep) renderStep({ focus: true });
    markLatest('s2s:rendered');
    writeUrl();
    setStatus('status.translated', { ms: ms < 10 ? ms.toFixed(1) : Math.round(ms) });
    afterPaint(() => {
      if (request !== page.serial) return;  // a newer result draws its own
      if (!openStep) renderStep();
      showAbout(model);
      compareIfWanted(shownText(), request);
      markLatest('s2s:panels-rendered');
    });
  } catch (error) {
    if (request !== page.serial) return;
    showError(error);
  }
}

// The text sentence by sentence, as the package splits it (translateText):
// one sentence is the whole result; of several, the reader sees one at a
// time (state.part), each with its own heatmap. The forced tokens of a
// "what if" belong to the sentence shown: that sentence is translated again
// with them. Resolves to { value: the Translation shown, sentences (null for
// one sentence), ms }.
let lastSplit = { key: null, sentences: null };
async function translateParts(model, text, prefix, options) {
  const key = `${model}\n${text}\n${JSON.stringify(options)}`;
  let ms = 0;
  let sentences = lastSplit.key === key ? lastSplit.sentences : null;
  if (!sentences) {
    const whole = await page.translator.translateText(model, text, options);
    sentences = whole.value.sentences;
    ms += whole.ms;
    lastSplit = { key, sentences };
  }
  if (sentences.length === 0) {  // nothing the splitter calls a sentence: the text as it is
    const single = await page.translator.translate(model, text, prefix.length ? { ...options, prefix } : options);
    return { value: single.value, sentences: null, ms: ms + single.ms };
  }
  const several = sentences.length > 1 ? sentences : null;
  if (several === null) state.part = 0;
  else state.part = Math.min(state.part, several.length - 1);
  let value = sentences[state.part].translation;
  if (prefix.length) {
    const forced = await page.translator.translate(model, sentences[state.part].source, { ...options, prefix });
    value = forced.value;
    ms += forced.ms;
  }
  return { value, sentences: several, ms };
}

// Runs `draw` once the browser has painted what is on screen now: after the
// next animation frame, in a task of its own. A hidden page (a background
// tab) gets no animation frames, so there it runs in the next task; a timer
// covers a page hidden while it waits (long, so that after a long task it
// does not run ahead of the frame it stands in for).
function afterPaint(draw) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    draw();
  };
  if (document.visibilityState === 'hidden') {
    setTimeout(once, 0);
    return;
  }
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 1000);
}

// ?view=step: the first result opens with the step panel in view and focused.
let stepViewPending = null;
function openStepOnce() {
  stepViewPending ??= state.stepView;
  const open = stepViewPending;
  stepViewPending = false;
  return open;
}

let debounceTimer = 0;
function translateSoon() {
  clearTimeout(debounceTimer);
  debounceTimer = setTimeout(translate, DEBOUNCE_MS);
}
function translateNow() {
  clearTimeout(debounceTimer);
  translate();
}

// The reader's picks in the result: another beam hypothesis (drawn again,
// no new translation), or a "what if" token at `position` (decoded again
// with the tokens before it and the pick forced; null goes back to the
// model's own translation).
onPicks({
  hypothesis(k) {
    resetPicks({ hyp: k });
    render();
    renderStep();
    writeUrl();
  },
  alternative(position, token) {
    resetPicks({ prefix: position === null ? [] : [...selectedHypothesis().targetTokens.slice(0, position), token] });
    translateNow();
  },
});

// ---------------------------------------------------------------------------
// The language (web/figures/i18n/): the toggle switches it without a reload, and
// everything the page says is said again.

const langToggle = document.getElementById('lang-toggle');

function showLanguage() {
  speakDocument();
  applyStatic(document);
  // The toggle names the other language, in that language.
  langToggle.lang = lang() === 'zh-CN' ? 'en' : 'zh-CN';
}

function relabel() {
  showLanguage();
  if (!page.optionRanges) {
    // The page stopped before its controls were set up (showFatal).
    relabelStatus();
    if (view.result.dataset.state === 'error') replaceChildren(view.translation, t('status.cannotRun'));
    return;
  }
  setUpModelMenu();
  setUpBeamMenu();
  showPenaltyHint();
  showPenalties();
  showShortlist();
  relabelOptions();
  relabelStatus();
  relabelResult();
  relabelCompare();
  relabelStep();
  if (state.result) showAbout(state.model, { again: true });
  writeUrl();
}

function wireLanguage() {
  langToggle.addEventListener('click', () => setLang(lang() === 'zh-CN' ? 'en' : 'zh-CN'));
  onLangChange(relabel);
}

// ---------------------------------------------------------------------------
// Start

function wire() {
  view.source.addEventListener('input', () => {
    resetPicks({ prefix: [], step: null });
    resetStepPicks();
    translateSoon();
  });
  view.source.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      translateNow();
    }
  });
  view.translateButton.addEventListener('click', translateNow);
  // A text of several sentences: another sentence shown, from the
  // translations already made (no new request).
  view.sentenceItems.addEventListener('click', (event) => {
    const button = event.target.closest('[data-part]');
    const k = Number(button?.dataset.part);
    if (!button || !state.sentences || !(k in state.sentences) || k === state.part) return;
    state.part = k;
    state.result = state.sentences[k].translation;
    resetPicks({ prefix: [], step: null });
    resetStepPicks();
    render();
    renderStep();
    compareIfWanted(shownText(), page.serial);
    writeUrl();
  });
  view.model.addEventListener('change', () => {
    state.model = view.model.value;
    resetPicks({ prefix: [], step: null });
    resetStepPicks();
    showShortlist();  // hidden until the new model's info says it has one
    showExamples();
    translateNow();
  });
  view.beam.addEventListener('change', () => {
    state.beam = Number(view.beam.value);
    resetPicks();
    showPenalties();
    openOptionsForBeam();  // the options matter now
    translateNow();
  });
  view.shortlist.addEventListener('change', () => {
    state.shortlist = view.shortlist.checked;
    resetPicks();
    showPenalties();
    translateNow();
  });
  for (const [input, key, name, symbol] of [[view.alpha, 'alpha', 'lengthPenalty', 'α'], [view.beta, 'beta', 'coveragePenalty', 'β']]) {
    input.addEventListener('change', () => {
      const value = penaltyFromText(input.value, name);
      if (value === null && input.value.trim() !== '') {
        refusePenalty(name, symbol, state[key] ?? penaltyDefault(name));
        showPenalties();
        return;
      }
      acceptPenalty(name);
      state[key] = value === penaltyDefault(name) ? null : value;
      resetPicks();
      showPenalties();
      translateNow();
    });
  }
  showExamples();

  wireFigure();
  for (const [selector, key] of [['.view-switch [data-view]', 'view'], ['.unit-switch [data-unit]', 'unit']]) {
    document.querySelectorAll(selector).forEach((button) => button.addEventListener('click', () => {
      state[key] = button.dataset[key];
      if (state.result) renderFigure();
      else showSwitches();
      writeUrl();
    }));
  }
  wireSharing();
}

async function start() {
  // Errors nobody caught still reach the page, never a silent blank.
  window.addEventListener('error', (event) => showError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => showError(event.reason));

  document.head.append(h('style', {}, HEATMAP_CSS + ALIGNMENT_CSS + STEP_VIEW_CSS));
  showLanguage();
  wireLanguage();
  const missing = missingFeature();
  if (missing) {
    showFatal({ key: missing });
    return;
  }
  try {
    [{ optionRanges: page.optionRanges, wordAttention: page.wordAttention, sourceText: page.sourceText }] = await Promise.all([
      loadPackage('data.js', 'what.options'), loadModelList(),
    ]);
  } catch (error) {
    showFatal(error?.message ?? String(error));
    return;
  }
  setUpModelMenu();
  setUpBeamMenu();
  setUpPenalties();
  state.model = startModel();
  const text = readUrl();
  optionsFromUrl(new URLSearchParams(location.search));
  view.source.value = text ?? EXAMPLES[0];
  addModelOption(state.model);
  view.model.value = state.model;
  view.beam.value = String(state.beam);
  showPenalties();
  showShortlist();
  showSwitches();
  page.translator = getTranslator();
  wire();
  wireStep({ retranslate: translateNow, writeUrl });
  wireKeys();
  watchCompare();
  translateNow();
}

start();
