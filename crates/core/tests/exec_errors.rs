//! Bad input and bad kernels: each case asserts the exact error class and its location.

use crate::exec_util;
use exec_util::*;
use warpsim_core::device::{Arg, DevPtr, Device, DeviceError, DeviceOptions, Dim3, LaunchConfig};
use warpsim_core::ir::Space;
use warpsim_core::LoadError;

fn store_at(index_reg: &str) -> String {
    format!(
        "mul.wide.u32 %rd2, {index_reg}, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r2;"
    )
}

#[test]
fn out_of_bounds_global_write_names_kernel_thread_and_address() {
    // Thread 70 of CTA 1 writes out[70 + 64] in a 100-word buffer: global index 134.
    let src = kernel("", &store_at("%r2"));
    let err = run(&src, 3, 64, 100).unwrap_err();
    match err {
        DeviceError::MemoryFault {
            location,
            space,
            write,
            misaligned,
            size,
            address,
            ..
        } => {
            assert_eq!(location.kernel, "k");
            assert_eq!(location.cta, [1, 0, 0]);
            assert_eq!(location.thread, [36, 0, 0]);
            assert_eq!(location.line, 20);
            assert_eq!(
                (space, write, misaligned, size),
                (Space::Global, true, false, 4)
            );
            assert_eq!(address % 256, (100 * 4) % 256);
        }
        e => panic!("{e}"),
    }
    // The report names the buffer, the distance from its end and how many threads fault:
    // threads 36..63 of the warp (global indices 100..127) all miss the 100-word buffer.
    let text = run(&src, 3, 64, 100).unwrap_err().to_string();
    assert!(
        text.contains(" (Global space): 0 bytes after the end of a 400-byte allocation at 0x"),
        "{text}"
    );
    assert!(text.contains(" (cudaMalloc call 1); 28 of the warp's 32 active threads fault, the first at kernel `k`, CTA (1,0,0), thread (36,0,0)"), "{text}");
}

/// Runs `k` with `out` pointing at a buffer that was freed (and another, live one after it).
fn run_on_freed(src: &str) -> DeviceError {
    let mut dev = Device::new();
    let m = dev.load_ptx(src).unwrap();
    let k = dev.kernel(m, "k").unwrap();
    let keep = dev.alloc_zeroed::<u32>(16).unwrap();
    let gone = dev.alloc_zeroed::<u32>(16).unwrap();
    dev.alloc_zeroed::<u32>(16).unwrap();
    dev.free(keep).unwrap();
    dev.free(gone).unwrap();
    let cfg = LaunchConfig {
        grid: 1.into(),
        block: 32.into(),
        dynamic_shared: 0,
    };
    dev.launch(k, cfg, &[Arg::Ptr(gone), Arg::U32(16)])
        .unwrap_err()
}

#[test]
fn access_to_freed_memory_is_a_use_after_free_naming_the_free() {
    let err = run_on_freed(&kernel("", &store_at("%r2")));
    assert!(
        matches!(
            err,
            DeviceError::MemoryFault {
                after_free: true,
                write: true,
                ..
            }
        ),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.starts_with("write after free of 4 bytes at 0x"),
        "{text}"
    );
    // The second cudaMalloc, freed by the second cudaFree; every thread writes into it.
    assert!(text.contains(": inside a 64-byte allocation at 0x") && text.contains(" (cudaMalloc call 2), freed by cudaFree call 2; 32 of the warp's 32 active threads fault"), "{text}");
}

