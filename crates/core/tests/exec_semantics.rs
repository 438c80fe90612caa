//! End-to-end semantics of the executor on hand-written PTX: divergence and reconvergence,
//! calls and recursion, warp-level operations, barriers, atomics, generic addressing, printf.

use crate::exec_util;
use exec_util::*;
use warpsim_core::device::{Arg, Device, Dim3, LaunchConfig};

/// Stores `%r10` to out[tid].
const STORE: &str =
    "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;";

#[test]
fn divergent_if_else_reconverges() {
    let body = format!(
        "and.b32 %r6, %r2, 1;\nsetp.eq.s32 %p1, %r6, 0;\n@%p1 bra EVEN;\nmov.u32 %r10, 100;\nbra JOIN;\nEVEN:\nmov.u32 %r10, 200;\nJOIN:\nadd.s32 %r10, %r10, %r2;\n{STORE}"
    );
    let out = run(&kernel("", &body), 2, 48, 96).unwrap();
    for (i, v) in out.iter().enumerate() {
        assert_eq!(
            *v,
            if i % 2 == 0 { 200 } else { 100 } + i as u32,
            "thread {i}"
        );
    }
}

#[test]
fn data_dependent_loops_per_lane() {
    // r10 = sum_{j<tid%7} j, a loop whose trip count differs per lane.
    let body = format!(
        "rem.u32 %r6, %r2, 7;\nmov.u32 %r10, 0;\nmov.u32 %r7, 0;\nLOOP:\nsetp.ge.u32 %p1, %r7, %r6;\n@%p1 bra DONE;\nadd.s32 %r10, %r10, %r7;\nadd.s32 %r7, %r7, 1;\nbra LOOP;\nDONE:\n{STORE}"
    );
    let out = run(&kernel("", &body), 1, 64, 64).unwrap();
    for (i, v) in out.iter().enumerate() {
        let t = (i % 7) as u32;
        assert_eq!(*v, t * t.saturating_sub(1) / 2, "thread {i}");
    }
}

#[test]
fn early_exit_lanes_do_not_block_barriers() {
    let body = format!(
        "setp.ge.u32 %p1, %r2, 40;\n@%p1 bra END;\nbar.sync 0;\nmov.u32 %r10, 7;\n{STORE}\nEND:\n"
    );
    let out = run(&kernel("", &body), 1, 64, 64).unwrap();
    assert_eq!(out.iter().filter(|&&v| v == 7).count(), 40);
}

#[test]
fn recursive_device_function() {
    let decls = ".func (.param .b32 r) fact(.param .b32 x)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<5>;\n\
        ld.param.b32 %r1, [x];\nsetp.le.u32 %p1, %r1, 1;\n@%p1 bra BASE;\nsub.s32 %r2, %r1, 1;\n\
        { .param .b32 a; .param .b32 b; st.param.b32 [a], %r2; call.uni (b), fact, (a); ld.param.b32 %r3, [b]; }\n\
        mul.lo.s32 %r4, %r1, %r3;\nst.param.b32 [r], %r4;\nret;\nBASE:\nst.param.b32 [r], 1;\nret;\n}";
    let body = format!(
        "rem.u32 %r6, %r2, 10;\n{{ .param .b32 a; .param .b32 b; st.param.b32 [a], %r6; call.uni (b), fact, (a); ld.param.b32 %r10, [b]; }}\n{STORE}"
    );
    let out = run(&kernel(decls, &body), 1, 64, 64).unwrap();
    for (i, v) in out.iter().enumerate() {
        let f: u32 = (1..=(i as u32 % 10)).product();
        assert_eq!(*v, f, "thread {i}");
    }
}

