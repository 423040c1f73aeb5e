// Development BLEU by source sentence length, one bar per model in each
// length bucket (1-4, 5-7, 8-11, 12+ words), from the scores recorded in the
// model files (scores.js, recordedScores: `seq2seq eval --record`, or
// `seq2seq train`'s final evaluation), with chrF2 where the report has it.
// The fixed-context model's bars should fall faster with length: that is the
// bottleneck of one context vector, measured.
import { h, svg } from './dom.js';
import { lang, tIn } from './i18n/index.js';

const HEIGHT = 240;
const MARGIN = { top: 28, right: 8, bottom: 44, left: 36 };

/**
 * series: [{ label, color, devBleu: { overall, chrf2?, byLength: [{ bucket, bleu, chrf2?, sentences }] } }]
 * (chrf2: null or absent when the report has none)
 * width: the pixels available; the chart is drawn at that size, so its text
 * stays legible on a phone rather than being scaled down.
 * language: the words' language (default the page's; the element passes its own).
 * Returns an element holding the legend (HTML, so it wraps) and the <svg>.
 */
export function renderBleuChart(series, { width = 560, language = lang() } = {}) {
  const t = (key, params) => tIn(language, key, params);
  const WIDTH = Math.max(280, Math.min(620, Math.round(width)));
  const buckets = [];
  for (const { devBleu } of series) {
    for (const { bucket } of devBleu?.byLength ?? []) if (!buckets.includes(bucket)) buckets.push(bucket);
  }
  const values = series.flatMap(({ devBleu }) => (devBleu?.byLength ?? []).filter((b) => b.sentences > 0).map((b) => b.bleu));
  const top = Math.max(10, Math.ceil(Math.max(0, ...values) / 10) * 10);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (value) => MARGIN.top + plotHeight * (1 - value / top);
  const groupWidth = plotWidth / Math.max(1, buckets.length);
  const barWidth = Math.min(48, (groupWidth * 0.8) / Math.max(1, series.length));

  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img',
    'font-family': 'system-ui, sans-serif', 'font-size': 12,
    'aria-label': t('chart.label', { series: series.map(({ label, devBleu }) => t('chart.seriesLabel', {
      label,
      buckets: (devBleu?.byLength ?? []).filter((b) => b.sentences > 0).map((b) => t('about.bucket', { bucket: b.bucket, bleu: b.bleu.toFixed(1) })).join(t('list.separator')),
    })).join('. ') }),
  });

  for (let tick = 0; tick <= top; tick += top / 5) {
    root.append(
      svg('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(tick), y2: y(tick), stroke: tick === 0 ? '#94a3b8' : '#e2e8f0' }),
      svg('text', { x: MARGIN.left - 6, y: y(tick) + 4, 'text-anchor': 'end', fill: '#64748b' }, String(Math.round(tick))),
    );
  }
  root.append(svg('text', { x: 4, y: 12, fill: '#475569' }, 'BLEU'));

  buckets.forEach((bucket, g) => {
    const center = MARGIN.left + groupWidth * (g + 0.5);
    series.forEach(({ label, color, devBleu }, k) => {
      const entry = devBleu?.byLength?.find((b) => b.bucket === bucket);
      const x = center - (barWidth * series.length) / 2 + k * barWidth;
      if (!entry || !(entry.sentences > 0)) {
        // No development sentence of this length: no score, not a score of 0.
        root.append(svg('text', { x: x + barWidth / 2, y: y(0) - 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#94a3b8' }, t('chart.none')));
        return;
      }
      const bar = svg('rect', {
        class: 'bar', x: x + 1, y: y(entry.bleu), width: barWidth - 2, height: Math.max(0, y(0) - y(entry.bleu)),
        fill: color, rx: 2, 'data-model': label, 'data-bucket': bucket, 'data-bleu': entry.bleu,
      }, svg('title', {}, t('chart.bar', {
        label, bucket, bleu: entry.bleu.toFixed(1), chrf: entry.chrf2 != null ? `, chrF2 ${entry.chrf2.toFixed(1)}` : '', sentences: entry.sentences,
      })));
      root.append(bar, svg('text', {
        x: x + barWidth / 2, y: y(entry.bleu) - 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#334155',
      }, entry.bleu.toFixed(1)));
    });
    root.append(svg('text', { x: center, y: HEIGHT - MARGIN.bottom + 18, 'text-anchor': 'middle', fill: '#334155' }, bucket));
  });
  root.append(svg('text', { x: MARGIN.left + plotWidth / 2, y: HEIGHT - 6, 'text-anchor': 'middle', fill: '#64748b' },
    t('chart.axis')));

  const legend = h('div', { class: 'chart-legend' }, series.map(({ label, color, devBleu }) => h('span', {},
    h('i', { style: `background: ${color}` }),
    devBleu?.overall != null
      ? t('chart.legend', { label, bleu: devBleu.overall.toFixed(1), chrf: devBleu.chrf2 != null ? `, chrF2 ${devBleu.chrf2.toFixed(1)}` : '' })
      : label)));
  return h('div', { class: 'bleu-chart', 'data-testid': 'bleu-chart' }, legend, root);
}
