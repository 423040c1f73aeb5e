// `npm run bench:tokenizer`: this project's BPE (src/text/bpe.h) against
// SentencePiece's (Debian's `sentencepiece` package: spm_train
// --model_type=bpe), side by side in one run, on the same text:
//   - both learn from the English / French side of en-fr's training split
//     (`seq2seq split`, as `train` splits it), lowercased, at the same number
//     of real pieces (ours counts 4 special tokens in its size, SentencePiece
//     3, so it gets size - 1);
//   - pieces per sentence on the development split;
//   - encoding speed over the whole training side: ours timed in-process
//     (`seq2seq pieces`), SentencePiece as spm_encode's wall time minus
//     that of a one-line run (its start-up and model load).
// SentencePiece is only a reference here: the WASM build cannot use it
// (protobuf), and nothing at run time depends on it.
// Writes bench/tokenizer.md and bench/tokenizer.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'build', 'bench-tokenizer');
mkdirSync(work, { recursive: true });
const cli = join(root, 'build', 'native', 'seq2seq');
const data = process.env.S2S_DATA_DIR ?? join(root, '..', 'shared', 'data');
const settings = [
  { side: 'en', column: 0, sizes: [4000, 8000] },
  { side: 'fr', column: 1, sizes: [6000, 10000] },
];

function run(command, args, { input, allowStderr = true } = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(command, args, { encoding: 'utf8', input, maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.error?.code === 'ENOENT') {
    console.error(`bench:tokenizer: ${command} is not installed; run \`bash scripts/setup.sh\` (it installs sentencepiece)`);
    process.exit(2);
  }
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return { stdout: r.stdout, stderr: allowStderr ? r.stderr : '', seconds };
}

function side(tsv, column) {
  return readFileSync(tsv, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t')[column].toLowerCase());
}

const dev = join(work, 'dev.tsv');
const train = join(work, 'train.tsv');
run(cli, ['split', '--data', join(data, 'fra-eng.txt'), '--dev-fraction', '0.04', '--split-seed', '1',
  '--dev-output', dev, '--train-output', train]);

const rows = [];
for (const { side: language, column, sizes } of settings) {
  const trainText = side(train, column);
  // Development sentences once each (the English side repeats per translation).
  const devText = [...new Set(side(dev, column))];
  const trainFile = join(work, `train.${language}`);
  writeFileSync(trainFile, trainText.join('\n') + '\n');
  const devInput = devText.join('\n') + '\n';
  const trainInput = trainText.join('\n') + '\n';
  for (const size of sizes) {
    const oursDev = JSON.parse(run(cli, ['pieces', '--learn', trainFile, '--size', String(size), '--language', language,
      '--count-only'], { input: devInput }).stderr.trim().split('\n').pop());
    const oursTrain = JSON.parse(run(cli, ['pieces', '--learn', trainFile, '--size', String(size), '--language', language,
      '--count-only'], { input: trainInput }).stderr.trim().split('\n').pop());

    const prefix = join(work, `spm-${language}-${size}`);
    const learn = run('spm_train', [`--input=${trainFile}`, `--model_prefix=${prefix}`, `--vocab_size=${size - 1}`,
      '--model_type=bpe', '--character_coverage=1.0', '--normalization_rule_name=identity',
      '--input_sentence_size=0', '--minloglevel=2', `--num_threads=1`]);
    const spmDev = run('spm_encode', [`--model=${prefix}.model`], { input: devInput }).stdout.split('\n').filter((l, i, a) => i < a.length - 1);
    const spmPieces = spmDev.reduce((n, line) => n + (line ? line.split(' ').length : 0), 0);
    // Encoding speed: three runs each, the median.
    const spmTimes = [];
    for (let k = 0; k < 3; ++k) {
      const full = run('spm_encode', [`--model=${prefix}.model`], { input: trainInput }).seconds;
      const startup = run('spm_encode', [`--model=${prefix}.model`], { input: 'a\n' }).seconds;
      spmTimes.push(full - startup);
    }
    const oursTimes = [oursTrain.encode_seconds];
    for (let k = 0; k < 2; ++k) {
      oursTimes.push(JSON.parse(run(cli, ['pieces', '--learn', trainFile, '--size', String(size), '--language', language,
        '--count-only'], { input: trainInput }).stderr.trim().split('\n').pop()).encode_seconds);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[1];
    rows.push({
      language, size, devSentences: devText.length, trainSentences: trainText.length,
      oursPiecesPerSentence: oursDev.pieces_per_sentence,
      spmPiecesPerSentence: spmPieces / devText.length,
      oursLearnSeconds: oursTrain.learn_seconds, spmLearnSeconds: learn.seconds,
      oursSentencesPerSecond: trainText.length / median(oursTimes),
      spmSentencesPerSecond: trainText.length / median(spmTimes),
    });
    console.log(JSON.stringify(rows.at(-1)));
  }
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const fmt = (x, d = 2) => x.toFixed(d);
const table = [
  '| side | size | dev pieces / sentence: ours | spm BPE | learn s: ours | spm | encode sentences/s: ours | spm |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.language} | ${r.size} | ${fmt(r.oursPiecesPerSentence)} | ${fmt(r.spmPiecesPerSentence)} | ` +
    `${fmt(r.oursLearnSeconds, 1)} | ${fmt(r.spmLearnSeconds, 1)} | ${Math.round(r.oursSentencesPerSecond).toLocaleString('en')} | ` +
    `${Math.round(r.spmSentencesPerSecond).toLocaleString('en')} |`),
];
const md = `# Tokenizer benchmark (\`npm run bench:tokenizer\`)

${cpu}, ${new Date().toISOString().slice(0, 10)}. This project's BPE against SentencePiece ${'(Debian sentencepiece, spm_train --model_type=bpe)'}
learned from the same lowercased training side of en-fr (${rows[0]?.trainSentences.toLocaleString('en')} English lines), at the
same number of pieces; pieces per sentence on the ${rows[0]?.devSentences.toLocaleString('en')} distinct development sentences of
each side. Encoding: ours in-process, SentencePiece's spm_encode wall time minus its start-up (median of 3).
SentencePiece does not split punctuation from words before learning, so it can
merge \`learning.\` into one piece; this project keeps punctuation and French elisions as pre-tokens of their own.

${table.join('\n')}
`;
writeFileSync(join(root, 'bench', 'tokenizer.md'), md);
writeFileSync(join(root, 'bench', 'tokenizer.json'), JSON.stringify({ cpu, rows }, null, 1) + '\n');
console.log(md);
