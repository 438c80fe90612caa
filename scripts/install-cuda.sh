#!/usr/bin/env bash
# Installs the pinned CUDA compiler (nvcc + ptxas + libdevice) from PyPI into a directory.
#
#   scripts/install-cuda.sh [DIR]     (default: $WARPSIM_CUDA_DIR, else <repo>/.cache/cuda)
#
# The versions are pinned so that the committed PTX under crates/suite/kernels stays
# reproducible. Idempotent: does nothing when DIR already holds that nvcc. Prints the bin
# directory (the one holding nvcc and ptxas) on stdout.
set -euo pipefail

CUDA_VERSION=13.5.37
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}}"
bin="$dir/nvidia/cu13/bin"

installed_version() {
    [[ -x "$bin/nvcc" ]] || return 1
    "$bin/nvcc" --version 2>/dev/null | sed -n 's/.*, V\([0-9.]*\)$/\1/p'
}

if [[ "$(installed_version || true)" == "$CUDA_VERSION" && -x "$bin/ptxas" ]]; then
    echo "$bin"
    exit 0
fi

command -v python3 >/dev/null || { echo "install-cuda.sh: python3 is required" >&2; exit 1; }
echo "install-cuda.sh: installing nvcc $CUDA_VERSION into $dir (pip, a few hundred MB)..." >&2
mkdir -p "$dir"
PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --upgrade --target "$dir" \
    "nvidia-cuda-nvcc==$CUDA_VERSION" \
    "nvidia-cuda-crt==$CUDA_VERSION" \
    "nvidia-cuda-runtime==$CUDA_VERSION" \
    "nvidia-nvvm==$CUDA_VERSION" \
    nvidia-cuda-cccl >&2

got="$(installed_version || true)"
if [[ "$got" != "$CUDA_VERSION" ]]; then
    echo "install-cuda.sh: expected nvcc $CUDA_VERSION in $bin, found '${got:-nothing}'" >&2
    exit 1
fi
echo "$bin"
