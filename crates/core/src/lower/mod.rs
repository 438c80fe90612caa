//! Lowering: `ptx::ast::Module` → [`crate::ir::Module`] (to be written).
use crate::{error::LoadErrors, ir};

/// Lowers a parsed module, reporting every unsupported or invalid construct.
pub fn lower(_ast: &ptx::ast::Module) -> Result<ir::Module, LoadErrors> {
    Err(LoadErrors(vec![]))
}