#[test]
fn faults_near_module_variables_and_null_name_them() {
    // 20 threads write table[tid] of a 16-word `__device__` array: threads 16..19 miss it.
    let decls = ".global .align 4 .b8 table[64];";
    let body = "setp.ge.u32 %p1, %r5, 20;\n@%p1 bra DONE;\nmov.u64 %rd4, table;\nmul.wide.u32 %rd2, %r5, 4;\nadd.s64 %rd3, %rd4, %rd2;\nst.global.u32 [%rd3], %r5;\nDONE:";
    let text = run(&kernel(decls, body), 1, 32, 1).unwrap_err().to_string();
    assert!(
        text.contains(": 0 bytes after the end of __device__ variable `table` (64 bytes at 0x"),
        "{text}"
    );
    assert!(text.contains("; 4 of the warp's 20 active threads fault, the first at kernel `k`, CTA (0,0,0), thread (16,0,0)"), "{text}");
    let text = run(
        &kernel("", "mov.u64 %rd5, 8;\nld.global.u32 %r7, [%rd5];"),
        1,
        1,
        1,
    )
    .unwrap_err()
    .to_string();
    assert!(text.contains("read out of bounds of 4 bytes at 0x8 (Global space): a null pointer (no allocation near address 0); 1 of the warp's 1 active thread faults"), "{text}");
}

#[test]
fn out_of_bounds_global_read() {
    let body = "add.s32 %r6, %r2, 1000;\nmul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r7, [%rd3];";
    let err = run(&kernel("", body), 1, 32, 16).unwrap_err();
    assert!(
        matches!(
            err,
            DeviceError::MemoryFault {
                write: false,
                misaligned: false,
                ..
            }
        ),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("read out of bounds")
            && text.contains("kernel `k`")
            && text.contains("thread (0,0,0)"),
        "{text}"
    );
}

#[test]
fn misaligned_access() {
    let body = "add.s64 %rd3, %rd1, 2;\nld.global.u32 %r7, [%rd3];";
    let err = run(&kernel("", body), 1, 32, 16).unwrap_err();
    assert!(
        matches!(err, DeviceError::MemoryFault { misaligned: true, address, .. } if address % 4 == 2),
        "{err}"
    );
}

#[test]
fn out_of_bounds_shared_write() {
    let decls = ".shared .align 4 .b8 buf[64];";
    let body = "mul.lo.s32 %r6, %r2, 4;\nmov.u32 %r7, buf;\nadd.s32 %r8, %r7, %r6;\nst.shared.u32 [%r8], %r2;";
    let err = run(&kernel(decls, body), 1, 32, 1).unwrap_err();
    match err {
        ref e @ DeviceError::MemoryFault {
            ref location,
            space: Space::Shared,
            write: true,
            address,
            ..
        } => {
            assert_eq!(location.thread, [16, 0, 0]);
            assert_eq!(address, 64);
            assert!(e.to_string().contains("(Shared space): 0 bytes after the end of the CTA's 64 bytes of shared memory; 16 of the warp's 32 active threads fault"), "{e}");
        }
        e => panic!("{e}"),
    }
}

#[test]
fn barrier_in_divergent_code_is_a_deadlock() {
    let body =
        "setp.lt.u32 %p1, %r2, 16;\n@%p1 bra SKIP;\nbar.sync 0;\nSKIP:\nadd.s32 %r9, %r2, 1;";
    let err = run(&kernel("", body), 1, 64, 1).unwrap_err();
    match &err {
        DeviceError::Deadlock {
            kernel,
            cta,
            live_threads,
            warps,
        } => {
            assert_eq!(kernel, "k");
            assert_eq!(*cta, [0, 0, 0]);
            assert_eq!(*live_threads, 64);
            assert_eq!(warps.len(), 2);
            assert_eq!(warps[0].lanes.count_ones(), 16);
            assert_eq!(warps[0].line, 20);
        }
        e => panic!("{e}"),
    }
    assert!(err.to_string().contains("barrier deadlock"), "{err}");
}

#[test]
fn barrier_count_that_cannot_be_reached_is_a_deadlock() {
    let err = run(&kernel("", "bar.sync 1, 96;"), 1, 64, 1).unwrap_err();
    assert!(
        matches!(&err, DeviceError::Deadlock { warps, .. } if warps.len() == 2 && warps[0].barrier == 1),
        "{err}"
    );
}

fn synccheck() -> Device {
    Device::with_options(DeviceOptions {
        synccheck: true,
        ..Default::default()
    })
}

