// "About this model": what the model file says about itself (its network,
// vocabularies, training, development scores and data: provenance.js),
// asked of the worker once per model.
import { h, replaceChildren } from '../figures/dom.js';
import { languageName } from '../figures/page-models.js';
import { formatCount, t } from '../figures/i18n/index.js';
import { describeModel, modelInfo, view } from './page-state.js';
import { dataText, licenceText, trainingText } from './provenance.js';
import { recordedScores, scorerLabel } from '../figures/scores.js';

let aboutModel = null; // the model the section describes (or is loading)

/** Describes `model` (again only when it changed, or when `again`: the language changed). */
export async function showAbout(model, { again = false } = {}) {
  if (aboutModel === model && !again) return;
  aboutModel = model;
  let info;
  try {
    info = await modelInfo(model);
  } catch (error) {
    aboutModel = null;
    replaceChildren(view.about, h('dd', {}, t('about.failed', { message: error.message })));
    return;
  }
  if (aboutModel !== model) return;
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
