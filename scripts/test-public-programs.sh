#!/usr/bin/env bash
# Checks scripts/public-programs.sh's failure classes without CUDA: a stand-in `warpsim` runs
# each LIST command itself (`exec --mode M --quiet -- CMD ARGS...`), and the commands are small
# shell programs that print what warpsim or a program prints and exit as they would. Fails
# (exit 1) naming each program whose class is not the expected one.
#
#   scripts/test-public-programs.sh     (PP=PATH tests another copy of public-programs.sh)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

cat > "$dir/warpsim" <<'EOF'
#!/usr/bin/env bash
# exec --mode M --quiet -- CMD ARGS...
while [[ $# -gt 0 && "$1" != -- ]]; do shift; done
shift
exec "$@"
EOF
chmod +x "$dir/warpsim"

# prog NAME EXPECTED-CLASS EXIT [LINE...]: a program printing LINEs to stderr, then exiting EXIT.
expected=()
prog() {
    local name="$1" class="$2" rc="$3" line; shift 3
    {
        echo '#!/usr/bin/env bash'
        for line in "$@"; do printf 'echo %q >&2\n' "$line"; done
        echo "exit $rc"
    } > "$dir/$name"
    chmod +x "$dir/$name"
    echo "$name . ./$name" >> "$dir/list"
    expected+=("$name:$class")
}
prog ok pass 0 "Result stored in result.txt"
# A program that ignores error codes finishes after a fault and exits 0; the report names a PTX
# line, which must not make it a PTX (load) failure.
prog fault_exit0 memcheck 0 \
    'warpsim: cudaErrorIllegalAddress in kernel `k(float*)`: read out of bounds of 4 bytes at 0x9fffffff900 (Global space): 32 of the warp'"'"'s 32 active threads fault, the first at kernel `k(float*)`, CTA (0,0,0), thread (0,0,0), pc 24 (PTX line 80)' \
    "Computation Done"
prog fault_exit1 memcheck 1 \
    'warpsim: cudaErrorIllegalAddress in kernel `k(int*)`: write out of bounds of 4 bytes at 0xa0000000290 (Global space) outside every allocation (PTX line 37)' \
    "CUDA error: an illegal memory access was encountered"
# An API error the program ignores (CUDA refuses an empty grid too) is still a pass.
prog empty_grid pass 0 \
    'warpsim: cudaErrorInvalidValue in kernel `k1(int, float*, int)`: invalid launch of `k1(int, float*, int)`: grid (0,1,1) and block (256,1,1) must have no zero dimension' \
    "GPU Time in seconds:"
prog ptx_load ptx 1 "warpsim: cannot load PTX:" "  line 33: parse error near .foo"
prog unsupported unsupported 1 "warpsim: cannot load PTX:" "  line 12: unsupported tex.cube.v4.f32.f32"
prog runaway runaway 1 'warpsim: kernel `spin()` ran past the runaway limit (--max-warp-instructions 1000)'
prog self_check program 1 "Test FAILED"
prog loader loader 127 "./x: error while loading shared libraries: libcuda.so.1: cannot open shared object file"
prog slow timeout 0 "started"
sed -i 's/^exit 0$/sleep 5; exit 0/' "$dir/slow"

"${PP:-$repo/scripts/public-programs.sh}" "$dir/list" "$dir/out.csv" --modes functional --timeout 2 \
    --warpsim "$dir/warpsim" 2> "$dir/stderr" || { cat "$dir/stderr" >&2; exit 1; }
bad=0
for e in "${expected[@]}"; do
    name="${e%%:*}" want="${e#*:}"
    got="$(awk -F, -v n="$name" '$1 == n { print $3 }' "$dir/out.csv")"
    if [[ "$got" != "$want" ]]; then
        echo "test-public-programs: $name: class ${got:-missing}, expected $want" >&2
        bad=1
    fi
done
[[ $bad == 0 ]] || { cat "$dir/out.csv" >&2; exit 1; }
echo "test-public-programs: ${#expected[@]} classes as expected" >&2
