//! `call` lowering.
//!
//! PTX passes arguments through `.param` variables of the caller (`{ .param .b32 param0;
//! st.param.b32 [param0], %r1; call.uni (retval0), f, (param0); ld.param.b32 %r2, [retval0]; }`).
//! Those variables live in the caller's frame (see `func.rs`), so a call is lowered to:
//!
//! * **`Op::Call`**, for a callee with a body: `Inst::target` indexes `Function::call_sites`;
//!   the [`CallSite`] holds `callee` (`Direct(func id)`, or `Indirect(reg)` for a call through
//!   a register, which must name a `.callprototype`), and per return value / argument the
//!   caller-frame `(offset, size)` of the `.param` variable written in the list. An argument
//!   written as a register or an immediate (legal for `.reg` parameters) has slot `(0, 0)` and
//!   its operand in `arg_values`; a return value bound to a register likewise has `(0, 0)` and
//!   the register in `ret_values`. The executor copies each argument into the callee's
//!   parameter slot (`Function::params[i]`, frame-relative) and, at `ret`, each return value
//!   from the callee's `Function::returns[i]` slot back.
//! * **`Op::Vprintf`**, for a call of the body-less built-in `vprintf(fmt, args)`:
//!   `src[0]` = the format-string pointer argument, `src[1]` = the argument-buffer pointer
//!   argument, `dst[0]` = the return value (`Opnd::None` when the call binds none). Each is
//!   `Opnd::Addr { base: None, rel: Frame, offset }` of the caller-frame `.param` variable
//!   named in the call, i.e. the executor reads the 8-byte pointer (writes the 4-byte count)
//!   there; when the call names a register or an immediate instead, the operand is that
//!   `Opnd::Reg`/`Opnd::Imm` value itself. `mods.space` is `Local`.
//! * **`Op::AssertFail`**, for `__assertfail(message, file, line, function, charSize)`:
//!   `src[0..4]` = message, file, line, function in the same form as for `Vprintf` (`line` is
//!   a 4-byte `.b32` slot, the others 8-byte pointers); `charSize` is not kept. No `dst`.
//!
//! * **`Op::Malloc`** / **`Op::Free`**, for device-side `malloc(size)` / `free(ptr)` (what
//!   `new` and `delete` compile to): `src[0]` = the size / pointer, `dst[0]` = `malloc`'s
//!   return value, in the same form as for `Vprintf`.
//!
//! Calls of other body-less functions are unsupported. The number of
//! arguments and return values must match the callee's declaration (or the prototype).

use ptx::ast::{Instruction, Operand, ParamDecl};

use super::func::FnCtx;
use super::opcode::Suffixes;
use super::operand::{literal_bits, RegUse};
use super::scope::Sym;
use crate::error::LoadError;
use crate::ir::{AddrRel, CallSite, Callee, FuncId, Inst, Op, Opnd, Space, Ty};

/// The operands of a call, split: `(rets), callee, (args)[, prototype]`.
struct CallParts<'o> {
    rets: &'o [Operand],
    callee: &'o Operand,
    args: &'o [Operand],
    proto: Option<&'o Operand>,
}

fn split_call(ops: &[Operand]) -> Option<CallParts<'_>> {
    let mut it = ops.iter().peekable();
    let rets = match it.peek() {
        Some(Operand::List(l)) => {
            it.next();
            l.as_slice()
        }
        _ => &[],
    };
    let callee = it.next()?;
    let args = match it.peek() {
        Some(Operand::List(l)) => {
            it.next();
            l.as_slice()
        }
        _ => &[],
    };
    let proto = it.next();
    if it.next().is_some() || matches!(callee, Operand::List(_)) {
        return None;
    }
    Some(CallParts {
        rets,
        callee,
        args,
        proto,
    })
}

/// Where one argument or return value is: a caller-frame slot or an operand value.
type Passed = ((u32, u32), Option<Opnd>);

impl<'a, 'm> FnCtx<'a, 'm> {
    pub fn lower_call(
        &mut self,
        i: &Instruction,
        s: &Suffixes,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        let parts = split_call(&i.operands).ok_or_else(|| s.invalid("has malformed operands"))?;
        let callee = match parts.callee {
            Operand::Symbol { name, offset: 0 } => match self.resolve(name) {
                Some(Sym::Func(id)) => Callee::Direct(id),
                Some(Sym::Reg { id, vec: 0 }) => Callee::Indirect(id),
                Some(_) => return Err(self.invalid(format!("`{name}` is not a function"))),
                None => return Err(self.undefined("function", name)),
            },
            Operand::Reg(r) => match self.reg_use(r)? {
                RegUse::Reg(id) => Callee::Indirect(id),
                _ => return Err(self.invalid(format!("`{}` cannot hold a function", r.name))),
            },
            _ => return Err(s.invalid("needs a function or a register to call")),
        };
        let (ret_decls, arg_decls) = match callee {
            Callee::Direct(id) => {
                let f = self.m.funcs[id as usize];
                if f.body.is_none() {
                    return self.lower_builtin(id, &parts, inst);
                }
                (&f.returns[..], &f.params[..])
            }
            Callee::Indirect(_) => self.prototype(parts.proto)?,
        };
        let name = match parts.callee {
            Operand::Symbol { name, .. } => name.as_str(),
            _ => "the prototype",
        };
        self.check_arity(name, &parts, ret_decls.len(), arg_decls.len())?;
        let site = self.call_site(callee, &parts, arg_decls)?;
        self.f.call_sites.push(site);
        inst.target = (self.f.call_sites.len() - 1) as u32;
        Ok(())
    }

