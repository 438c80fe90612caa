#!/usr/bin/env bash
# Runs our own CUDA programs on a real NVIDIA GPU, to check that what they expect of CUDA is
# what CUDA does (the programs under tests/cuda test warpsim's drop-in runtime; those under
# correlation/programs are the correlation suite). Not part of CI: it needs a GPU.
#
#   scripts/native-check.sh [--build-only | --run-only] OUT [NAME...]
#
# NAME is a program as tests/NAME (tests/cuda/NAME.cu or the directory tests/cuda/NAME/) or
# corr/NAME (correlation/programs/NAME.cu); default: all of them.
# 1. Compiles each with nvcc (PATH, else $WARPSIM_CUDA_DIR, default .cache/cuda) for the GPU's
#    architecture ($NATIVE_ARCH, else nvidia-smi's compute capability, else sm_90), with the
#    program's NVCC-FLAGS minus their -arch/-gencode, -DCHECK_KEEP_GOING so that a run
#    reports every failed check instead of stopping at the first, and -DNATIVE_GPU, which
#    skips the checks a program marks WARPSIM_ONLY(...) (tests/cuda/check.h).
#    Executables go to OUT/ (flat names: tests-NAME, corr-NAME); $NATIVE_NVCC_FLAGS adds flags
#    (e.g. "-cudart shared -L DIR" to build small executables to carry to another machine).
# 2. Runs each (10 s limit) and writes OUT/NAME.out / .err and OUT/summary.txt.
# A program passes when it exits 0, prints no "FAIL" line, ends with "PASS <name>", and matches
# tests/cuda/NAME.expected when there is one. Programs marked `// NATIVE: warpsim-only: why`
# test what only warpsim does (its memory checker, its device name, its limits); they are run
# and listed, but their failures are expected. A portable program with a few such checks
# marks each WARPSIM_ONLY(...) instead (skipped here), so every program without the NATIVE
# line must pass on a GPU. Exits non-zero naming the other failures.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
mode=both
case "${1:-}" in
--build-only) mode=build; shift ;;
--run-only) mode=run; shift ;;
esac
[[ $# -ge 1 ]] || { echo "usage: $0 [--build-only | --run-only] OUT [NAME...]" >&2; exit 2; }
out="$1"; shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"

names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
    for f in tests/cuda/*.cu tests/cuda/*/; do n="$(basename "$f")"; names+=("tests/${n%.cu}"); done
    for f in correlation/programs/*.cu; do names+=("corr/$(basename "$f" .cu)"); done
fi
sources_of() {
    case "$1" in
    tests/*) local n="${1#tests/}"
        if [[ -d "tests/cuda/$n" ]]; then ls "tests/cuda/$n"/*.cu; else echo "tests/cuda/$n.cu"; fi ;;
    corr/*) echo "correlation/programs/${1#corr/}.cu" ;;
    esac
}
directive() { sed -n "s|^// $2: \(.*\)$|\1|p" "$(sources_of "$1" | head -n1)"; }
exe_of() { echo "$out/${1/\//-}"; }

if [[ $mode != run ]]; then
    if command -v nvcc >/dev/null 2>&1; then nvcc=nvcc
    else
        nvcc="${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}/nvidia/cu13/bin/nvcc"
        [[ -x "$nvcc" ]] || { echo "native-check: no nvcc (scripts/install-cuda.sh installs one)" >&2; exit 1; }
        export PATH="$(dirname "$nvcc"):$PATH"
    fi
    arch="${NATIVE_ARCH:-}"
    if [[ -z "$arch" ]] && command -v nvidia-smi >/dev/null 2>&1; then
        cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')"
        [[ -n "$cap" ]] && arch="sm_$cap"
    fi
    arch="${arch:-sm_90}"
    echo "native-check: $("$nvcc" --version | tail -n1), -arch=$arch" >&2
    for name in "${names[@]}"; do
        (
            flags="$(directive "$name" NVCC-FLAGS | tr '\n' ' ' | sed -E 's/(-arch[= ][^ ]+|-gencode[= ][^ ]+)//g')"
            srcs="$(sources_of "$name" | tr '\n' ' ')"
            # shellcheck disable=SC2086
            "$nvcc" -O3 -arch="$arch" -DCHECK_KEEP_GOING -DNATIVE_GPU ${NATIVE_NVCC_FLAGS:-} $flags -Itests/cuda -o "$(exe_of "$name")" $srcs \
                >"$(exe_of "$name").build.log" 2>&1 || echo "native-check: $name did not compile" >&2
        ) &
        while (($(jobs -r | wc -l) >= ${NATIVE_JOBS:-$(nproc)})); do sleep 0.1; done
    done
    wait
fi
[[ $mode == build ]] && exit 0

failed=()
: >"$out/summary.txt"
for name in "${names[@]}"; do
    exe="$(exe_of "$name")" short="${name#*/}"
    only="$(directive "$name" NATIVE | sed -n 's/^warpsim-only: //p')"
    rc=0
    if [[ -x "$exe" ]]; then
        timeout 10 "$exe" >"$exe.out" 2>"$exe.err" || rc=$?
    else
        rc=compile
    fi
    checks="$(grep -c '^FAIL' "$exe.err" 2>/dev/null)"
    if [[ $rc != 0 ]]; then result="rc=$rc"
    elif [[ "${checks:-0}" != 0 ]]; then result="$checks failed checks"
    elif [[ "$(tail -n1 "$exe.out")" != "PASS $short" ]]; then result="no PASS line"
    elif [[ $name == tests/* && -f "tests/cuda/$short.expected" ]] && ! diff -q "tests/cuda/$short.expected" "$exe.out" >/dev/null; then
        result="stdout differs from tests/cuda/$short.expected"
    else result=pass
    fi
    if [[ $result == pass ]]; then line="pass"
    elif [[ -n "$only" ]]; then line="$result (expected: warpsim-only: $only)"
    else line="$result"; failed+=("$name"); fi
    printf '%-28s %s\n' "$name" "$line" | tee -a "$out/summary.txt"
    grep "^FAIL" "$exe.err" 2>/dev/null | head -n 12 | sed "s/^/    /" | tee -a "$out/summary.txt"
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "native-check: ${#failed[@]} programs expect what this GPU does not do: ${failed[*]}" | tee -a "$out/summary.txt"
    exit 1
fi
echo "native-check: every program that is not warpsim-only passed" | tee -a "$out/summary.txt"
