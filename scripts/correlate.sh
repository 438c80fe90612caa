#!/usr/bin/env bash
# Runs the correlation set (correlation/programs) on warpsim and on GPGPU-Sim and writes the
# side-by-side table (correlation/README.md). Not needed by CI or by warpsim's users.
#
#   scripts/correlate.sh --gpgpusim DIR [--source SRC] [--out DIR] [--jobs N]
#                        [--presets "gtx480 titanx-pascal qv100 rtx2060 rtx3070"] [--policies "gto lrr"]
#                        [--programs "lat_int dot ..."] [--sides "warpsim gpgpusim"] [--fresh]
#                        [--update-reference | --merge-reference] [--set KEY=VALUE ...]
#
#   --gpgpusim DIR   GPGPU-Sim's build folder: the WORKDIR of ../shared/tools/gpgpusim-build.sh
#                    (holding env.sh, nvcc11 and gpgpu-sim/configs). Without it (only with
#                    --sides warpsim) GPGPU-Sim's side comes from the committed reference
#                    (correlation/reference/gpgpusim.csv and .md): after a model change,
#                    `--sides warpsim --update-reference` rewrites the reference's warpsim
#                    side, ratios and tolerances in a few minutes, with nvcc 13.5 only
#   --source SRC     build GPGPU-Sim into DIR first, from SRC (a bare git dir or a source
#                    tree of gpgpu-sim/gpgpu-sim_distribution), with that build script
#                    ($GPGPUSIM_BUILD_SCRIPT, default <repo>/../shared/tools/gpgpusim-build.sh)
#   --out DIR        results (default target/correlation): bin13/ and bin11/ (the programs
#                    for each simulator), runs/PROGRAM/PRESET/POLICY/ (each run's output),
#                    correlation.csv, correlation.md, correlation.svg
#   --sides LIST     which simulators to run (default both); the report reads whatever the
#                    run folders hold
#   --fresh          re-run GPGPU-Sim even where a run folder already holds its result for
#                    the same program source and config (by default such runs are reused:
#                    GPGPU-Sim takes 10-100x longer than warpsim)
#   --update-reference  also write the CSV to correlation/reference/gpgpusim.csv (with each
#                    row's tolerance: today's gap + a margin; crates/cli/tests/correlation.rs)
#                    and the report and plot beside it (gpgpusim.md, gpgpusim.svg)
#   --merge-reference  as --update-reference, but only this run's program x preset x policy
#                    rows are written: the reference's other rows are kept as they are (their
#                    figures, tolerances and wall times; `warpsim correlate --merge`), and
#                    the report and plot are redrawn over all rows. For adding a program (or
#                    refreshing a few) without re-running the whole set
#   --set KEY=VALUE  run warpsim with this config override (`-c KEY=VALUE`; repeatable): a
#                    model option measured against the committed reference, which it never
#                    updates (with --update-reference or --merge-reference: an error)
#
# Steps: build warpsim and its CUDA runtime shim; compile every program with nvcc 13.5
# (`-cudart shared -arch=sm_75`, for warpsim) and with GPGPU-Sim's CUDA 11.8 nvcc
# (compute_35 PTX; compute_70 for a program that needs tensor cores, below); run each
# program under every preset x policy on both simulators (and replay its committed launch
# manifest on warpsim, which must give the same cycles); then
# `warpsim correlate` reads the runs and writes the table and the scatter plot.
# Presets map to GPGPU-Sim's tested configs: gtx480 = SM2_GTX480, titanx-pascal = SM6_TITANX,
# qv100 = SM7_QV100, rtx2060 = SM75_RTX2060, rtx3070 = SM86_RTX3070;
# warpsim runs them as correlation/configs/PRESET.toml (the preset plus the settings of that
# config it does not model by default: the TITAN X config's perfect I- and constant caches).
#
# Tensor-core programs: a program whose committed PTX (correlation/programs/NAME.ptx) holds a
# warp-level matrix instruction (wmma.* or mma.*) needs tensor cores. Nothing marks it by hand:
# the script reads that PTX. Such a program is compiled for GPGPU-Sim as compute_70 PTX
# (`-gencode arch=compute_70,code=compute_70`: tensor instructions need sm_70; GPGPU-Sim 4.2
# runs only the nvcuda::wmma forms, not mma.sync or ldmatrix) and runs only on the presets
# with tensor units (qv100, rtx2060, rtx3070); its runs on gtx480 and titanx-pascal are
# skipped, and the script says so.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { echo "correlate: $*" >&2; }
die() { say "$*"; exit 1; }

