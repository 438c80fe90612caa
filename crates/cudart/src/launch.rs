//! Launch entry points: the `<<<…>>>` protocol (`__cudaPushCallConfiguration`,
//! `__cudaPopCallConfiguration`, then CUDA 13's `__cudaGetKernel` + `__cudaLaunchKernel`, or
//! the legacy `cudaLaunchKernel`), and `cudaLaunchCooperativeKernel`.
//!
//! Launches run to completion inside the call (in timing mode, cycle by cycle in the timing
//! model; the registers per thread of the kernel's cubin feed its occupancy). Kernel `printf` output goes
//! to the program's C `stdout`, flushed at the end of each launch, so it interleaves with the
//! host's own `printf` in program order.

use crate::runtime::{api, diag, guard, ModuleState, Runtime};
use crate::types::*;
use std::cell::RefCell;
use std::ffi::{c_int, c_void};
use warpsim_core::demangle;
use warpsim_core::device::{Arg, DeviceError, KernelHandle, LaunchConfig};
use warpsim_timing::{TimingEngine, TimingStats};

#[derive(Clone, Copy)]
struct CallConfig {
    grid: dim3,
    block: dim3,
    shared: usize,
    stream: cudaStream_t,
}

thread_local! {
    /// `<<<grid, block, shared, stream>>>` configurations pushed and not yet popped.
    static CONFIGS: RefCell<Vec<CallConfig>> = const { RefCell::new(Vec::new()) };
}

unsafe extern "C" fn __cudaPushCallConfiguration(
    grid: dim3,
    block: dim3,
    shared: usize,
    stream: cudaStream_t,
) -> u32 {
    guard("__cudaPushCallConfiguration", 1, || {
        CONFIGS.with(|c| {
            c.borrow_mut().push(CallConfig {
                grid,
                block,
                shared,
                stream,
            })
        });
        0
    })
}

unsafe extern "C" fn __cudaPopCallConfiguration(
    grid: *mut dim3,
    block: *mut dim3,
    shared: *mut usize,
    stream: *mut c_void,
) -> cudaError_t {
    guard("__cudaPopCallConfiguration", cudaErrorUnknown, || {
        let Some(c) = CONFIGS.with(|c| c.borrow_mut().pop()) else {
            return cudaErrorMissingConfiguration;
        };
        if grid.is_null() || block.is_null() || shared.is_null() || stream.is_null() {
            return cudaErrorInvalidValue;
        }
        *grid = c.grid;
        *block = c.block;
        *shared = c.shared;
        *(stream as *mut cudaStream_t) = c.stream;
        cudaSuccess
    })
}

/// `cudaKernel_t` handles are the host stub addresses themselves.
unsafe extern "C" fn __cudaGetKernel(
    kernel: *mut cudaKernel_t,
    host_stub: *const c_void,
) -> cudaError_t {
    crate::runtime::query("__cudaGetKernel", |rt| {
        if !rt.functions.contains_key(&(host_stub as usize)) {
            return Err(cudaErrorInvalidDeviceFunction);
        }
        crate::runtime::put(kernel, host_stub as cudaKernel_t)
    })
}

unsafe extern "C" fn cudaGetKernel(kernel: *mut cudaKernel_t, entry: *const c_void) -> cudaError_t {
    __cudaGetKernel(kernel, entry)
}

pub(crate) unsafe extern "C" fn __cudaLaunchKernel(
    kernel: cudaKernel_t,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    api("__cudaLaunchKernel", |rt| {
        launch(
            rt,
            kernel as usize,
            grid,
            block,
            args,
            shared,
            stream,
            false,
        )
    })
}

pub(crate) unsafe extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaLaunchKernel", |rt| {
        launch(rt, func as usize, grid, block, args, shared, stream, false)
    })
}

