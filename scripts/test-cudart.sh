#!/usr/bin/env bash
# Builds warpsim's drop-in CUDA runtime (crates/cudart) and runs our own CUDA programs on it.
#
#   scripts/test-cudart.sh [NAME...]      (default: every program under tests/cuda)
#
# 1. Builds the shim (cargo build --release -p warpsim-cudart) unless WARPSIM_CUDART_LIB names
#    an already built libwarpsim_cudart.so, and installs it as
#    <dir of that library>/cudart-lib/libcudart.so.13, e.g. target/release/cudart-lib/.
# 2. Finds nvcc: on PATH, else in $WARPSIM_CUDA_DIR (default .cache/cuda), else installs the
#    pinned version there with scripts/install-cuda.sh. No nvcc is a failure, never a skip.
# 3. Compiles each program with `nvcc -cudart shared -arch=sm_75` (tests/cuda/NAME.cu, or every
#    .cu of a directory tests/cuda/NAME/ for a multi-file program), linked like any CUDA
#    program against the CUDA toolkit's libcudart.so.13.
# 4. Runs each with LD_LIBRARY_PATH=<cudart-lib>, in the shim's default timing mode unless
#    WARPSIM_MODE is set (e.g. WARPSIM_MODE=functional scripts/test-cudart.sh; a program's own
#    ENV directive wins). A program passes when it exits 0, its last
#    stdout line is "PASS NAME", and its directives hold. Directives are comment lines in the
#    program's (first) source file:
#      // NVCC-FLAGS: flags         extra nvcc flags (-arch/-gencode replace -arch=sm_75)
#      // ENV: VAR=value            set for the run
#      // EXPECT-STDERR: text       stderr must contain text
#      // EXPECT-STATS: text        the WARPSIM_STATS file of the run must contain text
#      // EXPECT-PTX: text          the PTX nvcc generates for the (first) source must contain
#                                   text (proves the program exercises the instruction)
#      // DEVICE-LINK: separate     build as separate compilation does: each source with
#                                   `nvcc -dc`, the device code linked by `nvcc -dlink`, the
#                                   objects linked by the host compiler (g++)
#    and NAME.expected, when present, must equal stdout exactly.
# Exits non-zero naming the programs that failed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
jobs="${WARPSIM_TEST_JOBS:-2}"
run_timeout="${WARPSIM_TEST_TIMEOUT:-120}"

say() { echo "test-cudart: $*" >&2; }
die() { say "$*"; exit 1; }

# --- 1. the shim --------------------------------------------------------------------------
if [[ -n "${WARPSIM_CUDART_LIB:-}" ]]; then
    lib="$WARPSIM_CUDART_LIB"
    [[ -f "$lib" ]] || die "WARPSIM_CUDART_LIB=$lib does not exist"
else
    target="${CARGO_TARGET_DIR:-$repo/target}"
    say "building the shim (cargo build --release -p warpsim-cudart)"
    cargo build --release -p warpsim-cudart >&2
    lib="$target/release/libwarpsim_cudart.so"
fi
libdir="$(cd "$(dirname "$lib")" && pwd)/cudart-lib"
mkdir -p "$libdir"
cp "$lib" "$libdir/.libcudart.so.13.tmp"
mv -f "$libdir/.libcudart.so.13.tmp" "$libdir/libcudart.so.13"
shim="$libdir/libcudart.so.13"
# (Whole outputs are captured first: `grep -q` in a pipeline would SIGPIPE the producer.)
dynamic="$(readelf -d "$shim")"
exports="$(nm -D --defined-only "$shim")"
grep -q 'SONAME.*\[libcudart\.so\.13\]' <<<"$dynamic" || die "$shim has no soname libcudart.so.13"
grep -q ' cudaMalloc@@libcudart\.so\.13$' <<<"$exports" ||
    die "$shim does not export cudaMalloc@@libcudart.so.13 (symbol versions missing)"