    /// The return and parameter lists of the `.callprototype` an indirect call names.
    fn prototype(
        &self,
        proto: Option<&Operand>,
    ) -> Result<(&'a [ParamDecl], &'a [ParamDecl]), LoadError> {
        match proto {
            Some(Operand::Symbol { name, offset: 0 }) => {
                match self.labels.prototypes.get(name.as_str()) {
                    Some(p) => Ok((&p.returns[..], &p.params[..])),
                    None => Err(self.undefined("prototype", name)),
                }
            }
            Some(_) => Err(self.invalid("expected a prototype name")),
            None => Err(self.invalid("an indirect call needs a .callprototype")),
        }
    }

    fn check_arity(
        &self,
        name: &str,
        parts: &CallParts,
        rets: usize,
        args: usize,
    ) -> Result<(), LoadError> {
        if parts.rets.len() == rets && parts.args.len() == args {
            return Ok(());
        }
        Err(self.invalid(format!(
            "call to `{name}` passes {} argument(s) and {} return value(s); it takes {args} and {rets}",
            parts.args.len(),
            parts.rets.len()
        )))
    }

    fn call_site(
        &self,
        callee: Callee,
        parts: &CallParts,
        arg_decls: &[ParamDecl],
    ) -> Result<CallSite, LoadError> {
        let mut site = CallSite {
            callee,
            rets: Vec::new(),
            args: Vec::new(),
            arg_values: Vec::new(),
            ret_values: Vec::new(),
        };
        for op in parts.rets {
            let (slot, value) = self.passed(op, None)?;
            if matches!(value, Some(Opnd::Imm(_))) {
                return Err(self.invalid("a return value cannot be an immediate"));
            }
            site.rets.push(slot);
            site.ret_values.push(value);
        }
        for (op, decl) in parts.args.iter().zip(arg_decls) {
            let (slot, value) = self.passed(op, Some(Ty::from_ast(decl.ty)))?;
            site.args.push(slot);
            site.arg_values.push(value);
        }
        Ok(site)
    }

    /// One entry of a call's return or argument list.
    fn passed(&self, op: &Operand, ty: Option<Ty>) -> Result<Passed, LoadError> {
        let value = match op {
            Operand::Symbol { name, offset } => match self.resolve(name) {
                Some(Sym::Frame { offset: o, size }) => {
                    let at = i64::from(o) + offset;
                    return Ok(((at as u32, size.saturating_sub(*offset as u32)), None));
                }
                Some(Sym::Reg { id, vec: 0 }) if *offset == 0 => Opnd::Reg(id),
                Some(_) => return Err(self.invalid(format!("`{name}` cannot be passed to a call"))),
                None => return Err(self.undefined("symbol", name)),
            },
            Operand::Reg(r) => match self.reg_use(r)? {
                RegUse::Reg(id) => Opnd::Reg(id),
                _ => return Err(self.invalid(format!("`{}` cannot be passed to a call", r.name))),
            },
            Operand::Imm(imm) => {
                Opnd::Imm(literal_bits(imm, ty.unwrap_or(Ty::B64)).map_err(|m| self.invalid(m))?)
            }
            _ => return Err(self.invalid("expected a .param variable, a register or an immediate")),
        };
        Ok(((0, 0), Some(value)))
    }

    /// A call of a function without a body: the `vprintf`/`__assertfail`/`malloc`/`free` built-ins, or an
    /// unsupported external function.
    fn lower_builtin(
        &mut self,
        id: FuncId,
        parts: &CallParts,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        let f = self.m.funcs[id as usize];
        let op = match f.name.as_str() {
            "vprintf" => Op::Vprintf,
            "__assertfail" => Op::AssertFail,
            "malloc" => Op::Malloc,
            "free" => Op::Free,
            name if f.linkage == ptx::ast::Linkage::Extern => {
                let what = format!("call to external function `{name}`");
                return Err(LoadError::Unsupported {
                    what,
                    line: self.line,
                });
            }
            name => return Err(self.invalid(format!("`{name}` is called but never defined"))),
        };
        self.check_arity(&f.name, parts, f.returns.len(), f.params.len())?;
        inst.op = op;
        inst.mods.space = Space::Local;
        for (slot, arg) in inst.src.iter_mut().zip(parts.args) {
            *slot = self.builtin_operand(arg)?;
        }
        if let Some(ret) = parts.rets.first() {
            inst.dst[0] = self.builtin_operand(ret)?;
        }
        Ok(())
    }

    /// A built-in's argument: the caller-frame address of its `.param`, or the value itself.
    fn builtin_operand(&self, op: &Operand) -> Result<Opnd, LoadError> {
        Ok(match self.passed(op, Some(Ty::B64))? {
            ((offset, _), None) => Opnd::Addr {
                base: None,
                rel: AddrRel::Frame,
                offset: i64::from(offset),
            },
            (_, Some(value)) => value,
        })
    }

    fn undefined(&self, kind: &'static str, name: &str) -> LoadError {
        LoadError::Undefined {
            kind,
            name: name.to_string(),
            line: self.line,
        }
    }
}
