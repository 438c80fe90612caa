//! Device-side `malloc`/`free` on hand-written PTX (issue 19, item 4): the calls nvcc emits
//! for `malloc`/`new` and `free`/`delete` (`call.uni` of the `.extern .func`s), placement in
//! lane order, the memory checker around blocks, and a double free.

use crate::exec_util;
use exec_util::*;
use warpsim_core::device::{DeviceError, DeviceOptions};
use warpsim_core::ir::layout::HEAP_BASE;

const DECLS: &str =
    ".extern .func (.param .b64 func_retval0) malloc\n(\n.param .b64 malloc_param_0\n);\n\
                     .extern .func free\n(\n.param .b64 free_param_0\n);";

/// `%rd5 = malloc(size)`.
fn malloc(size: &str) -> String {
    format!(
        "{{\n.param .b64 param0;\nst.param.b64 [param0], {size};\n.param .b64 retval0;\n\
         call.uni (retval0), malloc, (param0);\nld.param.b64 %rd5, [retval0];\n}}"
    )
}

/// `free(reg)`.
fn free(reg: &str) -> String {
    format!("{{\n.param .b64 param0;\nst.param.b64 [param0], {reg};\ncall.uni free, (param0);\n}}")
}

#[test]
fn lanes_get_distinct_aligned_blocks_in_lane_order() {
    // Each thread mallocs 24 bytes (a 32-byte slot after a 16-byte header), stores its id at the end of its block, reads it back,
    // frees the block, and reports (block offset from the heap base) + id read back.
    let body = format!(
        "{}\nst.u32 [%rd5+20], %r2;\nld.u32 %r6, [%rd5+20];\ncvt.u32.u64 %r7, %rd5;\nadd.s32 %r10, %r7, %r6;\n{}\n\
         mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;",
        malloc("24"),
        free("%rd5")
    );
    let out = run(&kernel(DECLS, &body), 1, 64, 64).unwrap();
    // Warp 0 frees its blocks before warp 1 runs (functional slices), so warp 1 reuses them.
    let base = HEAP_BASE as u32;
    for (t, v) in out.iter().enumerate() {
        assert_eq!(
            v.wrapping_sub(base),
            48 * (t as u32 % 32) + 16 + t as u32,
            "thread {t}"
        );
    }
}

#[test]
fn one_byte_past_a_block_is_out_of_bounds() {
    let body = format!("{}\nst.u8 [%rd5+24], 1;", malloc("24"));
    match run(&kernel(DECLS, &body), 1, 1, 1).unwrap_err() {
        e @ DeviceError::MemoryFault {
            address,
            write: true,
            ..
        } => {
            assert_eq!(address, HEAP_BASE + 16 + 24);
            let block = HEAP_BASE + 16;
            assert!(e.to_string().contains(&format!("0 bytes after the end of a 24-byte block at 0x{block:x} (device malloc call 1)")), "{e}");
        }
        e => panic!("{e}"),
    }
}

#[test]
fn use_after_free_and_double_free_are_reported() {
    let body = format!("{}\n{}\nld.u32 %r6, [%rd5+4];", malloc("16"), free("%rd5"));
    let err = run(&kernel(DECLS, &body), 1, 1, 1).unwrap_err();
    assert!(
        matches!(
            err,
            DeviceError::MemoryFault {
                write: false,
                after_free: true,
                ..
            }
        ),
        "{err}"
    );
    let text = err.to_string();
    let want = format!(
        "read after free of 4 bytes at 0x{:x} (Global space): inside a 16-byte block at 0x{:x} (device malloc call 1), freed by device free call 1; \
         1 of the warp's 1 active thread faults, the first at kernel `k`",
        HEAP_BASE + 20,
        HEAP_BASE + 16
    );
    assert!(text.starts_with(&want), "{text}");
    let body = format!("{}\n{}\n{}", malloc("16"), free("%rd5"), free("%rd5"));
    match run(&kernel(DECLS, &body), 1, 1, 1).unwrap_err() {
        e @ DeviceError::BadFree { address, .. } => {
            assert_eq!(address, HEAP_BASE + 16);
            assert!(
                e.to_string()
                    .contains("not a live block of the device heap"),
                "{e}"
            );
        }
        e => panic!("{e}"),
    }
}