unversioned="$(grep -v '@@libcudart\.so\.13$' <<<"$exports" | grep -v ' libcudart\.so\.13$' || true)"
[[ -z "$unversioned" ]] || die "$shim exports symbols without version libcudart.so.13:"$'\n'"$unversioned"
say "shim: $shim"

# --- 2. nvcc ------------------------------------------------------------------------------
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
    say "nvcc is not on PATH nor in $dir; installing it"
    local bin
    bin="$("$repo/scripts/install-cuda.sh" "$dir")" || return 1
    echo "$bin/nvcc"
}
nvcc="$(find_nvcc)" || die "cannot find or install nvcc (see scripts/install-cuda.sh)"
[[ -x "$nvcc" ]] || die "no nvcc at $nvcc"
cuda_bin="$(cd "$(dirname "$nvcc")" && pwd)"
export PATH="$cuda_bin:$PATH"
say "nvcc: $nvcc ($("$nvcc" --version | sed -n 's/.*, V\([0-9.]*\)$/\1/p'))"

build="$libdir/../cudart-tests"
mkdir -p "$build/link"
build="$(cd "$build" && pwd)"
# Link like a user would: against the toolkit's libcudart.so.13 when it is there (its
# symbols carry the version libcudart.so.13 too), else against the shim itself.
real="$cuda_bin/../lib/libcudart.so.13"
if [[ -f "$real" ]]; then
    ln -sfn "$(cd "$(dirname "$real")" && pwd)/libcudart.so.13" "$build/link/libcudart.so"
else
    ln -sfn "$shim" "$build/link/libcudart.so"
fi

