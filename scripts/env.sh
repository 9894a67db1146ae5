# Sourced by the scripts: a writable PoCL cache folder (PoCL lists zero devices when
# it cannot create one) kept under target/, which cargo already writes.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$root/target/pocl-cache}"
mkdir -p "$POCL_CACHE_DIR"
# silt's own program-binary cache, likewise under target/
export SILT_CACHE_DIR="${SILT_CACHE_DIR:-$root/target/silt-cache}"
