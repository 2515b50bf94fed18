#!/usr/bin/env bash
# Installs whatever is missing: Debian packages (when root; otherwise prints the exact
# apt-get line and stops), then the npm packages. Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh

missing=()
for p in "${ACHAIN_APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "setup: missing Debian packages. Run:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js ≥ 20 is required (found $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

# npm packages: install when node_modules is absent or older than package.json / the lock.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ] || { [ -f package-lock.json ] && [ package-lock.json -nt "$stamp" ]; }; then
  echo "setup: installing npm packages"
  # `npm install` (not `npm ci`): it honours the lock's versions, and npm 11's `ci` rejects a lock
  # written without other platforms' optional packages (rollup/esbuild binaries).
  npm install --no-audit --no-fund
fi
