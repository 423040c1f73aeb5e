#!/usr/bin/env node
// The package's command line, over the same JavaScript API a program uses:
//   seq2seq-attention translate --model en-fr "I love deep learning."
// Without text it translates stdin, one line per line. Errors go to stderr
// with exit code 2, like the native CLI's.
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { readFileSync, writeFileSync } from 'node:fs';
import { UsageError, figureLabels, heatmapSvg, loadModel, optionRanges, shippedModels, wordAttention } from '../dist/index.js';
import { defaultModel } from '../dist/models.js';
import { defaultMaxLength } from '../dist/options.js';

const { beamSize, maxLength, lengthPenalty, coveragePenalty, temperature } = optionRanges;
const USAGE = `usage: seq2seq-attention translate [--model NAME|PATH|URL] [--beam N] [--max-length N]
         [--length-penalty A] [--coverage-penalty B] [--temperature T] [--shortlist on|off]
         [--keep-names on|off] [--split | --no-split] [--json] [--trace] [--beam-tree] [TEXT...]
       seq2seq-attention figure [--model M] [--unit words|pieces] [--lang en|zh-CN] [--beam N]
         [--out FILE.svg] TEXT...
       seq2seq-attention --version | --help

Translates TEXT (the arguments, joined by spaces), or else every line of
stdin, writing one line per input: the translation, or with --json the full
result (text, sourceTokens, sourceWords, targetTokens, targetWords,
attention, tokenProbabilities, unsureWords, copiedWords, score, hypotheses). A text of
several sentences is translated one sentence at a time, as the page does
(the models learned single sentences), and the translations joined; with
--json its line is { text, sentences: [{ source, start, end, translation }] }.
figure draws TEXT's attention heatmap as a standalone SVG (to --out, else
stdout), the demo page's "Download SVG": the sentence and its translation,
the axes, the colour bar, and the model with its data's licences.
  --model M         a shipped model (${shippedModels.join(', ')}), a .s2s file path or a URL; default ${defaultModel}
  --beam N          beam size, ${beamSize.min} (greedy) to ${beamSize.max}, default ${beamSize.default}
  --max-length N    most output tokens, ${maxLength.min} to ${maxLength.max} (default: ${defaultMaxLength.perSourceToken} x source length + ${defaultMaxLength.extra})
  --length-penalty A    beam search: GNMT length normalization alpha, ${lengthPenalty.min} to ${lengthPenalty.max}
                        (default: the model's own, else ${lengthPenalty.default.toFixed(1)}; 0 ranks by raw log probability)
  --coverage-penalty B  beam search: GNMT coverage penalty beta, ${coveragePenalty.min} to ${coveragePenalty.max}
                        (default: the model's own, else ${coveragePenalty.default.toFixed(1)}; 0 turns it off)
  --temperature T   the attention softmax's tau, a_t = softmax(e_t / T), ${temperature.min} to ${temperature.max}
                    (default ${temperature.default}: the trained model)
  --shortlist on|off  the model's lexical shortlist, when it has one (default on;
                    off scores every target piece; the API's shortlist option)
  --keep-names on|off  names and numbers as the source spells them (default on:
                    recased, or copied through where the model had no translation;
                    the API's keepNames option)
  --split           translate sentence by sentence (the default for a text of several)
  --no-split        translate the whole text as one sentence
  --json            print the result object as one JSON line
  --trace           with the decoder trace (implies --json; see the API's trace option)
  --beam-tree       with every candidate of every beam step, kept or pruned (implies --json;
                    the API's beamTree option; meaningful with --beam 2 or more)
  --unit U          figure: words (default) or pieces, the model's subword tokens
  --lang L          figure: the figure's own words in en (default) or zh-CN
  --out FILE        figure: write the SVG there (default: stdout)
  --version         the package's version
  --help            this text`;

// The trace's Float32Arrays as JSON arrays (JSON.stringify writes a typed array as an object).
const plainArrays = (key, value) => (value instanceof Float32Array ? Array.from(value) : value);

