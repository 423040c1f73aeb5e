#!/usr/bin/env bash
# `npm run compare`: evaluates the shipped models and the translation-memory
# baseline on the full development splits (needs ../shared/data, or
# S2S_DATA_DIR), records each model's reports in its own provenance
# (evaluations/dev-greedy and dev-beam4 on Tatoeba's split, domain-greedy and
# domain-beam4 on the project's in-domain split, each with the glossary's
# term accuracy: the page shows them; long-beam4 on the long corpus's split;
# dev-beam4-sample and long-beam4-sample, the first 200 and 100 sentences
# of those, which the tests measure again), writes the baseline's reports to
# models/baselines.json, draws docs/bleu-by-length.svg and writes the tables
# of README.md and docs/models.md from the files (scripts/bleu-tables.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
data_dir=${S2S_DATA_DIR:-../shared/data}
bash scripts/build-native.sh >/dev/null
cli=./build/native/seq2seq
work=checkpoints/compare
mkdir -p "$work"

# The same splits as scripts/train.sh.
"$cli" split --data "$data_dir/fra-eng.txt" --dev-fraction 0.04 --split-seed 1 --dev-output "$work/en-fr-dev.tsv"
"$cli" split --data "$data_dir/cmn-eng.txt" --dev-fraction 0.05 --split-seed 1 --dev-output "$work/en-zh-dev.tsv"

# The in-domain development split (data/corpus/dev.tsv, as scripts/train.sh
# reads it: scripts/domain-data.mjs).
node scripts/domain-data.mjs --out "$work/data" --tatoeba-zh "$data_dir/cmn-eng.txt" >/dev/null
terms=(--terms data/glossary/glossary.tsv)

# The shipped models' names: the package's list (src/wasm/models.js).
for model in $(node --input-type=module -e "import { shippedModels } from './src/wasm/models.js'; console.log(shippedModels.join(' '))"); do
  [[ -f models/$model.s2s ]] || { echo "compare: models/$model.s2s is missing; skipped" >&2; continue; }
  dev="$work/${model%-fixed}-dev.tsv"
  language=$(node --input-type=module -e "import { modelCatalog } from './src/wasm/models.js'; console.log(modelCatalog['$model'].targetLanguage)")
  for beam in 1 4; do
    suffix=$([[ $beam == 1 ]] && echo greedy || echo beam$beam)
    echo "== $model, beam $beam"
    "$cli" eval --model "models/$model.s2s" --data "$dev" --beam "$beam" "${terms[@]}" --record "dev-$suffix"
    "$cli" eval --model "models/$model.s2s" --data "$work/data/domain-dev.en-$language.tsv" --beam "$beam" "${terms[@]}" --record "domain-$suffix"
  done
  # The first 200 distinct sentences of Tatoeba's split at beam 4: the
  # sample tests/js/figures.test.mjs measures again on every test run.
  "$cli" eval --model "models/$model.s2s" --data "$dev" --beam 4 --limit 200 "${terms[@]}" --record "dev-beam4-sample"
  # The long corpus's development split (12 to 40 words, data/long/), in
  # full and its first 100 sentences (measured again by the tests).
  long="$work/data/long-dev.en-$language.tsv"
  "$cli" eval --model "models/$model.s2s" --data "$long" --beam 4 "${terms[@]}" --record "long-beam4"
  "$cli" eval --model "models/$model.s2s" --data "$long" --beam 4 --limit 100 "${terms[@]}" --record "long-beam4-sample"
done

echo "== translation memory"
"$cli" eval --memory "$data_dir/fra-eng.txt" --dev-fraction 0.04 --split-seed 1 --target-language fr \
  --data "$work/en-fr-dev.tsv" --json > "$work/memory-en-fr.json"
"$cli" eval --memory "$data_dir/cmn-eng.txt" --dev-fraction 0.05 --split-seed 1 --target-language zh \
  --data "$work/en-zh-dev.tsv" --json > "$work/memory-en-zh.json"
node -e '
const fs = require("fs");
const read = (f) => { const r = JSON.parse(fs.readFileSync(f, "utf8")); delete r.seconds; return r; };
const out = { "en-fr": read(process.argv[1]), "en-zh": read(process.argv[2]) };
fs.writeFileSync("models/baselines.json", JSON.stringify(out, null, 2) + "\n");
' "$work/memory-en-fr.json" "$work/memory-en-zh.json"
for language in fr zh; do
  node -e 'const r = require(process.argv[1]); console.log(`translation memory en-'$language': BLEU ${r.overall.bleu.toFixed(2)}; ` +
    r.by_length.map((b) => `${b.bucket} ${b.bleu.toFixed(2)}`).join(", "))' "$PWD/$work/memory-en-$language.json"
done
node scripts/bleu-chart.mjs --decoding dev-beam4 --out docs/bleu-by-length.svg
node scripts/bleu-tables.mjs
