//! Lowering one function: its parameter and frame layout, its registers and scopes, and the
//! walk over its body that turns every instruction into exactly one [`Inst`] (plus the few
//! synthesized loads/stores of `.reg` parameters, which the label pre-pass accounts for).
//!
//! Frame layout (per-thread local memory, relative to the frame base):
//! 1. a `.func`'s return parameters, then its parameters, in declaration order;
//! 2. every `.local` variable of the body (nested blocks included), in source order;
//! 3. the body's `.param` variables (call sequences). Sibling `{ }` blocks reuse the same
//!    bytes, since a block's `.param`s are invisible outside it.
//!
//! Each item sits at its alignment; the frame's alignment is the largest one (at least 8) and
//! `frame_bytes` is rounded up to it.

use std::collections::HashMap;

use ptx::ast::{
    self, Block, Instruction, Operand, ParamDecl, RegDecl, RegName, Span, StateSpace, Statement,
    VarDecl,
};

use super::cfg;
use super::layout::{align_up, param_size_align, var_size_align, Bump};
use super::opcode::{self, Decoded, Special, Suffixes};
use super::scope::{Labels, Scopes, Sym};
use super::symbols::{is_dynamic_shared, space_name, visit_vars, ModuleSyms};
use crate::error::LoadError;
use crate::ir::{
    self, AddrRel, FuncId, Guard, Inst, Mods, Op, Opnd, ParamSlot, PredId, RegId, Space, Ty, NO_PC,
};

/// A `.reg` parameter or return value: a register that mirrors a frame slot.
#[derive(Clone, Copy)]
struct RegParam {
    reg: RegId,
    offset: u32,
    ty: Ty,
}

/// Lowering state of one function.
pub(super) struct FnCtx<'a, 'm> {
    pub m: &'m ModuleSyms<'a>,
    pub is_kernel: bool,
    pub scopes: Scopes,
    pub labels: Labels<'a>,
    pub f: ir::Function,
    pub errors: Vec<LoadError>,
    /// Line of the instruction being lowered, for errors.
    pub line: u32,
    id: FuncId,
    /// Frame offsets of the body's `.local` variables, by declaration position.
    locals: HashMap<Span, u32>,
    frame: Bump,
    /// Largest `frame.end` seen (sibling blocks rewind `frame`).
    frame_high: u32,
    /// A kernel's own static shared variables, placed after the module-wide ones.
    shared: Bump,
    /// `.branchtargets` lists already added to `f.branch_tables`.
    table_ids: HashMap<&'a str, u32>,
    reg_params: Vec<RegParam>,
    reg_returns: Vec<RegParam>,
    /// The last `.loc` seen: the source position of the instructions that follow.
    loc: ir::SourceLoc,
}

/// Lowers function `id`; returns it and the errors found in it.
pub(super) fn lower_function(m: &ModuleSyms, id: FuncId) -> (ir::Function, Vec<LoadError>) {
    let ast = m.funcs[id as usize];
    let mut cx = FnCtx::new(m, id, ast);
    cx.scopes.push();
    if cx.is_kernel {
        cx.declare_kernel_params(ast);
    } else {
        cx.declare_frame_params(ast);
    }
    if let Some(body) = &ast.body {
        cx.place_locals(body);
        let mut pc = cx.reg_params.len() as u32;
        cx.collect_labels(body, &mut pc);
        cx.emit_prologue();
        cx.lower_block(body);
        cfg::set_reconvergence(&mut cx.f);
    }
    cx.finish()
}

impl<'a, 'm> FnCtx<'a, 'm> {
    fn new(m: &'m ModuleSyms<'a>, id: FuncId, ast: &'a ast::Function) -> Self {
        let is_kernel = ast.kind == ast::FunctionKind::Entry;
        let f = ir::Function {
            name: ast.name.clone(),
            is_kernel,
            has_body: ast.body.is_some(),
            maxntid: ast.perf.maxntid,
            reqntid: ast.perf.reqntid,
            minnctapersm: ast.perf.minnctapersm,
            maxnreg: ast.perf.maxnreg,
            dyn_shared_align: if is_kernel { m.dyn_shared_align } else { 1 },
            line: ast.span.line,
            ..ir::Function::default()
        };
        FnCtx {
            m,
            is_kernel,
            scopes: Scopes::default(),
            labels: Labels::default(),
            f,
            errors: Vec::new(),
            line: ast.span.line,
            id,
            locals: HashMap::new(),
            frame: Bump::new(0, 8),
            frame_high: 0,
            shared: Bump::new(m.module_shared_bytes, 1),
            table_ids: HashMap::new(),
            reg_params: Vec::new(),
            reg_returns: Vec::new(),
            loc: ir::SourceLoc::default(),
        }
    }

