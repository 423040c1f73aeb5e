// What the Train view's two models learn, by input length, without a
// browser: the same task, options and seed as web/train.html (the trainer
// API, seq2seq-attention/trainer, the same s2s-train.wasm the page's workers
// run), stepped as the page steps them, with held-out exact match by input
// length at the steps given.
//
//   node bench/train-by-length.mjs [--task reversal|dates] [--at 100,300,500,1000,2000] [--probe "a b c ..."]
//
// It also prints the first step (a multiple of 10, as the page probes) at
// which the attention model's output for the probe is exactly right and the
// fixed twin's is not: the rule of the page's "moment the fixed twin fails"
// snapshot (web/train/train-snapshot.js).
import { createTrainer } from '../dist/trainer.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const task = arg('--task', 'reversal');
const at = arg('--at', '100,300,500,1000,1500,2000').split(',').map(Number);
const probe = arg('--probe', null);
const asJson = args.includes('--json');

const models = {
  attention: await createTrainer({ task, attention: 'additive' }),
  fixed: await createTrainer({ task, attention: 'none' }),
};
const total = Math.max(...at);
const chars = models.attention.info.targetTokenizer?.kind === 'characters';
const join = (tokens) => tokens.filter((x) => x !== '<eos>').join(chars ? '' : ' ');
const expectedOf = probe && task === 'reversal' ? probe.trim().split(/\s+/).reverse().join(' ') : null;

const rows = [];
let fired = null;
for (let step = 0; step < total;) {
  for (const m of Object.values(models)) m.step(5);
  step += 5;
  if (probe && expectedOf && fired === null && step % 10 === 0) {
    const a = join(models.attention.translate(probe).targetTokens);
    const f = join(models.fixed.translate(probe).targetTokens);
    if (a === expectedOf && f !== expectedOf) fired = { step, attention: a, fixed: f };
  }
  if (at.includes(step)) {
    const row = { step };
    for (const [kind, m] of Object.entries(models)) {
      const e = m.evaluate();
      const bucket = (lo, hi) => {
        const inside = e.byLength.filter((b) => b.length >= lo && b.length <= hi);
        const n = inside.reduce((s, b) => s + b.total, 0);
        return { correct: inside.reduce((s, b) => s + b.correct, 0), total: n };
      };
      row[kind] = { all: e.exactMatch, short: bucket(0, 8), long: bucket(9, 1000), byLength: e.byLength };
    }
    rows.push(row);
    if (!asJson) {
      const pct = ({ correct, total: n }) => (n ? `${Math.round((100 * correct) / n)}% (${correct}/${n})` : '-');
      console.log(`step ${step}: attention all ${Math.round(100 * row.attention.all)}%, <=8 ${pct(row.attention.short)}, >=9 ${pct(row.attention.long)}` +
        ` | fixed all ${Math.round(100 * row.fixed.all)}%, <=8 ${pct(row.fixed.short)}, >=9 ${pct(row.fixed.long)}`);
      console.log(`  by length (attention/fixed): ${row.attention.byLength.map((b, i) => `${b.length}:${b.correct}/${row.fixed.byLength[i].correct}/${b.total}`).join(' ')}`);
    }
  }
}
if (probe) console.log(fired ? `snapshot rule fires at step ${fired.step}: attention "${fired.attention}", fixed "${fired.fixed}"` : 'snapshot rule never fires');
if (asJson) console.log(JSON.stringify({ task, rows, fired }));
for (const m of Object.values(models)) m.dispose();
