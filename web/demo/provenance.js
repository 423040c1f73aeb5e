// What a model file's provenance says about its training and its data, as
// "About this model" (about.js) shows it. Only what the file records: a
// field it lacks is shown as "not recorded", never filled in with what the
// shipped models happen to say (a model trained on other data must not be
// credited to Tatoeba). Text only, with no DOM, so Node tests it
// (tests/js/provenance.test.mjs). In the page's language (web/figures/i18n/;
// English in Node).
import { formatCount, t } from '../figures/i18n/index.js';

/** "not recorded", as English says it (the tests' reference). */
export const NOT_RECORDED = 'not recorded';

function formatDuration(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return hours ? t('provenance.hours', { hours, minutes }) : minutes ? t('provenance.minutes', { minutes })
    : t('provenance.seconds', { seconds: Math.round(seconds) });
}

const count = (value) => (Number.isFinite(value) ? formatCount(value) : null);

/**
 * "48,000 steps of 64 sentence pairs, 1 h 49 min of training on a CPU, from 133,848 training pairs";
 * a run continued from another model (train --init-model) and averaged checkpoints (--average-last) say so:
 * "20,000 steps of 64 sentence pairs (continued from 60,000 steps of en-zh), the mean
 * of the last 10 checkpoints, 18 min of training on a CPU, ...", a distilled one
 * (train --teacher) names its teacher: ", distilled from en-zh (the teacher's predictions weighted 0.50)",
 * and one averaged with another run (convert --interpolate) names it.
 */
export function trainingText(provenance = {}) {
  const training = provenance.training ?? {};
  const steps = count(training.steps);
  const batch = count(training.batch_size);
  const pairs = count(provenance.split?.train_pairs);
  const earlier = training.init_model;
  const earlierSteps = count(earlier?.steps);
  const stage = earlier && typeof earlier === 'object'
    ? t('provenance.stage', { steps: earlierSteps ?? t('provenance.notRecorded'), name: earlier.name || earlier.file || t('provenance.notRecorded') })
    : '';
  const share = (weight) => (Number.isFinite(weight) ? weight.toFixed(2) : t('provenance.notRecorded'));
  // BPE-dropout (seq2seq train --piece-dropout): each merge skipped with this probability.
  const dropout = Number.isFinite(training.piece_dropout) && training.piece_dropout > 0
    ? t('provenance.pieceDropout', { rate: Number(training.piece_dropout.toPrecision(3)) })
    : '';
  const averaged = Number.isInteger(training.averaged_checkpoints?.count) ? t('provenance.averaged', { count: training.averaged_checkpoints.count }) : '';
  const other = provenance.interpolation;
  // Averaged with the very file it continued from (the same FNV-1a hash):
  // a run and its start (Wortsman et al., 2022), not two runs side by side.
  const withStart = typeof other?.fnv1a64 === 'string' && other.fnv1a64 === earlier?.fnv1a64;
  const interpolated = other && typeof other === 'object'
    ? t(withStart ? 'provenance.interpolatedStart' : 'provenance.interpolated', {
      // The file, as scripts/train.sh names the run (NAME-longer.s2s), says more than a measured arm's name.
      name: other.file?.replace(/\.s2s$/, '') || other.name || t('provenance.notRecorded'),
      weight: share(other.weight),
    })
    : '';
  const teacher = training.teacher && typeof training.teacher === 'object'
    ? t('provenance.teacher', {
      name: training.teacher.name || training.teacher.file || t('provenance.notRecorded'),
      weight: share(training.teacher.weight),
    })
    : '';
  return `${steps ? t('provenance.steps', { steps }) : t('provenance.stepsMissing')}${batch ? t('provenance.batch', { batch }) : ''}${stage}${dropout}${teacher}${averaged}${interpolated}${t('list.separator')}` +
    `${Number.isFinite(training.wall_seconds) ? t('provenance.time', { duration: formatDuration(training.wall_seconds) }) : t('provenance.timeMissing')}` +
    `${pairs ? t('provenance.pairs', { pairs }) : ''}`;
}

/**
 * "SOURCE; LICENCE; attribution: WHO (file F, FNV-1a H)", each part "not
 * recorded" when the file lacks it, for the main data file and then each
 * training-only file (`train --extra-data`: the project's corpus and
 * glossary, a dictionary), joined with " + ".
 */
export function dataText(provenance = {}) {
  const extra = Array.isArray(provenance.extra_data) ? provenance.extra_data : [];
  return [provenance.data ?? {}, ...extra].map((record, k) => recordText(record, k > 0)).join(' + ');
}

function recordText(data, extra) {
  const field = (value) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  const file = field(data.file);
  const notRecorded = t('provenance.notRecorded');
  const used = extra && Number.isFinite(data.pairs_used)
    ? t('provenance.extraPairs', { pairs: formatCount(data.pairs_used), repeat: Number.isFinite(data.repeat) ? data.repeat : 1 })
    : '';
  return t('provenance.data', {
    source: field(data.source) ?? t('provenance.sourceMissing'),
    licence: field(data.license) ?? t('provenance.licenceMissing'),
    attribution: field(data.attribution) ?? notRecorded,
    file: file ? t('provenance.file', { file, hash: field(data.fnv1a64) ?? notRecorded }) : '',
  }) + used;
}

/**
 * The licences of everything the model learned from, and what they mean
 * for the model file: a ShareAlike licence (CC BY-SA) among them carries to
 * the model, which is then shared under it.
 */
export function licenceText(provenance = {}) {
  const extra = Array.isArray(provenance.extra_data) ? provenance.extra_data : [];
  const licences = [...new Set([provenance.data ?? {}, ...extra].map((d) => d.license).filter((l) => typeof l === 'string' && l.trim() !== ''))];
  if (licences.length === 0) return t('provenance.licenceMissing');
  const shareAlike = licences.find((l) => /\bBY-SA\b/i.test(l));
  return shareAlike
    ? t('provenance.licenceShareAlike', { licences: licences.join(', '), shareAlike })
    : t('provenance.licenceAttribution', { licences: licences.join(', ') });
}
