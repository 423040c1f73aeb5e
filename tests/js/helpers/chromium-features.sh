#!/usr/bin/env bash
# Runs Chromium (S2S_CHROMIUM_REAL, else /usr/bin/chromium) with the
# arguments it is given, every --disable-features=... merged into one switch
# and every --enable-features=... into another. Chromium keeps only the last
# of a repeated switch, and Playwright passes lists of its own, so a list
# added by tests/js/helpers/chromium.mjs would otherwise replace Playwright's
# instead of joining it.
set -euo pipefail
real=${S2S_CHROMIUM_REAL:-/usr/bin/chromium}
args=()
disable=()
enable=()
for arg in "$@"; do
  case $arg in
    --disable-features=*) disable+=("${arg#--disable-features=}") ;;
    --enable-features=*) enable+=("${arg#--enable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
joined() { local IFS=,; printf '%s' "$*"; }
if (( ${#disable[@]} )); then args+=("--disable-features=$(joined "${disable[@]}")"); fi
if (( ${#enable[@]} )); then args+=("--enable-features=$(joined "${enable[@]}")"); fi
exec "$real" "${args[@]}"