    fn finish(mut self) -> (ir::Function, Vec<LoadError>) {
        let high = self.frame_high.max(self.frame.end);
        self.f.frame_align = self.frame.align;
        self.f.frame_bytes = align_up(high, self.frame.align);
        self.f.shared_bytes = if self.is_kernel { self.shared.end } else { 0 };
        self.f.num_regs = self.f.reg_names.len() as u32;
        self.f.num_preds = self.f.pred_names.len() as u32;
        self.tag_source();
        if self.f.source.iter().all(|l| l.line == 0) {
            self.f.source = Vec::new(); // no `.loc` in this function
        }
        (self.f, self.errors)
    }

    /// Gives the instructions emitted since the last call the current `.loc` position.
    fn tag_source(&mut self) {
        let n = self.f.insts.len();
        let loc = self.loc;
        self.f.source.resize(n, loc);
    }

    pub fn error(&mut self, e: LoadError) {
        self.errors.push(e);
    }

    pub fn invalid(&self, message: impl Into<String>) -> LoadError {
        LoadError::Invalid {
            message: message.into(),
            line: self.line,
        }
    }

    // ---- parameters and variables ----

    /// Kernel parameters: in the parameter buffer, in order, each at its alignment.
    fn declare_kernel_params(&mut self, ast: &'a ast::Function) {
        let mut buf = Bump::new(0, 1);
        for p in &ast.params {
            let Some((size, align)) = self.param_layout(p) else {
                continue;
            };
            if p.space != StateSpace::Param {
                let what = format!("{} kernel parameter `{}`", space_name(p.space), p.name);
                self.error(LoadError::Unsupported {
                    what,
                    line: p.span.line,
                });
                continue;
            }
            let offset = buf.place(size, align);
            self.f.params.push(ParamSlot {
                name: p.name.clone(),
                offset,
                size,
                align,
            });
            self.declare(&p.name, Sym::KernelParam { offset, size }, p.span.line);
        }
        self.f.param_bytes = buf.end;
    }

    /// A device function's return values, then its parameters, at the start of its frame.
    fn declare_frame_params(&mut self, ast: &'a ast::Function) {
        for (p, is_return) in ast
            .returns
            .iter()
            .map(|p| (p, true))
            .chain(ast.params.iter().map(|p| (p, false)))
        {
            let Some((size, align)) = self.param_layout(p) else {
                continue;
            };
            let offset = self.frame.place(size, align);
            let slot = ParamSlot {
                name: p.name.clone(),
                offset,
                size,
                align,
            };
            let sym = if p.space == StateSpace::Reg {
                let ty = Ty::from_ast(p.ty);
                let reg = self.new_reg(&p.name, ty.bits() as u8);
                let rp = RegParam { reg, offset, ty };
                if is_return {
                    self.reg_returns.push(rp)
                } else {
                    self.reg_params.push(rp)
                }
                Sym::Reg { id: reg, vec: 0 }
            } else {
                Sym::Frame { offset, size }
            };
            if is_return {
                self.f.returns.push(slot)
            } else {
                self.f.params.push(slot)
            }
            self.declare(&p.name, sym, p.span.line);
        }
    }

    fn param_layout(&mut self, p: &ParamDecl) -> Option<(u32, u32)> {
        match param_size_align(p) {
            Ok(sa) => Some(sa),
            Err(message) => {
                self.error(LoadError::Invalid {
                    message,
                    line: p.span.line,
                });
                None
            }
        }
    }

    /// Lays out every `.local` variable of the body, before any call-sequence `.param`.
    fn place_locals(&mut self, body: &'a Block) {
        let mut locals = Vec::new();
        visit_vars(body, &mut |v| {
            if v.space == StateSpace::Local {
                locals.push(v);
            }
        });
        for v in locals {
            match var_size_align(v) {
                Ok((size, align)) => {
                    let offset = self.frame.place(size, align);
                    self.locals.insert(v.span, offset);
                }
                Err(message) => self.error(LoadError::Invalid {
                    message,
                    line: v.span.line,
                }),
            }
        }
    }

    fn declare(&mut self, name: &str, sym: Sym, line: u32) {
        if !self.scopes.declare(name, sym) {
            let message = format!("`{name}` is declared twice in the same scope");
            self.error(LoadError::Invalid { message, line });
        }
    }

