#!/usr/bin/env bash
# Reproduces a shipped model with its recorded configuration:
#   bash scripts/train.sh en-fr | en-fr-fixed | en-zh | en-zh-fixed [--max-minutes M]
#   (npm run train:NAME [-- --max-minutes M])
# One recipe per language pair, the same for the attention model and its
# fixed-context twin (so the two differ only in --attention):
#   en-fr, en-fr-fixed: three stages.
#     1. base: Tatoeba alone, from scratch (checkpoints/NAME-base.s2s).
#     2. domain: every weight from the base, on Tatoeba plus the project's
#        in-domain corpus and glossary (scripts/domain-data.mjs,
#        data/README.md) (checkpoints/NAME-domain.s2s).
#     3. textbook: every weight from the second, with the long
#        textbook-register corpus (data/long/) and misspelt copies of the
#        training pairs (scripts/noise-pairs.mjs) added (models/README.md,
#        "Long and textbook sentences"), written to models/NAME.s2s.
#     4. (S2S_TYPING_CYCLE=1 only, an experiment not shipped) the typing
#        cycle described under en-zh's sixth below, from the third stage,
#        written to checkpoints/NAME-sixth.s2s.
#   en-zh, en-zh-fixed: six learning-rate cycles on the same data.
#     1. joint: Tatoeba and the domain data (corpus, glossary, CC-CEDICT
#        pairs) together from the start, with the encoder of the matching
#        en-fr base: trained on both at once, the model does not trade one
#        domain for the other as a second stage on top of Tatoeba did
#        (checkpoints/NAME-joint.s2s; models/README.md, "One stage for
#        Chinese").
#     2. long: every weight from the joint model, a second cycle at half
#        the peak rate on the same data plus 8,000 long pairs, each two
#        training pairs joined (scripts/concat-pairs.mjs)
#        (checkpoints/NAME-long.s2s; models/README.md, "Long sentences").
#     3. two runs from every weight of the second, and their mean: one with
#        Tatoeba's training split twice an epoch (checkpoints/NAME-tatoeba.s2s),
#        one with 16,000 long pairs of up to 40 words (checkpoints/NAME-longer.s2s);
#        the weights of the two averaged (convert --interpolate, weight 0.5)
#        (checkpoints/NAME-third.s2s; models/README.md, "A third cycle").
#     4. one run from every weight of that mean on both runs' data
#        (checkpoints/NAME-fourth.s2s), averaged with the mean it started
#        from (checkpoints/NAME-fourth-mean.s2s; models/README.md, "A fourth cycle").
#     5. textbook: every weight from that mean, with the long
#        textbook-register corpus (data/long/) and misspelt copies of the
#        training pairs added (checkpoints/NAME-textbook.s2s;
#        models/README.md, "Long and textbook sentences").
#     6. two runs from every weight of the fifth on the same data, one with
#        the English pieces drawn afresh with BPE-dropout (--piece-dropout
#        0.1; checkpoints/NAME-typing.s2s), one without
#        (checkpoints/NAME-nodrop.s2s), and the mean of their weights
#        (checkpoints/NAME-sixth.s2s), written to models/NAME.s2s
#        (models/README.md, "Typing: BPE-dropout").
#   A stage is skipped when its output, or a later stage's, is in
#   checkpoints/; a fresh checkout has none: to run only the sixth cycle,
#   copy the fifth cycle's file to checkpoints/NAME-textbook.s2s.
# Resumable: rerunning continues from checkpoints/NAME-base/,
# checkpoints/NAME-joint/, checkpoints/NAME-long/ and the others; --max-minutes ends a stage cleanly (with a checkpoint)
# so that a long training spans sessions (rerun the same command). Training
# data is read from ../shared/data/ (or S2S_DATA_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/train.sh en-fr|en-fr-fixed|en-zh|en-zh-fixed [--max-minutes M]}
shift
extra=("$@")
data_dir=${S2S_DATA_DIR:-../shared/data}
bash scripts/build-native.sh >/dev/null
cli=./build/native/seq2seq

