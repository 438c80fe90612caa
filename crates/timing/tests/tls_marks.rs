//! Two-level scheduling's long-latency dependence as GPGPU-Sim decides it
//! (`policy.tls.long_marks = "sticky"`, the default): a register a global load wrote stays a
//! "long operation" after the data is back, until an ALU result is written to it, so a warp
//! whose next instruction reads it is demoted again and again; `pending` demotes only while
//! the load is out.

use crate::common;
use common::*;
use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

/// Every thread loads one word, copies it with an ALU add, then runs 48 dependent adds of
/// `%r7`: the loaded register itself (`marked`) or the copy (the load writes `%r8` then). The
/// loop is the same instructions either way.
fn loop_src(marked: bool) -> String {
    let (load, copy) = if marked {
        ("%r7", "%r8")
    } else {
        ("%r8", "%r7")
    };
    kernel(
        "",
        &format!(
            "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 {load}, [%rd3];\n\
             add.u32 {copy}, {load}, 0;\nmov.u32 %r10, 0;\nmov.u32 %r11, 0;\nLOOP:\n\
             add.u32 %r10, %r10, %r7;\nadd.u32 %r11, %r11, 1;\nsetp.lt.u32 %p1, %r11, 48;\n\
             @%p1 bra LOOP;\nst.global.u32 [%rd3], %r10;"
        ),
    )
}

/// Of the windows of 12 consecutive issues of SM 0's scheduler 0 inside the loop (the adds
/// of `%r7`), the share that holds more distinct warps than the active set (6): the active
/// set changed within it. `loop_src(marked)` on one gtx480 SM, two CTAs of 512 threads (16
/// warps a scheduler), with `long_marks`; the output checked (every word was zero, so every
/// thread stores 0).
fn rotating_share(marked: bool, long_marks: &str) -> f64 {
    let cfg = GpuConfig::load_with(
        "gtx480",
        &[
            "gpu.num_sms=1".into(),
            format!("policy.tls.long_marks={long_marks}"),
        ],
    )
    .unwrap();
    TRACE.with(|t| t.set(true));
    let o = run(
        &loop_src(marked),
        2,
        512,
        1024,
        Some((&cfg, PolicyKind::from_name("tls").unwrap())),
    );
    TRACE.with(|t| t.set(false));
    assert!(o.error.is_none(), "{:?}", o.error);
    assert!(o.out.iter().all(|&w| w == 0));
    let s = o.stats.unwrap();
    // The loop's first instruction: the 7th of the body, after the kernel's 7-instruction
    // prologue (`common::kernel`).
    let add = 7 + 6;
    let warps: Vec<u64> = s
        .issue_trace
        .iter()
        .filter(|e| e.sm == 0 && e.scheduler == 0 && e.pc == add)
        .map(|e| e.age)
        .collect();
    let windows = warps.windows(12);
    let n = windows.len();
    let rotating = windows
        .filter(|w| {
            let mut seen: Vec<u64> = w.to_vec();
            seen.sort_unstable();
            seen.dedup();
            seen.len() > 6
        })
        .count();
    rotating as f64 / n as f64
}

/// While the loop reads its copy the active set stays put under both rules: the warps in it
/// run their loops. While it reads the loaded register itself, `sticky` demotes each warp
/// at every iteration, long after the data came back, so the set keeps changing; `pending`
/// does not.
#[test]
fn a_loaded_register_stays_a_long_dependence_until_an_alu_writes_it() {
    let shares = [
        rotating_share(false, "sticky"),
        rotating_share(false, "pending"),
        rotating_share(true, "pending"),
        rotating_share(true, "sticky"),
    ];
    assert!(shares[..3].iter().all(|&x| x < 0.1), "{shares:?}");
    assert!(shares[3] > 0.5, "{shares:?}");
}