/// A cooperative launch: its CTAs must all fit on the GPU at once (by the occupancy rule the
/// timing model's dispatcher uses, `Device::check_cooperative`; checked here, before a stream
/// capture records it, and again by the Device in either mode), and it gets the grid-sync
/// workspace cooperative groups' `grid.sync()` reads from `%envreg1/2`
/// (`Device::launch_cooperative`).
pub(crate) unsafe extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    api("cudaLaunchCooperativeKernel", |rt| {
        // An invalid configuration is that, not a grid too large (nothing fits then).
        let k = kernel_of(rt, func as usize)?;
        let cfg = LaunchConfig {
            grid: grid.into(),
            block: block.into(),
            dynamic_shared: u32::try_from(shared).map_err(|_| cudaErrorInvalidValue)?,
        };
        if let Err(e) = rt.device.check_cooperative(k, &cfg) {
            let code = error_code(&e);
            diag(&format!(
                "{}: {e}",
                crate::errors::name(code).unwrap_or("error")
            ));
            return Err(code);
        }
        launch(rt, func as usize, grid, block, args, shared, stream, true)
    })
}

/// `cudaLaunchConfig_t` (driver_types.h).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaLaunchConfig_t {
    pub grid_dim: dim3,
    pub block_dim: dim3,
    pub dynamic_smem_bytes: usize,
    pub stream: cudaStream_t,
    pub attrs: *const cudaLaunchAttribute,
    pub num_attrs: u32,
}

/// `cudaLaunchAttribute`: an id, padding to 8 bytes, a 64-byte value union.
#[repr(C)]
pub struct cudaLaunchAttribute {
    pub id: u32,
    pad: [u8; 4],
    pub val: [u32; 16],
}

/// `cudaLaunchKernelExC(config, func, args)`, the launch behind `cudaLaunchKernelEx` (CUB
/// launches through it for sm_90). Attributes: `cooperative` (2) makes it
/// `cudaLaunchCooperativeKernel`; programmatic stream serialization and events (6, 7; the
/// programmatic dependent launch CUB asks for), priority (8), the access-policy window (1),
/// memory-sync domains (9, 10) and cluster scheduling preferences (5, 11) are hints with
/// nothing to do here, since launches run one after another; a cluster dimension (4) other
/// than 1×1×1 and any other attribute are `cudaErrorNotSupported`.
pub(crate) unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    let Some(c) = config.as_ref() else {
        return cudaErrorInvalidValue;
    };
    let mut cooperative = false;
    if c.num_attrs > 0 {
        if c.attrs.is_null() {
            return cudaErrorInvalidValue;
        }
        for a in std::slice::from_raw_parts(c.attrs, c.num_attrs as usize) {
            match a.id {
                0 | 1 | 5 | 6 | 7 | 8 | 9 | 10 | 11 => {}
                2 => cooperative = a.val[0] != 0,
                4 if a.val[..3].iter().all(|&d| d <= 1) => {}
                id => {
                    diag(&format!(
                        "cudaLaunchKernelExC: launch attribute {id} is not supported"
                    ));
                    return cudaErrorNotSupported;
                }
            }
        }
    }
    let (g, b, s, st) = (c.grid_dim, c.block_dim, c.dynamic_smem_bytes, c.stream);
    if cooperative {
        cudaLaunchCooperativeKernel(func, g, b, args, s, st)
    } else {
        cudaLaunchKernel(func, g, b, args, s, st)
    }
}

