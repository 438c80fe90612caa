//! The runtime's global state: one simulated device, the registered modules, kernels and
//! variables, streams and events, and CUDA's error bookkeeping. It lives in a
//! `Mutex<Runtime>` (the shim is not a hot path; kernels run while it is held).
//!
//! Errors follow CUDA: every failing call records its code as the *last error*, which
//! `cudaGetLastError` returns and clears; a *sticky* error (illegal address, trap, assert,
//! timeout…) also poisons the context, so every later call that touches the device returns
//! it until `cudaDeviceReset`.

use crate::config::{Config, Mode};
use crate::fatbin::Images;
use crate::types::*;
use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard, OnceLock};
use warpsim_core::device::{Device, DeviceError, DeviceOptions, KernelHandle, ModuleHandle};
use warpsim_core::link::Unit;
use warpsim_timing::engine::{device_options_for, TimingEngine};

/// Device memory the simulated GPU reports and enforces.
pub const TOTAL_MEMORY: u64 = 4 << 30;

/// What became of a registered fatbinary.
#[derive(Debug)]
pub enum ModuleState {
    /// The device-link stub every build registers: no code.
    Empty,
    Loaded(ModuleHandle),
    /// Launches of its kernels fail with `code`; `message` was printed at registration.
    Failed {
        code: cudaError_t,
        message: String,
    },
}

#[derive(Debug)]
pub struct Module {
    pub state: ModuleState,
    /// The PTX that was loaded (kept to reload after `cudaDeviceReset`).
    pub ptx: Option<Source>,
    pub images: Images,
}

/// The PTX a module is loaded from.
#[derive(Clone, Debug)]
pub enum Source {
    /// One translation unit's PTX (a whole-program build, or code loaded at run time).
    One(String),
    /// The translation units of a `-rdc=true` program, each with its name for messages,
    /// linked at load (`warpsim_core::link`).
    Linked(Vec<(String, String)>),
}

impl Source {
    /// Loads the source into `device` (the error is the Device API's own type, as its
    /// `load_ptx` returns it).
    #[allow(clippy::result_large_err)]
    pub fn load(&self, device: &mut Device) -> Result<ModuleHandle, DeviceError> {
        match self {
            Source::One(ptx) => device.load_ptx(ptx),
            Source::Linked(units) => {
                let units: Vec<Unit> = units.iter().map(|(name, ptx)| Unit { name, ptx }).collect();
                device.load_linked_ptx(&units)
            }
        }
    }
}

