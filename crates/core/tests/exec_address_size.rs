//! PTX's address-size rules (issue 19, item 1): shared and local addresses are 32-bit, so
//! `[%r+k]` is computed modulo 2³² (nvcc emits a register holding `base − k` with the
//! immediate `+k`); generic and global addresses are 64-bit and never fold back.

use crate::exec_util;
use exec_util::*;
use warpsim_core::device::DeviceError;
use warpsim_core::ir::Space;

/// Stores `%r10` to out[tid].
const STORE: &str =
    "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;";

#[test]
fn shared_address_below_zero_plus_offset_wraps_into_the_array() {
    // %r8 = &buf[tid] − 16 (below 0 for tid < 4); st/atom/ld at [%r8+16] reach buf[tid].
    let decls = ".shared .align 4 .b8 buf[256];";
    let body = format!(
        "mov.u32 %r6, buf;\nshl.b32 %r7, %r2, 2;\nadd.s32 %r8, %r6, %r7;\nadd.s32 %r8, %r8, -16;\n\
         mul.lo.s32 %r9, %r2, 3;\nst.shared.u32 [%r8+16], %r9;\natom.shared.add.u32 %r11, [%r8+16], 100;\n\
         bar.sync 0;\nld.shared.u32 %r10, [%r8+16];\nadd.s32 %r10, %r10, %r11;\n{STORE}"
    );
    let out = run(&kernel(decls, &body), 1, 64, 64).unwrap();
    for (t, v) in out.iter().enumerate() {
        let t = t as u32;
        assert_eq!(*v, (3 * t + 100) + 3 * t, "thread {t}");
    }
}

#[test]
fn local_address_below_zero_plus_offset_wraps_into_the_frame() {
    let body = format!(
        ".local .align 4 .b8 arr[16];\nmov.u32 %r6, arr;\nadd.s32 %r7, %r6, -8;\n\
         st.local.u32 [%r7+8], %r2;\nst.local.u32 [%r7+12], 7;\nld.local.u32 %r8, [%r6];\nld.local.u32 %r9, [%r6+4];\n\
         mad.lo.s32 %r10, %r8, 10, %r9;\n{STORE}"
    );
    let out = run(&kernel("", &body), 2, 32, 64).unwrap();
    for (t, v) in out.iter().enumerate() {
        assert_eq!(*v, 10 * t as u32 + 7, "thread {t}");
    }
}

#[test]
fn wrapped_shared_address_outside_the_array_is_still_out_of_bounds() {
    // 0xFFFFFFF0 + 12 = 0xFFFFFFFC modulo 2³²: not in a 256-byte array.
    let decls = ".shared .align 4 .b8 buf[256];";
    let body = "mov.u32 %r6, buf;\nadd.s32 %r8, %r6, -16;\nst.shared.u32 [%r8+12], %r2;";
    match run(&kernel(decls, body), 1, 32, 1).unwrap_err() {
        DeviceError::MemoryFault {
            space: Space::Shared,
            write: true,
            address,
            ..
        } => {
            assert_eq!(address, 0xFFFF_FFFC)
        }
        e => panic!("{e}"),
    }
}

#[test]
fn global_addresses_do_not_wrap_at_32_bits() {
    // out + 2³² is far past the buffer: 64-bit addresses are never taken modulo 2³².
    let body = "ld.global.u32 %r7, [%rd1+4294967296];";
    match run(&kernel("", body), 1, 32, 16).unwrap_err() {
        DeviceError::MemoryFault {
            space: Space::Global,
            write: false,
            ..
        } => {}
        e => panic!("{e}"),
    }
    // A generic address built from a 32-bit-wrapped shared offset still reaches shared memory.
    let decls = ".shared .align 4 .b8 buf[64];";
    let body = format!(
        "mov.u32 %r6, buf;\nadd.s32 %r7, %r6, -4;\nst.shared.u32 [%r7+4], 41;\nbar.sync 0;\n\
         cvt.u64.u32 %rd5, %r6;\ncvta.shared.u64 %rd6, %rd5;\nld.u32 %r10, [%rd6];\nadd.s32 %r10, %r10, 1;\n{STORE}"
    );
    assert!(run(&kernel(decls, &body), 1, 32, 32)
        .unwrap()
        .iter()
        .all(|&v| v == 42));
}