#[test]
fn shuffle_vote_and_ballot() {
    // r10 = shfl.down(tid, 1) + popc(ballot(tid odd)) * 1000
    let body = format!(
        "shfl.sync.down.b32 %r7|%p2, %r2, 1, 31, -1;\nand.b32 %r6, %r2, 1;\nsetp.ne.s32 %p1, %r6, 0;\n\
         vote.sync.ballot.b32 %r8, %p1, -1;\npopc.b32 %r9, %r8;\nmad.lo.s32 %r10, %r9, 1000, %r7;\n{STORE}"
    );
    let out = run(&kernel("", &body), 1, 32, 32).unwrap();
    for (i, v) in out.iter().enumerate() {
        let down = if i < 31 { i + 1 } else { i };
        assert_eq!(*v as usize, 16 * 1000 + down, "lane {i}");
    }
}

/// PTX's predefined identifiers (issue 19, item 3): `WARP_SZ` is a constant operand anywhere
/// a value may stand; the sm_90 cluster registers describe the implicit one-CTA cluster.
#[test]
fn predefined_identifiers() {
    let body = format!(
        "mov.u32 %r6, WARP_SZ;\nadd.s32 %r7, %r5, WARP_SZ;\nmov.u32 %r8, %cluster_nctaid.x;\n\
         mov.u32 %r9, %clusterid.x;\nmov.u32 %r11, %cluster_ctarank;\nmov.u32 %r12, %is_explicit_cluster;\n\
         mov.u32 %r13, %aggr_smem_size;\nmov.u64 %rd5, %pm0_64;\ncvt.u32.u64 %r14, %rd5;\n\
         mad.lo.s32 %r10, %r6, 1000000, %r7;\nmad.lo.s32 %r10, %r8, 100000, %r10;\nmad.lo.s32 %r10, %r9, 10000, %r10;\n\
         add.s32 %r10, %r10, %r11;\nadd.s32 %r10, %r10, %r12;\nadd.s32 %r10, %r10, %r13;\nadd.s32 %r10, %r10, %r14;\n{STORE}"
    );
    let out = run(&kernel("", &body), 3, 40, 120).unwrap();
    for (i, v) in out.iter().enumerate() {
        let (cta, tid) = (i as u32 / 40, i as u32 % 40);
        assert_eq!(
            *v,
            32 * 1_000_000 + (tid + 32) + 100_000 + cta * 10_000,
            "thread {i}"
        );
    }
}

#[test]
fn syncthreads_count_reduces_across_warps() {
    let body = format!("setp.lt.u32 %p1, %r2, 77;\nbar.red.popc.u32 %r10, 0, %p1;\n{STORE}");
    let out = run(&kernel("", &body), 1, 128, 128).unwrap();
    assert!(out.iter().all(|&v| v == 77), "{out:?}");
}

#[test]
fn shared_atomics_and_generic_addressing() {
    let decls = ".shared .align 4 .u32 counter;";
    let body = format!(
        "mov.u64 %rd4, counter;\ncvta.shared.u64 %rd5, %rd4;\natom.add.u32 %r7, [%rd5], 1;\nbar.sync 0;\n\
         ld.shared.u32 %r8, [counter];\nmad.lo.s32 %r10, %r8, 1000, %r7;\n{STORE}"
    );
    let out = run(&kernel(decls, &body), 2, 96, 192).unwrap();
    let mut olds: Vec<u32> = out.iter().map(|v| v % 1000).collect();
    assert!(out.iter().all(|v| v / 1000 == 96));
    olds.sort();
    let expected: Vec<u32> = (0..96).flat_map(|i| [i, i]).collect();
    assert_eq!(olds, expected);
}

#[test]
fn local_memory_is_private_per_thread() {
    let decls = "";
    let body = format!(
        ".local .align 4 .b8 depot[64];\nmov.u64 %rd6, depot;\nand.b32 %r6, %r2, 15;\nmul.wide.u32 %rd7, %r6, 4;\nadd.s64 %rd8, %rd6, %rd7;\n\
         st.local.u32 [%rd8], %r2;\ncvta.local.u64 %rd9, %rd8;\nld.u32 %r10, [%rd9];\n{STORE}"
    );
    let out = run(&kernel(decls, &body), 1, 64, 64).unwrap();
    assert_eq!(out, (0..64).collect::<Vec<u32>>());
}

