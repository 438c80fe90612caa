//! Tensor-core instructions timed on the presets with tensor units (qv100, rtx2060, rtx3070;
//! issue 38, item 2): `mma.sync` on a tensor-core unit at `latency.tensor` /
//! `initiation.tensor`, fragment loads and stores through the LD/ST unit at their fragment's
//! addresses. Results equal functional mode's; the cycle counts are what the units' latency,
//! initiation interval and the shared-memory banks make them.

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

const MMA: &str = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";

/// A kernel `k(out, n)` whose every thread builds an A fragment of 1.0s and a B fragment of
/// 0.5s, runs `body` (accumulators `%f0..%f39`, zeroed) and stores `%f0..%f3` at
/// `out + 16 × global thread id`.
fn mma_kernel(body: &str) -> String {
    let zero: String = (0..40)
        .map(|i| format!("mov.f32 %f{i}, 0f00000000;\n"))
        .collect();
    format!(
        ".version 9.5\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 out, .param .u32 n)\n{{\n\
         .reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<40>;\n\
         ld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\n\
         mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\n\
         mad.lo.s32 %r2, %r3, %r4, %r5;\n\
         mov.b32 %r10, 0x3C003C00;\nmov.b32 %r11, 0x3C003C00;\nmov.b32 %r12, 0x3C003C00;\n\
         mov.b32 %r13, 0x3C003C00;\nmov.b32 %r14, 0x38003800;\nmov.b32 %r15, 0x38003800;\n\
         {zero}{body}\n\
         mul.wide.u32 %rd2, %r2, 16;\nadd.s64 %rd3, %rd1, %rd2;\n\
         st.global.v4.f32 [%rd3], {{%f0, %f1, %f2, %f3}};\nret;\n}}\n"
    )
}

/// `n` dependent `mma`s: D = A·B + D into `%f0..%f3`.
fn chain(n: usize) -> String {
    let one = format!(
        "{MMA} {{%f0,%f1,%f2,%f3}}, {{%r10,%r11,%r12,%r13}}, {{%r14,%r15}}, {{%f0,%f1,%f2,%f3}};\n"
    );
    one.repeat(n)
}

/// `n` (≤ 9) independent `mma`s, each into its own accumulators, the last into `%f0..%f3`.
fn independent(n: usize) -> String {
    (0..n)
        .rev()
        .map(|i| {
            let d = 4 * i;
            format!(
                "{MMA} {{%f{},%f{},%f{},%f{}}}, {{%r10,%r11,%r12,%r13}}, {{%r14,%r15}}, {{%f36,%f37,%f38,%f39}};\n",
                d,
                d + 1,
                d + 2,
                d + 3
            )
        })
        .collect()
}

fn preset(name: &str, overrides: &[&str]) -> GpuConfig {
    let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    GpuConfig::load_with(name, &o).unwrap()
}

/// Runs `src` on `threads` threads (one CTA) in both modes; the timed run's cycles, after
/// checking its output equals functional mode's and is `want` in every accumulator.
fn cycles(src: &str, threads: u32, cfg: &GpuConfig, want: f32) -> u64 {
    let n = threads as usize * 4;
    let f = run(src, 1, threads, n, None);
    assert_eq!(f.error, None);
    let t = run(src, 1, threads, n, Some((cfg, PolicyKind::GTO)));
    assert_eq!(t.error, None, "{}", cfg.name);
    assert_eq!(
        t.out, f.out,
        "{}: timing and functional results differ",
        cfg.name
    );
    assert!(
        f.out.iter().all(|&v| f32::from_bits(v) == want),
        "{}: {:?}",
        cfg.name,
        &f.out[..4]
    );
    t.stats.unwrap().cycles
}

