#!/usr/bin/env bash
# PTX census of CCCL (Thrust, CUB, libcu++) and cooperative groups (issue 40, item 3).
# Not run by CI: it takes minutes (Thrust's PTX alone is ~60,000 lines per architecture).
#
#   scripts/ptx-census.sh [OUT_DIR]        (default target/ptx-census)
#
# 1. Compiles each census program tests/cuda/cccl_*.cu to PTX with nvcc
#    for sm_75, sm_80 and sm_90 (nvcc from PATH or $WARPSIM_CUDA_DIR, as test-cudart.sh).
# 2. Lists every distinct instruction form (the opcode with all its modifiers, guards and
#    operands dropped) with its count over all programs and architectures, and per arch.
# 3. Runs warpsim's own loader (`warpsim check`, built if missing) on every PTX file and marks
#    each form the front end rejects ("unsupported").
# Writes OUT_DIR/census.tsv (form, total, sm_75, sm_80, sm_90, status) and prints it sorted
# by count, rejected forms first.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="${1:-target/ptx-census}"
mkdir -p "$out"

if command -v nvcc >/dev/null 2>&1; then
    nvcc="$(command -v nvcc)"
else
    nvcc="${WARPSIM_CUDA_DIR:-$repo/.cache/cuda}/nvidia/cu13/bin/nvcc"
fi
[[ -x "$nvcc" ]] || { echo "ptx-census: no nvcc (set WARPSIM_CUDA_DIR)" >&2; exit 1; }
warpsim="${WARPSIM_BIN:-$repo/target/release/warpsim}"
if [[ ! -x "$warpsim" ]]; then
    cargo build --release -p warpsim >&2
fi

archs=(75 80 90)
progs=()
for f in tests/cuda/cccl_*.cu; do
    grep -q "^#include \"cccl_" "$f" && continue  # an other-arch build of a program already here
    [[ -f "$f" ]] && progs+=("$f")
done

# --- 1. PTX -----------------------------------------------------------------------------------
for f in "${progs[@]}"; do
    n="$(basename "$f" .cu)"
    for a in "${archs[@]}"; do
        ptx="$out/$n.sm_$a.ptx"
        if [[ ! -f "$ptx" || "$f" -nt "$ptx" ]]; then
            echo "ptx-census: $n sm_$a" >&2
            "$nvcc" -arch="sm_$a" -ptx -o "$ptx" "$f" || { echo "ptx-census: $f does not compile for sm_$a" >&2; rm -f "$ptx"; }
        fi
    done
done

# --- 2. instruction forms -----------------------------------------------------------------------
# An instruction line: optional label, optional guard, an opcode word (lowercase letters and
# digits, dotted modifiers, `::` scopes) followed by whitespace or `;`. Call-sequence
# continuation lines (`param0,`, `malloc,`) and `prototype_N :` are not instructions.
forms() {
    sed -E 's,//.*$,,; s/^[[:space:]]*//; s/^[$A-Za-z_][$A-Za-z0-9_]*:[[:space:]]*//; s/^@!?%[A-Za-z0-9_]+[[:space:]]+//' "$1" |
        grep -E '^[a-z][a-z0-9]*(\.[a-z0-9_:]+)*([[:space:]]|;|$)' |
        grep -Ev '^(param|retval|prototype)[0-9_]' |
        sed -E 's/[[:space:];].*$//' |
        grep -E '\.|^(ret|exit|trap|brkpt|pmevent|nanosleep|call|bra)$' || true
}
: >"$out/forms.raw"
for ptx in "$out"/*.ptx; do
    a="$(sed -E 's/.*\.sm_([0-9]+)\.ptx$/\1/' <<<"$ptx")"
    forms "$ptx" | sed "s/\$/ $a/" >>"$out/forms.raw"
done

# --- 3. what warpsim rejects ---------------------------------------------------------------------
: >"$out/rejected.raw"
for ptx in "$out"/*.ptx; do
    "$warpsim" check --quiet "$ptx" 2>/dev/null | sed -nE 's/^.*: unsupported ([^ ]+).*$/\1/p' >>"$out/rejected.raw" || true
done
sort -u "$out/rejected.raw" >"$out/rejected.txt"

awk -v rej="$out/rejected.txt" '
    BEGIN { while ((getline l < rej) > 0) bad[l] = 1 }
    { t[$1]++; c[$1, $2]++ }
    END {
        for (f in t)
            printf "%s\t%d\t%d\t%d\t%d\t%s\n", f, t[f], c[f, 75] + 0, c[f, 80] + 0, c[f, 90] + 0,
                (f in bad) ? "REJECTED" : "ok"
    }' "$out/forms.raw" | LC_ALL=C sort -t$'\t' -k6,6 -k2,2nr >"$out/census.tsv"
# Rejected spellings that the form extraction did not see (a reason other than an opcode).
extra="$(awk -F'\t' '{print $1}' "$out/census.tsv" | sort | comm -13 - "$out/rejected.txt")"

printf 'form\ttotal\tsm_75\tsm_80\tsm_90\tstatus\n'
cat "$out/census.tsv"
[[ -z "$extra" ]] || printf 'also rejected (not an opcode form above): %s\n' "$extra"
echo "ptx-census: ${#progs[@]} programs, $(wc -l <"$out/census.tsv") forms, $(grep -c REJECTED "$out/census.tsv" || true) rejected; $out/census.tsv" >&2