#[test]
fn printf_output_is_in_thread_order() {
    let src = ".version 9.5\n.target sm_75\n.address_size 64\n\
        .extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n\
        .global .align 1 .b8 $str[8] = {116, 61, 37, 100, 32, 37, 115, 0};\n\
        .global .align 1 .b8 $s2[3] = {104, 105, 0};\n\
        .visible .entry k(.param .u64 out, .param .u32 n)\n{\n.local .align 8 .b8 depot[16];\n.reg .b32 %r<5>;\n.reg .b64 %rd<9>;\n\
        mov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\nst.local.u32 [%rd1], %r1;\n\
        mov.u64 %rd3, $s2;\ncvta.global.u64 %rd4, %rd3;\nst.local.u64 [%rd1+8], %rd4;\n\
        mov.u64 %rd5, $str;\ncvta.global.u64 %rd6, %rd5;\n\
        { .param .b64 p0; st.param.b64 [p0], %rd6; .param .b64 p1; st.param.b64 [p1], %rd2; .param .b32 rv;\n\
        call.uni (rv), vprintf, (p0, p1); ld.param.b32 %r2, [rv]; }\nret;\n}\n";
    let mut dev = Device::new();
    let m = dev.load_ptx(src).unwrap();
    let k = dev.kernel(m, "k").unwrap();
    let out = dev.alloc_zeroed::<u32>(1).unwrap();
    dev.launch(
        k,
        LaunchConfig {
            grid: Dim3::from(1),
            block: Dim3::from(3),
            dynamic_shared: 0,
        },
        &[Arg::Ptr(out), Arg::U32(1)],
    )
    .unwrap();
    assert_eq!(dev.take_printf(), "t=0 hit=1 hit=2 hi");
}

/// Cooperative launches pass a zeroed global workspace through `%envreg1` (high half) and
/// `%envreg2` (low half), as cooperative groups' `grid.sync()` expects; ordinary ones pass 0.
#[test]
fn cooperative_launch_passes_the_grid_sync_workspace() {
    // out[tid] = workspace != 0, plus the word at workspace+4 after each CTA's thread 0 added 1
    // (read after a CTA barrier, so it counts this CTA and the ones that ran before).
    let body = format!(
        "mov.u32 %r6, %envreg1;\nmov.u32 %r7, %envreg2;\ncvt.u64.u32 %rd5, %r6;\ncvt.u64.u32 %rd6, %r7;\n\
         bfi.b64 %rd7, %rd5, %rd6, 32, 32;\nsetp.ne.s64 %p1, %rd7, 0;\nselp.u32 %r10, 1, 0, %p1;\n\
         @!%p1 bra DONE;\nsetp.eq.u32 %p2, %r5, 0;\n@%p2 atom.global.add.u32 %r8, [%rd7+4], 1;\nbar.sync 0;\n\
         ld.global.u32 %r9, [%rd7+4];\nmad.lo.s32 %r10, %r9, 10, %r10;\nDONE:\n{STORE}"
    );
    let src = kernel("", &body);
    assert!(run(&src, 2, 32, 64).unwrap().iter().all(|&v| v == 0));
    let mut dev = Device::new();
    let m = dev.load_ptx(&src).unwrap();
    let k = dev.kernel(m, "k").unwrap();
    let out = dev.alloc_zeroed::<u32>(64).unwrap();
    let before = dev.memory_in_use();
    let cfg = LaunchConfig {
        grid: Dim3::from(2),
        block: Dim3::from(32),
        dynamic_shared: 0,
    };
    dev.launch_cooperative(k, cfg, &[Arg::Ptr(out), Arg::U32(64)])
        .unwrap();
    let got = dev.read_vec::<u32>(out, 64).unwrap();
    // Each CTA saw its own arrival and possibly the other's: 1 or 2 arrivals, never 0.
    assert!(got.iter().all(|&v| v == 11 || v == 21), "{got:?}");
    assert!(
        got[32..].iter().all(|&v| v == 21),
        "CTA 1 arrives after CTA 0: {got:?}"
    );
    // The workspace is freed after the launch.
    assert_eq!(dev.memory_in_use(), before);
}
