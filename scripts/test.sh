#!/usr/bin/env bash
# npm test: set up, build, then run every suite — Catch2 (ctest), node tests of the wasm
# module, browser tests in headless Chromium. Each suite prints its own counts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh

echo
echo "=== C++ (Catch2 via ctest) ==="
(cd build/native && ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)")

echo
echo "=== WebAssembly module and hosts (node --test) ==="
node_suites=(tests/wasm/)
[ -d tests/firmware-bridge ] && ls tests/firmware-bridge/*.test.mjs >/dev/null 2>&1 && node_suites+=(tests/firmware-bridge/)
node --test --test-concurrency=2 --test-reporter=spec "${node_suites[@]}"
npx tsc --noEmit -p tests/wasm/types/tsconfig.json && echo "tsc: wasm/achain.d.ts + wasm/types/*.d.ts type-check tests/wasm/types/usage.ts"

echo
echo "=== Browser (playwright-core + Debian chromium, headless) ==="
npx vite build --config web/vite.config.mjs --logLevel warn
node --test --test-concurrency=1 --test-reporter=spec tests/web/