#[test]
fn a_chain_of_dependent_mmas_takes_the_tensor_latency_each() {
    // One warp: each mma waits for the previous one's D, so each adds the tensor unit's
    // latency (64 on all three presets) plus the pipeline's stages and its 10 register reads.
    for name in ["qv100", "rtx2060", "rtx3070"] {
        let cfg = preset(name, &[]);
        let (short, long) = (
            cycles(&mma_kernel(&chain(2)), 32, &cfg, 16.0),
            cycles(&mma_kernel(&chain(10)), 32, &cfg, 80.0),
        );
        let per = (long - short) as f64 / 8.0;
        eprintln!("{name}: {per} cycles per dependent mma");
        assert!((66.0..=76.0).contains(&per), "{name}: {per}");
        // The latency is the config's: 32 cycles less per mma with latency.tensor = 32 (and
        // the initiation interval, which would otherwise hold the unit for 64, too).
        let fast = preset(name, &["latency.tensor=32", "initiation.tensor=32"]);
        let per_fast = (cycles(&mma_kernel(&chain(10)), 32, &fast, 80.0)
            - cycles(&mma_kernel(&chain(2)), 32, &fast, 16.0)) as f64
            / 8.0;
        assert!(
            (per - per_fast - 32.0).abs() <= 1.0,
            "{name}: {per} vs {per_fast}"
        );
    }
}

#[test]
fn independent_mmas_of_one_warp_wait_for_the_initiation_interval() {
    // One warp, 8 independent mmas: its scheduler's one tensor unit takes one every 64 cycles
    // (initiation 64), so the eighth enters 7 × 64 cycles after the first; with an interval
    // of 1 they overlap and only the register reads and the one-a-cycle issue separate them.
    let cfg = preset("qv100", &[]);
    let pipelined = preset("qv100", &["initiation.tensor=1"]);
    let src = mma_kernel(&independent(8));
    let (slow, fast) = (
        cycles(&src, 32, &cfg, 8.0),
        cycles(&src, 32, &pipelined, 8.0),
    );
    let gap = slow - fast;
    eprintln!("8 independent mmas: {slow} cycles at initiation 64, {fast} at 1");
    assert!((7 * 56..=7 * 64).contains(&gap), "{gap}");
}

#[test]
fn more_warps_than_tensor_units_share_them_at_the_initiation_interval() {
    // qv100: 4 schedulers with one tensor unit each. Four warps (one per scheduler) run their
    // chains side by side, as fast as one warp; eight (two per scheduler) share each unit,
    // which takes one mma per 64 cycles: about twice as long. With initiation 1 the second
    // warp's mmas slip between the first's and eight warps take no longer than four.
    let src = mma_kernel(&chain(10));
    let cfg = preset("qv100", &[]);
    let one = cycles(&src, 32, &cfg, 80.0);
    let four = cycles(&src, 128, &cfg, 80.0);
    let eight = cycles(&src, 256, &cfg, 80.0);
    eprintln!("10 dependent mmas per warp: 1 warp {one}, 4 warps {four}, 8 warps {eight} cycles");
    // (Four warps' other instructions and stores cost them a few cycles more, far less than
    // one mma.)
    assert!(four - one < 64, "{one} {four}");
    // Eight warps: 20 mmas per unit, 64 cycles apart at best, where four warps' 10 each
    // leave 70 between them: about 10 × 64 − 6 cycles longer.
    assert!(eight - four >= 8 * 64, "{four} {eight}");
    // An interval of 1: the second warp's mmas slip between the first's; what remains is
    // their turns at the scheduler's ID/OC register, collectors and the unit's result slot.
    let pipelined = preset("qv100", &["initiation.tensor=1"]);
    let (four_p, eight_p) = (
        cycles(&src, 128, &pipelined, 80.0),
        cycles(&src, 256, &pipelined, 80.0),
    );
    eprintln!("initiation 1: 4 warps {four_p}, 8 warps {eight_p} cycles");
    assert!(eight_p - four_p <= 2 * 64, "{four_p} {eight_p}");
}

/// A kernel that loads a 16×16 f16 A tile `reps` times from shared memory with stride `ld`
/// (elements) and stores its first register's value for each thread.
fn shared_loads(ld: u32, reps: usize) -> String {
    let loads = format!(
        "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {{%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}}, [%r20], {ld};\n"
    )
    .repeat(reps);
    format!(
        ".version 9.5\n.target sm_80\n.address_size 64\n.shared .align 16 .b8 tile[1024];\n\
         .visible .entry k(.param .u64 out, .param .u32 n)\n{{\n\
         .reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\nmov.u32 %r5, %tid.x;\n\
         mov.u32 %r20, tile;\nshl.b32 %r21, %r5, 2;\nadd.u32 %r22, %r20, %r21;\n\
         st.shared.u32 [%r22], %r5;\nadd.u32 %r23, %r22, 128;\nst.shared.u32 [%r23], %r5;\n\
         bar.sync 0;\n{loads}\
         mul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;\nret;\n}}\n"
    )
}