/// `if (threadIdx.x >= N) return; __syncthreads();` for N = `keep`.
fn return_then_barrier(keep: u32, barrier: &str) -> String {
    kernel("", &format!("setp.ge.u32 %p1, %r5, {keep};\n@%p1 bra DONE;\n{barrier}\nst.global.u32 [%rd1], %r5;\nDONE:"))
}

#[test]
fn synccheck_reports_a_barrier_completed_without_exited_lanes() {
    // Threads 48..63 return; the barrier completes for the other 48 (as on a GPU) unless
    // synccheck is on.
    let src = return_then_barrier(48, "bar.sync 0;");
    assert!(
        run(&src, 2, 64, 1).is_ok(),
        "without synccheck the barrier completes"
    );
    let err = run_with(synccheck(), &src, 2, 64, 1).unwrap_err();
    match &err {
        DeviceError::BarrierAfterExit {
            kernel,
            cta,
            barrier,
            count,
            line,
            exited,
            ..
        } => {
            assert_eq!(
                (kernel.as_str(), *cta, *barrier, *count, *line),
                ("k", [0, 0, 0], 0, None, 20)
            );
            assert_eq!(
                exited,
                &[warpsim_core::device::ExitedWarp {
                    warp: 1,
                    lanes: 0xffff_0000
                }]
            );
        }
        e => panic!("{e}"),
    }
    let text = err.to_string();
    assert!(text.starts_with("synccheck: barrier 0 at pc "), "{text}");
    assert!(text.contains("(PTX line 20) of kernel `k`, CTA (0,0,0), completed although 16 threads that should reach it had exited: warp 1 lanes 16-31"), "{text}");
}

#[test]
fn synccheck_sees_warps_that_exited_while_others_waited() {
    // Warp 0 waits at the barrier first; warp 1 then exits whole, which completes it.
    let src = return_then_barrier(32, "barrier.sync 0;");
    assert!(run(&src, 1, 64, 1).is_ok());
    let err = run_with(synccheck(), &src, 1, 64, 1).unwrap_err();
    assert!(
        matches!(&err, DeviceError::BarrierAfterExit { exited, .. } if exited.len() == 1 && exited[0].warp == 1 && exited[0].lanes == u32::MAX),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("32 threads that should reach it had exited: warp 1 lanes 0-31"),
        "{err}"
    );
}

#[test]
fn synccheck_on_a_counted_barrier_blames_only_warps_taking_part() {
    // Warps 2 and 3 exit; warps 0 and 1 meet at `bar.sync 1, 64`: correct, no report.
    let src = return_then_barrier(64, "bar.sync 1, 64;");
    assert_eq!(run_with(synccheck(), &src, 1, 128, 1).map(|_| ()), Ok(()));
    // Lanes 16..31 of warp 0 exit; 48 threads complete `bar.sync 1, 48`, but warp 0 takes part
    // without half its threads.
    let body = "setp.ge.u32 %p1, %r5, 64;\n@%p1 bra DONE;\nsetp.ge.u32 %p2, %r5, 16;\nsetp.lt.u32 %p3, %r5, 32;\nand.pred %p4, %p2, %p3;\n\
                @%p4 bra DONE;\nbar.sync 1, 48;\nDONE:";
    let src = kernel("", body);
    assert!(run(&src, 1, 128, 1).is_ok());
    let err = run_with(synccheck(), &src, 1, 128, 1).unwrap_err();
    match &err {
        DeviceError::BarrierAfterExit {
            barrier: 1,
            count: Some(48),
            exited,
            ..
        } => {
            assert_eq!(
                exited,
                &[warpsim_core::device::ExitedWarp {
                    warp: 0,
                    lanes: 0xffff_0000
                }]
            );
        }
        e => panic!("{e}"),
    }
    assert!(err.to_string().contains("barrier 1 (count 48) at"), "{err}");
}

