//! `cp.async` (issue 19, item 8): the global→shared copy of 4, 8 or 16 bytes per thread, the
//! zero-filled tail of a partial copy (its bytes are not read: a source past the end of memory
//! does not fault), and the faults of a misaligned or out-of-bounds source.

use crate::exec_util;
use exec_util::*;
use warpsim_core::device::DeviceError;
use warpsim_core::ir::Space;

/// `%rd3` = &out[tid]; `%r8` = &buf[tid] (shared, 4-byte words); out[tid] = 7·tid + 1.
const SETUP: &str = "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nmad.lo.s32 %r9, %r2, 7, 1;\n\
    st.global.u32 [%rd3], %r9;\nmembar.gl;\nmov.u32 %r6, buf;\nshl.b32 %r7, %r2, 2;\nadd.s32 %r8, %r6, %r7;";

/// Stores `%r10` to out[32 + tid].
const STORE_HIGH: &str = "st.global.u32 [%rd3+128], %r10;";

#[test]
fn copies_four_bytes_per_thread_and_zero_fills_a_partial_copy() {
    // Odd threads copy out[tid]; even ones read 0 bytes from 2³² bytes past it (never read)
    // and get a zero-filled word over the -1 stored first.
    let body = format!(
        "{SETUP}\nst.shared.u32 [%r8], -1;\nand.b32 %r12, %r2, 1;\nshl.b32 %r11, %r12, 2;\n\
         xor.b32 %r13, %r12, 1;\ncvt.u64.u32 %rd5, %r13;\nshl.b64 %rd5, %rd5, 32;\nadd.s64 %rd4, %rd3, %rd5;\n\
         cp.async.ca.shared.global [%r8], [%rd4], 4, %r11;\ncp.async.commit_group;\ncp.async.wait_group 0;\n\
         bar.sync 0;\nld.shared.u32 %r10, [%r8];\n{STORE_HIGH}"
    );
    let out = run(&kernel(".shared .align 16 .b8 buf[128];", &body), 1, 32, 64).unwrap();
    for t in 0..32u32 {
        assert_eq!(out[t as usize], 7 * t + 1);
        let want = if t % 2 == 1 { 7 * t + 1 } else { 0 };
        assert_eq!(out[32 + t as usize], want, "thread {t}");
    }
}

#[test]
fn sixteen_and_eight_byte_copies() {
    // Threads 0..8 copy out[4t..4t+4] (16 bytes, .cg) into buf[4t..]; threads 8..16 copy
    // out[2(t-8)..+2] (8 bytes) into buf[32 + 2(t-8)..]; then every thread reads buf[tid].
    let body = format!(
        "{SETUP}\nbar.sync 0;\nsetp.lt.u32 %p1, %r2, 8;\nsetp.lt.u32 %p2, %r2, 16;\n\
         shl.b32 %r14, %r2, 4;\nadd.s32 %r15, %r6, %r14;\nmul.wide.u32 %rd6, %r2, 16;\nadd.s64 %rd7, %rd1, %rd6;\n\
         @%p1 cp.async.cg.shared.global.L2::128B [%r15], [%rd7], 16;\n\
         @%p1 bra.uni DONE;\nsub.s32 %r16, %r2, 8;\nshl.b32 %r17, %r16, 3;\nadd.s32 %r18, %r6, %r17;\n\
         mul.wide.u32 %rd8, %r16, 8;\nadd.s64 %rd9, %rd1, %rd8;\n\
         @%p2 cp.async.ca.shared.global [%r18+128], [%rd9], 8;\nDONE:\ncp.async.wait_all;\nbar.sync 0;\n\
         ld.shared.u32 %r10, [%r8];\n{STORE_HIGH}"
    );
    let out = run(&kernel(".shared .align 16 .b8 buf[256];", &body), 1, 32, 64).unwrap();
    for t in 0..32u32 {
        // Words 0..32 from the 16-byte copies; words 32..48 (not read here) from the 8-byte ones.
        assert_eq!(out[32 + t as usize], 7 * t + 1, "thread {t}");
    }
    let body8 = body.replace(
        "ld.shared.u32 %r10, [%r8];",
        "ld.shared.u32 %r10, [%r8+128];",
    );
    let out = run(
        &kernel(".shared .align 16 .b8 buf[256];", &body8),
        1,
        32,
        64,
    )
    .unwrap();
    for t in 0..16u32 {
        assert_eq!(out[32 + t as usize], 7 * t + 1, "thread {t}");
    }
}

#[test]
fn misaligned_and_out_of_bounds_sources_fault() {
    let misaligned = format!("{SETUP}\ncp.async.ca.shared.global [%r8], [%rd3+2], 4;");
    let err = run(
        &kernel(".shared .align 16 .b8 buf[128];", &misaligned),
        1,
        32,
        64,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            DeviceError::MemoryFault {
                misaligned: true,
                space: Space::Global,
                size: 4,
                ..
            }
        ),
        "{err}"
    );
    // A full copy from past the end of `out` (64 words) reads out of bounds.
    let past = format!("{SETUP}\ncp.async.ca.shared.global [%r8], [%rd3+4096], 4, 4;");
    let err = run(&kernel(".shared .align 16 .b8 buf[128];", &past), 1, 32, 64).unwrap_err();
    assert!(
        matches!(
            err,
            DeviceError::MemoryFault {
                misaligned: false,
                write: false,
                ..
            }
        ),
        "{err}"
    );
    // A shared destination past the array.
    let shared = format!("{SETUP}\ncp.async.ca.shared.global [%r8+4096], [%rd3], 4;");
    let err = run(
        &kernel(".shared .align 16 .b8 buf[128];", &shared),
        1,
        32,
        64,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            DeviceError::MemoryFault {
                space: Space::Shared,
                write: true,
                ..
            }
        ),
        "{err}"
    );
}