# The en-zh models start their encoder from the en-fr bases, so the en-fr
# models never train on an English sentence of en-zh's development split:
# it is written here and passed as --exclude-sources (and the training
# split beside it, which the Chinese pair's long pairs are made from).
zh_split=(--data "$data_dir/cmn-eng.txt" --dev-fraction 0.05 --split-seed 1)
fr_split=(--data "$data_dir/fra-eng.txt" --dev-fraction 0.04 --split-seed 1 --exclude-sources checkpoints/en-zh-dev.tsv)
mkdir -p checkpoints
"$cli" split "${zh_split[@]}" --dev-output checkpoints/en-zh-dev.tsv --train-output checkpoints/en-zh-train.tsv >/dev/null

# Each language's sizes and regularization, the same in both stages (the
# second starts from every weight of the first).
fr_model=(--embedding 64 --hidden 128 --decoder-hidden 256 --attention-size 128 --output-hidden 128
          --dropout 0.2 --threads 1)
# en-zh: the encoder keeps en-fr's sizes (so it can start from it); the
# decoder is wider than en-fr's (384 / 256: +1.65 BLEU at beam 4 over
# 256 / 128, models/README.md).
zh_model=(--embedding 64 --hidden 128 --decoder-hidden 384 --attention-size 128 --output-hidden 256
          --dropout 0.3 --threads 2)

# Stage 1 of the en-fr models: same data, split, sizes and budget; the only
# difference is --attention. Subword pieces (BPE) on both sides, learned from
# the training split: 8,000 English and 10,000 French entries, chosen on the
# development split over 4,000 / 6,000 (models/README.md).
en_fr_base=("${fr_split[@]}" --target-language fr
       --source-pieces 8000 --target-pieces 10000 "${fr_model[@]}"
       --steps 48000 --batch-size 64 --learning-rate 0.002 --warmup 400 --label-smoothing 0.1
       --seed 1 --eval-every 4000 --eval-sentences 500 --checkpoint-every 1000)
# The en-zh models: English read with en-fr's pieces (the encoder starts
# from it), Chinese one token per character, every character of the
# training data kept (--min-frequency 1), Tatoeba's training split and the
# domain data from the first step, the mean of the last 10 checkpoints
# written (--average-last). The second cycle: half the peak rate, another
# data order, 12,000 steps, the last 10 of its checkpoints (every 500) averaged.
en_zh_common=("${zh_split[@]}" --target-language zh --min-frequency 1 "${zh_model[@]}"
       --batch-size 64 --label-smoothing 0.1 --eval-every 3000 --eval-sentences 500 --average-last 10)
en_zh_joint=("${en_zh_common[@]}" --warmup 400 --checkpoint-every 1000 --steps 30000 --learning-rate 0.002 --seed 1)
en_zh_long=("${en_zh_common[@]}" --warmup 200 --checkpoint-every 500 --steps 12000 --learning-rate 0.001 --seed 2)
en_zh_tatoeba=("${en_zh_common[@]}" --warmup 200 --checkpoint-every 500 --steps 12000 --learning-rate 0.001 --seed 4)
en_zh_longer=("${en_zh_common[@]}" --warmup 200 --checkpoint-every 500 --steps 12000 --learning-rate 0.0007 --seed 3)
en_zh_fourth=("${en_zh_common[@]}" --warmup 200 --checkpoint-every 500 --steps 12000 --learning-rate 0.0007 --seed 6)
# The textbook stage, both language pairs: 8,000 steps at a lower peak rate,
# checkpoints every 500 steps, the last 10 averaged.
textbook=(--warmup 200 --checkpoint-every 500 --learning-rate 0.0007 --seed 7)
# The typing cycle (typing_cycle below): 6,000 steps at a lower peak rate
# still; one of its two runs draws the English pieces of every sentence
# afresh with BPE-dropout (Provilkov et al., 2020, whose rate 0.1 this is).
sixth=(--warmup 200 --checkpoint-every 500 --learning-rate 0.0005 --seed 8)

case "$name" in
  en-fr)       attention=additive; language=fr ;;
  en-fr-fixed) attention=none;     language=fr ;;
  en-zh)       attention=additive; language=zh ;;
  en-zh-fixed) attention=none;     language=zh ;;
  *) echo "unknown model '$name': use en-fr, en-fr-fixed, en-zh or en-zh-fixed" >&2; exit 2 ;;
