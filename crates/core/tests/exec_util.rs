//! Shared helpers for executor tests: wrap a kernel body in a module and run it.
// Each exec_* test uses what it needs, and this file's own test binary uses none.
#![allow(dead_code)]
// `DeviceError` is the API's error type: the helpers return it as the API does.
#![allow(clippy::result_large_err)]

use warpsim_core::device::{Arg, DevPtr, Device, DeviceError, DeviceOptions, Dim3, LaunchConfig};

/// A module with one kernel `k(.u64 out, .u32 n)`; `body` is the code after loading the params
/// into `%rd1` (out, generic→global converted) and `%r1` (n), with `%r2` = global thread id.
pub fn kernel(decls: &str, body: &str) -> String {
    format!(
        ".version 9.5\n.target sm_75\n.address_size 64\n{decls}\n.visible .entry k(.param .u64 out, .param .u32 n)\n{{\n\
         .reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n.reg .f32 %f<10>;\n\
         ld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd1, %rd0;\nld.param.u32 %r1, [n];\n\
         mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r2, %r3, %r4, %r5;\n\
         {body}\nret;\n}}\n"
    )
}

/// Runs `src`'s kernel `k` with an `n`-word u32 output buffer; returns the buffer.
pub fn run(src: &str, grid: u32, block: u32, n: usize) -> Result<Vec<u32>, DeviceError> {
    run_with(Device::new(), src, grid, block, n)
}

pub fn run_with(
    mut dev: Device,
    src: &str,
    grid: u32,
    block: u32,
    n: usize,
) -> Result<Vec<u32>, DeviceError> {
    let m = dev.load_ptx(src)?;
    let k = dev.kernel(m, "k")?;
    let out: DevPtr = dev.alloc_zeroed::<u32>(n)?;
    dev.launch(
        k,
        LaunchConfig {
            grid: Dim3::from(grid),
            block: Dim3::from(block),
            dynamic_shared: 0,
        },
        &[Arg::Ptr(out), Arg::U32(n as u32)],
    )?;
    dev.read_vec::<u32>(out, n)
}

pub fn limited(max_warp_instructions: u64) -> Device {
    Device::with_options(DeviceOptions {
        max_warp_instructions,
        ..Default::default()
    })
}