# --- 3. compile -----------------------------------------------------------------------------
names=()
if [[ $# -gt 0 ]]; then
    names=("$@")
else
    for f in tests/cuda/*.cu tests/cuda/*/; do
        n="$(basename "$f")"
        names+=("${n%.cu}")
    done
fi

sources_of() {
    if [[ -d "tests/cuda/$1" ]]; then
        ls "tests/cuda/$1"/*.cu
    elif [[ -f "tests/cuda/$1.cu" ]]; then
        echo "tests/cuda/$1.cu"
    else
        return 1
    fi
}

directive() { # directive NAME KEY: the values of `// KEY: value` lines in NAME's first source
    local first
    first="$(sources_of "$1" | head -n1)"
    sed -n "s|^// $2: \(.*\)$|\1|p" "$first"
}

build_whole() { # build_whole EXE FLAGS SRC...: one nvcc command
    local exe="$1" flags="$2"
    shift 2
    # shellcheck disable=SC2086
    nvcc -cudart shared $flags -o "$exe" "$@" -L"$build/link"
}

build_separate() { # build_separate EXE FLAGS SRC...: nvcc -dc each, nvcc -dlink, g++ links
    local exe="$1" flags="$2" objs=() src
    shift 2
    for src in "$@"; do
        objs+=("$exe.$(basename "$src" .cu).o")
        # shellcheck disable=SC2086
        nvcc $flags -dc -o "${objs[-1]}" "$src" || return 1
    done
    # shellcheck disable=SC2086
    nvcc $flags -dlink -o "$exe.dlink.o" "${objs[@]}" &&
        g++ -o "$exe" "${objs[@]}" "$exe.dlink.o" -L"$build/link" -lcudart
}

compile() {
    local name="$1" srcs flags exe="$build/$1"
    srcs="$(sources_of "$name" | tr '\n' ' ')"
    flags="$(directive "$name" NVCC-FLAGS | tr '\n' ' ')"
    local arch="-arch=sm_75"
    [[ "$flags" == *-gencode* || "$flags" == *-arch* ]] && arch=""
    # A directory program's headers count too.
    local deps="$srcs"
    [[ -d "tests/cuda/$name" ]] && deps="$(ls "tests/cuda/$name"/* | tr '\n' ' ')"
    local stamp="$exe.flags" want="$arch $flags|$(sha256sum $deps tests/cuda/check.h | sha256sum)"
    if [[ -x "$exe" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        return 0
    fi
    local build_cmd=build_whole
    [[ "$(directive "$name" DEVICE-LINK)" == separate ]] && build_cmd=build_separate
    # shellcheck disable=SC2086
    if $build_cmd "$exe" "$arch $flags" $srcs >"$exe.build.log" 2>&1 &&
        { [[ -z "$(directive "$name" EXPECT-PTX)" ]] ||
            nvcc $arch $flags -ptx -o "$exe.ptx" "$(sources_of "$name" | head -n1)" >>"$exe.build.log" 2>&1; }; then
        echo "$want" >"$stamp"
    else
        cat "$exe.build.log" >&2
        return 1
    fi
}

say "compiling ${#names[@]} programs"
declare -A compile_failed=()
pids=()
for name in "${names[@]}"; do
    sources_of "$name" >/dev/null || die "no program tests/cuda/$name.cu or tests/cuda/$name/"
    compile "$name" &
    pids+=("$!:$name")
    if ((${#pids[@]} >= jobs)); then
        entry="${pids[0]}"
        pids=("${pids[@]:1}")
        wait "${entry%%:*}" || compile_failed["${entry#*:}"]=1
    fi
done
for entry in "${pids[@]}"; do
    wait "${entry%%:*}" || compile_failed["${entry#*:}"]=1
done

# --- 4. run -----------------------------------------------------------------------------------
failed=()
passed=0
for name in "${names[@]}"; do
    if [[ -n "${compile_failed[$name]:-}" ]]; then
        failed+=("$name (compile)")
        continue
    fi
    exe="$build/$name" out="$build/$name.stdout" err="$build/$name.stderr" stats="$build/$name.stats.jsonl"
    rm -f "$stats"
    envs=()
    while IFS= read -r line; do
        [[ -n "$line" ]] && envs+=("$line")
    done < <(directive "$name" ENV)
    rc=0
    env LD_LIBRARY_PATH="$libdir" WARPSIM_STATS="$stats" "${envs[@]}" timeout "$run_timeout" "$exe" >"$out" 2>"$err" || rc=$?
    why=""
    if [[ $rc -ne 0 ]]; then
        why="exit status $rc"
    elif [[ "$(tail -n1 "$out")" != "PASS $name" ]]; then
        why="last line is not 'PASS $name'"
    elif [[ -f "tests/cuda/$name.expected" ]] && ! diff -u "tests/cuda/$name.expected" "$out" >"$build/$name.diff"; then
        why="stdout differs from tests/cuda/$name.expected"
    elif grep -q "no version information available\|version \`libcudart" "$err"; then
        why="dynamic linker version warning"
    else
        while IFS= read -r want; do
            if [[ -n "$want" ]] && ! grep -qF -- "$want" "$err"; then
                why="stderr lacks: $want"
                break
            fi
        done < <(directive "$name" EXPECT-STDERR)
        while IFS= read -r want; do
            if [[ -z "$why" && -n "$want" ]] && ! grep -qF -- "$want" "$stats" 2>/dev/null; then
                why="WARPSIM_STATS lacks: $want"
                break
            fi
        done < <(directive "$name" EXPECT-STATS)
        while IFS= read -r want; do
            if [[ -z "$why" && -n "$want" ]] && ! grep -qF -- "$want" "$exe.ptx" 2>/dev/null; then
                why="the generated PTX lacks: $want"
                break
            fi
        done < <(directive "$name" EXPECT-PTX)
    fi
    if [[ -z "$why" ]]; then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed+=("$name ($why)")
        echo "FAIL $name: $why"
        echo "---- stdout (last 20 lines)"
        tail -n 20 "$out"
        echo "---- stderr (last 20 lines)"
        tail -n 20 "$err"
        [[ -f "$build/$name.diff" ]] && head -n 40 "$build/$name.diff"
        echo "----"
    fi
done

echo "test-cudart: $passed passed, ${#failed[@]} failed (programs and logs in $build)"
if [[ ${#failed[@]} -gt 0 ]]; then
    printf 'test-cudart: FAILED %s\n' "${failed[@]}"
    exit 1
fi
