//! Lowering: `ptx::ast::Module` → [`crate::ir::Module`].
//!
//! ```text
//! symbols   module pass: function ids, global/const image layout, module-wide shared layout
//! globals   the global image bytes and relocations (initialisers)
//! func      per function: parameter/frame layout, registers and scopes, label PCs, the walk
//!   opcode + op_int/op_float/op_cmp/op_mem/op_sync/op_tex/op_tensor   opcode and modifier decoding
//!   operand   registers, immediates, symbols, vectors, addresses
//!   calls     call sites and the vprintf/__assertfail/malloc/free built-ins
//! cfg       basic blocks, immediate post-dominators → reconvergence PCs
//! ```
//!
//! Every problem is collected (lowering goes on after an error, with a `Nop` standing in for
//! a failed instruction so PCs stay right) and all are returned together in source order.

mod calls;
pub(crate) mod cfg;
mod func;
mod globals;
mod layout;
mod op_cmp;
mod op_float;
mod op_int;
mod op_mem;
mod op_sync;
mod op_tensor;
mod op_tex;
mod opcode;
mod operand;
mod scope;
mod symbols;

use crate::error::{LoadError, LoadErrors};
use crate::ir::{self, FuncId};

/// Lowers a parsed module, reporting every unsupported or invalid construct.
pub fn lower(ast: &ptx::ast::Module) -> Result<ir::Module, LoadErrors> {
    let mut errors = Vec::new();
    if ast.address_size != 64 {
        let what = format!(".address_size {}", ast.address_size);
        errors.push(LoadError::Unsupported { what, line: 0 });
    }
    let syms = symbols::collect(ast, &mut errors);
    let image = globals::build(&syms, &mut errors);
    let mut functions = Vec::with_capacity(syms.funcs.len());
    for id in 0..syms.funcs.len() {
        let (mut f, errs) = func::lower_function(&syms, id as FuncId);
        f.decoded = crate::exec::decoded::decode_function(&f);
        functions.push(f);
        errors.extend(errs);
    }
    if !errors.is_empty() {
        errors.sort_by_key(LoadError::line);
        return Err(LoadErrors(errors));
    }
    Ok(ir::Module {
        functions,
        global_image: image.bytes,
        global_align: syms.global_align,
        relocs: image.relocs,
        globals: image.vars,
        module_shared_bytes: syms.module_shared_bytes,
        target: ast.target.clone(),
        files: ast.files.clone(),
    })
}