/// A `__global__` function registered under its host stub.
#[derive(Debug)]
pub struct Function {
    pub module: usize,
    pub name: String,
    /// `name` NUL-terminated, for `cudaFuncGetName`.
    pub c_name: std::ffi::CString,
    pub handle: Option<KernelHandle>,
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize` as set by the program.
    pub max_dynamic_shared: Option<u32>,
    /// Whether the "cannot launch" diagnostic was printed already.
    pub reported: bool,
}

/// A `__device__`/`__constant__` variable registered under its host shadow.
#[derive(Debug)]
pub struct Var {
    pub module: usize,
    pub name: String,
}

#[derive(Debug, Default)]
pub struct Event {
    pub flags: u32,
    /// Simulated clock ([`Runtime::clock`]) when last recorded.
    pub recorded: Option<u64>,
}

pub struct Runtime {
    pub device: Device,
    pub config: Config,
    pub modules: Vec<Module>,
    /// `__cudaRegisterFatBinary` handle → module index.
    pub handles: HashMap<usize, usize>,
    /// Host stub address → function.
    pub functions: HashMap<usize, Function>,
    /// Host shadow address → variable.
    pub vars: HashMap<usize, Var>,
    pub last_error: cudaError_t,
    pub sticky: cudaError_t,
    pub streams: HashSet<usize>,
    pub events: HashMap<usize, Event>,
    /// Pinned host allocations (`cudaMallocHost`/`cudaHostAlloc`): address → flags.
    pub host_allocs: HashMap<usize, u32>,
    /// `cudaMallocManaged` allocations (their addresses).
    pub managed_allocs: HashSet<usize>,
    /// `__managed__` variables, rebound after `cudaDeviceReset`.
    pub managed_vars: Vec<crate::managed::ManagedVar>,
    /// The simulated clock events record: in timing mode the core cycles of all launches so
    /// far (launches run back to back); in functional mode the warp instructions executed.
    pub clock: u64,
    pub launches: u64,
    /// With `WARPSIM_TRACE`: every timed launch so far, for the trace rewritten after each.
    pub traced: Vec<warpsim_timing::TimingStats>,
    /// Names of unsupported entry points already reported.
    pub reported: HashSet<&'static str>,
    pub device_flags: u32,
    pub limits: HashMap<i32, usize>,
    /// CUDA graphs, executable graphs and stream captures (`graphs.rs`, `capture.rs`).
    pub graphs: crate::graphs::Graphs,
    /// CUDA arrays and the texture and surface objects' descriptors as given.
    pub objects: crate::arrays::Objects,
    /// Libraries loaded at run time (`cudaLibraryLoadData`); their modules are in `modules`.
    pub libraries: crate::library::Libraries,
}

impl Runtime {
    fn new() -> Runtime {
        let (config, warnings) = Config::from_env();
        for w in warnings {
            diag(&w);
        }
        let device = new_device(&config);
        Runtime {
            device,
            config,
            modules: Vec::new(),
            handles: HashMap::new(),
            functions: HashMap::new(),
            vars: HashMap::new(),
            last_error: cudaSuccess,
            sticky: cudaSuccess,
            streams: HashSet::new(),
            events: HashMap::new(),
            host_allocs: HashMap::new(),
            managed_allocs: HashSet::new(),
            managed_vars: Vec::new(),
            clock: 0,
            launches: 0,
            traced: Vec::new(),
            reported: HashSet::new(),
            device_flags: 0,
            limits: HashMap::new(),
            graphs: crate::graphs::Graphs::default(),
            objects: Default::default(),
            libraries: Default::default(),
        }
    }

    /// Records an error as CUDA does (last error; sticky ones poison the context).
    pub fn record(&mut self, e: cudaError_t) -> cudaError_t {
        if e != cudaSuccess {
            self.last_error = e;
            if is_sticky(e) && self.sticky == cudaSuccess {
                self.sticky = e;
            }
        }
        e
    }

    /// `cudaDeviceReset`: a fresh device with every registered module loaded again.
    pub fn reset(&mut self) {
        self.device = new_device(&self.config);
        for m in &mut self.modules {
            if let (ModuleState::Loaded(_), Some(ptx)) = (&m.state, &m.ptx) {
                m.state = match ptx.load(&mut self.device) {
                    Ok(h) => ModuleState::Loaded(h),
                    Err(e) => ModuleState::Failed {
                        code: cudaErrorInvalidPtx,
                        message: e.to_string(),
                    },
                };
            }
        }
        for f in self.functions.values_mut() {
            f.handle = None;
        }
        // The fresh device holds none of the old memory: pinned and managed allocations are
        // gone as on a GPU, and `__managed__` variables move to the reloaded modules.
        self.host_allocs.clear();
        self.managed_allocs.clear();
        self.objects = Default::default();
        let vars = std::mem::take(&mut self.managed_vars);
        for v in &vars {
            if let Err(e) = crate::managed::bind(self, v) {
                diag(&format!("cudaDeviceReset: {e}"));
            }
        }
        self.managed_vars = vars;
        self.last_error = cudaSuccess;
        self.sticky = cudaSuccess;
        self.streams.clear();
        self.events.clear();
        self.graphs = crate::graphs::Graphs::default();
        self.clock = 0;
    }

    /// Whether `s` names a stream (0, the two special handles, or one created and live).
    pub fn valid_stream(&self, s: cudaStream_t) -> bool {
        let a = s as usize;
        a == 0 || a == STREAM_LEGACY || a == STREAM_PER_THREAD || self.streams.contains(&a)
    }

    /// The configured GPU's limits as the runtime API reports them.
    pub fn limits_of_gpu(&self) -> crate::props::Limits {
        crate::props::Limits::of(&self.config.gpu)
    }

    /// Prints `warpsim: <name> is not supported` once per name.
    pub fn unsupported(&mut self, name: &'static str) -> cudaError_t {
        if self.reported.insert(name) {
            diag(&format!("{name} is not supported"));
        }
        cudaErrorNotSupported
    }
}

/// A fresh device for the configuration: the configured GPU's SM count and limits, and in
/// timing mode the timing model as its launch engine.
fn new_device(c: &Config) -> Device {
    let mut o = DeviceOptions {
        global_memory_bytes: TOTAL_MEMORY,
        synccheck: c.synccheck,
        ..DeviceOptions::default()
    };
    if let Some(n) = c.max_instructions {
        o.max_warp_instructions = n;
    }
    let o = device_options_for(&c.gpu, o);
    let mut dev = Device::with_options(o);
    if c.mode == Mode::Timing {
        let mut engine = TimingEngine::new(c.gpu.clone(), c.policy);
        if let Some(n) = c.max_cycles {
            engine.set_max_cycles(n);
        }
        engine.set_threads(c.threads);
        // WARPSIM_TRACE is built from the event log.
        engine.set_event_log(c.trace.is_some() || c.event_log);
        if c.progress {
            let report =
                warpsim_timing::watch::report_to_stderr as fn(&warpsim_timing::watch::Progress);
            engine.set_watch(Some(warpsim_timing::watch::Watch {
                stop: None,
                report: Some(report),
            }));
        }
        dev.set_engine(Box::new(engine));
    }
    dev
}

/// One line on stderr, prefixed `warpsim: `.
pub fn diag(msg: &str) {
    use std::io::Write;
    let mut e = std::io::stderr().lock();
    for (i, line) in msg.lines().enumerate() {
        let _ = writeln!(
            e,
            "{}{line}",
            if i == 0 { "warpsim: " } else { "warpsim:   " }
        );
    }
}

static RUNTIME: OnceLock<Mutex<Runtime>> = OnceLock::new();

/// The runtime, created on first use (usually by `__cudaRegisterFatBinary`, before `main`).
pub fn lock() -> MutexGuard<'static, Runtime> {
    RUNTIME
        .get_or_init(|| Mutex::new(Runtime::new()))
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// Runs an entry point's body, turning a panic into `on_panic` (no unwinding across FFI).
pub fn guard<T>(name: &str, on_panic: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => {
            diag(&format!(
                "internal error in {name} (a bug in warpsim; please report it)"
            ));
            on_panic
        }
    }
}

/// An entry point that returns `cudaError_t` and needs a usable context: returns the sticky
/// error if there is one, else runs `f` and records its error.
pub fn api(name: &str, f: impl FnOnce(&mut Runtime) -> Result<(), cudaError_t>) -> cudaError_t {
    guard(name, cudaErrorUnknown, || {
        let mut rt = lock();
        if rt.sticky != cudaSuccess {
            return rt.sticky;
        }
        let e = f(&mut rt).err().unwrap_or(cudaSuccess);
        rt.record(e)
    })
}

/// Like [`api`] for queries that work regardless of a sticky error (properties, versions).
pub fn query(name: &str, f: impl FnOnce(&mut Runtime) -> Result<(), cudaError_t>) -> cudaError_t {
    guard(name, cudaErrorUnknown, || {
        let mut rt = lock();
        let e = f(&mut rt).err().unwrap_or(cudaSuccess);
        rt.record(e)
    })
}

/// Writes `v` through an out-pointer, or fails with `cudaErrorInvalidValue` when it is null.
pub unsafe fn put<T>(p: *mut T, v: T) -> Result<(), cudaError_t> {
    if p.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    p.write_unaligned(v);
    Ok(())
}
