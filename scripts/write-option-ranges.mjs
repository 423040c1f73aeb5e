// Writes dist/options.js, the ranges and defaults of model.translate's
// options, from the C++ option table (src/decode/option_ranges.h: each
// range, and DecodeOptions' initializers in src/decode/search.h: each
// default) as the built s2s-core module reports it (limits()). The wasm
// build runs it after linking s2s-core (cmake/wasm.cmake):
//   node scripts/write-option-ranges.mjs DIST_DIR
// tests/js/limits.test.mjs calls optionRangesModule() to check that the file
// in dist/ is what the module says now.
//
// With `trainer` it writes dist/trainer-options.js instead: the ranges and
// defaults of the trainer's options (createTrainer, train), from the
// trainer's option table (src/wasm/run_options.h) as the built s2s-train
// module reports it (trainerLimits()), after s2s-train is linked:
//   node scripts/write-option-ranges.mjs DIST_DIR trainer
// tests/js/trainer-options.test.mjs checks that file with
// trainerOptionsModule().
//
// Why a file written at build time rather than the loaded module's limits()
// read at run time: optionRanges is plain data that is needed before any
// module has loaded, and without loading one. The page builds its beam and
// penalty controls and reads its URL from it while the module is still on
// its way, the bin prints the ranges in --help, and the wrapper's
// option checks and index.d.ts's `optionRanges` are synchronous. A file
// generated from the module keeps all of that and still has one owner.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** limits() of the built s2s-core module in `distDir`, parsed. */
export async function moduleLimits(distDir) {
  const { default: createS2sCore } = await import(pathToFileURL(join(distDir, 's2s-core.js')).href);
  const core = await createS2sCore({ wasmBinary: readFileSync(join(distDir, 's2s-core.wasm')) });
  return JSON.parse(core.limits());
}

// Refuses a table that the wrapper could not use, naming the entry: a
// broken export fails the build instead of shipping.
function checkLimits({ options, switches, maxSourceTokens, defaultMaxLength, possiblyDroppedCoverage, unsureWordProbability }) {
  const fail = (what) => {
    throw new Error(`write-option-ranges: s2s-core's limits() ${what}; fix the option table (src/decode/option_ranges.h)`);
  };
  if (!options || typeof options !== 'object' || Object.keys(options).length === 0) fail('has no options');
  for (const [name, range] of Object.entries(options)) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(name)) fail(`names an option '${name}', which is not a camelCase JavaScript name`);
    const { min, max, default: fallback, integer } = range;
    if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) fail(`gives ${name} no range (min ${min}, max ${max})`);
    if (typeof integer !== 'boolean') fail(`does not say whether ${name} is a whole number`);
    if (fallback !== null && !(fallback >= min && fallback <= max)) fail(`gives ${name} a default (${fallback}) outside ${min} to ${max}`);
    if (Object.keys(range).length !== 4) fail(`gives ${name} other fields than min, max, default and integer`);
  }
  if (!switches || typeof switches !== 'object' || Object.keys(switches).length === 0) fail('has no switches');
  for (const [name, fallback] of Object.entries(switches)) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(name)) fail(`names a switch '${name}', which is not a camelCase JavaScript name`);
    if (name in options) fail(`names ${name} both an option and a switch`);
    if (typeof fallback !== 'boolean') fail(`gives the switch ${name} a default (${fallback}) that is not true or false`);
  }
  if (!Number.isInteger(maxSourceTokens) || maxSourceTokens < 1) fail(`has no maxSourceTokens (${maxSourceTokens})`);

  if (!Number.isInteger(defaultMaxLength?.perSourceToken) || !Number.isInteger(defaultMaxLength?.extra)) {
    fail(`has no defaultMaxLength { perSourceToken, extra } (${JSON.stringify(defaultMaxLength)})`);
  }
  if (!(possiblyDroppedCoverage > 0 && possiblyDroppedCoverage < 1)) fail(`has no possiblyDroppedCoverage (${possiblyDroppedCoverage})`);
  if (!(unsureWordProbability > 0 && unsureWordProbability < 1)) fail(`has no unsureWordProbability (${unsureWordProbability})`);
}

/** trainerLimits() of the built s2s-train module in `distDir`, parsed. */
export async function moduleTrainerLimits(distDir) {
  const { default: createS2sTrain } = await import(pathToFileURL(join(distDir, 's2s-train.js')).href);
  const core = await createS2sTrain({ wasmBinary: readFileSync(join(distDir, 's2s-train.wasm')) });
  return JSON.parse(core.trainerLimits());
}