gpgpusim="" source_dir="" out="$repo/target/correlation" jobs=2 update=0 merge=0 sets=""
presets="gtx480 titanx-pascal qv100 rtx2060 rtx3070" policies="gto lrr" programs="" sides="warpsim gpgpusim" fresh=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --gpgpusim) gpgpusim="$2"; shift 2 ;;
        --source) source_dir="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --presets) presets="$2"; shift 2 ;;
        --policies) policies="$2"; shift 2 ;;
        --programs) programs="$2"; shift 2 ;;
        --sides) sides="$2"; shift 2 ;;
        --fresh) fresh=1; shift ;;
        --update-reference) update=1; shift ;;
        --merge-reference) update=1; merge=1; shift ;;
        --set) [[ "${2:-}" == *=* && "$2" != *" "* ]] || die "--set takes KEY=VALUE (no spaces)"
               sets="$sets $2"; shift 2 ;;
        -h|--help) sed -n '2,56p' "$0"; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
gpgpusim_from=""
[[ -z "$sets" || $update -eq 0 ]] || die "--set measures an option against the reference: it cannot --update-reference or --merge-reference"
export CORRELATE_SETS="$sets"
[[ -z "$source_dir" || -n "$gpgpusim" ]] || die "--source needs --gpgpusim DIR to build into"
if [[ -z "$gpgpusim" ]]; then
    [[ " $sides " != *" gpgpusim "* ]] || die "--gpgpusim DIR is required to run GPGPU-Sim (or use --sides warpsim; see --help)"
    gpgpusim_from="$repo/correlation/reference/gpgpusim.csv"
    [[ -f "$gpgpusim_from" ]] || die "no $gpgpusim_from to take GPGPU-Sim's side from"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [[ -n "$gpgpusim" ]]; then
    mkdir -p "$gpgpusim"
    gpgpusim="$(cd "$gpgpusim" && pwd)"
fi
progdir="$repo/correlation/programs"
if [[ -z "$programs" ]]; then
    programs="$(cd "$progdir" && ls *.cu | sed 's/\.cu$//' | tr '\n' ' ')"
fi

gpgpusim_config() { # preset -> GPGPU-Sim tested config
    case "$1" in
        gtx480) echo SM2_GTX480 ;;
        titanx-pascal) echo SM6_TITANX ;;
        qv100) echo SM7_QV100 ;;
        rtx2060) echo SM75_RTX2060 ;;
        rtx3070) echo SM86_RTX3070 ;;
        *) die "no GPGPU-Sim config for preset $1 (gtx480, titanx-pascal, qv100, rtx2060, rtx3070)" ;;
    esac
}
gpgpusim_scheduler() { # policy -> -gpgpu_scheduler value
    case "$1" in
        gto) echo gto ;;
        lrr) echo lrr ;;
        tls) echo two_level_active:6:0:1 ;;
        *) die "no GPGPU-Sim scheduler for policy $1 (gto, lrr, tls)" ;;
    esac
}
has_tensor_cores() { # preset -> whether it has tensor units (warpsim's units.tensor > 0)
    case "$1" in
        qv100|rtx2060|rtx3070) return 0 ;;
        *) return 1 ;;
    esac
}
needs_tensor_cores() { # program -> whether its committed PTX holds a warp-level matrix instruction
    grep -qE '^[[:space:]]*(@!?%[a-z0-9_]+[[:space:]]+)?(wmma|mma)\.' "$progdir/$1.ptx"
}
for p in $presets; do gpgpusim_config "$p" >/dev/null; done
for p in $policies; do gpgpusim_scheduler "$p" >/dev/null; done

# --- 1. GPGPU-Sim -------------------------------------------------------------------------
if [[ -n "$source_dir" ]]; then
    build="${GPGPUSIM_BUILD_SCRIPT:-$repo/../shared/tools/gpgpusim-build.sh}"
    [[ -x "$build" ]] || die "no GPGPU-Sim build script at $build (set GPGPUSIM_BUILD_SCRIPT)"
    say "building GPGPU-Sim into $gpgpusim from $source_dir"
    "$build" "$gpgpusim" "$source_dir" >&2
fi
for f in env.sh nvcc11 gpgpu-sim/configs/tested-cfgs; do
    [[ -z "$gpgpusim" || -e "$gpgpusim/$f" ]] || die "$gpgpusim/$f is missing: not a GPGPU-Sim build folder (use --source to build one)"
done

