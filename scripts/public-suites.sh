#!/usr/bin/env bash
# Builds Rodinia and PolyBench/GPU CUDA programs for warpsim (nvcc -cudart shared -arch=sm_75),
# writes their input files, and writes a LIST for scripts/public-programs.sh: the standing check
# of how much real public CUDA code runs (issue 40, item 7). Fetches nothing; the suites'
# sources are not ours and are not in this repository. Not run by CI.
#
#   scripts/public-suites.sh RODINIA POLYBENCH LIST [--nvcc PATH] [--cuda-samples DIR]
#
#   RODINIA    an extracted https://github.com/yuhc/gpu-rodinia (used: commit
#              9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, 2023-04-13): the folder holding cuda/.
#              The mirror's data/ folder is empty (Rodinia's inputs are a separate download),
#              so this script writes the inputs it needs under RODINIA/data/ (random, fixed
#              seeds), except srad_v1's image (cuda/srad/srad_v1/image_out.pgm is copied in).
#   POLYBENCH  an extracted https://github.com/sgrauerg/polybenchGpu (used: commit
#              5584aaa7d0be810ff5eb0b61c49fb64ecc81ba4c, 2013-09-05): the folder holding CUDA/
#              and common/.
#   LIST       written here: one program a line, `NAME DIR COMMAND [ARGS...]`, absolute DIRs.
#   --nvcc     default: the first nvcc under <repo>/.cache/cuda or /work/main/.cache/cuda,
#              else nvcc on PATH.
#   --cuda-samples  an extracted https://github.com/NVIDIA/cuda-samples (used: commit
#              c94ff366aed18c797b8a85dfaac7817b0228b420, 2025-09-05; only Common/ is needed):
#              Rodinia's cfd includes its helper_cuda.h. Without it cfd is not built.
#
# To extract from a bare clone (paths whose blobs a partial mirror lacks make git archive
# fail, hence one folder at a time; the mirror used lacked cuda/hotspot3D/output.out and
# cuda/lavaMD/result.txt, outputs nothing reads, so those two folders were copied file by file
# with git cat-file -p HEAD:PATH):
#   for d in b+tree backprop bfs cfd dwt2d gaussian hotspot hotspot3D huffman hybridsort kmeans \
#            lavaMD lud nn nw particlefilter pathfinder srad streamcluster util; do
#       git --git-dir=G archive HEAD cuda/$d | tar -x -C RODINIA; done
#   git --git-dir=G2 archive HEAD CUDA common | tar -x -C POLYBENCH
#
# Inputs are smaller than the suites' defaults so that each run takes well under a minute in
# timing mode on a 2-core machine; each choice is beside its program below. A program that
# fails to build is reported and left out of LIST (kmeans, hybridsort: texture references,
# which CUDA 12 removed; PolyBench's doitgen: rtclock undeclared).
# Then:
#   scripts/public-programs.sh LIST OUT.csv --timeout 120 --logs LOGS
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { echo "public-suites: $*" >&2; }
die() { say "$*"; exit 2; }

[[ $# -ge 3 ]] || die "usage: public-suites.sh RODINIA POLYBENCH LIST [--nvcc PATH] [--cuda-samples DIR]"
rod="$(cd "$1" && pwd)" || die "no folder $1"
poly="$(cd "$2" && pwd)" || die "no folder $2"
list="$3"; shift 3
nvcc="" samples=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --nvcc) nvcc="$2"; shift 2 ;;
        --cuda-samples) samples="$(cd "$2" && pwd)" || die "no folder $2"; shift 2
            [[ -f "$samples/Common/helper_cuda.h" ]] || die "$samples has no Common/helper_cuda.h" ;;
        *) die "unknown argument $1" ;;
    esac
done
if [[ -z "$nvcc" ]]; then
    for c in "$repo/.cache/cuda" /work/main/.cache/cuda; do
        [[ -d "$c" ]] && nvcc="$(find "$c" -name nvcc -type f | head -1)" && [[ -n "$nvcc" ]] && break
    done
    [[ -n "$nvcc" ]] || nvcc="$(command -v nvcc || true)"
