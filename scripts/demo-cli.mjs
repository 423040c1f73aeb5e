// The terminal demo (`npm run demo:cli`; it was `npm start` before the web page): translates
// example sentences with every shipped model and draws the attention matrix
// of each translation with shades of a block character.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'build', 'native', 'seq2seq');
const examples = process.argv.length > 2
  ? [process.argv.slice(2).join(' ')]
  : ['Go.', 'I lost.', "He's calm.", "I'm home.", 'I love deep learning.'];

const shades = [' ', '░', '▒', '▓', '█'];

function heatmap(result) {
  const width = Math.max(...result.targetTokens.map((t) => [...t].length), 6);
  const lines = [];
  result.attention.forEach((row, i) => {
    const cells = row.map((w) => shades[Math.min(4, Math.round(w * 4))].repeat(2)).join(' ');
    lines.push(`  ${result.targetTokens[i].padStart(width)} │ ${cells}`);
  });
  lines.push(`  ${' '.repeat(width)} └${'─'.repeat(result.sourceTokens.length * 3)}`);
  result.sourceTokens.forEach((token, j) => lines.push(`  ${' '.repeat(width)}   ${'   '.repeat(j)}↑ ${token}`));
  return lines.join('\n');
}

function translate(model, sentence) {
  const r = spawnSync(cli, ['translate', '--model', model, '--json', '--beam', '4'], { input: `${sentence}\n`, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr.trim());
  return JSON.parse(r.stdout);
}

let models = existsSync(join(root, 'models'))
  ? readdirSync(join(root, 'models')).filter((f) => f.endsWith('.s2s')).map((f) => join(root, 'models', f))
  : [];
if (models.length === 0) {
  // No shipped model in this checkout: train a small one on the test
  // fixture (a few seconds) so the demo still shows attention at work.
  console.log('No model in models/ yet; training a small demonstration model on tests/fixtures (a few seconds)...');
  const folder = mkdtempSync(join(tmpdir(), 's2s-demo-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  const out = join(folder, 'demo.s2s');
  const r = spawnSync(cli, ['train', '--data', join(root, 'tests/fixtures/tiny-en-fr.tsv'), '--dev-fraction', '0.05',
    '--min-frequency', '1', '--embedding', '16', '--hidden', '32', '--decoder-hidden', '32', '--attention-size', '32',
    '--output-hidden', '32', '--batch-size', '8', '--steps', '400', '--learning-rate', '0.01', '--warmup', '20',
    '--dropout', '0', '--eval-every', '0', '--checkpoint-dir', dirname(out), '--output', out], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`training the demonstration model failed:\n${r.stderr}`);
  models = [out];
  // The fixture's vocabulary is tiny: show sentences it knows, unless the
  // user asked for their own.
  if (process.argv.length <= 2) examples.splice(0, examples.length, 'I see the cat.', 'We drink water.', 'the house is big .');
}

for (const model of models) {
  console.log(`\n=== ${basename(model)} ===`);
  for (const sentence of examples) {
    const result = translate(model, sentence);
    console.log(`\n${sentence}  →  ${result.text}`);
    if (result.attention.length && result.attention[0].some((w) => w > 0)) console.log(heatmap(result));
  }
}
console.log('\nTry your own: npm start -- "your sentence here"');
