#!/usr/bin/env bash
# Runs one fuzz target of fuzz/ under libFuzzer: scripts/fuzz.sh TARGET [RUNS] [-- LIBFUZZER ARGS]
#
# Targets: parse (PTX parser), run_ptx (load + run PTX, functional mode), fatbin, cubin,
# config (--config FILE / -c KEY=VALUE), manifest (`warpsim run MANIFEST.toml` loading).
# RUNS: executions (default 1000000; 0 runs until a crash or Ctrl-C).
# The corpus grows in fuzz/corpus/TARGET (git-ignored), seeded from the repository's own
# inputs; a crash is written to fuzz/artifacts/TARGET/ and the script exits non-zero.
# Replay one input: scripts/fuzz.sh TARGET 1 -- fuzz/artifacts/TARGET/crash-…
#
# Uses cargo-fuzz (`cargo install cargo-fuzz`) when installed, else builds the target with
# the same nightly flags itself (sanitizer coverage, --cfg fuzzing, AddressSanitizer).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
target=${1:?usage: scripts/fuzz.sh TARGET [RUNS] [-- LIBFUZZER ARGS]}
runs=${2:-1000000}
shift $(( $# >= 2 ? 2 : 1 ))
[[ ${1:-} == -- ]] && shift

case $target in
  parse|run_ptx) seeds=(../crates/ptx/tests/corpus/ptx ../examples/manifests/saxpy/saxpy.ptx) ;;
  fatbin) seeds=(../crates/cudart/tests/data) ;;
  cubin) seeds=(seeds/cubin) ;;
  config) seeds=(../crates/core/src/config/presets) ;;
  manifest) seeds=(../examples/manifests/saxpy/saxpy.toml ../crates/cli/tests/data) ;;
  *) echo "unknown fuzz target $target (parse, run_ptx, fatbin, cubin, config, manifest)" >&2; exit 2 ;;
esac
corpus=corpus/$target
mkdir -p "$corpus" "artifacts/$target"
# Seed files are copied (libFuzzer reads only files directly inside a corpus folder).
for s in "${seeds[@]}"; do
  if [[ -d $s ]]; then
    find "$s" -maxdepth 1 -type f ! -name '*.sh' ! -name '*.cu' -exec cp -n {} "$corpus/" \;
  else
    cp -n "$s" "$corpus/"
  fi
done

args=(-runs="$runs" -artifact_prefix="artifacts/$target/" "$@")
if [[ $# -eq 0 || $1 == -* ]]; then args+=("$corpus"); fi
if cargo fuzz --version >/dev/null 2>&1; then
  exec cargo +nightly fuzz run --release --debug-assertions "$target" -- "${args[@]}"
fi
# Without cargo-fuzz: its flags, spelled out.
triple=$(rustc +nightly -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Zsanitizer=address -Cdebug-assertions -Coverflow-checks"
cargo +nightly build --release --target "$triple" --bin "$target"
exec "target/$triple/release/$target" "${args[@]}"