fi
[[ -x "$nvcc" ]] || die "no nvcc (give --nvcc PATH)"
[[ -d "$rod/cuda" ]] || die "$rod has no cuda/ (extract gpu-rodinia there)"
[[ -d "$poly/CUDA" && -d "$poly/common" ]] || die "$poly has no CUDA/ and common/ (extract polybenchGpu there)"

# Link like a user would, against the toolkit's libcudart.so.13 (scripts/test-cudart.sh does
# the same); exec puts the shim in its place at run time. CUDA 13 removed
# cudaThreadSynchronize (deprecated since CUDA 4): the programs get cudaDeviceSynchronize.
link="$(mktemp -d)"
trap 'rm -rf "$link"' EXIT
ln -s "$(cd "$(dirname "$nvcc")/../lib" && pwd)/libcudart.so.13" "$link/libcudart.so"
NV=("$nvcc" -cudart shared -arch=sm_75 -O3 -w -L"$link" -DcudaThreadSynchronize=cudaDeviceSynchronize)
: > "$list"
built=0 failed=0
# build NAME DIR -- NVCC-ARGS... ; then `entry NAME DIR COMMAND...` adds the LIST line.
build() {
    local name="$1" dir="$2"; shift 3
    if (cd "$dir" && "${NV[@]}" "$@") > "/tmp/public-suites.$name.log" 2>&1; then
        built=$((built + 1)); return 0
    fi
    failed=$((failed + 1))
    say "$name does not build: $(grep -m1 -i error "/tmp/public-suites.$name.log")"
    return 1
}
entry() { echo "$*" >> "$list"; }

# ---- Rodinia inputs (fixed seeds) ----
data="$rod/data"
mkdir -p "$data/bfs" "$data/hotspot" "$data/b+tree" "$data/srad" "$data/nn"
# bfs: 65536 nodes, 4-8 random out-edges each (Rodinia's graph65536 has about 6).
awk 'BEGIN { srand(40); n = 65536; print n; e = 0
    for (i = 0; i < n; i++) { d[i] = 4 + int(rand() * 5); print e, d[i]; e += d[i] }
    print 0; print e
    for (i = 0; i < n; i++) for (j = 0; j < d[i]; j++) print int(rand() * n), 1 + int(rand() * 10) }' \
    > "$data/bfs/graph65536.txt"
# hotspot: 512 x 512 temperatures (320-340 K) and powers (0-0.001 W), one value a line.
awk 'BEGIN { srand(41); for (i = 0; i < 512 * 512; i++) printf "%.6f\n", 320 + 20 * rand() }' > "$data/hotspot/temp_512"
awk 'BEGIN { srand(42); for (i = 0; i < 512 * 512; i++) printf "%.8f\n", 0.001 * rand() }' > "$data/hotspot/power_512"
# b+tree: 100000 keys (Rodinia's mil.txt has a million); 1000 point queries, 1000 range queries.
awk 'BEGIN { srand(43); n = 100000; print n; for (i = 0; i < n; i++) print int(rand() * 1000000) }' > "$data/b+tree/mil.txt"
printf 'k 1000\nj 1000 100\n' > "$data/b+tree/command.txt"
cp "$rod/cuda/srad/srad_v1/image_out.pgm" "$data/srad/image.pgm"
# dwt2d: a 192 x 192 RGB "image" (it reads raw bytes; run.sh: 192.bmp, 192 x 192).
mkdir -p "$data/dwt2d"
awk 'BEGIN { srand(46); for (i = 0; i < 192 * 192 * 3 + 54; i++) printf "%c", 32 + int(rand() * 95) }' > "$data/dwt2d/192.bmp"
# cfd: a ring of 8192 elements (each with its two ring neighbours, a wing face and a far-field
# face; Rodinia's meshes, fvcorr.domn.097K and others, are not in the mirror).
mkdir -p "$data/cfd"
awk 'BEGIN { n = 8192; print n; for (i = 0; i < n; i++) { l = (i + n - 1) % n + 1; r = (i + 1) % n + 1
    printf "0.01 %d -0.1 0 0 %d 0.1 0 0 0 0 -0.1 0 -1 0 0.1 0\n", l, r } }' > "$data/cfd/ring8192"
