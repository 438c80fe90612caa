#!/usr/bin/env bash
# Regenerates or checks the committed PTX of the timing model's microbenchmarks
# (crates/timing/tests/micro/<name>.cu → <name>.ptx + <name>.ptxas) and of the correlation
# set (correlation/programs/<name>.cu, the same files beside it, replayed by
# crates/cli/tests/correlation.rs), the same way scripts/kernels.sh does it for the suite:
#
#   scripts/micro-kernels.sh regen   rewrite the .ptx / .ptxas files
#   scripts/micro-kernels.sh check   fail, naming every stale file, if a committed one differs
#
#   <name>.ptx    nvcc -arch=compute_75 -ptx -O3 <name>.cu
#   <name>.ptxas  ptxas -arch=sm_75 -v output, minus the "Compile time = …" lines
#
# nvcc: PATH, else $WARPSIM_CUDA_DIR (default <repo>/.cache/cuda), else scripts/install-cuda.sh.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -eq 1 && ( "$1" == regen || "$1" == check ) ]] || { echo "usage: scripts/micro-kernels.sh regen|check" >&2; exit 2; }
mode="$1"

if command -v nvcc >/dev/null 2>&1; then
    nvcc="$(command -v nvcc)"
else
    dir="${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}"
    if [[ -x "$dir/nvidia/cu13/bin/nvcc" ]]; then
        nvcc="$dir/nvidia/cu13/bin/nvcc"
    else
        nvcc="$("$repo/scripts/install-cuda.sh" "$dir")/nvcc"
    fi
fi
export PATH="$(dirname "$nvcc"):$PATH"

work="$(mktemp -d "${TMPDIR:-/tmp}/warpsim-micro.XXXXXX")"
trap 'rm -rf "$work"' EXIT

stale=()
shopt -s nullglob
for cu in "$repo"/crates/timing/tests/micro/*.cu "$repo"/correlation/programs/*.cu "$repo"/correlation/policies/*.cu; do
    name="$(basename "$cu" .cu)"
    micro="$(dirname "$cu")"
    rel="${micro#"$repo"/}"
    (cd "$micro" && nvcc -arch=compute_75 -ptx -O3 "$name.cu" -o "$work/$name.ptx")
    (cd "$work" && ptxas -arch=sm_75 -v "$name.ptx" -o /dev/null) >"$work/$name.raw" 2>&1
    grep -v 'Compile time = ' "$work/$name.raw" >"$work/$name.ptxas" || true
    for ext in ptx ptxas; do
        if [[ "$mode" == regen ]]; then
            cp "$work/$name.$ext" "$micro/$name.$ext"
        elif ! cmp -s "$work/$name.$ext" "$micro/$name.$ext"; then
            stale+=("$rel/$name.$ext")
        fi
    done
    [[ "$mode" == regen ]] && echo "regenerated $rel/$name.{ptx,ptxas}"
done
if [[ ${#stale[@]} -gt 0 ]]; then
    echo "micro-kernels.sh: stale generated files (run scripts/micro-kernels.sh regen):" >&2
    printf '  %s\n' "${stale[@]}" >&2
    exit 1
fi
[[ "$mode" == check ]] && echo "micro-kernels.sh: up to date"
exit 0
