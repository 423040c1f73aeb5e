// "About this model": what the model file says about itself (its network,
// vocabularies, training, development scores and data: provenance.js),
// asked of the worker once per model.
import { h, replaceChildren } from './dom.js';
import { LANGUAGES } from './page-models.js';
import { describeModel, modelInfo, view } from './page-state.js';
import { dataText, trainingText } from './provenance.js';
import { recordedScores, scorerLabel } from './scores.js';

let aboutModel = null; // the model the section describes (or is loading)

/** Describes `model` (again only when it changed). */
export async function showAbout(model) {
  if (aboutModel === model) return;
  aboutModel = model;
  let info;
  try {
    info = await modelInfo(model);
  } catch (error) {
    aboutModel = null;
    replaceChildren(view.about, h('dd', {}, `Could not read the model’s details: ${error.message}`));
    return;
  }
  if (aboutModel !== model) return;
  const { config = {}, provenance = {} } = info;
  const tokens = (kind) => (kind === 'bpe' ? 'subword pieces' : kind === 'characters' ? 'characters' : 'words');
  const language = (code) => LANGUAGES[code] ?? code ?? '';
  const rows = [
    ['Model', `${info.name ?? model}: ${describeModel(model).label}, ${info.hasAttention ? `${config.attention} attention (Bahdanau et al. 2015)` : 'no attention (fixed context)'}`],
    ['Network', `embeddings of ${config.embedding_size}, a bidirectional GRU encoder of 2 × ${config.encoder_hidden_size}, a GRU decoder of ${config.decoder_hidden_size}` +
      `${info.hasAttention ? `, attention of ${config.attention_size}` : ''}, a deep output of ${config.output_hidden_size}`],
    ['Vocabulary', `${info.sourceVocabularySize ?? config.source_vocab_size} ${language(info.sourceLanguage)} ${tokens(info.sourceTokenizer)}, ` +
      `${info.targetVocabularySize ?? config.target_vocab_size} ${language(info.targetLanguage)} ${tokens(info.targetTokenizer)}`],
    ['Training', trainingText(provenance)],
    ['Development BLEU', aboutScores(info)],
    ['Data', dataText(provenance)],
  ];
  if (provenance.created) rows.push(['Created', provenance.created]);
  replaceChildren(view.about, rows.map(([term, detail]) => [h('dt', {}, term),
    h('dd', { 'data-testid': term === 'Development BLEU' ? 'about-bleu' : null }, detail)]));
}

// "BLEU 39.8 greedy, 42.1 beam 4, chrF2 60.8 (beam 4), on 3,775 held-out
// sentences, sacreBLEU-compatible (…); by length (beam 4): …"
function aboutScores(info) {
  const greedy = recordedScores(info, ['dev-greedy']);
  const best = recordedScores(info);
  if (!best) return 'not measured';
  const both = greedy && greedy.decoding !== best.decoding ? [greedy, best] : [best];
  const chrf2 = best.chrf2 !== null ? `, chrF2 ${best.chrf2.toFixed(1)} (${best.decoding})` : '';
  const byLength = best.byLength.filter((b) => b.sentences > 0)
    .map((b) => `${b.bucket} words ${b.bleu.toFixed(1)}${b.chrf2 !== null ? ` (chrF2 ${b.chrf2.toFixed(1)})` : ''}`).join(', ');
  return `BLEU ${both.map((s) => `${s.overall.toFixed(1)} ${s.decoding}`).join(', ')}${chrf2}, on ` +
    `${best.sentences.toLocaleString('en')} held-out sentences; ${scorerLabel(best)}` +
    `${byLength ? `. By length (${best.decoding}): ${byLength}` : ''}.`;
}
