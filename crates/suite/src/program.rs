//! The program registry's types and the run context the drivers share.

use std::fmt;
use std::str::FromStr;

use warpsim_core::config::GpuConfig;
use warpsim_core::device::{
    Arg, DevPtr, Device, DeviceError, Dim3, KernelHandle, LaunchConfig, ModuleHandle,
};

use crate::check;
use crate::resources::{parse_ptxas, KernelResources, ResourceError};

/// Problem size of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// Small enough for a functional run of the whole suite in a test build (well under a
    /// second per program).
    Small,
    /// The larger sizes used for measurements.
    Paper,
}

impl Size {
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Paper => "paper",
        }
    }

    /// `small` for [`Size::Small`], `paper` for [`Size::Paper`].
    pub(crate) fn pick<T>(self, small: T, paper: T) -> T {
        match self {
            Size::Small => small,
            Size::Paper => paper,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "small" => Ok(Size::Small),
            "paper" => Ok(Size::Paper),
            _ => Err(format!("unknown size `{s}` (expected `small` or `paper`)")),
        }
    }
}

/// One built-in program.
pub struct Program {
    pub name: &'static str,
    /// The named sets the program belongs to (see [`crate::SETS`]); a program used by
    /// several papers is written once and listed in each of their sets.
    pub sets: &'static [&'static str],
    /// One line: what the program computes and which GPU feature it exercises.
    pub summary: &'static str,
    /// The committed PTX (`kernels/<name>/<name>.ptx`).
    pub ptx: &'static str,
    /// The committed `ptxas -arch=sm_75 -v` report (`kernels/<name>/<name>.ptxas`).
    pub ptxas: &'static str,
    /// Loads [`Program::ptx`] into the device, runs the program at `size` and verifies every
    /// output against the CPU reference.
    pub run: fn(&mut Device, Size) -> Result<Outcome, SuiteError>,
    /// The kernels execute tensor-core instructions (`wmma`, `mma.sync`): timing mode runs the
    /// program only on a GPU with tensor units ([`Program::unsupported_on`]).
    pub tensor_cores: bool,
}

impl Program {
    /// Per-kernel resources from [`Program::ptxas`].
    pub fn resources(&self) -> Result<Vec<KernelResources>, ResourceError> {
        parse_ptxas(self.ptxas)
    }

    /// Why the program cannot run in timing mode on `cfg`, if it cannot: its tensor-core
    /// instructions on a GPU without tensor units (the timing model refuses the launch; run
    /// lists skip the program with this reason instead). Functional mode runs it anywhere.
    pub fn unsupported_on(&self, cfg: &GpuConfig) -> Option<String> {
        (self.tensor_cores && cfg.units.tensor == 0).then(|| {
            format!(
                "needs tensor cores, which `{}` does not have (units.tensor = 0): use a preset with them (qv100, rtx2060, rtx3070) or --mode functional",
                cfg.name
            )
        })
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

/// What a verified run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Kernel launches, in order.
    pub launches: u32,
    /// Output values compared against the reference.
    pub values_checked: u64,
    /// Everything the kernels printed (already checked against the expected text).
    pub printf: String,
    /// Sums of the launches' statistics.
    pub warp_instructions: u64,
    pub thread_instructions: u64,
}

#[derive(thiserror::Error, Debug)]
pub enum SuiteError {
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// An output differs from the CPU reference (the first such value).
    #[error("{program}: {what}[{index}] = {got}, expected {expected}")]
    Mismatch {
        program: &'static str,
        what: String,
        index: usize,
        expected: String,
        got: String,
    },
    /// An output buffer or count does not have the expected length.
    #[error("{program}: {what} has {got} values, expected {expected}")]
    Length {
        program: &'static str,
        what: String,
        expected: usize,
        got: usize,
    },
    /// The kernels' printf output differs from the expected text.
    #[error("{program}: printf output {got:?}, expected {expected:?}")]
    Printf {
        program: &'static str,
        expected: String,
        got: String,
    },
    /// Anything else the driver found wrong (a symbol of the wrong size, a loop that does not
    /// terminate…).
    #[error("{program}: {message}")]
    Invalid {
        program: &'static str,
        message: String,
    },
}

/// Shared state of one program run: the device, the loaded module, the allocations to free
/// and the running totals that become the [`Outcome`].
pub(crate) struct Ctx<'d> {
    pub dev: &'d mut Device,
    pub program: &'static str,
    pub module: ModuleHandle,
    allocations: Vec<DevPtr>,
    launches: u32,
    checked: u64,
    warp_instructions: u64,
    thread_instructions: u64,
}

impl<'d> Ctx<'d> {
    /// Loads `ptx` and discards any printf output left over from earlier work on `dev`.
    pub fn new(dev: &'d mut Device, program: &'static str, ptx: &str) -> Result<Self, SuiteError> {
        let module = dev.load_ptx(ptx)?;
        let _ = dev.take_printf();
        Ok(Ctx {
            dev,
            program,
            module,
            allocations: Vec::new(),
            launches: 0,
            checked: 0,
            warp_instructions: 0,
            thread_instructions: 0,
        })
    }

