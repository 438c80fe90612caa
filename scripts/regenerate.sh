#!/usr/bin/env bash
# Regenerates every committed result after a change to the model (any byte of the fingerprinted
# sources: crates/{ptx,core,timing,suite}/src, presets included, and the CLI's workload.rs,
# model.rs, stats_out.rs and lab/record.rs, changes the simulator id the records carry):
#
#   1. the release build;
#   2. the timing golden (crates/cli/tests/data/timing_golden.csv, WARPSIM_BLESS=1);
#   3. the correlation reference's warpsim side (scripts/correlate.sh --sides warpsim
#      --update-reference; GPGPU-Sim's side is kept);
#   4. correlation/reference/policies.csv's warpsim side (scripts/policies-correlate.sh);
#   5. `warpsim reproduce baws`, then `pro motrr kaws`, then `modern` (reusing their runs on the
#      papers' GPUs), the cff-rule sweep and the baws-tls-marks ablation, at small size, copied
#      into docs/experiments/small/;
#   6. with --paper: `reproduce pro motrr --size paper`, copied into docs/experiments/paper/
#      (BAWS and KAWS at paper size need a many-core machine: `--shard`/`--collect`).
#
#   scripts/regenerate.sh [--paper] [--jobs N] [--work DIR]
#
# Each step's wall time is printed; the reproduce logs (their first line is the run count and
# time the README and docs/experiments/*.md quote) go to DIR (default target/regenerate).
# About 9 minutes on 2 cores, 25 with --paper. Afterwards: check that the statistics moved only
# where the change should move them (git diff), then bring the prose in line —
# scripts/sync-claims.py rewrites the claim tables of docs/experiments/*.md from the reports.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
paper=0 jobs=2 work=target/regenerate
while [ $# -gt 0 ]; do
    case "$1" in
        --paper) paper=1; shift ;;
        --jobs) jobs="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        *) echo "regenerate.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
W=target/release/warpsim
step() { local t0=$SECONDS; "$@"; echo "   $(( SECONDS - t0 )) s" >&2; }
copy() { # copy() FROM TO: each experiment folder of a reproduce output, not its run cache
    for d in "$1"/*/; do
        local e; e=$(basename "$d")
        [ "$e" = runs ] && continue
        mkdir -p "$2/$e"
        cp -r "$d"* "$2/$e/"
    done
}
rm -rf "$work"
mkdir -p "$work"
echo "== release build"
step cargo build --release -p warpsim -p warpsim-cudart
echo "== timing golden"
step env WARPSIM_BLESS=1 cargo test --release -p warpsim --test timing_matrix
echo "== correlation reference (warpsim side)"
step scripts/correlate.sh --sides warpsim --update-reference --out "$work/correlation" --jobs "$jobs"
echo "== policies.csv (warpsim side)"
step scripts/policies-correlate.sh --sides warpsim --jobs "$jobs" --out "$work/policies"
echo "== experiments, small size"
step "$W" reproduce baws --jobs "$jobs" --out "$work/small" > "$work/baws.log"
step "$W" reproduce pro motrr kaws --jobs "$jobs" --out "$work/small" > "$work/others.log"
step "$W" reproduce modern --jobs "$jobs" --out "$work/small" > "$work/modern.log"
step "$W" sweep docs/experiments/cff-rule.toml --jobs "$jobs" --out "$work/small" > "$work/cff.log"
step "$W" reproduce baws-tls-marks --jobs "$jobs" --out "$work/small" > "$work/tls-marks.log"
copy "$work/small" docs/experiments/small
head -1 "$work/baws.log" "$work/others.log" "$work/modern.log"
if [ "$paper" = 1 ]; then
    echo "== PRO and MOTRR at paper size"
    step "$W" reproduce pro motrr --size paper --jobs "$jobs" --out "$work/paper" > "$work/paper.log"
    copy "$work/paper" docs/experiments/paper
    head -1 "$work/paper.log"
fi
echo "regenerate.sh: done; review with git diff, then scripts/sync-claims.py"