esac
twin=${name%-fixed}                     # en-fr or en-zh
suffix=${name#"$twin"}                  # "" or -fixed
base=checkpoints/$name-base.s2s

# Every stage's output, in order: a stage runs only when neither its output
# nor a later stage's exists, so a file copied into checkpoints/ (a shipped
# model, say) resumes the chain after it, with no earlier checkpoint.
if [[ $twin == en-fr ]]; then
  chain=("$base" "checkpoints/$name-domain.s2s" "checkpoints/$name.s2s")
else
  chain=()
  for cycle in joint long tatoeba longer third fourth fourth-mean textbook sixth; do chain+=("checkpoints/$name-$cycle.s2s"); done
fi
# True when FILE or a later output of the chain exists.
reached() {
  local later=0 file
  for file in "${chain[@]}"; do
    [[ $file == "$1" ]] && later=1
    (( later )) && [[ -f $file ]] && return 0
  done
  return 1
}

# Runs a stage unless it is reached; exits (0) when --max-minutes stopped it.
stage() {
  local output=$1 dir=$2
  shift 2
  reached "$output" && return 0
  "$cli" train "$@" --name "$name" --checkpoint-dir "$dir" --export-dev "$dir/dev.tsv" --output "$output" --resume "${extra[@]}"
  [[ -f $output ]] || exit 0
}

# The typing cycle: two runs from every weight of INIT on DATA (6,000 steps,
# the last 10 averaged), one with the English pieces drawn afresh with
# BPE-dropout (checkpoints/NAME-typing.s2s), one without
# (checkpoints/NAME-nodrop.s2s), then the mean of their weights (OUTPUT):
# the dropout run reads misspelt words better, the other clean text
# (models/README.md, "Typing: BPE-dropout"). The rest: the pair's options.
typing_cycle() {
  local init=$1 data=$2 output=$3 run
  shift 3
  for run in typing nodrop; do
    reached "$output" || [[ -f checkpoints/$name-$run.s2s ]] || {
      local dropout=()
      [[ $run == typing ]] && dropout=(--piece-dropout 0.1)
      "$cli" train "$@" --steps 6000 "${sixth[@]}" "${dropout[@]}" --extra-data "$data" \
        --attention "$attention" --init-model "$init" "${storage[@]}" --name "$name" \
        --checkpoint-dir "checkpoints/$name-$run" --export-dev "checkpoints/$name-$run/dev.tsv" \
        --output "checkpoints/$name-$run.s2s" --resume "${extra[@]}"
      [[ -f checkpoints/$name-$run.s2s ]] || exit 0
    }
  done
  reached "$output" || "$cli" convert --model "checkpoints/$name-typing.s2s" \
    --interpolate "checkpoints/$name-nodrop.s2s" --weight 0.5 --output "$output"
}

# Storage: int8, en-fr at 7 bits (the page's first download: gzip ~2.6 MB,
# no BLEU lost), the others at 8. Stage 1 is stored the same way: the shipped
# models of before the domain stage were these files, and stage 2 starts
# from them (decoded; recorded in its provenance as init_model.stored_dtype).
storage=(--dtype i8)
[[ $name == en-fr ]] && storage+=(--int8-bits 7)

# The domain data: training-only files (scripts/domain-data.mjs,
# data/README.md). The corpus three times an epoch and the glossary twice
# (Chinese: CC-CEDICT's pairs once): the mixture chosen on the development
# splits (models/README.md, "Two stages").
node scripts/domain-data.mjs --out checkpoints/data --tatoeba-zh "$data_dir/cmn-eng.txt" >/dev/null
domain="checkpoints/data/domain.en-$language.tsv:3,checkpoints/data/glossary.en-$language.tsv:2"
[[ $language == zh ]] && domain+=",checkpoints/data/cedict.en-zh.tsv:1"
# The textbook stage's data: the long corpus's training part three times an
# epoch, and 12,000 training pairs (Tatoeba's split, the corpus, the long
# corpus) with one word of the English misspelt, once.
"$cli" split "${fr_split[@]}" --dev-output checkpoints/en-fr-dev.tsv --train-output checkpoints/en-fr-train.tsv >/dev/null
node scripts/noise-pairs.mjs --out "checkpoints/data/noisy.en-$language.tsv" --count 12000 --seed 1 \
  "checkpoints/en-$language-train.tsv" "checkpoints/data/domain.en-$language.tsv" "checkpoints/data/long.en-$language.tsv" >/dev/null
textbook_data="checkpoints/data/long.en-$language.tsv:3,checkpoints/data/noisy.en-$language.tsv:1"

if [[ $language == fr ]]; then
  # Stage 1: Tatoeba alone.
  stage "$base" "checkpoints/$name-base" "${en_fr_base[@]}" --attention "$attention" "${storage[@]}"
  # Stage 2: the domain (checkpoints/NAME-domain.s2s), every
  # weight from the base, at a lower peak rate, the last 5 checkpoints
  # averaged.
  stage "checkpoints/$name-domain.s2s" "checkpoints/$name" "${fr_split[@]}" --target-language fr --init-model "$base" \
    --extra-data "$domain" --attention "$attention" "${fr_model[@]}" \
    --steps 6000 --batch-size 64 --learning-rate 0.001 --warmup 200 --label-smoothing 0.1 \
    --seed 2 --eval-every 2000 --eval-sentences 500 --checkpoint-every 500 --average-last 5 \
    "${storage[@]}"
  # Stage 3: the long textbook-register corpus and misspelt pairs beside the
  # second stage's data, every weight from it.
  stage "checkpoints/$name.s2s" "checkpoints/$name-textbook" "${fr_split[@]}" --target-language fr \
    --init-model "checkpoints/$name-domain.s2s" --extra-data "$domain,$textbook_data" --attention "$attention" "${fr_model[@]}" \
    --steps 8000 --batch-size 64 --label-smoothing 0.1 --eval-every 4000 --eval-sentences 500 --average-last 10 "${textbook[@]}" \
    "${storage[@]}"
  # Stage 4, an experiment (S2S_TYPING_CYCLE=1 only; not shipped until
  # measured): the typing cycle from the third stage, on its data, written
  # to checkpoints/NAME-sixth.s2s; models/ is left alone.
  if [[ ${S2S_TYPING_CYCLE:-} == 1 ]]; then
    chain+=("checkpoints/$name-sixth.s2s")
    typing_cycle "checkpoints/$name.s2s" "$domain,$textbook_data" "checkpoints/$name-sixth.s2s" \
      "${fr_split[@]}" --target-language fr "${fr_model[@]}" --batch-size 64 --label-smoothing 0.1 \
      --eval-every 3000 --eval-sentences 500 --average-last 10
    exit 0
  fi
else
  encoder=checkpoints/en-fr$suffix-base.s2s
  if ! reached "checkpoints/$name-joint.s2s" && [[ ! -f $encoder ]]; then
    echo "$name starts its encoder from $encoder, which is missing: run \`npm run train:en-fr$suffix\` first" >&2
    exit 2
  fi
  # Cycle 1: Tatoeba and the domain data together (checkpoints/NAME-joint.s2s).
  stage "checkpoints/$name-joint.s2s" "checkpoints/$name-joint" "${en_zh_joint[@]}" --extra-data "$domain" \
    --attention "$attention" --init-encoder "$encoder" "${storage[@]}"
  # Cycle 2: the same data and 8,000 pairs of 12 to 30 English words, each
  # two training pairs (Tatoeba's training split, the domain corpus) joined:
  # long sources with real translations (checkpoints/NAME-long.s2s).
  node scripts/concat-pairs.mjs --out checkpoints/data/concat.en-zh.tsv --count 8000 --seed 1 \
    checkpoints/en-zh-train.tsv checkpoints/data/domain.en-zh.tsv >/dev/null
  stage "checkpoints/$name-long.s2s" "checkpoints/$name-long" "${en_zh_long[@]}" --extra-data "$domain,checkpoints/data/concat.en-zh.tsv:1" \
    --attention "$attention" --init-model "checkpoints/$name-joint.s2s" "${storage[@]}"
  # Cycle 3, two runs from the second: (a) Tatoeba's training split once more
  # beside the second cycle's data, so the everyday sentences weigh twice
  # against the domain; (b) the domain data and 16,000 joined pairs of 12 to
  # 40 English words at a lower peak rate. Then the mean of their weights.
  stage "checkpoints/$name-tatoeba.s2s" "checkpoints/$name-tatoeba" "${en_zh_tatoeba[@]}" \
    --extra-data "$domain,checkpoints/data/concat.en-zh.tsv:1,checkpoints/en-zh-train.tsv:1" \
    --attention "$attention" --init-model "checkpoints/$name-long.s2s" "${storage[@]}"
  node scripts/concat-pairs.mjs --out checkpoints/data/concat16.en-zh.tsv --count 16000 --seed 2 --max-words 40 \
    checkpoints/en-zh-train.tsv checkpoints/data/domain.en-zh.tsv >/dev/null
  stage "checkpoints/$name-longer.s2s" "checkpoints/$name-longer" "${en_zh_longer[@]}" \
    --extra-data "$domain,checkpoints/data/concat16.en-zh.tsv:1" \
    --attention "$attention" --init-model "checkpoints/$name-long.s2s" "${storage[@]}"
  reached "checkpoints/$name-third.s2s" || "$cli" convert --model "checkpoints/$name-tatoeba.s2s" --interpolate "checkpoints/$name-longer.s2s" \
    --weight 0.5 --output "checkpoints/$name-third.s2s"
  # Cycle 4: from every weight of the third's mean, on both runs' data at
  # once, then the mean of the run and the very file it started from.
  stage "checkpoints/$name-fourth.s2s" "checkpoints/$name-fourth" "${en_zh_fourth[@]}" \
    --extra-data "$domain,checkpoints/data/concat16.en-zh.tsv:1,checkpoints/en-zh-train.tsv:1" \
    --attention "$attention" --init-model "checkpoints/$name-third.s2s" "${storage[@]}"
  reached "checkpoints/$name-fourth-mean.s2s" || "$cli" convert --model "checkpoints/$name-fourth.s2s" \
    --interpolate "checkpoints/$name-third.s2s" --weight 0.5 --output "checkpoints/$name-fourth-mean.s2s"
  # Cycle 5: the long textbook-register corpus and misspelt pairs beside the
  # fourth cycle's data, every weight from its mean. (The shipped files ran
  # it with --threads 1, the pair side by side; 2 threads sum each batch's
  # gradient in another order: the same recipe, not the same bits.)
  stage "checkpoints/$name-textbook.s2s" "checkpoints/$name-textbook" "${en_zh_common[@]}" --steps 8000 "${textbook[@]}" \
    --extra-data "$domain,checkpoints/data/concat16.en-zh.tsv:1,checkpoints/en-zh-train.tsv:1,$textbook_data" \
    --attention "$attention" --init-model "checkpoints/$name-fourth-mean.s2s" "${storage[@]}"
  # Cycle 6: the typing cycle from the fifth, on its data (each run with
  # --threads 1 for the shipped files, the two side by side).
  typing_cycle "checkpoints/$name-textbook.s2s" \
    "$domain,checkpoints/data/concat16.en-zh.tsv:1,checkpoints/en-zh-train.tsv:1,$textbook_data" \
    "checkpoints/$name-sixth.s2s" "${en_zh_common[@]}"
  cp "checkpoints/$name-sixth.s2s" "checkpoints/$name.s2s"
fi

# Each model's own beam search penalties (chosen on its development split
# with scripts/penalty-grid.mjs; models/README.md).
case "$name" in
  en-fr)       penalties=(--length-penalty 0.6 --coverage-penalty 0.2) ;;
  en-fr-fixed) penalties=(--length-penalty 1.0 --coverage-penalty 0) ;;
  en-zh)       penalties=(--length-penalty 2.0 --coverage-penalty 0) ;;
  en-zh-fixed) penalties=(--length-penalty 2.0 --coverage-penalty 0) ;;
esac
"$cli" convert --model "checkpoints/$name.s2s" --output "models/$name.s2s" "${penalties[@]}"

# en-fr's lexical shortlist (docs/cli.md, models/README.md): decoding scores
# the 2,000 most frequent French pieces and those the sentence's English
# pieces trigger, counted on exactly the model's training pairs: the
# Tatoeba split (en-zh's development sources left out) and the domain files.
if [[ $name == en-fr ]]; then
  mkdir -p "checkpoints/$name"
  "$cli" split "${fr_split[@]}" --dev-output "checkpoints/$name/dev-split.tsv" --train-output "checkpoints/$name/train-split.tsv" >/dev/null
  cat "checkpoints/$name/train-split.tsv" checkpoints/data/domain.en-fr.tsv checkpoints/data/glossary.en-fr.tsv > "checkpoints/$name/shortlist-data.tsv"
  "$cli" shortlist --model "models/$name.s2s" --data "checkpoints/$name/shortlist-data.tsv" \
    --output "models/$name.s2s" --always 2000 --per-target 4 --max-source-share 0.02
fi