# huffman: 64 KiB of letters, skewed towards 'a' (run: test1024_H2.206587175259.in, not in
# the mirror).
mkdir -p "$data/huffman"
awk 'BEGIN { srand(47); for (i = 0; i < 65536; i++) { r = rand(); printf "%c", 97 + int(26 * r * r) } }' > "$data/huffman/skewed.in"
# hotspot3D: 64 x 64 x 8 powers and temperatures (run script: 512 x 512 x 8).
mkdir -p "$data/hotspot3D"
awk 'BEGIN { srand(44); for (i = 0; i < 64 * 64 * 8; i++) printf "%.8f\n", 0.001 * rand() }' > "$data/hotspot3D/power_64x8"
awk 'BEGIN { srand(45); for (i = 0; i < 64 * 64 * 8; i++) printf "%.6f\n", 320 + 20 * rand() }' > "$data/hotspot3D/temp_64x8"

R="$rod/cuda"
# backprop: 65536 input units (run script: 2097152).
build backprop "$R/backprop" -- backprop.c facetrain.c imagenet.c backprop_cuda.cu -Xcompiler -fopenmp -o backprop \
    && entry backprop "$R/backprop" ./backprop 65536
build bfs "$R/bfs" -- -I../util bfs.cu -o bfs.out && entry bfs "$R/bfs" ./bfs.out ../../data/bfs/graph65536.txt
# gaussian: a random 256 x 256 system (run script: -s 16 and a 4 x 4 file).
# CUDA 13 removed cudaDeviceProp::clockRate and ::deviceOverlap, which gaussian prints: a copy
# prints 0 and asyncEngineCount instead.
sed -e 's/deviceProp\.clockRate/0/' -e 's/deviceProp\. *deviceOverlap/deviceProp.asyncEngineCount/' \
    "$R/gaussian/gaussian.cu" > "$R/gaussian/gaussian_cuda13.cu"
build gaussian "$R/gaussian" -- -I../util gaussian_cuda13.cu -o gaussian && entry gaussian "$R/gaussian" ./gaussian -s 256
build hotspot "$R/hotspot" -- -I../util hotspot.cu -o hotspot \
    && entry hotspot "$R/hotspot" ./hotspot 512 2 2 ../../data/hotspot/temp_512 ../../data/hotspot/power_512 output.out
build kmeans "$R/kmeans" -- cluster.c getopt.c kmeans.c kmeans_clustering.c kmeans_cuda.cu rmse.c -Xcompiler -fopenmp -o kmeans \
    && entry kmeans "$R/kmeans" ./kmeans -o -i ../../data/kmeans/kdd_cup
build lud "$R/lud/cuda" -- -I../common -I../../util lud.cu lud_kernel.cu ../common/common.c -o lud_cuda \
    && entry lud "$R/lud" cuda/lud_cuda -s 256 -v
