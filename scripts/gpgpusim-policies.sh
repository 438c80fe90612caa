#!/usr/bin/env bash
# Applies warpsim's seed policies to a GPGPU-Sim 4.2 source tree and rebuilds it:
#
#   scripts/gpgpusim-policies.sh SRC_DIR
#
# SRC_DIR is the gpgpu-sim/ tree of a WORKDIR built by ../shared/tools/gpgpusim-build.sh
# (correlation/README.md, "Policies in GPGPU-Sim"): WORKDIR/gpgpu-sim, beside WORKDIR/cuda-11.8.
# The patch is correlation/gpgpusim/policies.patch (against the dev branch, 6b244a5d); it adds
# `-gpgpu_scheduler mwf_lrr|mwf_gto|saws|pro|kaws_ka|mto|motrr|motrr_recency` and
# `-gpgpu_fetch_policy rr|cff|fef` (default rr: GPGPU-Sim's behaviour unchanged).
#
# Idempotent: a tree already patched with this version is left as it is; one patched with an
# older version gets the touched files back from its git HEAD first, then this version. `make -j${JOBS:-2}` is incremental (~2-4 min on a
# loaded 2-core machine after the patch: shader.h is included by most of src/gpgpu-sim).
# Also points WORKDIR/env.sh at this WORKDIR (after `cp -a` of a vanilla WORKDIR).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -eq 1 ]] || { echo "usage: scripts/gpgpusim-policies.sh SRC_DIR (WORKDIR/gpgpu-sim)" >&2; exit 2; }
src="$(cd "$1" && pwd)"
work="$(dirname "$src")"
# GPGPUSIM_PATCH names another patch of correlation/gpgpusim/ to apply the same way
# (tls-trace.patch: the two-level trace of MECHANISMS.md item 44, on a vanilla copy).
patch_file="$(cd "$repo" && realpath "${GPGPUSIM_PATCH:-correlation/gpgpusim/policies.patch}")"
[[ -f "$src/src/gpgpu-sim/shader.cc" ]] || { echo "$src: not a GPGPU-Sim source tree" >&2; exit 1; }
[[ -d "$work/cuda-11.8" ]] || { echo "$work/cuda-11.8 missing: build with gpgpusim-build.sh first" >&2; exit 1; }

log() { echo "[gpgpusim-policies $(date +%H:%M:%S)] $*"; }

if patch -d "$src" -p1 -R --dry-run -s -f <"$patch_file" >/dev/null 2>&1; then
    log "already patched: $src"
else
    # A tree patched with an older version of the patch: the files the patch touches are
    # restored from the checkout's git HEAD (gpgpusim-build.sh clones the repository and
    # modifies none of them) before applying this version.
    files=$(sed -n 's#^+++ b/##p' "$patch_file")
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1 && ! git -C "$src" diff --quiet -- $files; then
        log "restoring $files from git HEAD (an older patch)"
        git -C "$src" checkout -- $files
    fi
    log "patching $src"
    patch -d "$src" -p1 -N -s <"$patch_file"
fi

# A copied WORKDIR's env.sh still names the original: point it here.
if [[ -f "$work/env.sh" ]]; then
    old="$(sed -n 's#^export GPGPUSIM_ROOT=\(.*\)/gpgpu-sim$#\1#p' "$work/env.sh")"
    if [[ -n "$old" && "$old" != "$work" ]]; then
        log "env.sh: $old -> $work"
        sed -i "s#$old/#$work/#g" "$work/env.sh"
    fi
fi

log "make -j${JOBS:-2}"
t0=$(date +%s)
(
    cd "$src"
    export CUDA_INSTALL_PATH="$work/cuda-11.8"
    set +eu
    # shellcheck disable=SC1091
    source setup_environment >"$work/setup_environment.log" 2>&1
    set -eu
    grep -q 'setup_environment succeeded' "$work/setup_environment.log" || { cat "$work/setup_environment.log"; exit 1; }
    make -j"${JOBS:-2}" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log"; exit 1; }
)
log "built in $(( $(date +%s) - t0 )) s; run with: source $work/env.sh (and -gpgpu_scheduler / -gpgpu_fetch_policy in gpgpusim.config)"
