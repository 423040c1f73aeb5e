// Draws docs/bleu-by-length.svg: development BLEU by English sentence length
// for the attention model, its fixed-context twin and the translation-memory
// baseline (and the same for English-Chinese), from the reports that
// scripts/compare-models.sh records in the model files and in
// models/baselines.json. Regenerate with `npm run compare` (needs the data).
//
//   node scripts/bleu-chart.mjs [--decoding dev-beam4] [--out docs/bleu-by-length.svg]
//   node scripts/bleu-chart.mjs --check   exits 1 when the file is not what the records draw (a test)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    decoding: { type: 'string', default: 'dev-beam4' },
    out: { type: 'string', default: 'docs/bleu-by-length.svg' },
    cli: { type: 'string', default: process.env.S2S_CLI ?? 'build/native/seq2seq' },
    check: { type: 'boolean', default: false },
  },
});

function modelReport(name) {
  const path = `models/${name}.s2s`;
  if (!existsSync(path)) return null;
  const info = JSON.parse(execFileSync(options.cli, ['info', '--model', path, '--json'], { encoding: 'utf8' }));
  const report = info.provenance?.evaluations?.[options.decoding];
  if (!report) {
    throw new Error(`${path} has no "${options.decoding}" evaluation; run scripts/compare-models.sh first`);
  }
  return report;
}

const baselines = existsSync('models/baselines.json') ? JSON.parse(readFileSync('models/baselines.json', 'utf8')) : {};

// Each panel: a language pair, its systems (colour, label, report).
const panels = [
  {
    title: 'English → French',
    systems: [
      { label: 'attention (en-fr)', colour: '#1f6fb2', report: modelReport('en-fr') },
      { label: 'fixed context (en-fr-fixed)', colour: '#e08a2e', report: modelReport('en-fr-fixed') },
      { label: 'translation memory', colour: '#9a9a9a', report: baselines['en-fr'] ?? null },
    ],
  },
  {
    title: 'English → Chinese (characters)',
    systems: [
      { label: 'attention (en-zh)', colour: '#1f6fb2', report: modelReport('en-zh') },
      { label: 'translation memory', colour: '#9a9a9a', report: baselines['en-zh'] ?? null },
    ],
  },
].map((panel) => ({ ...panel, systems: panel.systems.filter((s) => s.report) }))
  .filter((panel) => panel.systems.length > 0);
if (panels.length === 0) throw new Error('no reports found: run scripts/compare-models.sh first');

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const buckets = ['1-4', '5-7', '8-11', '12+'];
const panelWidth = 420;
const panelHeight = 300;
const margin = { top: 56, right: 16, bottom: 92, left: 44 };
const width = panels.length * panelWidth;
const height = panelHeight;
const plotHeight = panelHeight - margin.top - margin.bottom;
const yMax = 70;
const y = (bleu) => margin.top + plotHeight * (1 - Math.min(bleu, yMax) / yMax);

const parts = [];
panels.forEach((panel, p) => {
  const x0 = p * panelWidth + margin.left;
  const plotWidth = panelWidth - margin.left - margin.right;
  const groupWidth = plotWidth / buckets.length;
  const barWidth = (groupWidth - 14) / panel.systems.length;
  parts.push(`<g font-family="system-ui, sans-serif" font-size="11" fill="#222">`);
  parts.push(`<text x="${x0}" y="22" font-size="14" font-weight="600">${escape(panel.title)}</text>`);
  for (let tick = 0; tick <= yMax; tick += 10) {
    parts.push(`<line x1="${x0}" x2="${x0 + plotWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${x0 - 6}" y="${y(tick) + 4}" text-anchor="end" fill="#666">${tick}</text>`);
  }
  parts.push(`<text x="${x0}" y="42" fill="#666">BLEU on held-out sentences, by English length (words)</text>`);
  buckets.forEach((bucket, b) => {
    const gx = x0 + b * groupWidth + 7;
    panel.systems.forEach((system, s) => {
      const entry = system.report.by_length.find((e) => e.bucket === bucket);
      if (!entry) return;
      const bx = gx + s * barWidth;
      const top = y(entry.bleu);
      parts.push(`<rect x="${bx.toFixed(1)}" y="${top.toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" ` +
        `height="${(y(0) - top).toFixed(1)}" fill="${system.colour}"><title>${escape(system.label)}, ${bucket} words: ` +
        `BLEU ${entry.bleu.toFixed(2)} (${entry.sentences} sentences)</title></rect>`);
      parts.push(`<text x="${(bx + (barWidth - 2) / 2).toFixed(1)}" y="${(top - 3).toFixed(1)}" text-anchor="middle" ` +
        `font-size="9" fill="#444">${entry.bleu.toFixed(0)}</text>`);
    });
    parts.push(`<text x="${(gx + (groupWidth - 14) / 2).toFixed(1)}" y="${y(0) + 15}" text-anchor="middle">${bucket}</text>`);
  });
  panel.systems.forEach((system, s) => {
    const ly = y(0) + 34 + s * 16;
    parts.push(`<rect x="${x0}" y="${ly - 9}" width="10" height="10" fill="${system.colour}"/>`);
    parts.push(`<text x="${x0 + 16}" y="${ly}">${escape(system.label)}: ${system.report.overall.bleu.toFixed(1)} overall</text>`);
  });
  parts.push('</g>');
});

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
  `role="img" aria-label="BLEU by sentence length: attention, fixed context and translation memory">\n` +
  `<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`;
if (options.check) {
  if (!existsSync(options.out) || readFileSync(options.out, 'utf8') !== svg) {
    console.error(`bleu-chart: ${options.out} is not what the models' "${options.decoding}" records draw; run node scripts/bleu-chart.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(options.out, svg);
  console.error(`wrote ${options.out} (${options.decoding})`);
}
