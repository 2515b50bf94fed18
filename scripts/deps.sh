# The Debian packages achain needs, sourced by setup.sh (one list, one place).
ACHAIN_APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev nlohmann-json3-dev libpugixml-dev libcli11-dev catch2 libbenchmark-dev
  emscripten
  chromium
  liborocos-kdl-dev libmujoco-dev liburdfdom-dev
  socat clang ccache doxygen valgrind
  slurm-wlm munge
)
# Node.js and npm: only when absent (an installed Node ≥ 20, e.g. NodeSource's nodejs, which
# bundles npm and conflicts with Debian's npm package, is used as it is).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  ACHAIN_APT_PACKAGES+=(nodejs npm)
fi