#[test]
fn synccheck_accepts_barriers_every_thread_reaches() {
    // Exits after the last barrier are fine.
    let body = "bar.sync 0;\nsetp.ge.u32 %p1, %r5, 40;\n@%p1 bra DONE;\nbar.sync 0;\nDONE:";
    assert!(
        run_with(synccheck(), &kernel("", body), 2, 96, 1).is_err(),
        "the second barrier misses threads 40..95"
    );
    let body = "bar.sync 0;\nbar.sync 0;\nsetp.ge.u32 %p1, %r5, 40;\n@%p1 bra DONE;\nst.global.u32 [%rd1], %r5;\nDONE:";
    assert!(run_with(synccheck(), &kernel("", body), 2, 96, 1).is_ok());
}

#[test]
fn runaway_kernel_hits_the_instruction_limit() {
    let body = "SPIN:\nadd.s32 %r9, %r9, 1;\nbra SPIN;";
    let err = run_with(limited(10_000), &kernel("", body), 4, 64, 1).unwrap_err();
    assert_eq!(
        err,
        DeviceError::InstructionLimit {
            kernel: "k".into(),
            limit: 10_000
        }
    );
}

#[test]
fn trap_reports_its_location() {
    let body = "setp.eq.u32 %p1, %r2, 37;\n@%p1 trap;";
    let err = run(&kernel("", body), 1, 64, 1).unwrap_err();
    assert!(
        matches!(&err, DeviceError::Trap(l) if l.thread == [37, 0, 0] && l.line == 19),
        "{err}"
    );
}

#[test]
fn unbounded_recursion_overflows_the_stack() {
    let decls = ".func loop_forever(.param .b32 x)\n{\n.local .align 8 .b8 d[256];\n.reg .b32 %r<3>;\n\
        ld.param.b32 %r1, [x];\n{ .param .b32 a; st.param.b32 [a], %r1; call.uni loop_forever, (a); }\nret;\n}";
    let body = "{ .param .b32 a; st.param.b32 [a], %r2; call.uni loop_forever, (a); }";
    let err = run(&kernel(decls, body), 1, 32, 1).unwrap_err();
    assert!(
        matches!(&err, DeviceError::StackOverflow { location, limit: 65536, .. } if location.function == "loop_forever"),
        "{err}"
    );
}

#[test]
fn indirect_call_through_a_non_function() {
    let decls = ".func f(.param .b32 x)\n{\nret;\n}";
    let body = "mov.u64 %rd9, 1234;\n{ .param .b32 a; st.param.b32 [a], %r2;\nproto: .callprototype _ (.param .b32 _);\ncall %rd9, (a), proto; }";
    let err = run(&kernel(decls, body), 1, 32, 1).unwrap_err();
    assert!(
        matches!(err, DeviceError::BadCallTarget { value: 1234, .. }),
        "{err}"
    );
}

fn launch_err(block: Dim3, dynamic_shared: u32, args: Vec<Arg>) -> DeviceError {
    let mut dev = Device::new();
    let m = dev.load_ptx(&kernel("", "")).unwrap();
    let k = dev.kernel(m, "k").unwrap();
    dev.launch(
        k,
        LaunchConfig {
            grid: Dim3::from(1),
            block,
            dynamic_shared,
        },
        &args,
    )
    .unwrap_err()
}

#[test]
fn block_of_2048_threads_is_an_invalid_launch() {
    let err = launch_err(Dim3::from(2048), 0, vec![Arg::Ptr(DevPtr(0)), Arg::U32(0)]);
    assert!(
        matches!(&err, DeviceError::InvalidLaunch { reason, .. } if reason.contains("2048 threads")),
        "{err}"
    );
}

#[test]
fn wrong_argument_count_and_size() {
    let err = launch_err(Dim3::from(32), 0, vec![Arg::Ptr(DevPtr(0))]);
    assert!(
        matches!(&err, DeviceError::InvalidLaunch { reason, .. } if reason.contains("takes 2 arguments, 1 given")),
        "{err}"
    );
    let err = launch_err(Dim3::from(32), 0, vec![Arg::Ptr(DevPtr(0)), Arg::U64(0)]);
    assert!(
        matches!(&err, DeviceError::InvalidLaunch { reason, .. } if reason.contains("argument 1 (`n`) is 8 bytes")),
        "{err}"
    );
}

