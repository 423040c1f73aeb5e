// "About this model": first in plain sentences, in the page's language,
// what the model is, what it learned from and how well it translates
// (issue 46, item 9); then, folded, what the model file says about itself
// (its network, vocabularies, training, development scores and data, with
// file names and hashes: provenance.js). Asked of the worker once per model.
import { h, replaceChildren } from '../figures/dom.js';
import { languageName } from '../figures/page-models.js';
import { formatCount, setRich, t } from '../figures/i18n/index.js';
import { describeModel, modelInfo, view } from './page-state.js';
import { dataText, licenceText, trainingText } from './provenance.js';
import { recordedScores, scorerLabel } from '../figures/scores.js';

let aboutModel = null; // the model the section describes (or is loading)
const summary = document.getElementById('about-summary');

// Three plain sentences: what it is, what it learned from, its scores.
function showSummary(info) {
  const { provenance = {} } = info;
  const language = (code) => (code ? languageName(code) : t('model.output').toLowerCase());
  const what = h('p', {}, t('about.plainModel', {
    source: language(info.sourceLanguage), target: language(info.targetLanguage),
    how: t(info.hasAttention ? 'about.plainAttention' : 'about.plainFixed'),
  }));
  const pairs = provenance.split?.train_pairs;
  const source = provenance.data?.source;
  const learned = Number.isFinite(pairs) && typeof source === 'string'
    ? setRich(h('p'), 'about.plainData', {
      pairs: formatCount(pairs),
      data: h('span', { translate: 'no' }, source),  // as the file records it
      more: Array.isArray(provenance.extra_data) && provenance.extra_data.length
        ? t('about.plainMore', { count: provenance.extra_data.length }) : '',
    })
    : h('p', {}, t('about.plainDataMissing'));
  const best = recordedScores(info);
  const buckets = best?.byLength.filter((b) => b.sentences > 0) ?? [];
  const scores = best
    ? h('p', { 'data-testid': 'about-plain-scores' }, t('about.plainScores', {
      sentences: formatCount(best.sentences), bleu: best.overall.toFixed(1), decoding: best.decoding,
      byLength: buckets.length >= 2 ? t('about.plainByLength', {
        shortBucket: buckets[0].bucket, shortBleu: buckets[0].bleu.toFixed(1),
        longBucket: buckets.at(-1).bucket, longBleu: buckets.at(-1).bleu.toFixed(1),
      }) : '',
    }))
    : h('p', {}, t('about.plainNotMeasured'));
  replaceChildren(summary, what, learned, scores);
}

/** Describes `model` (again only when it changed, or when `again`: the language changed). */
export async function showAbout(model, { again = false } = {}) {
  if (aboutModel === model && !again) return;
  aboutModel = model;
  let info;
  try {
    info = await modelInfo(model);
  } catch (error) {
    aboutModel = null;
    replaceChildren(summary);
    replaceChildren(view.about, h('dd', {}, t('about.failed', { message: error.message })));
    return;
  }
  if (aboutModel !== model) return;
  showSummary(info);
  const { config = {}, provenance = {} } = info;
  const tokens = (kind) => t(kind === 'bpe' ? 'about.tokens.bpe' : kind === 'characters' ? 'about.tokens.characters' : 'about.tokens.words');
  const language = (code) => (code ? languageName(code) : '');
  const rows = [
    ['about.model', t('about.modelText', {
      name: info.name ?? model, label: describeModel(model).label,
      attention: info.hasAttention ? t('about.withAttention', { kind: attentionName(config.attention) }) : t('about.noAttention'),
    })],
    ['about.network', t('about.networkText', {
      embedding: config.embedding_size, encoder: config.encoder_hidden_size, decoder: config.decoder_hidden_size,
      attention: info.hasAttention ? t('about.networkAttention', { size: config.attention_size }) : '', output: config.output_hidden_size,
    })],
    ['about.vocabulary', t('about.vocabularyText', {
      sourceSize: info.sourceVocabularySize ?? config.source_vocab_size, sourceLanguage: language(info.sourceLanguage), sourceTokens: tokens(info.sourceTokenizer),
      targetSize: info.targetVocabularySize ?? config.target_vocab_size, targetLanguage: language(info.targetLanguage), targetTokens: tokens(info.targetTokenizer),
    })],
    ['about.training', trainingText(provenance)],
    ['about.bleu', aboutScores(info)],
    ['about.data', dataText(provenance)],
    ['about.licence', licenceText(provenance)],
  ];
  if (provenance.created) rows.push(['about.created', provenance.created]);
  replaceChildren(view.about, rows.map(([term, detail]) => [h('dt', {}, t(term)),
    // What the file records about its data (names, licences, attribution) is shown as written.
    h('dd', { 'data-testid': term === 'about.bleu' ? 'about-bleu' : null, translate: term === 'about.data' || term === 'about.licence' ? 'no' : null }, detail)]));
}

// The scoring function's name ('additive', 'dot', 'scaled-dot', 'general'), in the page's language.
const ATTENTION_KINDS = new Set(['additive', 'dot', 'scaled-dot', 'general']);
const attentionName = (kind) => (ATTENTION_KINDS.has(kind) ? t(`attention.${kind}`) : kind);

// "BLEU 39.8 greedy, 42.1 beam 4, chrF2 60.8 (beam 4), on 3,775 held-out
// sentences, sacreBLEU-compatible (…); by length (beam 4): …"
function aboutScores(info) {
  const greedy = recordedScores(info, ['dev-greedy']);
  const best = recordedScores(info);
  if (!best) return t('about.notMeasured');
  const both = greedy && greedy.decoding !== best.decoding ? [greedy, best] : [best];
  const chrf = best.chrf2 !== null ? t('about.scoresChrf', { chrf: best.chrf2.toFixed(1), decoding: best.decoding }) : '';
  const byLength = best.byLength.filter((b) => b.sentences > 0)
    .map((b) => `${t('about.bucket', { bucket: b.bucket, bleu: b.bleu.toFixed(1) })}${b.chrf2 !== null ? ` (chrF2 ${b.chrf2.toFixed(1)})` : ''}`).join(t('list.separator'));
  return t('about.scores', {
    scores: both.map((s) => `${s.overall.toFixed(1)} ${s.decoding}`).join(t('list.separator')), chrf, sentences: formatCount(best.sentences),
    scorer: scorerLabel(best), byLength: byLength ? t('about.byLength', { decoding: best.decoding, buckets: byLength }) : '',
  });
}