# --- 2. warpsim and its shim ----------------------------------------------------------------
target="${CARGO_TARGET_DIR:-$repo/target}/release"
warpsim="$target/warpsim"
if [[ " $sides " == *" warpsim "* || $update -eq 1 || ! -x "$warpsim" ]]; then
    say "building warpsim and the CUDA runtime shim (cargo build --release)"
    (cd "$repo" && cargo build --release -p warpsim -p warpsim-cudart >&2)
    mkdir -p "$target/cudart-lib"
    cp "$target/libwarpsim_cudart.so" "$target/cudart-lib/.libcudart.so.13.tmp"
    mv -f "$target/cudart-lib/.libcudart.so.13.tmp" "$target/cudart-lib/libcudart.so.13"
fi
export WARPSIM_CUDART="$target/cudart-lib/libcudart.so.13"

# --- 3. compile -----------------------------------------------------------------------------
# nvcc 13.5: PATH, else $WARPSIM_CUDA_DIR (default .cache/cuda), else install it there.
if [[ " $sides " == *" warpsim "* ]]; then
    cuda13="${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}/nvidia/cu13/bin"
    if command -v nvcc >/dev/null 2>&1 && nvcc --version | grep -q 'release 13'; then
        nvcc13="$(command -v nvcc)"
    elif [[ -x "$cuda13/nvcc" ]]; then
        nvcc13="$cuda13/nvcc"
    else
        nvcc13="$("$repo/scripts/install-cuda.sh" "${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}")/nvcc"
    fi
fi
mkdir -p "$out/bin13" "$out/bin11"
if [[ " $sides " == *" warpsim "* ]]; then
    # Link like any CUDA program, against the toolkit's libcudart.so.13 (the shim replaces
    # it at run time); nvcc's -lcudart wants the unversioned name.
    mkdir -p "$out/link"
    ln -sfn "$(cd "$(dirname "$nvcc13")/../lib" && pwd)/libcudart.so.13" "$out/link/libcudart.so"
fi
compile() {
    local name="$1"
    if [[ " $sides " == *" warpsim "* ]]; then
        (cd "$progdir" && PATH="$(dirname "$nvcc13"):$PATH" "$nvcc13" -O3 -cudart shared -arch=sm_75 \
            -o "$out/bin13/$name" "$name.cu" -L"$out/link") || return 1
    fi
    if [[ " $sides " == *" gpgpusim "* ]]; then
        local arch=compute_35
        if needs_tensor_cores "$name"; then arch=compute_70; fi
        (cd "$progdir" && "$gpgpusim/nvcc11" -O3 -cudart shared -cudadevrt none -Wno-deprecated-gpu-targets \
            -gencode "arch=$arch,code=$arch" -o "$out/bin11/$name" "$name.cu") || return 1
    fi
}
say "compiling: $programs"
for name in $programs; do
    [[ -f "$progdir/$name.cu" ]] || die "no program $progdir/$name.cu"
    [[ -f "$progdir/$name.ptx" ]] || die "no $progdir/$name.ptx (scripts/micro-kernels.sh regen)"
    compile "$name" || die "compiling $name failed"
done

