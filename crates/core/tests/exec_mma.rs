//! `mma.sync.aligned` (issue 38, item 2) and `ldmatrix`: the fragments are built on the host
//! from the PTX ISA's per-lane layouts ("Matrix Fragments for mma.m16n8k8 / m16n8k16 /
//! m16n8k32", written out again here from the ISA's tables), loaded into registers with
//! plain `ld`, multiplied, and D decoded the same way; bit-exact against the CPU reference.

use crate::tensor_util;
use tensor_util::*;

/// The ISA's (row, col) of element `i` of lane `lane`'s fragment; `which` is 'a', 'b', 'c'.
fn isa_coord(which: char, input: E, k: usize, lane: usize, i: usize) -> (usize, usize) {
    let group = lane >> 2;
    let tig = lane % 4;
    match (which, input) {
        ('c', _) => (if i < 2 { group } else { group + 8 }, tig * 2 + (i & 1)),
        ('a', E::F16 | E::Bf16) => {
            let row = if i < 2 || (4..6).contains(&i) {
                group
            } else {
                group + 8
            };
            let col = tig * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
            (row, col)
        }
        ('b', E::F16 | E::Bf16) => (tig * 2 + (i & 1) + if i >= 2 { 8 } else { 0 }, group),
        ('a', E::Tf32) => (
            if i == 0 || i == 2 { group } else { group + 8 },
            if i < 2 { tig } else { tig + 4 },
        ),
        ('b', E::Tf32) => (if i == 0 { tig } else { tig + 4 }, group),
        ('a', _) => {
            let row = if i < 4 || (8..12).contains(&i) {
                group
            } else {
                group + 8
            };
            let col = tig * 4 + (i & 3) + if i >= 8 { 16 } else { 0 };
            assert!(k == 32 || i < 8);
            (row, col)
        }
        (_, _) => (tig * 4 + (i & 3) + if i >= 4 { 16 } else { 0 }, group),
    }
}