    fn new_reg(&mut self, name: &str, bits: u8) -> RegId {
        self.f.reg_names.push(name.to_string());
        self.f.reg_bits.push(bits);
        (self.f.reg_names.len() - 1) as RegId
    }

    fn new_pred(&mut self, name: &str) -> PredId {
        self.f.pred_names.push(name.to_string());
        (self.f.pred_names.len() - 1) as PredId
    }

    /// `.reg .b32 %r<98>;`, `.reg .pred %p;`, `.reg .v4 .f32 %v;`
    fn declare_regs(&mut self, d: &RegDecl) {
        let line = d.span.line;
        let ty = Ty::from_ast(d.ty);
        if ty == Ty::B128 || (ty == Ty::Pred && d.vector.is_some()) {
            let vector = d.vector.map_or(String::new(), |n| format!(".v{n} "));
            let what = format!(".reg {vector}.{}", format!("{:?}", d.ty).to_lowercase());
            return self.error(LoadError::Unsupported { what, line });
        }
        for name in &d.names {
            match name {
                RegName::Single(n) => self.declare_reg(n, ty, d.vector, line),
                RegName::Range { prefix, count } => {
                    for i in 0..*count {
                        self.declare_reg(&format!("{prefix}{i}"), ty, d.vector, line);
                    }
                }
            }
        }
    }

    fn declare_reg(&mut self, name: &str, ty: Ty, vector: Option<u8>, line: u32) {
        let bits = ty.bits() as u8;
        let sym = match (ty, vector) {
            (Ty::Pred, _) => Sym::Pred(self.new_pred(name)),
            (_, Some(n)) => {
                let id = self.new_reg(&format!("{name}.x"), bits);
                for c in ["y", "z", "w"]
                    .iter()
                    .take(usize::from(n).saturating_sub(1))
                {
                    self.new_reg(&format!("{name}.{c}"), bits);
                }
                Sym::Reg { id, vec: n }
            }
            (_, None) => Sym::Reg {
                id: self.new_reg(name, bits),
                vec: 0,
            },
        };
        self.declare(name, sym, line);
    }

    /// A variable declared in the body.
    fn declare_var(&mut self, v: &'a VarDecl) {
        let line = v.span.line;
        if v.init.is_some() {
            let what = format!(
                "initializer of {} variable `{}`",
                space_name(v.space),
                v.name
            );
            return self.error(LoadError::Unsupported { what, line });
        }
        let (size, align) = match var_size_align(v) {
            Ok(sa) => sa,
            Err(message) => return self.error(LoadError::Invalid { message, line }),
        };
        let sym = match v.space {
            StateSpace::Local => match self.locals.get(&v.span) {
                Some(&offset) => Sym::Frame { offset, size },
                None => return,
            },
            StateSpace::Param => {
                let offset = self.frame.place(size, align);
                self.frame_high = self.frame_high.max(self.frame.end);
                Sym::Frame { offset, size }
            }
            StateSpace::Shared if is_dynamic_shared(v) => Sym::DynShared,
            StateSpace::Shared if self.is_kernel => Sym::Shared {
                offset: self.shared.place(size, align),
            },
            StateSpace::Shared => match self.m.body_shared.get(&(self.id, v.span)) {
                Some(&offset) => Sym::Shared { offset },
                None => return,
            },
            StateSpace::Global | StateSpace::Const | StateSpace::Tex | StateSpace::Reg => {
                let what = format!(
                    "{} variable `{}` inside a function",
                    space_name(v.space),
                    v.name
                );
                return self.error(LoadError::Unsupported { what, line });
            }
        };
        self.declare(&v.name, sym, line);
    }

    // ---- labels ----

    /// Number of IR instructions one PTX instruction becomes: `ret` in a function with `.reg`
    /// return values is preceded by the stores that copy them to the frame.
    fn width(&self, i: &Instruction) -> u32 {
        1 + if i.opcode == "ret" {
            self.reg_returns.len() as u32
        } else {
            0
        }
    }

    /// Pre-pass: PCs of labels (function-scoped, even inside nested blocks), prototypes and
    /// branch-target lists.
    fn collect_labels(&mut self, block: &'a Block, pc: &mut u32) {
        for st in &block.statements {
            match st {
                Statement::Instruction(i) => *pc += self.width(i),
                Statement::Block(b) => self.collect_labels(b, pc),
                // A name already taken is reported by `claim` and skipped.
                Statement::Label(name, span) if self.claim(name, span.line) => {
                    self.labels.pcs.insert(name, *pc);
                }
                Statement::CallPrototype(p) if self.claim(&p.name, p.span.line) => {
                    self.labels.prototypes.insert(&p.name, p);
                }
                Statement::BranchTargets { name, labels, span } if self.claim(name, span.line) => {
                    self.labels.tables.insert(name, labels);
                }
                _ => {}
            }
        }
    }

