#!/usr/bin/env bash
# `npm start`: builds what is missing, then runs the demo. Until the web page
# lands, the demo is the native CLI: it translates example sentences with
# each shipped model and draws the attention matrix in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-native.sh
node scripts/demo-cli.mjs "$@"
