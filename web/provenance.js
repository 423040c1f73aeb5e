// What a model file's provenance says about its training and its data, as
// "About this model" (about.js) shows it. Only what the file records: a
// field it lacks is shown as "not recorded", never filled in with what the
// shipped models happen to say (a model trained on other data must not be
// credited to Tatoeba). Text only, with no DOM, so Node tests it
// (tests/js/provenance.test.mjs).
export const NOT_RECORDED = 'not recorded';

function formatDuration(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return hours ? `${hours} h ${minutes} min` : minutes ? `${minutes} min` : `${Math.round(seconds)} s`;
}

const count = (value) => (Number.isFinite(value) ? value.toLocaleString('en') : null);

/** "48,000 steps of 64 sentence pairs, 1 h 49 min of training on a CPU, from 133,848 training pairs". */
export function trainingText(provenance = {}) {
  const training = provenance.training ?? {};
  const steps = count(training.steps);
  const batch = count(training.batch_size);
  const pairs = count(provenance.split?.train_pairs);
  return `${steps ? `${steps} steps` : `steps ${NOT_RECORDED}`}${batch ? ` of ${batch} sentence pairs` : ''}, ` +
    `${Number.isFinite(training.wall_seconds) ? `${formatDuration(training.wall_seconds)} of training on a CPU` : `training time ${NOT_RECORDED}`}` +
    `${pairs ? `, from ${pairs} training pairs` : ''}`;
}

/** "SOURCE; LICENCE; attribution: WHO (file F, FNV-1a H)", each part "not recorded" when the file lacks it. */
export function dataText(provenance = {}) {
  const data = provenance.data ?? {};
  const field = (value) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  const file = field(data.file);
  return `${field(data.source) ?? `source ${NOT_RECORDED}`}; ${field(data.license) ?? `licence ${NOT_RECORDED}`}; ` +
    `attribution: ${field(data.attribution) ?? NOT_RECORDED}` +
    `${file ? ` (file ${file}, FNV-1a ${field(data.fnv1a64) ?? NOT_RECORDED})` : ''}`;
}
