# The Debian packages achain needs, sourced by setup.sh (one list, one place).
ACHAIN_APT_PACKAGES=(
  build-essential cmake pkg-config git
  libeigen3-dev nlohmann-json3-dev libcli11-dev catch2 libbenchmark-dev
  emscripten nodejs npm
  chromium
  liborocos-kdl-dev libmujoco-dev
  socat clang
)