/// The kernel behind a host stub, resolved on first use.
pub fn kernel_of(rt: &mut Runtime, stub: usize) -> Result<KernelHandle, cudaError_t> {
    let Some(f) = rt.functions.get(&stub) else {
        diag(&format!(
            "no kernel is registered for host function 0x{stub:x}"
        ));
        return Err(cudaErrorInvalidDeviceFunction);
    };
    if let Some(h) = f.handle {
        return Ok(h);
    }
    let (module, name) = (f.module, f.name.clone());
    let result = match &rt.modules[module].state {
        ModuleState::Loaded(m) => rt
            .device
            .kernel(*m, &name)
            .map_err(|e| (cudaErrorInvalidDeviceFunction, e.to_string())),
        ModuleState::Failed { code, message } => {
            // The first problem the loader named (`line N: unsupported …`), else the summary.
            let first = message
                .lines()
                .find(|l| l.trim_start().starts_with("line "))
                .or(message.lines().next())
                .unwrap_or("");
            Err((
                *code,
                format!("its module could not be loaded: {}", first.trim()),
            ))
        }
        ModuleState::Empty => Err((
            cudaErrorInvalidDeviceFunction,
            "its module holds no code".into(),
        )),
    };
    if let Ok(h) = result {
        // The timing model's occupancy uses what ptxas allocated (the cubin's REGCOUNT);
        // PTX-only builds have none, and registers then do not limit occupancy.
        if let Some(regs) = crate::occupancy::regs_of(rt, stub) {
            rt.device.set_kernel_registers(&name, regs);
        }
        let f = rt.functions.get_mut(&stub).expect("looked up above");
        f.handle = Some(h);
        return Ok(h);
    }
    let f = rt.functions.get_mut(&stub).expect("looked up above");
    match result {
        Ok(_) => unreachable!("handled above"),
        Err((code, why)) => {
            if !f.reported {
                f.reported = true;
                diag(&format!(
                    "cannot launch `{}` ({}): {why}",
                    demangle(&name),
                    crate::errors::name(code).unwrap_or("error")
                ));
            }
            Err(code)
        }
    }
}

/// The CUDA error a failed launch or copy reports.
pub fn error_code(e: &DeviceError) -> cudaError_t {
    match e {
        DeviceError::Load(_) => cudaErrorInvalidPtx,
        DeviceError::UnknownKernel { .. } => cudaErrorInvalidDeviceFunction,
        DeviceError::UnknownSymbol { .. } => cudaErrorInvalidSymbol,
        DeviceError::InvalidHandle => cudaErrorInvalidResourceHandle,
        DeviceError::OutOfMemory { .. } => cudaErrorMemoryAllocation,
        DeviceError::InvalidPointer { .. } => cudaErrorInvalidValue,
        // CUDA 13 reports an invalid launch configuration as cudaErrorInvalidValue, not the
        // cudaErrorInvalidConfiguration its docs name (measured on an H200, CUDA 13.0 driver,
        // 2026-11-28: 2048 threads, a zero-sized grid, block z = 128, via <<<>>> and
        // cudaLaunchKernel); warpsim's other configuration errors (shared memory, grid size,
        // .reqntid/.maxntid) follow the same rule.
        DeviceError::InvalidLaunch { .. } => cudaErrorInvalidValue,
        DeviceError::CooperativeLaunchTooLarge { .. } => cudaErrorCooperativeLaunchTooLarge,
        DeviceError::MemoryFault {
            misaligned: true, ..
        } => cudaErrorMisalignedAddress,
        DeviceError::MemoryFault { .. } => cudaErrorIllegalAddress,
        DeviceError::Deadlock { .. }
        | DeviceError::InstructionLimit { .. }
        | DeviceError::CycleLimit { .. } => cudaErrorLaunchTimeout,
        DeviceError::Trap(_) => cudaErrorLaunchFailure,
        DeviceError::AssertFailed { .. } => cudaErrorAssert,
        DeviceError::StackOverflow { .. } => cudaErrorHardwareStackError,
        DeviceError::BadCallTarget { .. } => cudaErrorInvalidPc,
        DeviceError::BadFree { .. } => cudaErrorIllegalAddress,
        DeviceError::BadTextureHandle { .. } | DeviceError::SurfaceOutOfBounds { .. } => {
            cudaErrorIllegalAddress
        }
        _ => cudaErrorLaunchFailure,
    }
}

extern "C" {
    static mut stdout: *mut c_void;
    fn fwrite(p: *const c_void, size: usize, n: usize, f: *mut c_void) -> usize;
    fn fflush(f: *mut c_void) -> c_int;
}

