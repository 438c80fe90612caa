//! warpsim-core: the kernel IR, lowering from PTX, the functional SIMT executor and the
//! Device API the CUDA shim, the CLI and the built-in suite drive.

pub mod alu;
pub mod config;
pub mod demangle;
pub mod device;
pub mod error;
pub mod exec;
pub mod ir;
pub mod link;
pub mod lower;
pub mod occupancy;

pub use demangle::demangle;
pub use error::{LoadError, LoadErrors};

/// Parses and lowers PTX text.
pub fn load_ptx(source: &str) -> Result<ir::Module, LoadErrors> {
    let ast = ptx::parse(source).map_err(|e| LoadErrors(vec![LoadError::Parse(e)]))?;
    lower::lower(&ast)
}

/// Parses, links and lowers the PTX of several translation units as one program (see
/// [`link`]).
pub fn load_linked_ptx(units: &[link::Unit]) -> Result<ir::Module, LoadErrors> {
    lower::lower(&link::link(units)?)
}
