//! Exit codes and the classification of failures into them.

use warpsim_core::device::DeviceError;

/// Everything ran and every check passed.
pub const OK: u8 = 0;
/// A check found a mismatch (or, for `check`, the PTX is not fully supported).
pub const MISMATCH: u8 = 1;
/// Bad input: manifest, PTX, command line, files.
pub const BAD_INPUT: u8 = 2;
/// The simulation failed: memory fault, deadlock, instruction limit…
pub const SIM_ERROR: u8 = 3;
/// Stopped by Ctrl-C (128 + SIGINT, as a shell reports it); partial statistics were printed.
pub const INTERRUPTED: u8 = 130;

/// The exit code for a device error: loading, launch-configuration and allocation problems
/// are bad input, everything that happens while kernels execute is a simulation error.
pub fn device_error_code(e: &DeviceError) -> u8 {
    match e {
        DeviceError::Load(_)
        | DeviceError::UnknownKernel { .. }
        | DeviceError::UnknownSymbol { .. }
        | DeviceError::InvalidLaunch { .. }
        | DeviceError::OutOfMemory { .. } => BAD_INPUT,
        DeviceError::Interrupted { .. } => INTERRUPTED,
        _ => SIM_ERROR,
    }
}

/// Prints `warpsim: error: …` on stderr and returns `code`.
pub fn fail(code: u8, message: impl std::fmt::Display) -> u8 {
    eprintln!("warpsim: error: {message}");
    code
}