/// Writes kernel `printf` output to the program's C `stdout` and flushes it.
fn emit_printf(text: &str) {
    if text.is_empty() {
        return;
    }
    unsafe {
        let out = *std::ptr::addr_of!(stdout);
        fwrite(text.as_ptr() as *const c_void, 1, text.len(), out);
        fflush(out);
    }
}

// The launch entry points' own arguments, passed through, and whether the launch is cooperative.
#[allow(clippy::too_many_arguments)]
unsafe fn launch(
    rt: &mut Runtime,
    stub: usize,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
    cooperative: bool,
) -> Result<(), cudaError_t> {
    if !rt.valid_stream(stream) {
        return Err(cudaErrorInvalidResourceHandle);
    }
    let argv = argument_bytes(rt, stub, args)?;
    if crate::capture::capturing(rt, stream) {
        let node = crate::graphs::NodeKind::Kernel {
            stub,
            grid,
            block,
            shared,
            args: argv,
            cooperative,
        };
        return crate::capture::capture(rt, stream, node);
    }
    launch_bytes(rt, stub, grid, block, argv, shared, cooperative)
}

/// The kernel's arguments copied out of the program's `void* args[]` (one pointer per
/// parameter, each to that parameter's bytes).
pub unsafe fn argument_bytes(
    rt: &mut Runtime,
    stub: usize,
    args: *mut *mut c_void,
) -> Result<Vec<Vec<u8>>, cudaError_t> {
    let k = kernel_of(rt, stub)?;
    let info = rt.device.kernel_info(k);
    let name = demangle(&info.name);
    if !info.params.is_empty() && args.is_null() {
        diag(&format!(
            "launch of `{name}`: null argument array for {} parameters",
            info.params.len()
        ));
        return Err(cudaErrorInvalidValue);
    }
    let mut argv = Vec::with_capacity(info.params.len());
    for (i, p) in info.params.iter().enumerate() {
        let a = *args.add(i);
        if a.is_null() {
            diag(&format!(
                "launch of `{name}`: argument {i} (`{}`) is a null pointer",
                p.name
            ));
            return Err(cudaErrorInvalidValue);
        }
        argv.push(std::slice::from_raw_parts(a as *const u8, p.size as usize).to_vec());
    }
    Ok(argv)
}

/// Runs one launch to completion with its arguments already copied (a `<<<…>>>` launch or a
/// graph's kernel node), and reports its statistics.
pub fn launch_bytes(
    rt: &mut Runtime,
    stub: usize,
    grid: dim3,
    block: dim3,
    argv: Vec<Vec<u8>>,
    shared: usize,
    cooperative: bool,
) -> Result<(), cudaError_t> {
    let k = kernel_of(rt, stub)?;
    let name = rt.device.kernel_info(k).name.clone();
    let argv: Vec<Arg> = argv.into_iter().map(Arg::Bytes).collect();
    let Ok(dynamic_shared) = u32::try_from(shared) else {
        return Err(cudaErrorInvalidValue);
    };
    let cfg = LaunchConfig {
        grid: grid.into(),
        block: block.into(),
        dynamic_shared,
    };
    let result = if cooperative {
        rt.device.launch_cooperative(k, cfg, &argv)
    } else {
        rt.device.launch(k, cfg, &argv)
    };
    // A progress line (WARPSIM_PROGRESS) is cleared before the program prints again.
    warpsim_timing::watch::end_progress();
    emit_printf(&rt.device.take_printf());
    rt.launches += 1;
    let record = rt.device.take_launch_records().pop();
    let timing = rt
        .device
        .engine_as_mut::<TimingEngine>()
        .and_then(|e| e.take_records().pop());
    match result {
        Ok(stats) => {
            // Events measure cycles in timing mode, warp instructions in functional mode.
            rt.clock += record
                .as_ref()
                .and_then(|r| r.cycles)
                .unwrap_or(stats.warp_instructions);
            if let Some(path) = rt.config.stats.clone() {
                let mut line = stats_line(
                    &name,
                    grid,
                    block,
                    stats.warp_instructions,
                    stats.thread_instructions,
                );
                line.pop();
                line.push_str(&timing_fields(
                    rt,
                    record.as_ref().and_then(|r| r.registers_per_thread),
                    timing.as_ref(),
                ));
                line.push('}');
                write_stats(&path, &line);
            }
            if let (Some(path), Some(t)) = (rt.config.trace.clone(), timing) {
                rt.traced.push(t);
                write_trace(&path, &rt.traced);
            }
            Ok(())
        }
        Err(e) => {
            let code = error_code(&e);
            let hint = match e {
                DeviceError::InstructionLimit { .. } => {
                    " (WARPSIM_MAX_INSTRUCTIONS sets the limit)"
                }
                DeviceError::CycleLimit { .. } => " (WARPSIM_MAX_CYCLES sets the limit)",
                _ => "",
            };
            diag(&format!(
                "{} in kernel `{}`: {e}{hint}",
                crate::errors::name(code).unwrap_or("error"),
                demangle(&name)
            ));
            if e.to_string().contains("PTX line") {
                if let Some(m) = rt.functions.get(&stub).map(|f| f.module) {
                    diag(&crate::register::ptx_hint(rt, m, &rt.modules[m]));
                }
            }
            Err(code)
        }
    }
}

fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// One JSON line per launch, appended to `WARPSIM_STATS`: the kernel as written in C++
/// (`scale(float*, int)`) and its mangled symbol (`_Z5scalePfi`).
pub fn stats_line(kernel: &str, grid: dim3, block: dim3, warp: u64, thread: u64) -> String {
    format!(
        "{{\"kernel\":{},\"kernel_mangled\":{},\"grid\":[{},{},{}],\"block\":[{},{},{}],\"warp_instructions\":{warp},\"thread_instructions\":{thread}}}",
        json_string(&demangle(kernel)),
        json_string(kernel),
        grid.x,
        grid.y,
        grid.z,
        block.x,
        block.y,
        block.z
    )
}

/// The fields after the instruction counts: the mode, and in timing mode the configuration,
/// policy, registers, cycles, IPC, CTAs per SM, the issue-slot and stall breakdowns and the
/// memory hierarchy's counters (`scripts/correlate.sh` compares them with GPGPU-Sim's).
pub fn timing_fields(rt: &Runtime, registers: Option<u32>, t: Option<&TimingStats>) -> String {
    let Some(t) = t else {
        return ",\"mode\":\"functional\"".into();
    };
    let regs = registers
        .map(|r| r.to_string())
        .unwrap_or_else(|| "null".into());
    format!(
        ",\"mode\":\"timing\",\"config\":{},\"policy\":{},\"registers\":{regs},\"cycles\":{},\"ipc\":{},\"ctas_per_sm\":{},\"issue\":{},\"stalls\":{},\"memory\":{}",
        json_string(&rt.config.gpu.name),
        json_string(&t.identity.policy),
        t.cycles,
        serde_json::to_string(&t.ipc).expect("a number"),
        t.ctas_per_sm,
        serde_json::to_string(&t.issue).expect("issue slots serialize"),
        serde_json::to_string(&t.stalls).expect("stalls serialize"),
        serde_json::to_string(&t.memory).expect("memory counters serialize"),
    ) + &events_field(rt, t)
}

/// `,"events":[…]` with `WARPSIM_EVENT_LOG=1` (`warpsim exec --event-log`), else nothing.
fn events_field(rt: &Runtime, t: &TimingStats) -> String {
    if !rt.config.event_log {
        return String::new();
    }
    format!(
        ",\"events\":{}",
        serde_json::to_string(&t.events).expect("events serialize")
    )
}

