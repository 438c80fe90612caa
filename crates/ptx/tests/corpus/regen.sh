#!/usr/bin/env bash
# Regenerates the PTX corpus from src/*.cu.
#
# Generated with: nvcc 13.5 (Cuda compilation tools, release 13.5, V13.5.37).
# Variants: O3 (-O3), O0 (-O0 -Xcicc -O0, unoptimised device code), G (-G, device debug with
# DWARF sections), lineinfo (-O3 -lineinfo), fastmath (-O3 --use_fast_math).
# Arch: compute_75, except sm80_* (compute_80). recursion and func_pointers use -rdc=true.
# nvcc writes absolute paths into `.file` (G and lineinfo variants), so regenerating from
# another checkout changes those lines only.
#
# Usage: NVCC=/path/to/nvcc ./regen.sh   (default: nvcc on PATH, or the project's cu13 copy)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
NVCC="${NVCC:-}"
if [ -z "$NVCC" ]; then
    if command -v nvcc >/dev/null 2>&1; then NVCC=nvcc
    else NVCC=/work/cuda-tools/site/nvidia/cu13/bin/nvcc; fi
fi
mkdir -p "$here/ptx"
"$NVCC" --version | tail -n 2
for src in "$here"/src/*.cu; do
    name="$(basename "$src" .cu)"
    arch=compute_75
    case "$name" in sm80_*) arch=compute_80 ;; esac
    extra=()
    case "$name" in recursion|func_pointers) extra=(-rdc=true) ;; esac
    for variant in O3 O0 G lineinfo fastmath; do
        case "$variant" in
            O3) flags=(-O3) ;;
            O0) flags=(-O0 -Xcicc -O0) ;;
            G) flags=(-G) ;;
            lineinfo) flags=(-O3 -lineinfo) ;;
            fastmath) flags=(-O3 --use_fast_math) ;;
        esac
        "$NVCC" -arch="$arch" -ptx "${flags[@]}" "${extra[@]}" "$src" -o "$here/ptx/$name.$variant.ptx"
    done
done
du -sh "$here/ptx"