# --- 4. run ---------------------------------------------------------------------------------
# One run = one folder runs/PROGRAM/PRESET/POLICY/ with
#   warpsim.{stdout,stderr,jsonl,rc,wall}   warpsim exec of the nvcc 13.5 program
#   replay.{stdout,json,rc}                 warpsim run of correlation/programs/PROGRAM.toml
#   gpgpusim.{log,rc,wall}                  the CUDA 11.8 program under GPGPU-Sim
run_one() {
    local name="$1" preset="$2" policy="$3"
    local dir="$out/runs/$name/$preset/$policy" t0 t1 rc
    mkdir -p "$dir"
    # Two correlate.sh runs on one --out folder take turns on a run: GPGPU-Sim writes its PTX
    # files into the run's config folder, and two GPGPU-Sims there can crash (seen: exit 139).
    exec 9>"$dir/.lock"
    flock 9
    if [[ " $sides " == *" warpsim "* ]]; then
        rm -f "$dir"/warpsim.* "$dir"/replay.*
        # The manifest's registers per thread (GPGPU-Sim's count where the two compilers'
        # counts give different occupancy: correlation/README.md) for the program too.
        local regs=() r
        for r in $(sed -n 's/^registers *= *{\(.*\)}.*/\1/p' "$repo/correlation/programs/$name.toml" | tr -d ' ' | tr ',' ' '); do
            regs+=(--registers "$r")
        done
        # --set overrides, for both the program and its manifest replay.
        local overrides=() kv
        for kv in $CORRELATE_SETS; do overrides+=(-c "$kv"); done
        t0=$(date +%s.%N)
        rc=0
        (cd "$dir" && timeout 600 "$warpsim" exec --config "$repo/correlation/configs/$preset.toml" --policy "$policy" \
            "${regs[@]}" "${overrides[@]}" --stats "$dir/warpsim.jsonl" -- "$out/bin13/$name" >warpsim.stdout 2>warpsim.stderr) || rc=$?
        t1=$(date +%s.%N)
        echo "$rc" >"$dir/warpsim.rc"
        echo "$t1 - $t0" | bc >"$dir/warpsim.wall"
        rc=0
        (cd "$repo/correlation/programs" && timeout 600 "$warpsim" run --config "../configs/$preset.toml" --policy "$policy" \
            "${overrides[@]}" --stats "$dir/replay.json" "$name.toml" >"$dir/replay.stdout" 2>&1) || rc=$?
        echo "$rc" >"$dir/replay.rc"
    fi
    if [[ " $sides " == *" gpgpusim "* ]]; then
        # GPGPU-Sim reads gpgpusim.config (and the interconnect file it names) from its
        # working folder and writes its PTX files there.
        local cfg="$dir/gpgpusim"
        rm -rf "$cfg"
        mkdir -p "$cfg"
        cp "$gpgpusim/gpgpu-sim/configs/tested-cfgs/$(gpgpusim_config "$preset")"/* "$cfg/"
        sed -i -e '/^-gpuwattch_xml_file/d' -e '/^-accelwattch_xml_file/d' -e '/^-power_simulation_enabled/d' \
            -e '/^-gpgpu_scheduler/d' "$cfg/gpgpusim.config"
        printf '%s\n' "-power_simulation_enabled 0" "-gpgpu_scheduler $(gpgpusim_scheduler "$policy")" \
            >>"$cfg/gpgpusim.config"
        local stamp
        # (nvcc's binaries differ from build to build, so the stamp is the sources and config.)
        stamp="$(cat "$repo/correlation/programs/$name.cu" "$repo/correlation/programs/"*.h "$cfg"/* | sha256sum | cut -d' ' -f1)"
        if [[ $fresh -eq 0 && "$(cat "$dir/gpgpusim.rc" 2>/dev/null)" == 0 && \
              "$(cat "$dir/gpgpusim.stamp" 2>/dev/null)" == "$stamp" ]]; then
            say "reusing GPGPU-Sim's run of $name $preset $policy"
        else
            rm -f "$dir"/gpgpusim.*
            t0=$(date +%s.%N)
            rc=0
            (cd "$cfg" && set +u && source "$gpgpusim/env.sh" && \
                timeout 1800 "$out/bin11/$name" >"$dir/gpgpusim.log" 2>&1) || rc=$?
            t1=$(date +%s.%N)
            echo "$rc" >"$dir/gpgpusim.rc"
            echo "$t1 - $t0" | bc >"$dir/gpgpusim.wall"
            echo "$stamp" >"$dir/gpgpusim.stamp"
        fi
        rm -rf "$cfg"
    fi
    say "done $name $preset $policy (rc: warpsim $(cat "$dir/warpsim.rc" 2>/dev/null), replay $(cat "$dir/replay.rc" 2>/dev/null), gpgpusim $(cat "$dir/gpgpusim.rc" 2>/dev/null))"
}
export -f run_one gpgpusim_config gpgpusim_scheduler say die
export out repo warpsim gpgpusim sides fresh

# By policy, then preset: with a slow GPGPU-Sim, the first policy's table is whole first.
runs=()
for policy in $policies; do
    for preset in $presets; do
        for name in $programs; do
            if needs_tensor_cores "$name" && ! has_tensor_cores "$preset"; then
                [[ "$policy" != "${policies%% *}" ]] || say "skipping $name on $preset: it needs tensor cores, which $preset has none of"
                continue
            fi
            runs+=("$name $preset $policy")
        done
    done
done
[[ ${#runs[@]} -gt 0 ]] || die "no runs left: every program chosen needs tensor cores and no preset chosen has them"
say "${#runs[@]} runs, $jobs at a time"
printf '%s\n' "${runs[@]}" | xargs -P "$jobs" -L 1 bash -c 'run_one $0 $1 $2'

# --- 5. report ------------------------------------------------------------------------------
args=(correlate "$out/runs" --out "$out")
[[ -z "$gpgpusim_from" ]] || args+=(--gpgpusim-from "$gpgpusim_from")
if [[ $update -eq 1 ]]; then
    mkdir -p "$repo/correlation/reference"
    args+=(--reference "$repo/correlation/reference/gpgpusim.csv")
    [[ $merge -eq 0 ]] || args+=(--merge "$repo/correlation/reference/gpgpusim.csv")
fi
"$warpsim" "${args[@]}"
if [[ $update -eq 1 ]]; then
    cp "$out/correlation.md" "$repo/correlation/reference/gpgpusim.md"
    cp "$out/correlation.svg" "$repo/correlation/reference/gpgpusim.svg"
fi