    /// Whether `name` is still free in the function's label namespace; reports it if not.
    fn claim(&mut self, name: &str, line: u32) -> bool {
        if self.labels.contains(name) {
            let message = format!("label `{name}` is defined twice");
            self.error(LoadError::Invalid { message, line });
            return false;
        }
        true
    }

    /// The PC a label operand names.
    pub fn label_pc(&self, op: &Operand) -> Result<u32, LoadError> {
        match op {
            Operand::Symbol { name, offset: 0 } => self
                .labels
                .pcs
                .get(name.as_str())
                .copied()
                .ok_or_else(|| LoadError::Undefined {
                    kind: "label",
                    name: name.clone(),
                    line: self.line,
                }),
            _ => Err(self.invalid("expected a label")),
        }
    }

    /// The `branch_tables` index of a `.branchtargets` list, adding it on first use.
    fn branch_table(&mut self, op: &Operand) -> Result<u32, LoadError> {
        let Operand::Symbol { name, offset: 0 } = op else {
            return Err(self.invalid("expected a branch-target list"));
        };
        let Some((&key, &labels)) = self.labels.tables.get_key_value(name.as_str()) else {
            return Err(LoadError::Undefined {
                kind: "branch-target list",
                name: name.clone(),
                line: self.line,
            });
        };
        if let Some(&id) = self.table_ids.get(key) {
            return Ok(id);
        }
        let mut pcs = Vec::with_capacity(labels.len());
        for l in labels {
            pcs.push(self.label_pc(&Operand::Symbol {
                name: l.clone(),
                offset: 0,
            })?);
        }
        self.f.branch_tables.push(pcs);
        let id = (self.f.branch_tables.len() - 1) as u32;
        self.table_ids.insert(key, id);
        Ok(id)
    }

    // ---- the body ----

    /// `.reg` parameters are loaded from their frame slots on entry.
    fn emit_prologue(&mut self) {
        for p in self.reg_params.clone() {
            let inst = frame_copy(Op::Ld, p, Guard::default(), self.f.line);
            self.f.insts.push(inst);
        }
    }

    /// Lowers a block in its own scope; its declarations are visible throughout it.
    fn lower_block(&mut self, block: &'a Block) {
        self.scopes.push();
        let params_start = self.frame.end;
        for st in &block.statements {
            match st {
                Statement::Reg(d) => self.declare_regs(d),
                Statement::Var(v) => self.declare_var(v),
                _ => {}
            }
        }
        for st in &block.statements {
            match st {
                Statement::Instruction(i) => {
                    self.lower_statement(i);
                    self.tag_source();
                }
                Statement::Block(b) => self.lower_block(b),
                Statement::Loc(l) => {
                    self.tag_source();
                    self.loc = ir::SourceLoc {
                        file: l.file,
                        line: l.line,
                    };
                }
                _ => {}
            }
        }
        // Sibling blocks reuse this block's call-sequence `.param` bytes.
        self.frame.end = params_start;
        self.scopes.pop();
    }

    fn lower_statement(&mut self, i: &'a Instruction) {
        self.line = i.span.line;
        if i.opcode == "ret" {
            self.emit_return_stores(i);
        }
        let inst = self.lower_inst(i).unwrap_or_else(|e| {
            self.error(e);
            Inst {
                reconv: NO_PC,
                line: i.span.line,
                ..Inst::default()
            }
        });
        self.f.insts.push(inst);
    }

    /// `.reg` return values are stored to their frame slots before every `ret`.
    fn emit_return_stores(&mut self, ret: &Instruction) {
        let guard = self.guard(ret).unwrap_or_default();
        for p in self.reg_returns.clone() {
            let inst = frame_copy(Op::St, p, guard, self.line);
            self.f.insts.push(inst);
        }
    }