/// Rewrites `WARPSIM_TRACE` with the Chrome trace of every timed launch so far (the program
/// may end at any launch, so the file is whole after each).
fn write_trace(path: &std::path::Path, launches: &[TimingStats]) {
    let text = serde_json::to_string(&warpsim_timing::trace::chrome_trace(launches))
        .expect("a trace serializes");
    if let Err(e) = std::fs::write(path, text) {
        let mut rt_reported = lock_free_reported();
        if rt_reported.insert(path.display().to_string()) {
            diag(&format!(
                "WARPSIM_TRACE: cannot write {}: {e}",
                path.display()
            ));
        }
    }
}

fn write_stats(path: &std::path::Path, line: &str) {
    use std::io::Write;
    let r = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| writeln!(f, "{line}"));
    if let Err(e) = r {
        let mut rt_reported = lock_free_reported();
        if rt_reported.insert(path.display().to_string()) {
            diag(&format!(
                "WARPSIM_STATS: cannot append to {}: {e}",
                path.display()
            ));
        }
    }
}

/// Paths whose write failure was reported (kept apart from the runtime, which is locked here).
fn lock_free_reported() -> std::sync::MutexGuard<'static, std::collections::HashSet<String>> {
    static R: std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<String>>> =
        std::sync::OnceLock::new();
    R.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// Launch-configuration stack depth (for tests).
#[cfg(test)]
fn depth() -> usize {
    CONFIGS.with(|c| c.borrow().len())
}

export!(
    __cudaPushCallConfiguration,
    __cudaPopCallConfiguration,
    __cudaGetKernel,
    cudaGetKernel,
    __cudaLaunchKernel,
    cudaLaunchKernel,
    cudaLaunchCooperativeKernel,
    cudaLaunchKernelExC,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_is_a_stack() {
        unsafe {
            let g = dim3 { x: 4, y: 2, z: 1 };
            let b = dim3 { x: 128, y: 1, z: 1 };
            assert_eq!(
                __cudaPushCallConfiguration(g, b, 256, std::ptr::null_mut()),
                0
            );
            assert_eq!(depth(), 1);
            let (mut g2, mut b2, mut s, mut st) =
                (dim3::default(), dim3::default(), 0usize, 1 as cudaStream_t);
            let r = __cudaPopCallConfiguration(
                &mut g2,
                &mut b2,
                &mut s,
                &mut st as *mut cudaStream_t as *mut c_void,
            );
            assert_eq!(r, cudaSuccess);
            assert_eq!((g2, b2, s, st), (g, b, 256, std::ptr::null_mut()));
            let r = __cudaPopCallConfiguration(
                &mut g2,
                &mut b2,
                &mut s,
                &mut st as *mut cudaStream_t as *mut c_void,
            );
            assert_eq!(r, cudaErrorMissingConfiguration);
        }
    }

    #[test]
    fn stats_lines_are_json() {
        let l = stats_line(
            "_Z3addPfi",
            dim3 { x: 2, y: 1, z: 1 },
            dim3 { x: 64, y: 1, z: 1 },
            10,
            320,
        );
        assert_eq!(
            l,
            r#"{"kernel":"add(float*, int)","kernel_mangled":"_Z3addPfi","grid":[2,1,1],"block":[64,1,1],"warp_instructions":10,"thread_instructions":320}"#
        );
        assert_eq!(json_string("a\"b\\c\n"), r#""a\"b\\c\u000a""#);
    }

    #[test]
    fn device_errors_map_to_cuda_codes() {
        assert_eq!(
            error_code(&DeviceError::InstructionLimit {
                kernel: "k".into(),
                limit: 1
            }),
            cudaErrorLaunchTimeout
        );
        assert_eq!(
            error_code(&DeviceError::InvalidLaunch {
                kernel: "k".into(),
                reason: "x".into()
            }),
            cudaErrorInvalidValue
        );
        assert_eq!(
            error_code(&DeviceError::OutOfMemory { bytes: 1 }),
            cudaErrorMemoryAllocation
        );
    }
}