#[test]
fn exhausted_heap_returns_null() {
    // A 1 KiB heap: 32 lanes × 64 bytes (80 with the header) fit 12 blocks; the others get 0.
    let mut dev = warpsim_core::device::Device::with_options(DeviceOptions::default());
    dev.set_heap_size(1024).unwrap();
    let body = format!(
        "{}\nsetp.ne.s64 %p1, %rd5, 0;\nselp.u32 %r10, 1, 0, %p1;\n\
         mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;",
        malloc("64")
    );
    let out = run_with(dev, &kernel(DECLS, &body), 1, 32, 32).unwrap();
    assert_eq!(out, [[1u32; 12].as_slice(), &[0; 20]].concat());
}

#[test]
fn the_heap_size_is_fixed_once_a_kernel_using_it_has_run() {
    // CUDA: cudaLimitMallocHeapSize "must be performed before launching any kernel that uses
    // the malloc() or free() device system calls" (measured too: an H200 refuses it after such
    // a launch, every block freed). A module without malloc/free leaves it settable.
    let mut dev = warpsim_core::device::Device::with_options(DeviceOptions::default());
    let m = dev
        .load_ptx(&kernel(
            "",
            "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r2;",
        ))
        .unwrap();
    let k = dev.kernel(m, "k").unwrap();
    let out = dev.alloc_zeroed::<u32>(1).unwrap();
    let cfg = warpsim_core::device::LaunchConfig {
        grid: 1u32.into(),
        block: 1u32.into(),
        dynamic_shared: 0,
    };
    dev.launch(
        k,
        cfg,
        &[
            warpsim_core::device::Arg::Ptr(out),
            warpsim_core::device::Arg::U32(1),
        ],
    )
    .unwrap();
    dev.set_heap_size(4096).unwrap();
    let body = format!("{}\n{}", malloc("16"), free("%rd5"));
    let m = dev.load_ptx(&kernel(DECLS, &body)).unwrap();
    let k = dev.kernel(m, "k").unwrap();
    dev.launch(
        k,
        cfg,
        &[
            warpsim_core::device::Arg::Ptr(out),
            warpsim_core::device::Arg::U32(1),
        ],
    )
    .unwrap();
    assert!(matches!(
        dev.set_heap_size(8192),
        Err(DeviceError::HeapFixed { bytes: 8192 })
    ));
    assert_eq!(dev.heap_size(), 4096);
}

#[test]
fn the_eight_bytes_before_a_block_hold_new_arrays_cookie() {
    // nvcc 13.5's `new P[n]` (P: a constructor, no destructor): malloc(n * sizeof(P)), then
    // the element count stored 8 bytes before the block; `delete[]` reads nothing there.
    let body = format!(
        "{}\ncvt.u64.u32 %rd6, %r2;\nst.u64 [%rd5+-8], %rd6;\nld.u64 %rd7, [%rd5+-8];\n\
         cvt.u32.u64 %r10, %rd7;\n{}\n\
         mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r10;",
        malloc("12"),
        free("%rd5")
    );
    let out = run(&kernel(DECLS, &body), 1, 4, 4).unwrap();
    assert_eq!(out, [0, 1, 2, 3]);
    // The header's first 8 bytes are not memory: an access there faults.
    let body = format!("{}\nst.u32 [%rd5+-12], 1;", malloc("12"));
    match run(&kernel(DECLS, &body), 1, 1, 1).unwrap_err() {
        DeviceError::MemoryFault { address, .. } => assert_eq!(address, HEAP_BASE + 4),
        e => panic!("{e}"),
    }
    // Nor does the slot let an access run into the block.
    let body = format!("{}\nst.u64 [%rd5+-4], %rd5;", malloc("12"));
    assert!(matches!(
        run(&kernel(DECLS, &body), 1, 1, 1).unwrap_err(),
        DeviceError::MemoryFault { .. }
    ));
}
