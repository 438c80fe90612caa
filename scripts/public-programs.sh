#!/usr/bin/env bash
# Runs CUDA programs a user has built (NVIDIA cuda-samples, Rodinia, PolyBench/GPU, ...) under
# `warpsim exec` in each mode and writes one CSV row per program and mode with a failure class:
# the standing check of how much real CUDA code runs (issue 40, item 7). Not run by CI: the
# programs are not ours and are not in this repository.
#
#   scripts/public-programs.sh LIST OUT.csv [--modes "timing functional"] [--timeout S]
#                              [--warpsim BIN] [--logs DIR]
#
#   LIST     a text file, one program a line: `NAME DIR COMMAND [ARGS...]`; the command runs in
#            DIR (relative to LIST's folder unless absolute), so programs that read their
#            input files by relative path find them. Blank lines and lines starting with `#`
#            are skipped. Every program must be built with `nvcc -cudart shared` (README,
#            "CUDA programs").
#   OUT.csv  name,mode,class,exit,seconds,message — `message` is the first line warpsim or
#            the loader printed that names the failure (empty on success).
#   --modes    default "timing functional"
#   --timeout  seconds per run (default 300); a run past it is class `timeout`
#   --warpsim  default <repo>/target/release/warpsim (cargo build --release -p warpsim
#              -p warpsim-cudart builds it and the shim)
#   --logs     keep each run's output (stdout and stderr) as DIR/NAME.MODE.log: `pass` is only
#              exit 0, and programs that check their own results (PolyBench/GPU's
#              "Non-Matching CPU-GPU Outputs") may print a mismatch and still exit 0
#
# Classes, first match wins: pass (exit 0 and no warpsim report of a sticky error such as
# `warpsim: cudaErrorIllegalAddress`: a program that ignores the error codes exits 0 after a
# kernel fault, and is classed by the report; an API error it ignores, e.g. a launch with an
# empty grid, is a pass whose message names it, as CUDA too refuses such a call), timeout,
# loader (the dynamic loader refused the program: a missing symbol or library),
# not-cuda-shared (exec's own refusal: the program links the runtime statically), unsupported
# (an instruction or API warpsim names as unsupported), memcheck (out-of-bounds,
# use-after-free, uninitialised or misaligned access), deadlock, runaway (the warp-instruction
# or cycle limit), ptx (the PTX did not parse or lower; after the run-time classes, whose
# messages name a PTX line too), program (any other non-zero exit: usually the program's own
# check of its results).
#
# The summary on stderr counts each mode's classes. Example LIST line:
#   vectorAdd  cuda-samples/Samples/0_Introduction/vectorAdd  ./vectorAdd
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { echo "public-programs: $*" >&2; }
die() { say "$*"; exit 2; }

[[ $# -ge 2 ]] || die "usage: public-programs.sh LIST OUT.csv [--modes M] [--timeout S] [--warpsim BIN]"
list="$1" out="$2"; shift 2
modes="timing functional" timeout_s=300 warpsim="$repo/target/release/warpsim" keep=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --modes) modes="$2"; shift 2 ;;
        --timeout) timeout_s="$2"; shift 2 ;;
        --warpsim) warpsim="$2"; shift 2 ;;
        --logs) mkdir -p "$2" || die "cannot make $2"; keep="$(cd "$2" && pwd)"; shift 2 ;;
        *) die "unknown argument $1" ;;
    esac
done
[[ -f "$list" ]] || die "no list file $list"
[[ -x "$warpsim" ]] || die "no warpsim at $warpsim (cargo build --release -p warpsim -p warpsim-cudart)"
[[ "$timeout_s" =~ ^[1-9][0-9]*$ ]] || die "--timeout needs a positive whole number of seconds, got $timeout_s"
for m in $modes; do
    [[ "$m" == timing || "$m" == functional ]] || die "unknown mode $m (timing, functional)"
done
base="$(cd "$(dirname "$list")" && pwd)"
log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT

# warpsim's report of a sticky error: the kernel faulted (CUDA's sticky error codes).
sticky='^warpsim( exec)?: cudaError(IllegalAddress|LaunchFailure|Assert|HardwareStackError|IllegalInstruction|MisalignedAddress|InvalidAddressSpace|InvalidPc|LaunchTimeout)'

# The class of a finished run from its exit code and its output ($1 = exit, $2 = log file).
classify() {
    local rc="$1" log="$2"
    # A program that ignores CUDA's error codes exits 0 after a kernel fault: warpsim's report of
    # a sticky error (one that ends the CUDA context on a GPU) makes such a run a failure all
    # the same. An API error the program ignores (an empty grid, say) is what CUDA does too.
    if [[ "$rc" == 0 ]] && ! grep -Eq "$sticky" "$log"; then echo pass; return; fi
    if [[ "$rc" == 124 ]]; then echo timeout; return; fi
    local rules=(
        "loader|symbol lookup error|error while loading shared libraries|undefined symbol"
        "not-cuda-shared|links the CUDA runtime statically|-cudart shared"
        "unsupported|not supported|unsupported"
        "memcheck|out of bounds|use after free|uninitiali[sz]ed|misaligned|double free"
        "deadlock|deadlock"
        "runaway|max-warp-instructions|max-cycles|runaway"
        "ptx|cannot load PTX|PTX:? .*(line|column)|parse error|cannot lower"
    )
    local r class pattern
    for r in "${rules[@]}"; do
        class="${r%%|*}" pattern="${r#*|}"
        if grep -Eqi -- "$pattern" "$log"; then echo "$class"; return; fi
    done
    echo program
}

# The first line of the log that names the failure, as a CSV field.
message() {
    local line
    line="$(grep -Ei -m1 -- 'warpsim( exec)?: |error|not supported|fail' "$2" || true)"
    [[ -n "$line" ]] || line="$(grep -v '^[[:space:]]*$' "$2" | tail -n 1 || true)"
    # A pass keeps warpsim's report of an API error the program ignored, if any.
    [[ "$1" == pass ]] && line="$(grep -E -m1 '^warpsim( exec)?: cudaError' "$2" || true)"
    line="${line//\"/\"\"}"
    printf '"%s"' "${line:0:300}"
}

echo "name,mode,class,exit,seconds,message" > "$out"
declare -A counts=()
n=0
while read -r name dir cmd args; do
    [[ -z "${name:-}" || "$name" == \#* ]] && continue
    [[ -n "${cmd:-}" ]] || die "line for $name needs NAME DIR COMMAND"
    [[ "$dir" == /* ]] || dir="$base/$dir"
    [[ -d "$dir" ]] || die "$name: no folder $dir"
    n=$((n + 1))
    for mode in $modes; do
        log="$log_dir/$name.$mode.log"
        start=$(date +%s.%N)
        set +e
        # shellcheck disable=SC2086  # the arguments are split as the list wrote them
        (cd "$dir" && timeout "$timeout_s" "$warpsim" exec --mode "$mode" --quiet -- $cmd ${args:-}) \
            > "$log" 2>&1 < /dev/null
        rc=$?
        set -e
        secs=$(echo "$(date +%s.%N) - $start" | bc)
        class="$(classify "$rc" "$log")"
        counts["$mode,$class"]=$(( ${counts["$mode,$class"]:-0} + 1 ))
        printf '%s,%s,%s,%s,%.1f,%s\n' "$name" "$mode" "$class" "$rc" "$secs" "$(message "$class" "$log")" >> "$out"
        [[ -z "$keep" ]] || cp "$log" "$keep/$name.$mode.log"
        say "$name ($mode): $class"
    done
done < "$list"
[[ $n -gt 0 ]] || die "no programs in $list"
for mode in $modes; do
    summary=""
    for key in $(printf '%s\n' "${!counts[@]}" | grep "^$mode," | sort); do
        summary="$summary ${key#*,} ${counts[$key]},"
    done
    say "$mode: $n programs:${summary%,}"
done
say "wrote $out"
