//! The module-level pass: one [`FuncId`] per function name, and where every module-scope
//! variable (and every `.shared` variable of a device function) lives.
//!
//! Shared memory layout: module-scope `.shared` variables and those declared inside device
//! functions get module-wide offsets in `[0, module_shared_bytes)`, because any kernel may
//! call those functions; each kernel's own `.shared` variables go after them (see `func.rs`).
//! `.extern .shared` arrays are the dynamic shared segment, which the executor places after
//! the launched kernel's static shared memory at `dyn_shared_align`.

use std::collections::HashMap;

use ptx::ast::{Block, Function, FunctionKind, Item, Module, Span, StateSpace, Statement, VarDecl};

use super::layout::{var_size_align, Bump};
use super::scope::Sym;
use crate::error::LoadError;
use crate::ir::FuncId;

/// A `.global`/`.const` variable placed in the module image.
pub(super) struct GlobalSlot<'a> {
    pub decl: &'a VarDecl,
    pub offset: u32,
    pub size: u32,
}

/// Everything module-wide that function lowering needs.
pub(super) struct ModuleSyms<'a> {
    /// By [`FuncId`]: the definition with a body, else the first declaration.
    pub funcs: Vec<&'a Function>,
    /// Functions and module-scope variables by name.
    pub names: HashMap<&'a str, Sym>,
    /// `.global`/`.const` variables in image order.
    pub globals: Vec<GlobalSlot<'a>>,
    pub global_bytes: u32,
    pub global_align: u32,
    /// Offsets of the static `.shared` variables declared in device-function bodies, by
    /// (function, declaration position).
    pub body_shared: HashMap<(FuncId, Span), u32>,
    pub module_shared_bytes: u32,
    /// Largest alignment of any `.extern .shared` array in the module; 1 when there is none.
    pub dyn_shared_align: u32,
}

/// Builds the module symbol table, reporting duplicate and unsupported declarations.
pub(super) fn collect<'a>(ast: &'a Module, errors: &mut Vec<LoadError>) -> ModuleSyms<'a> {
    let mut m = ModuleSyms {
        funcs: Vec::new(),
        names: HashMap::new(),
        globals: Vec::new(),
        global_bytes: 0,
        global_align: 1,
        body_shared: HashMap::new(),
        module_shared_bytes: 0,
        dyn_shared_align: 1,
    };
    let mut shared = Bump::new(0, 1);
    let mut image = Bump::new(0, 1);
    for item in &ast.items {
        match item {
            Item::Function(f) => add_function(&mut m, f, errors),
            Item::Var(v) => add_module_var(&mut m, v, &mut shared, &mut image, errors),
            Item::Pragma(..) => {}
        }
    }
    for id in 0..m.funcs.len() {
        let f = m.funcs[id];
        if let Some(body) = &f.body {
            let is_device_fn = f.kind == FunctionKind::Func;
            visit_vars(body, &mut |v| {
                place_body_shared(&mut m, id as FuncId, v, is_device_fn, &mut shared, errors)
            });
        }
    }
    m.module_shared_bytes = shared.end;
    m.global_bytes = image.end;
    m.global_align = image.align;
    m
}

/// Registers a function, merging a forward declaration with its later definition.
fn add_function<'a>(m: &mut ModuleSyms<'a>, f: &'a Function, errors: &mut Vec<LoadError>) {
    match m.names.get(f.name.as_str()) {
        None => {
            m.names.insert(&f.name, Sym::Func(m.funcs.len() as FuncId));
            m.funcs.push(f);
        }
        Some(Sym::Func(id)) => {
            let known = &mut m.funcs[*id as usize];
            match (&known.body, &f.body) {
                (Some(_), Some(_)) => errors.push(invalid(
                    format!("function `{}` is defined twice", f.name),
                    f.span,
                )),
                (None, Some(_)) => *known = f,
                _ => {}
            }
        }
        Some(_) => errors.push(invalid(
            format!("`{}` is declared as a variable and a function", f.name),
            f.span,
        )),
    }
}

