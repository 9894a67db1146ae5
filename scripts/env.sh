# Sourced by the scripts: a writable PoCL cache folder (PoCL lists zero devices when
# it cannot create one) kept under target/, which cargo already writes.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$root/target/pocl-cache}"
mkdir -p "$POCL_CACHE_DIR"
# silt's own program-binary cache is off here: saving a program's binary makes
# PoCL compile every kernel of it (seconds for a crate program of 36 entry
# points), most of a fresh test run's time, while PoCL's cache above already
# serves the next run. The cache's own tests (tests/cache.rs, silt-cli's) name
# their folders.
export SILT_CACHE_DIR="${SILT_CACHE_DIR:-off}"