// As checkLimits, for the trainer's table.
function checkTrainerLimits({ options, stepCount, pairsHeldOutEvery }) {
  const fail = (what) => {
    throw new Error(`write-option-ranges: s2s-train's trainerLimits() ${what}; fix the table (src/wasm/run_options.h)`);
  };
  if (!options || typeof options !== 'object' || Object.keys(options).length === 0) fail('has no options');
  for (const [name, range] of Object.entries(options)) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(name)) fail(`names an option '${name}', which is not a camelCase JavaScript name`);
    const { min, max, default: fallback, integer, ...rest } = range;
    if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) fail(`gives ${name} no range (min ${min}, max ${max})`);
    if (typeof integer !== 'boolean') fail(`does not say whether ${name} is a whole number`);
    if (!(fallback >= min && fallback <= max)) fail(`gives ${name} a default (${fallback}) outside ${min} to ${max}`);
    for (const [field, value] of Object.entries(rest)) {
      if (!Number.isInteger(value)) fail(`gives ${name} a field ${field} that is not a whole number (${value})`);
    }
  }
  if (!Number.isInteger(stepCount?.min) || !Number.isInteger(stepCount?.max) || stepCount.min > stepCount.max) {
    fail(`has no stepCount { min, max } (${JSON.stringify(stepCount)})`);
  }
  if (!Number.isInteger(pairsHeldOutEvery) || pairsHeldOutEvery < 2) fail(`has no pairsHeldOutEvery (${pairsHeldOutEvery})`);
}

/** The text of dist/trainer-options.js for `limits` (trainerLimits() of s2s-train, parsed). */
export function trainerOptionsModule(limits) {
  checkTrainerLimits(limits);
  const entries = Object.entries(limits.options)
    .map(([name, range]) => `  ${name}: Object.freeze(${JSON.stringify(range)}),`);
  return `// GENERATED by scripts/write-option-ranges.mjs when dist/ is built (npm run
// build:wasm), from the trainer's option table (src/wasm/run_options.h) as
// the s2s-train module reports it. Do not edit: change the table and rebuild.
//
// The ranges and defaults of the trainer's options (createTrainer, train):
// the module checks options against them; trainer.js checks step(count)
// with trainerLimits and re-exports both ('seq2seq-attention/trainer').

/**
 * Each numeric option of createTrainer and train: { min, max, default,
 * integer }; hidden's default is datesDefault for task 'dates', and
 * decoderHidden's is directDefaultPerHidden x hidden for 'dot' and
 * 'scaled-dot' attention.
 */
export const trainerOptionRanges = Object.freeze({
${entries.join('\n')}
});

/** trainer.step(count)'s range of count; task 'pairs' holds out every pairsHeldOutEvery-th pair. */
export const trainerLimits = Object.freeze({
  stepCount: Object.freeze(${JSON.stringify(limits.stepCount)}),
  pairsHeldOutEvery: ${limits.pairsHeldOutEvery},
});
`;
}

/** The text of dist/options.js for `limits` (limits() of s2s-core, parsed). */
export function optionRangesModule(limits) {
  checkLimits(limits);
  const entries = Object.entries(limits.options)
    .map(([name, range]) => `  ${name}: Object.freeze(${JSON.stringify(range)}),`);
  return `// GENERATED by scripts/write-option-ranges.mjs when dist/ is built (npm run
// build:wasm), from the C++ option table (src/decode/option_ranges.h) as the
// built translation runtime reports it. Do not edit: change the table and
// rebuild. (The trainer imports this file too, through translation.js: it
// names no runtime, so that a trainer-only bundle mentions none.)
//
// The ranges and defaults of model.translate's options: the wrapper checks
// options against them (translation.js) and index.js re-exports
// optionRanges; the bin and the demo page (web/, which imports this file
// directly: plain data, with no WebAssembly behind it) read them here.

/** Each option of model.translate: { min, max, default, integer }; default null: chosen per input. */
export const optionRanges = Object.freeze({
${entries.join('\n')}
});

/**
 * Each switch of model.translate (true or false: trace, beamTree, shortlist,
 * keepNames) and its default.
 */
export const optionSwitches = Object.freeze(${JSON.stringify(limits.switches)});

/** Source tokens read, <eos> included; a longer input is cut (Translation.truncated). */
export const maxSourceTokens = ${limits.maxSourceTokens};

/** Without maxLength, a translation has at most perSourceToken x the source's tokens + extra. */
export const defaultMaxLength = Object.freeze(${JSON.stringify(limits.defaultMaxLength)});

/**
 * A source token whose coverage (Σ_t a_ti) is under this is listed in
 * possiblyDropped. (The C++ float, written to float precision: for every
 * float32 coverage, x < this exactly when x < the float.)
 */
export const possiblyDroppedCoverage = ${Number(limits.possiblyDroppedCoverage.toPrecision(7))};

/**
 * A target word whose probability (the product of its pieces') is under this
 * is listed in unsureWords: the model was unsure of it. (The C++ float, to
 * float precision.)
 */
export const unsureWordProbability = ${Number(limits.unsureWordProbability.toPrecision(7))};
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const distDir = resolve(process.argv[2] ?? 'dist');
  if (process.argv[3] === 'trainer') {
    writeFileSync(join(distDir, 'trainer-options.js'), trainerOptionsModule(await moduleTrainerLimits(distDir)));
  } else {
    writeFileSync(join(distDir, 'options.js'), optionRangesModule(await moduleLimits(distDir)));
  }
}