    pub fn kernel(&mut self, mangled: &str) -> Result<KernelHandle, SuiteError> {
        Ok(self.dev.kernel(self.module, mangled)?)
    }

    /// Copies `data` into a fresh allocation that is freed at [`Ctx::finish`].
    pub fn upload<T: bytemuck::Pod>(&mut self, data: &[T]) -> Result<DevPtr, SuiteError> {
        let p = self.dev.alloc_slice::<T>(data)?;
        self.allocations.push(p);
        Ok(p)
    }

    /// A zero-filled allocation of `n` values, freed at [`Ctx::finish`].
    pub fn zeroed<T: bytemuck::Pod>(&mut self, n: usize) -> Result<DevPtr, SuiteError> {
        let p = self.dev.alloc_zeroed::<T>(n)?;
        self.allocations.push(p);
        Ok(p)
    }

    pub fn download<T: bytemuck::Pod>(
        &mut self,
        p: DevPtr,
        n: usize,
    ) -> Result<Vec<T>, SuiteError> {
        Ok(self.dev.read_vec::<T>(p, n)?)
    }

    pub fn launch(
        &mut self,
        kernel: KernelHandle,
        grid: Dim3,
        block: Dim3,
        dynamic_shared: u32,
        args: &[Arg],
    ) -> Result<(), SuiteError> {
        let stats = self.dev.launch(
            kernel,
            LaunchConfig {
                grid,
                block,
                dynamic_shared,
            },
            args,
        )?;
        self.launches += 1;
        self.warp_instructions += stats.warp_instructions;
        self.thread_instructions += stats.thread_instructions;
        Ok(())
    }

    pub fn launches(&self) -> u32 {
        self.launches
    }

    pub fn invalid(&self, message: impl Into<String>) -> SuiteError {
        SuiteError::Invalid {
            program: self.program,
            message: message.into(),
        }
    }

    /// Exact comparison (integers, or floats that must match bit for bit).
    pub fn exact<T: PartialEq + fmt::Debug>(
        &mut self,
        what: &str,
        got: &[T],
        expected: &[T],
    ) -> Result<(), SuiteError> {
        self.checked += check::assert_exact(self.program, what, got, expected)?;
        Ok(())
    }

    /// See [`check::assert_close`].
    pub fn close<T: check::Float>(
        &mut self,
        what: &str,
        got: &[T],
        expected: &[f64],
        rel_tol: f64,
        abs_tol: f64,
    ) -> Result<(), SuiteError> {
        self.checked += check::assert_close(self.program, what, got, expected, rel_tol, abs_tol)?;
        Ok(())
    }

    /// See [`check::assert_bounded`].
    pub fn bounded<T: check::Float>(
        &mut self,
        what: &str,
        got: &[T],
        expected: &[f64],
        bound: &[f64],
    ) -> Result<(), SuiteError> {
        self.checked += check::assert_bounded(self.program, what, got, expected, bound)?;
        Ok(())
    }

    /// See [`check::assert_ulps`].
    pub fn ulps<T: check::Float>(
        &mut self,
        what: &str,
        got: &[T],
        expected: &[T],
        max_ulps: impl Fn(usize) -> u64,
    ) -> Result<(), SuiteError> {
        self.checked += check::assert_ulps(self.program, what, got, expected, max_ulps)?;
        Ok(())
    }

    /// Counts `n` values verified by hand in the driver.
    pub fn count_checked(&mut self, n: u64) {
        self.checked += n;
    }

    /// Checks the printf output, frees the allocations and returns the outcome.
    pub fn finish(self, expected_printf: &str) -> Result<Outcome, SuiteError> {
        let printf = self.dev.take_printf();
        if printf != expected_printf {
            return Err(SuiteError::Printf {
                program: self.program,
                expected: expected_printf.to_string(),
                got: printf,
            });
        }
        for p in &self.allocations {
            self.dev.free(*p)?;
        }
        Ok(Outcome {
            launches: self.launches,
            values_checked: self.checked,
            printf,
            warp_instructions: self.warp_instructions,
            thread_instructions: self.thread_instructions,
        })
    }
}

/// `ceil(a / b)` for launch-grid sizes.
pub(crate) fn div_up(a: usize, b: usize) -> u32 {
    u32::try_from(a.div_ceil(b)).expect("grid dimension fits in u32")
}

/// `ptx` with every `from` replaced by `to`, for tests that check a driver rejects a wrong
/// kernel; panics if `ptx` has no `from` (the test would prove nothing).
#[cfg(test)]
pub(crate) fn corrupted(ptx: &str, from: &str, to: &str) -> String {
    assert!(ptx.contains(from), "the PTX has no `{from}` to corrupt");
    ptx.replace(from, to)
}