# nn: hurricane_gen 42760 4, as gen_dataset.sh (its records under ../../data/nn/, as filelist_4 names).
if gcc -O2 -o "$R/nn/hurricane_gen" "$R/nn/hurricane_gen.c" -lm 2>/dev/null; then
    (cd "$data/nn" && mkdir -p data && "$R/nn/hurricane_gen" 42760 4 > /dev/null && mv data/* . && rmdir data)
    build nn "$R/nn" -- -I../util nn_cuda.cu -o nn && entry nn "$R/nn" ./nn filelist_4 -r 5 -lat 30 -lng 90
else
    failed=$((failed + 1)); say "nn: hurricane_gen does not build"
fi
# nw: 1024 x 1024 (run script: 2048).
build nw "$R/nw" -- -I../util needle.cu -o needle && entry nw "$R/nw" ./needle 1024 10
# pathfinder: 50000 columns (run script: 100000).
build pathfinder "$R/pathfinder" -- -I../util pathfinder.cu -o pathfinder && entry pathfinder "$R/pathfinder" ./pathfinder 50000 100 20
# srad_v1: 10 iterations (run script: 100) of the 502 x 458 image.
build srad_v1 "$R/srad/srad_v1" -- main.cu -o srad && entry srad_v1 "$R/srad/srad_v1" ./srad 10 0.5 502 458
# srad_v2: 512 x 512 (run script: 2048 x 2048).
build srad_v2 "$R/srad/srad_v2" -- srad.cu -o srad && entry srad_v2 "$R/srad/srad_v2" ./srad 512 512 0 127 0 127 0.5 2
# streamcluster: 4096 points of 16 dimensions in one chunk (run script: 65536 of 256).
build streamcluster "$R/streamcluster" -- streamcluster_cuda_cpu.cpp streamcluster_cuda.cu streamcluster_header.cu -o sc_gpu \
    && entry streamcluster "$R/streamcluster" ./sc_gpu 10 20 16 4096 4096 1000 none output.txt 1
# b+tree: its kernels see KERNEL_DIM's default; all of it through nvcc, so one link.
build b+tree "$R/b+tree" -- main.c kernel/kernel_gpu_cuda_wrapper.cu kernel/kernel_gpu_cuda_wrapper_2.cu \
    util/timer/timer.c util/num/num.c util/cuda/cuda.cu -o b+tree.out \
    && entry b+tree "$R/b+tree" ./b+tree.out file ../../data/b+tree/mil.txt command ../../data/b+tree/command.txt
# hotspot3D: 64 x 64 x 8, 10 iterations (run script: 512 x 512 x 8, 100); its Makefile's -g -G
# (device debug code, unoptimised PTX) kept.
build hotspot3D "$R/hotspot3D" -- -g -G 3D.cu -o 3D \
    && entry hotspot3D "$R/hotspot3D" ./3D 64 8 10 ../../data/hotspot3D/power_64x8 ../../data/hotspot3D/temp_64x8 output.out
# particlefilter: the run script's sizes (128 x 128 frames, 10 of them, 1000 particles).
build particlefilter_naive "$R/particlefilter" -- -use_fast_math ex_particle_CUDA_naive_seq.cu -o particlefilter_naive \
    && entry particlefilter_naive "$R/particlefilter" ./particlefilter_naive -x 128 -y 128 -z 10 -np 1000
build particlefilter_float "$R/particlefilter" -- -use_fast_math ex_particle_CUDA_float_seq.cu -o particlefilter_float \
    && entry particlefilter_float "$R/particlefilter" ./particlefilter_float -x 128 -y 128 -z 10 -np 1000
# lavaMD: 3 x 3 x 3 boxes (run script: 10 x 10 x 10).
build lavaMD "$R/lavaMD" -- main.c kernel/kernel_gpu_cuda_wrapper.cu util/num/num.c util/timer/timer.c \
    util/device/device.cu -o lavaMD && entry lavaMD "$R/lavaMD" ./lavaMD -boxes1d 3
# dwt2d: run.sh's forward 5/3 transform of 3 levels, and the same with the 9/7 transform.
build dwt2d "$R/dwt2d" -- -I. main.cu dwt.cu components.cu dwt_cuda/fdwt53.cu dwt_cuda/fdwt97.cu dwt_cuda/common.cu \
    dwt_cuda/rdwt97.cu dwt_cuda/rdwt53.cu -o dwt2d \
    && entry dwt2d_53 "$R/dwt2d" ./dwt2d 192.bmp -d 192x192 -f -5 -l 3 \
    && entry dwt2d_97 "$R/dwt2d" ./dwt2d 192.bmp -d 192x192 -f -9 -l 3
# huffman: its Makefile's -g -G; CUDA 13 removed cudaThreadExit and
# cudaDeviceProp::deviceOverlap, which it calls and prints: macros make them cudaDeviceReset and
# asyncEngineCount.
build huffman "$R/huffman" -- -g -G -DcudaThreadExit=cudaDeviceReset -DdeviceOverlap=asyncEngineCount \
    main_test_cu.cu stats_logger.cpp vlc_kernel_sm64huff.cu scan.cu pack_kernels.cu cpuencode.cpp -o pavle \
    && entry huffman "$R/huffman" ./pavle ../../data/huffman/skewed.in
# cfd: its four solvers, 20 iterations (a #define: 2000, so a copy *_small.cu); it includes the
# CUDA samples' helper_cuda.h, which is not in the suite (hybridsort's copy predates CUDA 13).
if [[ -n "$samples" ]]; then
    for v in euler3d euler3d_double pre_euler3d pre_euler3d_double; do
        sed 's/^#define iterations 2000$/#define iterations 20/' "$R/cfd/$v.cu" > "$R/cfd/${v}_small.cu"
        build "cfd_$v" "$R/cfd" -- -I"$samples/Common" "${v}_small.cu" -o "$v" \
            && entry "cfd_$v" "$R/cfd" "./$v" ../../data/cfd/ring8192
    done
else
    say "cfd: not built (give --cuda-samples DIR for its helper_cuda.h)"
fi
# hybridsort: texture references, which CUDA 12
# removed, like kmeans, and its helper_cuda.h reads cudaDeviceProp::computeMode, which CUDA 13
# removed.
build hybridsort "$R/hybridsort" -- main.cu bucketsort.cu mergesort.cu -o hybridsort && entry hybridsort "$R/hybridsort" ./hybridsort r

# ---- PolyBench/GPU ----
# Sizes: every .cuh skips its own when N is defined, but N is also a parameter name in cuda.h,
# so -DN=... breaks the build: a wrapper (NAME_warpsim.cu) includes cuda.h first, then defines
# the sizes and includes the program. jacobi2D.cu defines TSTEPS and N itself, unguarded: the
# wrapper includes a copy (NAME_sized.cu) without the program's own #defines of the sizes given.
P="$poly/CUDA"
pb() { # pb NAME DIR FILE SIZE=VALUE...
    local name="$1" dir="$2" file="$3" d drop=(); shift 3
    for d in "$@"; do drop+=(-e "/^#[[:space:]]*define[[:space:]]\+${d%%=*}[[:space:]]/d"); done
    sed "${drop[@]}" "$P/$dir/$file" > "$P/$dir/${name}_sized.cu"
    {
        echo '#include <cuda.h>'
        echo '#include <cuda_runtime.h>'
        for d in "$@"; do echo "#define ${d%%=*} ${d#*=}"; done
        echo "#include \"${name}_sized.cu\""
    } > "$P/$dir/${name}_warpsim.cu"
    build "$name" "$P/$dir" -- "${name}_warpsim.cu" -o "$name.exe" && entry "$name" "$P/$dir" "./$name.exe"
}
pb 2dconv 2DCONV 2DConvolution.cu N=1 NI=1024 NJ=1024          # default 4096^2
pb 2mm 2MM 2mm.cu N=1 NI=192 NJ=192 NK=192 NL=192           # default 1024
pb 3dconv 3DCONV 3DConvolution.cu N=1 NI=128 NJ=128 NK=128    # default 256
pb 3mm 3MM 3mm.cu N=1 NI=128 NJ=128 NK=128 NL=128 NM=128  # default 512
pb adi ADI adi.cu TSTEPS=1 N=256                                   # default 1024
pb atax ATAX atax.cu N=1 NX=1024 NY=1024                        # default 4096
pb bicg BICG bicg.cu N=1 NX=2048 NY=2048                        # default 4096
# doitgen does not build: it calls rtclock, which is in common/polybench.c, which it does not include.
pb doitgen DOITGEN doitgen.cu NR=64 NQ=64 NP=64                   # default 128
pb correlation CORR correlation.cu M=256 N=256                    # default 2048
pb covariance COVAR covariance.cu M=256 N=256                     # default 2048
pb fdtd2d FDTD-2D fdtd2d.cu N=1 TMAX=20 NX=512 NY=512         # default 500 steps of 2048^2
pb gemm GEMM gemm.cu N=1 NI=256 NJ=256 NK=256                 # default 512
pb gemver GEMVER gemver.cu N=2048                                   # default 4096
pb gesummv GESUMMV gesummv.cu N=2048                                # default 4096
pb gramschmidt GRAMSCHM gramschmidt.cu N=1 NI=256 NJ=256        # default 2048
pb jacobi1d JACOBI1D jacobi1D.cu TSTEPS=500 N=4096                # default 10000 steps
pb jacobi2d JACOBI2D jacobi2D.cu TSTEPS=20 N=512                  # default 20 steps of 1000^2
pb lu LU lu.cu N=256                                                # default 2048
pb mvt MVT mvt.cu N=1024                                            # default 4096
pb syr2k SYR2K syr2k.cu N=1 NI=192 NJ=192                       # default 1024
pb syrk SYRK syrk.cu N=1 NI=256 NJ=256                          # default 1024

say "built $built, failed $failed; $(wc -l < "$list") programs in $list"