/// Every lane's fragment registers (lane-major, `regs` words per lane) of a row-major
/// `rows × cols` matrix.
fn fragments(
    which: char,
    x: &[u32],
    e: E,
    input: E,
    k: usize,
    cols: usize,
    regs: usize,
) -> Vec<u8> {
    let per = 4 / e.bytes();
    let bits = 8 * e.bytes();
    let mut words = vec![0u32; 32 * regs];
    for lane in 0..32 {
        for i in 0..regs * per {
            let (r, c) = isa_coord(which, input, k, lane, i);
            words[lane * regs + i / per] |= x[r * cols + c] << ((i % per) * bits);
        }
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `ld.global.u32` of `n` fragment registers from `%r<base>` for this lane.
fn load(ptr: &str, base: usize, n: usize) -> String {
    let mut s = format!(
        "mul.wide.u32 %rd5, %r199, {};\nadd.s64 %rd6, {ptr}, %rd5;\n",
        4 * n
    );
    for i in 0..n {
        s += &format!("ld.global.u32 %r{}, [%rd6+{}];\n", base + i, 4 * i);
    }
    s
}

fn store(base: usize, n: usize) -> String {
    let mut s = format!(
        "mul.wide.u32 %rd5, %r199, {};\nadd.s64 %rd6, %rd4, %rd5;\n",
        4 * n
    );
    for i in 0..n {
        s += &format!("st.global.u32 [%rd6+{}], %r{};\n", 4 * i, base + i);
    }
    s
}

fn run_mma(k: usize, (ta, tb, tc, td): (E, E, E, E), satfinite: bool, seed: u64) {
    let (m, n) = (16, 8);
    let mut rng = Rng(seed);
    let (a, b, c) = (
        rng.matrix(ta, m * k),
        rng.matrix(tb, k * n),
        rng.matrix(tc, m * n),
    );
    let regs = |rows: usize, cols: usize, e: E| rows * cols / 32 / (4 / e.bytes());
    let (na, nb, nc, nd) = (
        regs(m, k, ta),
        regs(k, n, tb),
        regs(m, n, tc),
        regs(m, n, td),
    );
    let sat = if satfinite { ".satfinite" } else { "" };
    let name = format!(
        "mma.sync.aligned.m16n8k{k}.row.col{sat}.{}.{}.{}.{}",
        td.name(),
        ta.name(),
        tb.name(),
        tc.name()
    );
    let body = format!(
        "{}{}{}{name} {}, {}, {}, {};\n{}",
        load("%rd1", 0, na),
        load("%rd2", 20, nb),
        load("%rd3", 40, nc),
        frag(60, nd),
        frag(0, na),
        frag(20, nb),
        frag(40, nc),
        store(60, nd),
    );
    let out = run4(
        &module("", &body),
        &fragments('a', &a, ta, ta, k, k, na),
        &fragments('b', &b, tb, ta, k, n, nb),
        &fragments('c', &c, tc, ta, k, n, nc),
        32 * nd * 4,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = reference((m, n, k), (ta, tb, tc, td), &a, &b, &c, satfinite);
    // Decode D through the ISA's accumulator layout.
    let per = 4 / td.bytes();
    let bits = 8 * td.bytes();
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    for lane in 0..32 {
        for i in 0..nd * per {
            let at = (lane * nd + i / per) * 4;
            let word = u32::from_le_bytes(out[at..at + 4].try_into().unwrap());
            let got = word >> ((i % per) * bits) & mask;
            let (r, col) = isa_coord('c', ta, k, lane, i);
            assert_eq!(
                got,
                want[r * n + col],
                "{name}: lane {lane} d{i} = D[{r}][{col}]"
            );
        }
    }
}

#[test]
fn m16n8k16_f16_and_bf16() {
    run_mma(16, (E::F16, E::F16, E::F32, E::F32), false, 1);
    run_mma(16, (E::F16, E::F16, E::F16, E::F16), false, 2);
    run_mma(16, (E::F16, E::F16, E::F32, E::F16), false, 3);
    run_mma(16, (E::F16, E::F16, E::F16, E::F32), false, 4);
    run_mma(16, (E::Bf16, E::Bf16, E::F32, E::F32), false, 5);
}

#[test]
fn m16n8k8_f16_bf16_and_tf32() {
    run_mma(8, (E::F16, E::F16, E::F32, E::F32), false, 11);
    run_mma(8, (E::F16, E::F16, E::F16, E::F16), false, 12);
    run_mma(8, (E::Bf16, E::Bf16, E::F32, E::F32), false, 13);
    run_mma(8, (E::Tf32, E::Tf32, E::F32, E::F32), false, 14);
}

#[test]
fn m16n8k32_and_m16n8k16_integers() {
    for (i, (ta, tb)) in [
        (E::S8, E::S8),
        (E::U8, E::U8),
        (E::S8, E::U8),
        (E::U8, E::S8),
    ]
    .into_iter()
    .enumerate()
    {
        for satfinite in [false, true] {
            let seed = 21 + i as u64;
            run_mma(32, (ta, tb, E::S32, E::S32), satfinite, seed);
            run_mma(16, (ta, tb, E::S32, E::S32), satfinite, seed);
        }
    }
}

/// ldmatrix of `count` matrices (`trans` or not) from a 32×8 u16 array in shared memory
/// whose element (r, c) is `r·8 + c + 1`; lane l points at row `l ^ 5` (rows out of order).
fn run_ldmatrix(count: usize, trans: bool) {
    let t = if trans { ".trans" } else { "" };
    let regs = frag(0, count);
    let body = format!(
        "mov.u32 %r100, sbuf;\n\
         shl.b32 %r101, %r199, 4;\nadd.s32 %r102, %r100, %r101;\n\
         shl.b32 %r110, %r199, 19;\nshl.b32 %r111, %r199, 3;\nor.b32 %r112, %r110, %r111;\n\
         add.s32 %r113, %r112, 0x00020001;\nadd.s32 %r114, %r113, 0x00020002;\n\
         add.s32 %r115, %r113, 0x00040004;\nadd.s32 %r116, %r113, 0x00060006;\n\
         st.shared.v4.u32 [%r102], {{%r113, %r114, %r115, %r116}};\n\
         bar.sync 0;\n\
         xor.b32 %r120, %r199, 5;\nshl.b32 %r121, %r120, 4;\nadd.s32 %r122, %r100, %r121;\n\
         ldmatrix.sync.aligned.m8n8.x{count}{t}.shared.b16 {regs}, [%r122];\n{}",
        store(0, count)
    );
    let out = run4(
        &module(".shared .align 16 .b8 sbuf[512];", &body),
        &[],
        &[],
        &[],
        32 * count * 4,
    )
    .unwrap();
    // Stored: row R of the array holds (R·8 + c + 1) in column c (pairs packed as
    // (R<<19 | R<<3) + 0x00020001 + (c/2)·0x00020002 = low R·8+c+1, high R·8+c+2).
    let elem = |row: usize, col: usize| (row * 8 + col + 1) as u32;
    for lane in 0..32 {
        for j in 0..count {
            let at = (lane * count + j) * 4;
            let word = u32::from_le_bytes(out[at..at + 4].try_into().unwrap());
            // Matrix j's row r comes from the array row that lane 8j + r points at.
            let array_row = |r: usize| (8 * j + r) ^ 5;
            let (g, q) = (lane / 4, 2 * (lane % 4));
            let (lo, hi) = if trans {
                (elem(array_row(q), g), elem(array_row(q + 1), g))
            } else {
                (elem(array_row(g), q), elem(array_row(g), q + 1))
            };
            assert_eq!(word, lo | hi << 16, "x{count}{t}: lane {lane} matrix {j}");
        }
    }
}

#[test]
fn ldmatrix_x1_x2_x4_with_and_without_trans() {
    for count in [1, 2, 4] {
        for trans in [false, true] {
            run_ldmatrix(count, trans);
        }
    }
}

#[test]
fn ldmatrix_misaligned_row_faults() {
    let body = "mov.u32 %r100, sbuf;\nshl.b32 %r101, %r199, 4;\nadd.s32 %r102, %r100, %r101;\n\
                add.s32 %r103, %r102, 8;\n\
                ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%r103];";
    let err = run4(
        &module(".shared .align 16 .b8 sbuf[512];", body),
        &[],
        &[],
        &[],
        4,
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("16 bytes") && msg.contains("Shared"), "{msg}");
}
