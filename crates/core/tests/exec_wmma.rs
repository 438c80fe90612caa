//! `wmma.load/mma/store` (issue 38, item 2): every shape and type combination warpsim
//! executes, random matrices in both memory layouts, with and without a stride operand,
//! checked bit for bit against a CPU reference summing in warpsim's documented order.

use crate::tensor_util;
use tensor_util::*;

/// One wmma GEMM: shape, types (a, b, c, d), A's and B's memory layout, satfinite.
#[derive(Clone, Copy, Debug)]
struct Case {
    shape: (usize, usize, usize),
    types: (E, E, E, E),
    a_row: bool,
    b_row: bool,
    satfinite: bool,
    /// Pass strides (with 8 elements of padding) rather than rely on the packed default.
    strided: bool,
}

/// Registers of a fragment of `rows × cols` elements of `e` (f16 multiplicands: always 8).
fn regs(e: E, rows: usize, cols: usize, multiplicand: bool) -> usize {
    if multiplicand && e == E::F16 {
        8
    } else {
        rows * cols / 32 / (4 / e.bytes())
    }
}

fn run_case(c: Case, seed: u64) {
    let (m, n, k) = c.shape;
    let (ta, tb, tc, td) = c.types;
    let mut rng = Rng(seed);
    let (a, b, cm) = (
        rng.matrix(ta, m * k),
        rng.matrix(tb, k * n),
        rng.matrix(tc, m * n),
    );
    let pad = if c.strided { 8 } else { 0 };
    let lda = if c.a_row { k } else { m } + pad;
    let ldb = if c.b_row { n } else { k } + pad;
    let ldc = n + pad;
    let shape = format!("m{m}n{n}k{k}");
    let lay = |row: bool| if row { "row" } else { "col" };
    let stride = |ld: usize| {
        if c.strided {
            format!(", {ld}")
        } else {
            String::new()
        }
    };
    let (na, nb, nc, nd) = (
        regs(ta, m, k, true),
        regs(tb, k, n, true),
        regs(tc, m, n, false),
        regs(td, m, n, false),
    );
    let types = if ta == E::F16 {
        format!("{}.{}", td.name(), tc.name())
    } else {
        format!("{}.{}.{}.{}", td.name(), ta.name(), tb.name(), tc.name())
    };
    let sat = if c.satfinite { ".satfinite" } else { "" };
    // Strides in a register for A, as immediates elsewhere: both operand forms.
    let body = format!(
        "mov.u32 %r198, {lda};\n\
         wmma.load.a.sync.aligned.{la}.{shape}.global.{an} {fa}, [%rd1]{sa};\n\
         wmma.load.b.sync.aligned.{lb}.{shape}.{bn} {fb}, [%rd2]{sb};\n\
         wmma.load.c.sync.aligned.row.{shape}.global.{cn} {fc}, [%rd3]{sc};\n\
         wmma.mma.sync.aligned.{la}.{lb}.{shape}.{types}{sat} {fd}, {fa}, {fb}, {fc};\n\
         wmma.store.d.sync.aligned.row.{shape}.global.{dn} [%rd4], {fd}{sc};",
        la = lay(c.a_row),
        lb = lay(c.b_row),
        an = ta.name(),
        bn = tb.name(),
        cn = tc.name(),
        dn = td.name(),
        fa = frag(0, na),
        fb = frag(20, nb),
        fc = frag(40, nc),
        fd = frag(60, nd),
        sa = if c.strided {
            ", %r198".to_string()
        } else {
            String::new()
        },
        sb = stride(ldb),
        sc = stride(ldc),
    );
    let src = module("", &body);
    let out = run4(
        &src,
        &to_bytes(&a, ta, m, k, c.a_row, lda),
        &to_bytes(&b, tb, k, n, c.b_row, ldb),
        &to_bytes(&cm, tc, m, n, true, ldc),
        m * ldc * td.bytes(),
    )
    .unwrap_or_else(|e| panic!("{c:?}: {e}\n{src}"));
    let got = from_bytes(&out, td, m, n, ldc);
    let want = reference(c.shape, c.types, &a, &b, &cm, c.satfinite);
    for i in 0..m * n {
        assert_eq!(
            got[i],
            want[i],
            "{c:?}: D[{}][{}] = {:#x}, want {:#x}",
            i / n,
            i % n,
            got[i],
            want[i]
        );
    }
}

const SHAPES: [(usize, usize, usize); 3] = [(16, 16, 16), (32, 8, 16), (8, 32, 16)];

fn all_layouts(shape: (usize, usize, usize), types: (E, E, E, E), seed: u64) {
    for (i, (a_row, b_row)) in [(true, true), (true, false), (false, true), (false, false)]
        .into_iter()
        .enumerate()
    {
        for strided in [false, true] {
            let c = Case {
                shape,
                types,
                a_row,
                b_row,
                satfinite: false,
                strided,
            };
            run_case(c, seed + i as u64 * 7 + u64::from(strided));
        }
    }
}

#[test]
fn f16_with_f32_accumulators() {
    for (i, shape) in SHAPES.into_iter().enumerate() {
        all_layouts(shape, (E::F16, E::F16, E::F32, E::F32), 11 + i as u64);
    }
}

#[test]
fn f16_with_f16_and_mixed_accumulators() {
    for (i, shape) in SHAPES.into_iter().enumerate() {
        let seed = 101 + i as u64;
        all_layouts(shape, (E::F16, E::F16, E::F16, E::F16), seed);
        all_layouts(shape, (E::F16, E::F16, E::F32, E::F16), seed);
        all_layouts(shape, (E::F16, E::F16, E::F16, E::F32), seed);
    }
}