#[test]
fn too_much_dynamic_shared_memory() {
    let err = launch_err(
        Dim3::from(32),
        64 * 1024,
        vec![Arg::Ptr(DevPtr(0)), Arg::U32(0)],
    );
    assert!(
        matches!(&err, DeviceError::InvalidLaunch { reason, .. } if reason.contains("shared memory")),
        "{err}"
    );
}

#[test]
fn unknown_kernel_lists_the_available_ones() {
    let mut dev = Device::new();
    let m = dev.load_ptx(&kernel("", "")).unwrap();
    let err = dev.kernel(m, "nope").unwrap_err();
    assert_eq!(
        err,
        DeviceError::UnknownKernel {
            name: "nope".into(),
            available: vec!["k".into()]
        }
    );
}

#[test]
fn malformed_ptx_reports_line_and_column() {
    let src = kernel("", "add.s32 %r9, %r9 %r1;");
    let err = Device::new().load_ptx(&src).unwrap_err();
    match err {
        DeviceError::Load(e) => match &e.0[0] {
            LoadError::Parse(p) => assert_eq!((p.line, p.col), (18, 18), "{p}"),
            e => panic!("{e}"),
        },
        e => panic!("{e}"),
    }
}

#[test]
fn unsupported_instruction_is_named_at_load_time() {
    let src = kernel("", "sured.b.add.1d.u32.trap [%rd1, {%r2}], %r3;");
    let err = Device::new().load_ptx(&src).unwrap_err();
    match err {
        DeviceError::Load(e) => {
            assert_eq!(
                e.0[0],
                LoadError::Unsupported {
                    what: "sured.b.add.1d.u32.trap".into(),
                    line: 18
                }
            )
        }
        e => panic!("{e}"),
    }
}

#[test]
fn host_copies_through_invalid_pointers_fail() {
    let mut dev = Device::new();
    let p = dev.malloc(16).unwrap();
    assert!(matches!(
        dev.write(p.offset(8), &[0; 16]),
        Err(DeviceError::InvalidPointer { .. })
    ));
    assert!(matches!(
        dev.free(p.offset(4)),
        Err(DeviceError::InvalidPointer { .. })
    ));
    dev.free(p).unwrap();
    assert!(matches!(
        dev.read_vec::<u8>(p, 1),
        Err(DeviceError::InvalidPointer { .. })
    ));
}

#[test]
fn allocations_beyond_capacity_fail_cleanly() {
    let mut dev = Device::with_options(DeviceOptions {
        global_memory_bytes: 1 << 20,
        ..Default::default()
    });
    let p = dev.malloc(1 << 19).unwrap();
    assert_eq!(
        dev.malloc(1 << 20),
        Err(DeviceError::OutOfMemory { bytes: 1 << 20 })
    );
    dev.free(p).unwrap();
    dev.malloc(1 << 20).unwrap();
}

#[test]
fn reqntid_requires_the_exact_block_shape() {
    let src = kernel("", "").replace(".param .u32 n)\n", ".param .u32 n)\n.reqntid 64, 1, 1\n");
    let mut dev = Device::new();
    let m = dev.load_ptx(&src).unwrap();
    let k = dev.kernel(m, "k").unwrap();
    let args = [Arg::Ptr(DevPtr(0)), Arg::U32(0)];
    let cfg = |x| LaunchConfig {
        grid: Dim3::from(1),
        block: Dim3::from(x),
        dynamic_shared: 0,
    };
    let err = dev.launch(k, cfg(32), &args).unwrap_err();
    assert!(
        matches!(&err, DeviceError::InvalidLaunch { reason, .. } if reason.contains(".reqntid")),
        "{err}"
    );
    dev.launch(k, cfg(64), &args).unwrap();
}