function wholeNumber(flag, value, { min, max }) {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got '${value}'`);
  return number;
}

function decimal(flag, value, { min, max }) {
  if (value === undefined) return undefined;
  const number = /^\d+(\.\d*)?$|^\.\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) throw new UsageError(`${flag} must be a number from ${min} to ${max}, got '${value}'`);
  return number;
}

function onOff(flag, value) {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new UsageError(`${flag} must be on or off, got '${value}'`);
  return value === 'on';
}

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        model: { type: 'string', default: defaultModel },
        beam: { type: 'string' },
        'max-length': { type: 'string' },
        'length-penalty': { type: 'string' },
        'coverage-penalty': { type: 'string' },
        temperature: { type: 'string' },
        shortlist: { type: 'string' },
        'keep-names': { type: 'string' },
        unit: { type: 'string' },
        lang: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        trace: { type: 'boolean', default: false },
        'beam-tree': { type: 'boolean', default: false },
        split: { type: 'boolean' },
        'no-split': { type: 'boolean' },
        help: { type: 'boolean', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${usageMessage(error)} (see seq2seq-attention --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (values.version) return { version: true };
  if (values.split && values['no-split']) throw new UsageError('give --split or --no-split, not both');
  const [command, ...words] = positionals;
  if (command === undefined) throw new UsageError(`missing command (try: seq2seq-attention translate --model ${defaultModel} "Hello.")`);
  if (command !== 'translate' && command !== 'figure') throw new UsageError(`unknown command '${command}'; the commands are translate and figure`);
  if (command === 'figure') {
    if (!words.length) throw new UsageError('figure needs the sentence to draw (seq2seq-attention figure "I love deep learning." --out fig.svg)');
    if (values.unit !== undefined && !['words', 'pieces'].includes(values.unit)) throw new UsageError(`--unit must be words or pieces, got '${values.unit}'`);
    if (values.lang !== undefined && !['en', 'zh-CN'].includes(values.lang)) throw new UsageError(`--lang must be en or zh-CN, got '${values.lang}'`);
  } else {
    for (const flag of ['unit', 'lang', 'out']) if (values[flag] !== undefined) throw new UsageError(`--${flag} is for the figure command`);
  }
  const given = {
    beamSize: wholeNumber('--beam', values.beam, beamSize),
    maxLength: wholeNumber('--max-length', values['max-length'], maxLength),
    lengthPenalty: decimal('--length-penalty', values['length-penalty'], lengthPenalty),
    coveragePenalty: decimal('--coverage-penalty', values['coverage-penalty'], coveragePenalty),
    temperature: decimal('--temperature', values.temperature, temperature),
    shortlist: onOff('--shortlist', values.shortlist),
    keepNames: onOff('--keep-names', values['keep-names']),
    trace: values.trace || undefined,
    beamTree: values['beam-tree'] || undefined,
  };
  const options = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { command, model: values.model, json: values.json || values.trace || values['beam-tree'], options, text: words.length ? words.join(' ') : null,
    split: !values['no-split'], unit: values.unit ?? 'words', lang: values.lang ?? 'en', out: values.out };
}

// Node's parseArgs messages in this command's words: the flag named, what to do.
function usageMessage(error) {
  const flag = /'(-{1,2}[^'\s]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': return `unknown flag ${flag ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': return `${flag ?? 'a flag'} needs a value (for example --beam 4), or takes none`;
    default: return error.message;
  }
}

// The heatmap of one sentence as a standalone SVG (heatmapSvg, the page's
// "Download SVG"), by words or by the model's pieces.
function figure(model, args) {
  const result = model.translate(args.text, args.options);
  if (!model.info.hasAttention) throw new UsageError(`${model.info.name} has no attention (the fixed-context baseline): there is no heatmap to draw`);
  const data = args.unit === 'words'
    ? (({ sourceWords, targetWords, attention }) => ({ sourceTokens: sourceWords.map((w) => w.text), targetTokens: targetWords.map((w) => w.text), attention }))(wordAttention(result))
    : { sourceTokens: result.sourceTokens, targetTokens: result.targetTokens, attention: result.attention };
  const svg = heatmapSvg(data, figureLabels({ info: model.info, source: args.text, translation: result.text, lang: args.lang }));
  if (args.out) {
    writeFileSync(args.out, svg);
    process.stderr.write(`wrote ${args.out}: ${data.targetTokens.length} rows by ${data.sourceTokens.length} columns\n`);
  } else {
    process.stdout.write(svg);
  }
}

async function main() {
  const args = parse(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  if (args.version) {
    console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
    return;
  }
  const model = await loadModel(args.model);
  if (args.command === 'figure') {
    try {
      figure(model, args);
    } finally {
      model.dispose();
    }
    return;
  }
  try {
    const print = (text) => {
      // Several sentences: one at a time (translateText), as the page does;
      // one sentence prints as translate's result.
      const parts = args.split ? model.translateText(text, args.options) : null;
      const shown = parts === null || parts.sentences.length === 0 ? model.translate(text, args.options)
        : parts.sentences.length === 1 ? parts.sentences[0].translation : parts;
      process.stdout.write(`${args.json ? JSON.stringify(shown, plainArrays) : shown.text}\n`);
    };
    if (args.text !== null) {
      print(args.text);
    } else {
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) print(line);
    }
  } finally {
    model.dispose();
  }
}

main().catch((error) => {
  process.stderr.write(`seq2seq-attention: error: ${error.message}\n`);
  process.exitCode = 2;
});