#[test]
fn bf16_with_f32_accumulators() {
    for (i, shape) in SHAPES.into_iter().enumerate() {
        all_layouts(shape, (E::Bf16, E::Bf16, E::F32, E::F32), 201 + i as u64);
    }
}

#[test]
fn tf32_m16n16k8() {
    all_layouts((16, 16, 8), (E::Tf32, E::Tf32, E::F32, E::F32), 301);
}

#[test]
fn s8_and_u8_with_s32_accumulators() {
    for (i, shape) in SHAPES.into_iter().enumerate() {
        let seed = 401 + i as u64;
        all_layouts(shape, (E::S8, E::S8, E::S32, E::S32), seed);
        all_layouts(shape, (E::U8, E::U8, E::S32, E::S32), seed);
        all_layouts(shape, (E::S8, E::U8, E::S32, E::S32), seed);
    }
}

#[test]
fn satfinite_clamps_and_plain_integers_wrap() {
    // C near the s32 limits, so that a·b (up to 16·127·127) crosses them.
    let (m, n, k) = (16, 16, 16);
    for satfinite in [false, true] {
        let mut rng = Rng(77);
        let a = vec![0x7Fu32; m * k];
        let b = vec![0x7Fu32; k * n];
        let c: Vec<u32> = (0..m * n)
            .map(|i| {
                let base = if i % 2 == 0 {
                    i32::MAX - 1000
                } else {
                    i32::MIN + 1000
                };
                base as u32 ^ (rng.next_u64() as u32 & 0xFF)
            })
            .collect();
        let body = format!(
            "wmma.load.a.sync.aligned.row.m16n16k16.s8 {fa}, [%rd1];\n\
             wmma.load.b.sync.aligned.row.m16n16k16.s8 {fb}, [%rd2];\n\
             wmma.load.c.sync.aligned.row.m16n16k16.s32 {fc}, [%rd3];\n\
             wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32{sat} {fc}, {fa}, {fb}, {fc};\n\
             wmma.store.d.sync.aligned.row.m16n16k16.s32 [%rd4], {fc};",
            fa = frag(0, 2),
            fb = frag(20, 2),
            fc = frag(40, 8),
            sat = if satfinite { ".satfinite" } else { "" },
        );
        let out = run4(
            &module("", &body),
            &to_bytes(&a, E::S8, m, k, true, k),
            &to_bytes(&b, E::S8, k, n, true, n),
            &to_bytes(&c, E::S32, m, n, true, n),
            m * n * 4,
        )
        .unwrap();
        let got = from_bytes(&out, E::S32, m, n, n);
        let want = reference(
            (m, n, k),
            (E::S8, E::S8, E::S32, E::S32),
            &a,
            &b,
            &c,
            satfinite,
        );
        assert_eq!(got, want);
        // Positive C + a positive sum: clamped to i32::MAX, or wrapped negative.
        let first = got[0] as i32;
        assert_eq!(first == i32::MAX, satfinite, "{first}");
        assert_eq!(first < 0, !satfinite, "{first}");
    }
}

#[test]
fn fill_by_moves_then_mma_then_store() {
    // nvcc's fill_fragment: a mov into every accumulator register. D = A·B + 1.5 with A all
    // 1.0 (f16 0x3C00) and B all 2.0 (0x4000): each element is 16·2 + 1.5 = 33.5.
    let fills: String = (40..48)
        .map(|r| format!("mov.b32 %r{r}, 0f3FC00000;\n"))
        .collect();
    let ones: String = (0..8)
        .map(|r| format!("mov.b32 %r{r}, 0x3C003C00;\n"))
        .collect();
    let twos: String = (20..28)
        .map(|r| format!("mov.b32 %r{r}, 0x40004000;\n"))
        .collect();
    let body = format!(
        "{fills}{ones}{twos}\
         wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {fc}, {fa}, {fb}, {fc};\n\
         wmma.store.d.sync.aligned.col.m16n16k16.f32 [%rd4], {fc}, 16;",
        fa = frag(0, 8),
        fb = frag(20, 8),
        fc = frag(40, 8),
    );
    let out = run4(&module("", &body), &[], &[], &[], 16 * 16 * 4).unwrap();
    let got = from_bytes(&out, E::F32, 16, 16, 16);
    assert!(got.iter().all(|&x| f32::from_bits(x) == 33.5), "{got:x?}");
}

#[test]
fn shared_memory_fragments_and_a_fault() {
    // A 16×16 f32 C through shared memory: stored there column-major, read back.
    let body = |store_stride: &str| {
        format!(
            "mov.u32 %r190, sbuf;\n\
             wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {fc}, [%rd3];\n\
             wmma.store.d.sync.aligned.col.m16n16k16.shared.f32 [%r190], {fc}{store_stride};\n\
             bar.sync 0;\n\
             wmma.load.c.sync.aligned.col.m16n16k16.shared.f32 {fd}, [sbuf];\n\
             wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd4], {fd};",
            fc = frag(40, 8),
            fd = frag(60, 8),
        )
    };
    let decls = ".shared .align 16 .b8 sbuf[1024];";
    let c = Rng(5).matrix(E::F32, 256);
    let c_bytes = to_bytes(&c, E::F32, 16, 16, true, 16);
    let out = run4(&module(decls, &body("")), &[], &[], &c_bytes, 1024).unwrap();
    assert_eq!(from_bytes(&out, E::F32, 16, 16, 16), c);
    // A stride that runs past the shared array faults instead of writing out of bounds.
    let err = run4(&module(decls, &body(", 4096")), &[], &[], &c_bytes, 1024).unwrap_err();
    assert!(err.to_string().contains("Shared"), "{err}");
}
