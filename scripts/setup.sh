#!/usr/bin/env bash
# Installs what the build and the tests need and is not there yet, so that
# `npm start` and `npm test` work on a fresh Debian 12 machine:
#   Debian packages: the toolchains and header-only libraries (listed below)
#   npm packages:    from package-lock.json (`npm ci`)
# When it cannot install (not root), it prints the exact command to run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Why each: emscripten builds the WASM module; Eigen does the linear algebra;
# nlohmann-json reads and writes model headers; doctest runs the C++ tests;
# cmake and g++ build the native CLI and tests; chromium runs the browser
# tests (driven by playwright-core; never a downloaded browser); clang and
# libclang-rt-14-dev build the libFuzzer targets (scripts/fuzz.sh);
# fonts-wqy-microhei lets the browser tests render Chinese (screenshots);
# sentencepiece (spm_train, spm_encode) is the outside reference of
# npm run bench:tokenizer, never used at run time.
DEBIAN_PACKAGES=(emscripten libeigen3-dev nlohmann-json3-dev doctest-dev cmake g++ chromium fonts-wqy-microhei clang libclang-rt-14-dev sentencepiece)
# With --tests (scripts/test.sh), also the tools tutorials are written with,
# where tests/e2e/authoring.test.mjs embeds the element: MkDocs with the
# Material theme, Sphinx, and nbconvert with a Python kernel to execute a
# notebook; without their recommendations (nbconvert's would bring a TeX
# system). `npm start` does not need them.
AUTHORING_PACKAGES=(mkdocs mkdocs-material python3-sphinx jupyter-nbconvert python3-ipykernel)

# install_missing [APT-FLAGS...] -- PACKAGE...
install_missing() {
  local flags=() missing=() package
  while [[ $1 != -- ]]; do flags+=("$1"); shift; done
  shift
  for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    [[ -n ${apt_updated:-} ]] || apt-get update -qq
    apt_updated=1
    apt-get install -y -qq "${flags[@]}" "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: install them with:  sudo apt-get update && sudo apt-get install -y ${flags[*]} ${missing[*]}" >&2
    exit 1
  fi
}

install_missing -- "${DEBIAN_PACKAGES[@]}"
if [[ ${1:-} == --tests ]]; then install_missing --no-install-recommends -- "${AUTHORING_PACKAGES[@]}"; fi

# npm ci when node_modules does not match the lock file (a stamp records
# the lock file it was installed from; npm writes nothing when there are no
# dependencies, so its own marker cannot be relied on).
# --ignore-scripts: no package runs code at install time. The only one with
# an install script is esbuild, whose postinstall merely checks (and may
# fetch) the binary that the @esbuild/linux-x64 optional dependency already
# brings from the registry; esbuild finds that binary at run time without it.
stamp=node_modules/.seq2seq-attention-lock
if ! cmp -s package-lock.json "$stamp" 2>/dev/null; then
  echo "setup: npm ci"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  mkdir -p node_modules
  cp package-lock.json "$stamp"
fi