#[test]
fn a_shared_fragment_load_pays_the_bank_conflicts_of_its_stride() {
    // Each of the A fragment's 4 distinct registers is one wave: lane l reads the word at
    // row l/4, columns 2(l%4), +1. Stride 16 (32 bytes a row): rows r and r+4 share banks,
    // 2 passes a wave, 8 per load; stride 24 (48 bytes): every word its own bank, 4 passes.
    // 16 loads back to back hold the LD/ST unit 16 × 4 cycles longer at stride 16.
    let cfg = preset("qv100", &[]);
    let run_ld = |ld: u32| {
        let src = shared_loads(ld, 16);
        let f = run(&src, 1, 32, 32, None);
        let t = run(&src, 1, 32, 32, Some((&cfg, PolicyKind::GTO)));
        assert_eq!(t.error, None);
        assert_eq!(t.out, f.out);
        t.stats.unwrap().cycles
    };
    let (conflicted, free) = (run_ld(16), run_ld(24));
    eprintln!("16 shared wmma.loads: stride 16 {conflicted} cycles, stride 24 {free}");
    let gap = conflicted as i64 - free as i64;
    assert!((56..=72).contains(&gap), "{gap}");
}

#[test]
fn a_global_wmma_gemm_tile_gives_functional_modes_result() {
    // One warp: A (16×16 f16, row-major) and B (col-major) built in global memory by the
    // threads, then wmma.load, mma, store of a 16×16 f32 D: identical in both modes on every
    // preset with tensor units, and refused on gtx480.
    let src = ".version 9.5\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 out, .param .u32 n)\n{\n\
         .reg .b32 %r<80>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<10>;\n\
         ld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\nmov.u32 %r5, %tid.x;\n\
         // A and B: 512 bytes each at out + 0 and out + 512; thread t writes 16 bytes of each:\n\
         // halves 1 + (t mod 3), 1 + (t mod 5) as f16 (0x3C00 = 1.0, + 0x400 per power of 2).\n\
         rem.u32 %r6, %r5, 3;\nshl.b32 %r7, %r6, 10;\nadd.u32 %r7, %r7, 0x3C00;\n\
         shl.b32 %r8, %r7, 16;\nor.b32 %r8, %r8, %r7;\n\
         rem.u32 %r6, %r5, 5;\nshl.b32 %r7, %r6, 9;\nadd.u32 %r7, %r7, 0x3800;\n\
         shl.b32 %r9, %r7, 16;\nor.b32 %r9, %r9, %r7;\n\
         mul.wide.u32 %rd2, %r5, 16;\nadd.s64 %rd3, %rd1, %rd2;\n\
         st.global.v4.b32 [%rd3], {%r8, %r8, %r8, %r9};\n\
         st.global.v4.b32 [%rd3+512], {%r9, %r8, %r9, %r9};\n\
         bar.sync 0;\nadd.s64 %rd4, %rd1, 512;\nadd.s64 %rd5, %rd1, 1024;\n\
         wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%rd1];\n\
         wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27}, [%rd4];\n\
         wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%r30,%r31,%r32,%r33,%r34,%r35,%r36,%r37}, [%rd1];\n\
         wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%r40,%r41,%r42,%r43,%r44,%r45,%r46,%r47}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27}, {%r30,%r31,%r32,%r33,%r34,%r35,%r36,%r37};\n\
         wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd5], {%r40,%r41,%r42,%r43,%r44,%r45,%r46,%r47};\n\
         ret;\n}\n";
    let n = 256 + 256;
    let f = run(src, 1, 32, n, None);
    assert_eq!(f.error, None);
    assert!(f.out[256..].iter().any(|&v| v != 0));
    for name in ["qv100", "rtx2060", "rtx3070"] {
        let t = run(src, 1, 32, n, Some((&preset(name, &[]), PolicyKind::GTO)));
        assert_eq!(t.error, None, "{name}");
        assert_eq!(t.out, f.out, "{name}");
    }
    let refused = run(src, 1, 32, n, Some((&gtx480(), PolicyKind::GTO)));
    let err = refused.error.expect("gtx480 has no tensor cores");
    assert!(
        err.contains("no tensor cores") && err.contains("`gtx480`"),
        "{err}"
    );
}
