#!/usr/bin/env bash
# Regenerates or checks the committed PTX of the built-in suite.
#
#   scripts/kernels.sh regen   rewrite crates/suite/kernels/*/<name>.ptx and <name>.ptxas
#   scripts/kernels.sh check   regenerate into a temp dir; fail, naming every stale file,
#                              if a committed file differs (or is missing)
#
# For every crates/suite/kernels/<name>/<name>.cu:
#   <name>.ptx    nvcc -arch=compute_75 -ptx -O3 <name>.cu
#   <name>.ptxas  stdout+stderr of `ptxas -arch=sm_75 -v <name>.ptx -o /dev/null` (registers,
#                 shared memory, barriers, stack per kernel), minus the "Compile time = …"
#                 lines, which change from run to run.
#
# nvcc is taken from PATH, else from $WARPSIM_CUDA_DIR (default <repo>/.cache/cuda), else
# installed there by scripts/install-cuda.sh. The PTX is only reproducible with nvcc 13.5.37.
set -euo pipefail

WANT_VERSION=13.5.37
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kernels="$repo/crates/suite/kernels"

usage() {
    echo "usage: scripts/kernels.sh regen|check" >&2
    exit 2
}
[[ $# -eq 1 ]] || usage
mode="$1"
[[ "$mode" == regen || "$mode" == check ]] || usage

find_nvcc() {
    if command -v nvcc >/dev/null 2>&1; then
        command -v nvcc
        return
    fi
    local dir="${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}"
    if [[ -x "$dir/nvidia/cu13/bin/nvcc" ]]; then
        echo "$dir/nvidia/cu13/bin/nvcc"
        return
    fi
    if [[ -x "$dir/bin/nvcc" ]]; then
        echo "$dir/bin/nvcc"
        return
    fi
    echo "kernels.sh: nvcc not on PATH nor in $dir; installing it" >&2
    local bin
    bin="$("$repo/scripts/install-cuda.sh" "$dir")"
    echo "$bin/nvcc"
}

nvcc="$(find_nvcc)"
cuda_bin="$(dirname "$nvcc")"
ptxas="$cuda_bin/ptxas"
[[ -x "$ptxas" ]] || ptxas="$(command -v ptxas || true)"
[[ -n "$ptxas" && -x "$ptxas" ]] || { echo "kernels.sh: no ptxas next to $nvcc nor on PATH" >&2; exit 1; }
# nvcc finds cicc, libdevice and its headers relative to itself; ptxas must be found too.
export PATH="$cuda_bin:$PATH"

version="$("$nvcc" --version | sed -n 's/.*, V\([0-9.]*\)$/\1/p')"
if [[ "$version" != "$WANT_VERSION" ]]; then
    echo "kernels.sh: warning: $nvcc is version ${version:-unknown}, the committed PTX comes from $WANT_VERSION" >&2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/warpsim-kernels.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# gen <name> <outdir>: writes <outdir>/<name>.ptx and <outdir>/<name>.ptxas.
gen() {
    local name="$1" out="$2"
    local src="$kernels/$name/$name.cu"
    # Compile from inside the kernel's directory with a relative file name, so nothing
    # path-dependent can reach the outputs.
    if ! (cd "$kernels/$name" && "$nvcc" -arch=compute_75 -ptx -O3 "$name.cu" -o "$out/$name.ptx"); then
        echo "kernels.sh: nvcc failed on $src" >&2
        return 1
    fi
    local log="$work/$name.ptxas.raw"
    if ! (cd "$out" && "$ptxas" -arch=sm_75 -v "$name.ptx" -o /dev/null) >"$log" 2>&1; then
        cat "$log" >&2
        echo "kernels.sh: ptxas failed on $name.ptx" >&2
        return 1
    fi
    grep -v 'Compile time = ' "$log" >"$out/$name.ptxas" || true
    if grep -q -e "$work" -e "$kernels" -e "$out" "$out/$name.ptx" "$out/$name.ptxas"; then
        echo "kernels.sh: $name output mentions a build path" >&2
        return 1
    fi
}

shopt -s nullglob
names=()
for dir in "$kernels"/*/; do
    name="$(basename "$dir")"
    if [[ -f "$dir/$name.cu" ]]; then
        names+=("$name")
    fi
done
[[ ${#names[@]} -gt 0 ]] || { echo "kernels.sh: no kernels under $kernels" >&2; exit 1; }

case "$mode" in
regen)
    for name in "${names[@]}"; do
        mkdir -p "$work/$name"
        gen "$name" "$work/$name"
        cp "$work/$name/$name.ptx" "$work/$name/$name.ptxas" "$kernels/$name/"
        echo "regenerated crates/suite/kernels/$name/$name.{ptx,ptxas}"
    done
    ;;
check)
    stale=()
    for name in "${names[@]}"; do
        mkdir -p "$work/$name"
        gen "$name" "$work/$name"
        for ext in ptx ptxas; do
            rel="crates/suite/kernels/$name/$name.$ext"
            if [[ ! -f "$repo/$rel" ]]; then
                stale+=("$rel (missing)")
            elif ! cmp -s "$work/$name/$name.$ext" "$repo/$rel"; then
                stale+=("$rel")
            fi
        done
    done
    if [[ ${#stale[@]} -gt 0 ]]; then
        echo "kernels.sh: stale generated files (run scripts/kernels.sh regen):" >&2
        printf '  %s\n' "${stale[@]}" >&2
        exit 1
    fi
    echo "kernels.sh: all ${#names[@]} programs' .ptx and .ptxas are up to date"
    ;;
esac
