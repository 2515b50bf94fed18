#!/usr/bin/env bash
# npm start: set up, build native + wasm, build the studio and serve it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
npx vite build --config web/vite.config.mjs --logLevel warn
port="${PORT:-5173}"
echo
echo "achain studio: http://127.0.0.1:${port}/  (Ctrl-C to stop)"
exec npx vite preview --config web/vite.config.mjs --host 127.0.0.1 --port "$port" --strictPort
