//! Errors of a timed launch. Executor faults and deadlocks are located by core's own
//! converters ([`warpsim_core::exec::grid::fault_error`], [`warpsim_core::exec::grid::deadlock`])
//! so both modes report them in the same words.

use warpsim_core::device::DeviceError;
use warpsim_core::exec::context::LaunchCtx;

#[derive(Debug, thiserror::Error)]
pub enum TimingError {
    /// A fault, deadlock or invalid launch, exactly as functional mode reports it (boxed:
    /// `DeviceError` is large and errors are cold).
    #[error(transparent)]
    Device(Box<DeviceError>),
    #[error("kernel `{kernel}` did not finish within {limit} cycles")]
    CycleLimit { kernel: String, limit: u64 },
    #[error("kernel `{kernel}` exceeded the limit of {limit} warp instructions")]
    InstructionLimit { kernel: String, limit: u64 },
    /// Stopped by a request from outside (`watch::Watch::stop`: Ctrl-C).
    #[error("kernel `{kernel}` interrupted at cycle {cycle} ({warp_instructions} warp instructions, {ctas_done} of {ctas_total} CTAs done)")]
    Interrupted {
        kernel: String,
        cycle: u64,
        warp_instructions: u64,
        ctas_done: u64,
        ctas_total: u64,
    },
    #[error(
        "unknown issue policy `{name}` (issue policies: {}; fetch policies, after `+` or with --fetch: {})",
        issue.join(", "),
        fetch.join(", ")
    )]
    UnknownPolicy {
        name: String,
        issue: Vec<String>,
        fetch: Vec<String>,
    },
    #[error("unknown fetch policy `{name}` (fetch policies: {})", valid.join(", "))]
    UnknownFetch { name: String, valid: Vec<String> },
    #[error("policy `{name}`: {why}")]
    BadPolicyParameter { name: String, why: String },
}

impl From<DeviceError> for TimingError {
    fn from(e: DeviceError) -> Self {
        TimingError::Device(Box::new(e))
    }
}

pub(crate) fn kernel_name(k: &LaunchCtx) -> String {
    k.module.functions[k.kernel as usize].name.clone()
}