/// Places a module-scope variable: `.global`/`.const` in the image, `.shared` in the shared
/// segment (or the dynamic segment when `.extern`).
fn add_module_var<'a>(
    m: &mut ModuleSyms<'a>,
    v: &'a VarDecl,
    shared: &mut Bump,
    image: &mut Bump,
    errors: &mut Vec<LoadError>,
) {
    if m.names.contains_key(v.name.as_str()) {
        errors.push(invalid(format!("`{}` is declared twice", v.name), v.span));
        return;
    }
    let (size, align) = match var_size_align(v) {
        Ok(sa) => sa,
        Err(msg) => return errors.push(invalid(msg, v.span)),
    };
    let sym = match v.space {
        StateSpace::Global | StateSpace::Const => {
            let offset = image.place(size, align);
            m.globals.push(GlobalSlot {
                decl: v,
                offset,
                size,
            });
            Sym::Global {
                offset,
                is_const: v.space == StateSpace::Const,
            }
        }
        StateSpace::Shared if is_dynamic_shared(v) => {
            m.dyn_shared_align = m.dyn_shared_align.max(align);
            Sym::DynShared
        }
        StateSpace::Shared => Sym::Shared {
            offset: shared.place(size, align),
        },
        StateSpace::Local | StateSpace::Tex | StateSpace::Param | StateSpace::Reg => {
            let what = format!("module-scope {} variable `{}`", space_name(v.space), v.name);
            return errors.push(LoadError::Unsupported {
                what,
                line: v.span.line,
            });
        }
    };
    if v.init.is_some() && v.space == StateSpace::Shared {
        errors.push(invalid(
            format!("shared variable `{}` cannot have an initializer", v.name),
            v.span,
        ));
    }
    m.names.insert(&v.name, sym);
}

/// A `.shared` variable in a body: device functions' static ones get module-wide offsets now;
/// every function's `.extern .shared` arrays count towards the dynamic alignment. (A kernel's
/// own static ones are placed when the kernel is lowered.)
fn place_body_shared(
    m: &mut ModuleSyms,
    id: FuncId,
    v: &VarDecl,
    is_device_fn: bool,
    shared: &mut Bump,
    errors: &mut Vec<LoadError>,
) {
    if v.space != StateSpace::Shared {
        return;
    }
    let (size, align) = match var_size_align(v) {
        Ok(sa) => sa,
        Err(msg) => return errors.push(invalid(msg, v.span)),
    };
    if is_dynamic_shared(v) {
        m.dyn_shared_align = m.dyn_shared_align.max(align);
    } else if is_device_fn {
        m.body_shared
            .insert((id, v.span), shared.place(size, align));
    }
}

/// `.extern .shared` arrays are the dynamically sized shared segment.
pub(super) fn is_dynamic_shared(v: &VarDecl) -> bool {
    v.space == StateSpace::Shared && v.linkage == ptx::ast::Linkage::Extern
}

/// Calls `f` on every variable declared in `block` and its nested blocks, in source order.
pub(super) fn visit_vars<'a>(block: &'a Block, f: &mut impl FnMut(&'a VarDecl)) {
    for st in &block.statements {
        match st {
            Statement::Var(v) => f(v),
            Statement::Block(b) => visit_vars(b, f),
            _ => {}
        }
    }
}

pub(super) fn space_name(s: StateSpace) -> &'static str {
    match s {
        StateSpace::Reg => ".reg",
        StateSpace::Param => ".param",
        StateSpace::Global => ".global",
        StateSpace::Shared => ".shared",
        StateSpace::Local => ".local",
        StateSpace::Const => ".const",
        StateSpace::Tex => ".tex",
    }
}

fn invalid(message: String, span: Span) -> LoadError {
    LoadError::Invalid {
        message,
        line: span.line,
    }
}
