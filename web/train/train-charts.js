// The Train view's two charts, as SVG: the loss curves of the attention model
// and its fixed-context twin, and their held-out exact match by input length
// (the fixed vector's bottleneck shows up as bars that fall with length).
import { h, svg } from '../figures/dom.js';
import { t } from '../figures/i18n/index.js';

const HEIGHT = 200;
const MARGIN = { top: 14, right: 12, bottom: 40, left: 50 };

function frame(width, label) {
  return svg('svg', {
    viewBox: `0 0 ${width} ${HEIGHT}`, width, height: HEIGHT, role: 'img',
    'font-family': 'system-ui, sans-serif', 'font-size': 12, 'aria-label': label,
  });
}

function legend(series) {
  return h('div', { class: 'chart-legend' }, series.map(({ label, color }) => h('span', {}, h('i', { style: `background: ${color}` }), label)));
}

/**
 * series: [{ label, color, points: [[step, loss], ...] }]. The y axis is
 * logarithmic: the loss falls by orders of magnitude as the task is learned.
 */
export function renderLossChart(series, { width = 420 } = {}) {
  const W = Math.max(260, Math.min(620, Math.round(width)));
  const all = series.flatMap((s) => s.points);
  const maxStep = Math.max(10, ...all.map(([step]) => step));
  const losses = all.map(([, loss]) => loss).filter((l) => l > 0 && Number.isFinite(l));
  const hi = Math.log10(Math.max(1, ...losses)) + 0.05;
  const lo = Math.min(hi - 1, Math.floor(Math.log10(Math.min(1, ...losses))));
  const plotW = W - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (step) => MARGIN.left + (plotW * step) / maxStep;
  const y = (loss) => MARGIN.top + (plotH * (hi - Math.log10(Math.max(loss, 10 ** lo)))) / (hi - lo);
  const root = frame(W, t('train.lossLabel', {
    series: series.map((s) => `${s.label} ${s.points.length ? s.points.at(-1)[1].toFixed(3) : t('train.notStarted')}`).join(', '),
  }));
  for (let e = Math.ceil(lo); e <= Math.floor(hi); e++) {
    root.append(
      svg('line', { x1: MARGIN.left, x2: W - MARGIN.right, y1: y(10 ** e), y2: y(10 ** e), stroke: '#e2e8f0' }),
      svg('text', { x: MARGIN.left - 6, y: y(10 ** e) + 4, 'text-anchor': 'end', fill: '#64748b' }, tickLabel(e)),
    );
  }
  root.append(
    svg('line', { x1: MARGIN.left, x2: W - MARGIN.right, y1: MARGIN.top + plotH, y2: MARGIN.top + plotH, stroke: '#94a3b8' }),
    svg('text', { x: MARGIN.left, y: HEIGHT - 22, fill: '#64748b' }, '0'),
    svg('text', { x: W - MARGIN.right, y: HEIGHT - 22, 'text-anchor': 'end', fill: '#64748b' }, String(maxStep)),
    svg('text', { x: MARGIN.left + plotW / 2, y: HEIGHT - 6, 'text-anchor': 'middle', fill: '#64748b' }, t('train.lossAxis')),
    svg('text', { x: 4, y: 12, fill: '#475569' }, t('train.lossShort')),
  );
  for (const { label, color, points } of series) {
    if (points.length === 0) continue;
    const d = points.map(([step, loss], i) => `${i ? 'L' : 'M'}${x(step).toFixed(1)},${y(loss).toFixed(1)}`).join('');
    root.append(svg('path', { d, fill: 'none', stroke: color, 'stroke-width': 2, 'data-series': label, 'data-points': points.length }));
  }
  return h('div', { class: 'train-chart', 'data-testid': 'train-loss-chart' }, legend(series), root);
}

/**
 * series: [{ label, color, evaluation }] where evaluation.byLength is
 * [{ length, correct, total }]. Lengths are grouped into at most 6 buckets.
 */
export function renderAccuracyChart(series, { width = 420, unit = 'tokens' } = {}) {
  const W = Math.max(260, Math.min(620, Math.round(width)));
  const lengths = [...new Set(series.flatMap((s) => (s.evaluation?.byLength ?? []).map((b) => b.length)))].sort((a, b) => a - b);
  const span = lengths.length ? lengths.at(-1) - lengths[0] + 1 : 0;
  const size = Math.max(1, Math.ceil(span / 6));
  const buckets = [];
  for (let start = lengths[0] ?? 0; lengths.length && start <= lengths.at(-1); start += size) {
    const end = Math.min(start + size - 1, lengths.at(-1));
    buckets.push({ start, end, label: start === end ? String(start) : `${start}-${end}` });
  }
  const accuracy = (evaluation, { start, end }) => {
    const inside = (evaluation?.byLength ?? []).filter((b) => b.length >= start && b.length <= end);
    const total = inside.reduce((a, b) => a + b.total, 0);
    return total ? inside.reduce((a, b) => a + b.correct, 0) / total : null;
  };
  const plotW = W - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (value) => MARGIN.top + plotH * (1 - value);
  const groupW = plotW / Math.max(1, buckets.length);
  const barW = Math.min(36, (groupW * 0.8) / Math.max(1, series.length));
  const root = frame(W, t('train.accuracyLabel', {
    series: series.map((s) => `${s.label}: ${buckets.map((b) => `${b.label} ${unit} ${Math.round(100 * (accuracy(s.evaluation, b) ?? 0))}%`).join(', ')}`).join('. '),
  }));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(
      svg('line', { x1: MARGIN.left, x2: W - MARGIN.right, y1: y(tick), y2: y(tick), stroke: tick === 0 ? '#94a3b8' : '#e2e8f0' }),
      svg('text', { x: MARGIN.left - 6, y: y(tick) + 4, 'text-anchor': 'end', fill: '#64748b' }, `${tick * 100}%`),
    );
  }
  buckets.forEach((bucket, g) => {
    const center = MARGIN.left + groupW * (g + 0.5);
    series.forEach(({ label, color, evaluation }, k) => {
      const value = accuracy(evaluation, bucket);
      if (value === null) return;
      const x = center - (barW * series.length) / 2 + k * barW;
      root.append(svg('rect', {
        class: 'bar', x: x + 1, y: y(value), width: barW - 2, height: Math.max(0, y(0) - y(value)), fill: color, rx: 2,
        'data-model': label, 'data-bucket': bucket.label, 'data-accuracy': value.toFixed(4),
      }, svg('title', {}, t('train.accuracyBar', { label, bucket: bucket.label, unit, percent: Math.round(value * 100) }))));
    });
    root.append(svg('text', { x: center, y: HEIGHT - MARGIN.bottom + 16, 'text-anchor': 'middle', fill: '#334155' }, bucket.label));
  });
  root.append(svg('text', { x: MARGIN.left + plotW / 2, y: HEIGHT - 6, 'text-anchor': 'middle', fill: '#64748b' }, t('train.accuracyAxis', { unit })));
  return h('div', { class: 'train-chart', 'data-testid': 'train-accuracy-chart' }, legend(series), root);
}

// A power of ten on the log axis, short enough for the margin: 10, 1, 0.1,
// 0.01, then 1e-3, 1e-4 (0.0001 did not fit, and was cut to ").0001").
function tickLabel(e) {
  if (e >= 0) return String(10 ** e);
  return e >= -2 ? (10 ** e).toFixed(-e) : `1e${e}`;
}
