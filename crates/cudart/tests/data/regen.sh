#!/usr/bin/env bash
# Rebuilds the fatbinary fixtures of the unit tests from two_kernels.cu with the nvcc on PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
nvcc -c -arch=sm_75 two_kernels.cu -o "$tmp/a.o"
objcopy -O binary --only-section=.nv_fatbin "$tmp/a.o" two_kernels.nv_fatbin
nvcc -c --no-compress -gencode arch=compute_75,code=compute_75 -gencode arch=compute_80,code=compute_80 \
    two_kernels.cu -o "$tmp/b.o"
objcopy -O binary --only-section=.nv_fatbin "$tmp/b.o" two_ptx.nv_fatbin