    fn lower_inst(&mut self, i: &'a Instruction) -> Result<Inst, LoadError> {
        let mut s = Suffixes::new(i);
        let d = opcode::decode(&i.opcode, &mut s)?;
        let guard = self.guard(i)?;
        let mut inst = Inst {
            op: d.op,
            ty: d.ty,
            ty2: d.ty2,
            mods: d.mods,
            guard,
            reconv: NO_PC,
            line: self.line,
            ..Inst::default()
        };
        match d.special {
            Special::None => {
                self.bind_operands(i, &d, &s, &mut inst)?;
                if inst.op == Op::CpAsync {
                    super::op_mem::check_cp_async(&mut inst, &s.full, i.operands.len(), self.line)?;
                }
            }
            Special::Bra => {
                expect_count(&s, i, 1, 1)?;
                inst.target = self.label_pc(&i.operands[0])?;
            }
            Special::BrxIdx => {
                expect_count(&s, i, 2, 2)?;
                inst.src[0] = self.value(&i.operands[0], Ty::U32)?;
                inst.target = self.branch_table(&i.operands[1])?;
            }
            Special::Call => self.lower_call(i, &s, &mut inst)?,
            Special::BarRed => self.bind_bar_red(i, &s, &mut inst)?,
            Special::IgnoreOperands => {}
            Special::Tex => self.bind_tex(i, &s, &mut inst)?,
            Special::Tensor => self.bind_tensor(i, &s, &d, &mut inst)?,
        }
        Ok(inst)
    }

    /// The plain `dst…, src…` layout described by `d`.
    fn bind_operands(
        &mut self,
        i: &Instruction,
        d: &Decoded,
        s: &Suffixes,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        let max = d.dst.len() + d.src.len();
        let mut ops = &i.operands[..];
        if d.dropped > 0 && ops.len() == max + d.dropped {
            ops = &ops[..max];
        }
        expect_count(s, i, max - d.optional, max)?;
        let (dsts, srcs) = ops.split_at(d.dst.len());
        if let (Some(&k), Some(op)) = (d.dst.first(), dsts.first()) {
            inst.dst = self.destination(k, op)?;
        }
        for (j, (&k, op)) in d.src.iter().zip(srcs).enumerate() {
            inst.src[j] = self.source(k, op, d.param_space, &mut inst.mods)?;
        }
        for &(slot, v) in &d.implied {
            inst.src[slot] = v;
        }
        if d.param_space && inst.op == Op::Cvta {
            inst.mods.space = self.param_space_of_register();
        }
        Ok(())
    }

    /// `bar.red.op d, a{, b}, {!}c`: the thread count `b` is optional, in the middle.
    fn bind_bar_red(
        &mut self,
        i: &Instruction,
        s: &Suffixes,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        expect_count(s, i, 3, 4)?;
        let ops = &i.operands;
        inst.dst = self.destination(opcode::K::V(inst.ty), &ops[0])?;
        inst.src[0] = self.value(&ops[1], Ty::U32)?;
        if ops.len() == 4 {
            inst.src[1] = self.value(&ops[2], Ty::U32)?;
        }
        inst.src[2] = self.pred_source(ops.last().expect("counted"))?;
        Ok(())
    }

    /// Where `.param` through a register points: a kernel reads its parameter buffer, a
    /// device function its frame.
    pub fn param_space_of_register(&self) -> Space {
        if self.is_kernel {
            Space::KernelParam
        } else {
            Space::Local
        }
    }
}

/// `ld.local p.reg, [frame+offset]` (`Op::Ld`) or `st.local [frame+offset], p.reg` (`Op::St`).
fn frame_copy(op: Op, p: RegParam, guard: Guard, line: u32) -> Inst {
    let addr = Opnd::Addr {
        base: None,
        rel: AddrRel::Frame,
        offset: i64::from(p.offset),
    };
    let mods = Mods {
        space: Space::Local,
        vec: 1,
        ..Mods::default()
    };
    let (dst, src) = match op {
        Op::Ld => (
            [Opnd::Reg(p.reg), Opnd::None],
            [addr, Opnd::None, Opnd::None, Opnd::None],
        ),
        _ => (
            [Opnd::None; 2],
            [addr, Opnd::Reg(p.reg), Opnd::None, Opnd::None],
        ),
    };
    Inst {
        op,
        ty: p.ty,
        ty2: p.ty,
        mods,
        guard,
        dst,
        src,
        reconv: NO_PC,
        line,
        ..Inst::default()
    }
}

/// Checks that `i` has between `min` and `max` operands (a dropped cache-policy operand
/// allowed on top).
fn expect_count(s: &Suffixes, i: &Instruction, min: usize, max: usize) -> Result<(), LoadError> {
    let n = i.operands.len();
    if (min..=max).contains(&n) || (n == max + 1 && s.full.contains("L2::cache_hint")) {
        return Ok(());
    }
    let want = if min == max {
        format!("{min}")
    } else {
        format!("{min} to {max}")
    };
    Err(s.invalid(&format!(
        "takes {want} operand{}, found {n}",
        if max == 1 { "" } else { "s" }
    )))
}
