#!/usr/bin/env bash
# `npm start`: builds what is missing, then serves the demo page (web/) and
# prints its URL. web/, dist/ and models/ of the repository are served, as
# siblings as on any static host, and nothing else of the checkout.
# `npm start -- --port NNNN` (or PORT=NNNN) picks the port (default: the
# first free one from 8080).
# The terminal demo (the native CLI drawing attention with block characters)
# is `npm run demo:cli`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-native.sh
if [[ -f scripts/build-wasm.sh ]]; then
  bash scripts/build-wasm.sh
fi
if [[ ! -f dist/index.js || ! -f dist/s2s-core.wasm ]]; then
  echo "start: dist/ has no WebAssembly build; run \`npm run build:wasm\` and look at its errors" >&2
  exit 1
fi
# The shipped models' names: the package's list (src/wasm/models.js).
for model in $(node --input-type=module -e "import { shippedModels } from './src/wasm/models.js'; console.log(shippedModels.join(' '))"); do
  if [[ ! -f models/$model.s2s ]]; then
    echo "start: models/$model.s2s is missing; the page will say so when it needs it (train it with \`npm run train:$model\`)" >&2
  fi
done
exec node scripts/serve.mjs "$@"
