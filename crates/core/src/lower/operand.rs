//! Operand lowering: registers, predicates, special registers, immediates, symbols used as
//! values, vectors and addresses.
//!
//! Addresses (`[base+offset]`) follow the `AddrRel` contract of `ir::inst`:
//! * `[%r+imm]` → `Addr { base: Some(r), rel: Absolute }`: the register holds the address in
//!   the instruction's space (a `.param` access through a register means the kernel parameter
//!   buffer in a kernel and the frame in a device function);
//! * `[kernel_param+imm]` → space `KernelParam`, `Absolute` offset in the parameter buffer;
//! * `[local_or_param_var+imm]` → space `Local`, `Frame`-relative offset;
//! * `[shared_var+imm]` → space `Shared`, `Absolute` shared offset (`DynShared` for
//!   `.extern .shared` arrays);
//! * `[global_or_const_var+imm]` → space `Global`/`Const`, `ModuleGlobals`-relative offset;
//! * `[imm]` → `Absolute` address.
//!
//! A generic access (`ld [sym]`, no space written) to a named variable takes the variable's own
//! space: that is where its generic address points anyway.

use ptx::ast::{Address, AddressBase, Immediate, Instruction, Operand, RegRef};

use super::func::FnCtx;
use super::opcode::K;
use super::scope::Sym;
use crate::error::LoadError;
use crate::exec::warp::WARP_SIZE;
use crate::ir::{
    layout::FUNC_HANDLE_BASE, AddrRel, Guard, Mods, Opnd, PredId, RegId, Space, Sreg, Ty,
};

/// PTX's predefined identifier for the warp size, a constant operand.
const WARP_SZ: &str = "WARP_SZ";

/// What a register reference (`%r1`, `%v.x`, `%tid.y`) denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RegUse {
    Reg(RegId),
    /// A whole `.v2`/`.v4` register written without a component.
    Vector(RegId, u8),
    Pred(PredId),
    Sreg(Sreg),
    /// A `%`-named variable or parameter.
    Other(Sym),
}

impl<'a, 'm> FnCtx<'a, 'm> {
    /// The innermost declaration of `name`: the body's scopes, then module scope.
    pub fn resolve(&self, name: &str) -> Option<Sym> {
        self.scopes
            .lookup(name)
            .or_else(|| self.m.names.get(name).copied())
    }

    /// Resolves a register reference, special registers included.
    pub fn reg_use(&self, r: &RegRef) -> Result<RegUse, LoadError> {
        let no_component = |u: RegUse| match r.component {
            None => Ok(u),
            Some(c) => Err(self.invalid(format!("`{}` has no component .{c}", r.name))),
        };
        match self.resolve(&r.name) {
            Some(Sym::Reg { id, vec: 0 }) => no_component(RegUse::Reg(id)),
            Some(Sym::Reg { id, vec }) => match r.component {
                None => Ok(RegUse::Vector(id, vec)),
                Some(c) => match component_index(c) {
                    Some(k) if k < vec => Ok(RegUse::Reg(id + u32::from(k))),
                    _ => Err(self.invalid(format!("`{}` has no component .{c}", r.name))),
                },
            },
            Some(Sym::Pred(p)) => no_component(RegUse::Pred(p)),
            Some(other) => no_component(RegUse::Other(other)),
            None => {
                sreg(&r.name, r.component)
                    .map(RegUse::Sreg)
                    .ok_or_else(|| LoadError::Undefined {
                        kind: "register",
                        name: r.name.clone(),
                        line: self.line,
                    })
            }
        }
    }

    /// A name written without `%` that may still be a register (`temp_param_reg`).
    fn name_use(&self, name: &str) -> Result<RegUse, LoadError> {
        self.reg_use(&RegRef {
            name: name.to_string(),
            component: None,
        })
    }

    /// The instruction's `@p` / `@!p` guard.
    pub fn guard(&self, i: &Instruction) -> Result<Guard, LoadError> {
        let Some(g) = &i.guard else {
            return Ok(Guard::default());
        };
        match self.name_use(&g.pred)? {
            RegUse::Pred(p) => Ok(Guard {
                pred: Some(p),
                negated: g.negated,
            }),
            _ => Err(self.invalid(format!("guard `{}` is not a predicate", g.pred))),
        }
    }

    /// Lowers the destination operand(s) of role `k` into `dst[0]` (and `dst[1]` for pairs).
    pub fn destination(&mut self, k: K, op: &Operand) -> Result<[Opnd; 2], LoadError> {
        let one = |o: Opnd| Ok([o, Opnd::None]);
        match (k, op) {
            (_, Operand::Sink) => one(Opnd::Sink),
            (K::PredPair, Operand::Pair(a, b)) => Ok([self.pred_reg(a)?, self.pred_reg(b)?]),
            (K::RegPred(_), Operand::Pair(a, b)) => Ok([self.reg_dst(a)?, self.pred_reg(b)?]),
            (K::PredPair | K::V(Ty::Pred) | K::Movable(Ty::Pred), _) => {
                one(self.pred_operand(op, false)?)
            }
            (K::Data(_, n), _) if n > 1 => one(self.vector(op, Some(n), true)?),
            (K::Movable(_), Operand::Vector(_)) => one(self.vector(op, None, true)?),
            (K::V(_) | K::Data(..) | K::Movable(_) | K::RegPred(_), _) => match op {
                Operand::Reg(r) => one(self.reg_dst(r)?),
                Operand::Symbol { name, offset: 0 } => one(self.reg_dst(&plain(name))?),
                _ => Err(self.invalid("expected a register destination")),
            },
            (K::Mem, _) => Err(self.invalid("an address cannot be a destination")),
        }
    }

    /// Lowers a source operand of role `k`. Memory operands may refine `mods.space`.
    pub fn source(
        &mut self,
        k: K,
        op: &Operand,
        param_space: bool,
        mods: &mut Mods,
    ) -> Result<Opnd, LoadError> {
        match k {
            K::V(Ty::Pred) | K::Movable(Ty::Pred) => self.pred_source(op),
            K::Data(_, n) if n > 1 => self.vector(op, Some(n), false),
            K::Movable(_) if matches!(op, Operand::Vector(_)) => self.vector(op, None, false),
            K::V(t) | K::Data(t, _) | K::Movable(t) => self.value(op, t),
            K::Mem => match op {
                Operand::Address(a) => self.address(a, param_space, mods),
                _ => Err(self.invalid("expected an address in brackets")),
            },
            K::RegPred(_) | K::PredPair => Err(self.invalid("unexpected operand pair")),
        }
    }

    /// A value source: register, special register, immediate (typed by `ty`), or a symbol's
    /// address.
    pub fn value(&self, op: &Operand, ty: Ty) -> Result<Opnd, LoadError> {
        match op {
            Operand::Reg(r) => self.reg_value(r),
            Operand::Imm(imm) => literal_bits(imm, ty)
                .map(Opnd::Imm)
                .map_err(|m| self.invalid(m)),
            Operand::Symbol { name, offset } => self.symbol_value(name, *offset),
            Operand::NotReg(_) => Err(self.invalid("`!` applies only to predicates")),
            Operand::Sink => Err(self.invalid("`_` cannot be a source")),
            _ => Err(self.invalid("expected a register or an immediate")),
        }
    }

    fn reg_value(&self, r: &RegRef) -> Result<Opnd, LoadError> {
        match self.reg_use(r)? {
            RegUse::Reg(id) => Ok(Opnd::Reg(id)),
            RegUse::Sreg(s) => Ok(Opnd::Sreg(s)),
            RegUse::Pred(_) => Err(self.invalid(format!("predicate `{}` used as a value", r.name))),
            RegUse::Vector(..) => {
                Err(self.invalid(format!("vector register `{}` needs a component", r.name)))
            }
            RegUse::Other(_) => self.symbol_value(&r.name, 0),
        }
    }

    /// A name used as a value: a register written without `%`, or the address of a variable
    /// (`SymAddr` relative to its space's base) or of a function (its handle).
    pub fn symbol_value(&self, name: &str, offset: i64) -> Result<Opnd, LoadError> {
        let addr = |rel, base: u32| {
            Ok(Opnd::SymAddr {
                rel,
                offset: i64::from(base) + offset,
            })
        };
        match self.resolve(name) {
            Some(Sym::Reg { id, vec: 0 }) if offset == 0 => Ok(Opnd::Reg(id)),
            Some(Sym::KernelParam { offset: o, .. }) => addr(AddrRel::Absolute, o),
            Some(Sym::Frame { offset: o, .. }) => addr(AddrRel::Frame, o),
            Some(Sym::Shared { offset: o }) => addr(AddrRel::Absolute, o),
            Some(Sym::DynShared) => addr(AddrRel::DynShared, 0),
            Some(Sym::Global { offset: o, .. }) => addr(AddrRel::ModuleGlobals, o),
            Some(Sym::Func(id)) if offset == 0 => Ok(Opnd::Imm(FUNC_HANDLE_BASE + u64::from(id))),
            Some(_) => Err(self.invalid(format!("`{name}` cannot be used as a value here"))),
            None if self.labels.contains(name) => Err(LoadError::Unsupported {
                what: format!("label `{name}` used as a value"),
                line: self.line,
            }),
            // PTX's one predefined constant: the warp size (nvcc's `warpSize`).
            None if name == WARP_SZ && offset == 0 => Ok(Opnd::Imm(WARP_SIZE as u64)),
            None => Err(LoadError::Undefined {
                kind: "symbol",
                name: name.to_string(),
                line: self.line,
            }),
        }
    }

    /// A predicate source: `%p`, `!%p`, or the constants 0 and 1.
    pub fn pred_source(&self, op: &Operand) -> Result<Opnd, LoadError> {
        match op {
            Operand::NotReg(_) => self.pred_operand(op, true),
            // nvcc writes `true` as `-1` (all bits set); any non-zero integer is true.
            Operand::Imm(Immediate::Int(v)) => Ok(Opnd::Imm(u64::from(*v != 0))),
            _ => self.pred_operand(op, true),
        }
    }

    /// `%p` (or `!%p` when `allow_not`) as a predicate operand.
    fn pred_operand(&self, op: &Operand, allow_not: bool) -> Result<Opnd, LoadError> {
        let (r, negated) = match op {
            Operand::Reg(r) => (r.clone(), false),
            Operand::NotReg(r) if allow_not => (r.clone(), true),
            Operand::Symbol { name, offset: 0 } => (plain(name), false),
            _ => return Err(self.invalid("expected a predicate")),
        };
        match self.reg_use(&r)? {
            RegUse::Pred(id) => Ok(Opnd::Pred { id, negated }),
            _ => Err(self.invalid(format!("`{}` is not a predicate", r.name))),
        }
    }

    fn pred_reg(&self, r: &RegRef) -> Result<Opnd, LoadError> {
        self.pred_operand(&Operand::Reg(r.clone()), false)
    }

    /// A value register as a destination.
    fn reg_dst(&self, r: &RegRef) -> Result<Opnd, LoadError> {
        match self.reg_use(r)? {
            RegUse::Reg(id) => Ok(Opnd::Reg(id)),
            RegUse::Pred(_) => Err(self.invalid(format!(
                "predicate `{}` where a register is expected",
                r.name
            ))),
            RegUse::Sreg(_) => {
                Err(self.invalid(format!("special register `{}` cannot be written", r.name)))
            }
            RegUse::Vector(..) => {
                Err(self.invalid(format!("vector register `{}` needs a component", r.name)))
            }
            RegUse::Other(_) => Err(self.invalid(format!("`{}` is not a register", r.name))),
        }
    }

    /// A braced vector `{%a, %b, …}` of exactly `n` registers (any of 2..=4 when `None`), or
    /// a whole vector register. `_` is allowed in destinations only.
    fn vector(&self, op: &Operand, n: Option<u8>, allow_sink: bool) -> Result<Opnd, LoadError> {
        let mut regs = [u32::MAX; 4];
        let len = match op {
            Operand::Vector(items) => {
                if items.len() > 4 {
                    return Err(self.invalid("a vector has at most 4 elements"));
                }
                for (slot, item) in regs.iter_mut().zip(items) {
                    *slot = self.vector_element(item, allow_sink)?;
                }
                items.len() as u8
            }
            Operand::Reg(r) => match self.reg_use(r)? {
                RegUse::Vector(id, vec) => {
                    for (k, slot) in regs.iter_mut().take(usize::from(vec)).enumerate() {
                        *slot = id + k as u32;
                    }
                    vec
                }
                _ => return Err(self.invalid(format!("expected a vector, found `{}`", r.name))),
            },
            _ => return Err(self.invalid("expected a vector operand")),
        };
        if n.is_some_and(|n| n != len) || len < 2 {
            let want = n.map_or("2 to 4".to_string(), |n| n.to_string());
            return Err(self.invalid(format!("expected a vector of {want} elements, found {len}")));
        }
        Ok(Opnd::Vec { regs, n: len })
    }

    fn vector_element(&self, item: &Operand, allow_sink: bool) -> Result<RegId, LoadError> {
        let r = match item {
            Operand::Sink if allow_sink => return Ok(u32::MAX),
            Operand::Reg(r) => r.clone(),
            Operand::Symbol { name, offset: 0 } => plain(name),
            Operand::Imm(_) => {
                return Err(LoadError::Unsupported {
                    what: "immediate inside a vector operand".into(),
                    line: self.line,
                })
            }
            _ => return Err(self.invalid("expected a register in the vector")),
        };
        match self.reg_use(&r)? {
            RegUse::Reg(id) => Ok(id),
            _ => Err(self.invalid(format!("`{}` cannot be a vector element", r.name))),
        }
    }

    /// `[base+offset]` for a memory instruction whose written space is `mods.space` (or
    /// `.param` when `param_space`); sets `mods.space` to the space actually addressed.
    fn address(&self, a: &Address, param_space: bool, mods: &mut Mods) -> Result<Opnd, LoadError> {
        let through_reg = |id: RegId, mods: &mut Mods| {
            if param_space {
                mods.space = self.param_space_of_register();
            }
            Ok(Opnd::Addr {
                base: Some(id),
                rel: AddrRel::Absolute,
                offset: a.offset,
            })
        };
        let name = match &a.base {
            AddressBase::Absolute => {
                if param_space {
                    mods.space = self.param_space_of_register();
                }
                return Ok(Opnd::Addr {
                    base: None,
                    rel: AddrRel::Absolute,
                    offset: a.offset,
                });
            }
            AddressBase::Reg(r) => match self.reg_use(r)? {
                RegUse::Reg(id) => return through_reg(id, mods),
                RegUse::Other(_) => r.name.as_str(),
                _ => return Err(self.invalid(format!("`{}` cannot hold an address", r.name))),
            },
            AddressBase::Symbol(name) => name.as_str(),
        };
        let sym = self.resolve(name).ok_or_else(|| LoadError::Undefined {
            kind: "symbol",
            name: name.to_string(),
            line: self.line,
        })?;
        let (space, rel, base) = match sym {
            Sym::Reg { id, vec: 0 } => return through_reg(id, mods),
            Sym::KernelParam { offset, .. } => (Space::KernelParam, AddrRel::Absolute, offset),
            Sym::Frame { offset, .. } => (Space::Local, AddrRel::Frame, offset),
            Sym::Shared { offset } => (Space::Shared, AddrRel::Absolute, offset),
            Sym::DynShared => (Space::Shared, AddrRel::DynShared, 0),
            Sym::Global {
                offset,
                is_const: false,
            } => (Space::Global, AddrRel::ModuleGlobals, offset),
            Sym::Global {
                offset,
                is_const: true,
            } => (Space::Const, AddrRel::ModuleGlobals, offset),
            Sym::Reg { .. } | Sym::Pred(_) | Sym::Func(_) => {
                return Err(self.invalid(format!("`{name}` is not a variable")))
            }
        };
        if !space_matches(mods.space, param_space, space) {
            return Err(self.invalid(format!(
                "`{name}` is not in the state space the instruction names"
            )));
        }
        mods.space = space;
        Ok(Opnd::Addr {
            base: None,
            rel,
            offset: i64::from(base) + a.offset,
        })
    }
}

/// Whether an instruction written with `written` (or `.param`) may address a variable of
/// `actual` space. Generic accesses reach every variable; `.param` reaches kernel parameters
/// and frame variables (device-function parameters and call-sequence `.param`s).
fn space_matches(written: Space, param_space: bool, actual: Space) -> bool {
    if param_space {
        return matches!(actual, Space::KernelParam | Space::Local);
    }
    written == Space::Generic || written == actual
}

/// A `RegRef` for a name written without `%`.
fn plain(name: &str) -> RegRef {
    RegRef {
        name: name.to_string(),
        component: None,
    }
}

/// `.x/.y/.z/.w` (or `.r/.g/.b/.a`) → 0..3.
fn component_index(c: char) -> Option<u8> {
    match c {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// The bits of an immediate used as an operand of type `ty` (also used for initialisers).
///
/// Follows what ptxas does (checked against its output): integer literals are sign-extended
/// to 64 bits and are not allowed where a float is expected; a `0d` or decimal literal is a
/// double, rounded to nearest for an `.f32` operand; a `0f` literal is its 32 bits, also for an
/// `.f64` operand (zero-extended, not converted); a bit-type (`.bN`) operand takes a hex
/// float's raw bits; a float literal is not allowed for `.u`/`.s` types, nor a decimal one for
/// `.b` types.
pub(super) fn literal_bits(imm: &Immediate, ty: Ty) -> Result<u64, String> {
    use Immediate as I;
    let bits_type = matches!(ty, Ty::B8 | Ty::B16 | Ty::B32 | Ty::B64);
    match (*imm, ty) {
        (I::Int(_), Ty::F32 | Ty::F64 | Ty::F16 | Ty::BF16 | Ty::F16x2 | Ty::BF16x2) => {
            Err("integer literal where a floating-point value is expected".into())
        }
        (I::Int(v), _) => Ok(v as u64),
        (I::F32(b), Ty::F32) => Ok(u64::from(b)),
        // ptxas keeps a `0f` literal's 32 bits, zero-extended, even as an .f64 operand.
        (I::F32(b), Ty::F64) => Ok(u64::from(b)),
        (I::F64(b), Ty::F64) => Ok(b),
        (I::F64(b), Ty::F32) => Ok(u64::from((f64::from_bits(b) as f32).to_bits())),
        (I::Float(f), Ty::F32) => Ok(u64::from((f as f32).to_bits())),
        (I::Float(f), Ty::F64) => Ok(f.to_bits()),
        (I::F32(b), _) if bits_type => Ok(u64::from(b)),
        (I::F64(b), _) if bits_type => Ok(b),
        _ => Err(format!(
            "floating-point literal where a .{} value is expected",
            format!("{ty:?}").to_lowercase()
        )),
    }
}

/// Special registers by name and component.
pub(super) fn sreg(name: &str, component: Option<char>) -> Option<Sreg> {
    use Sreg::*;
    // Accept `%tid.x` spelled as one name too.
    if let (Some((base, c)), None) = (name.split_once('.'), component) {
        let mut chars = c.chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) => sreg(base, Some(c)),
            _ => None,
        };
    }
    let xyz = |x, y, z| match component {
        Some('x') => Some(x),
        Some('y') => Some(y),
        Some('z') => Some(z),
        _ => None,
    };
    match name {
        "%tid" => return xyz(TidX, TidY, TidZ),
        "%ntid" => return xyz(NtidX, NtidY, NtidZ),
        "%ctaid" => return xyz(CtaidX, CtaidY, CtaidZ),
        "%nctaid" => return xyz(NctaidX, NctaidY, NctaidZ),
        "%clusterid" => return xyz(ClusteridX, ClusteridY, ClusteridZ),
        "%nclusterid" => return xyz(NclusteridX, NclusteridY, NclusteridZ),
        "%cluster_ctaid" => return xyz(ClusterZero, ClusterZero, ClusterZero),
        "%cluster_nctaid" => return xyz(ClusterOne, ClusterOne, ClusterOne),
        _ if component.is_some() => return None,
        _ => {}
    }
    Some(match name {
        "%laneid" => Laneid,
        "%warpid" => Warpid,
        "%nwarpid" => Nwarpid,
        "%smid" => Smid,
        "%nsmid" => Nsmid,
        "%gridid" => Gridid,
        "%clock" => Clock,
        "%clock_hi" => ClockHi,
        "%clock64" => Clock64,
        "%globaltimer" => GlobalTimer,
        "%globaltimer_lo" => GlobalTimerLo,
        "%globaltimer_hi" => GlobalTimerHi,
        "%lanemask_eq" => LanemaskEq,
        "%lanemask_lt" => LanemaskLt,
        "%lanemask_le" => LanemaskLe,
        "%lanemask_gt" => LanemaskGt,
        "%lanemask_ge" => LanemaskGe,
        "%total_smem_size" => TotalSmemSize,
        "%dynamic_smem_size" => DynamicSmemSize,
        "%aggr_smem_size" => AggrSmemSize,
        "%current_graph_exec" => CurrentGraphExec,
        "%cluster_ctarank" => ClusterZero,
        "%cluster_nctarank" => ClusterOne,
        "%is_explicit_cluster" => IsExplicitCluster,
        _ => {
            if let Some(rest) = name.strip_prefix("%pm") {
                let n: u8 = rest.strip_suffix("_64").unwrap_or(rest).parse().ok()?;
                return (n < 8 && !rest.starts_with('+')).then_some(PerfCounter);
            }
            let n: u8 = name.strip_prefix("%envreg")?.parse().ok()?;
            return (n < 32).then_some(Envreg(n));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_follow_ptxas_rules() {
        assert_eq!(literal_bits(&Immediate::Int(-1), Ty::S32), Ok(u64::MAX));
        assert!(literal_bits(&Immediate::Int(1), Ty::F32).is_err());
        assert_eq!(
            literal_bits(&Immediate::F32(0x3F80_0000), Ty::F64),
            Ok(0x3F80_0000)
        );
        assert_eq!(
            literal_bits(&Immediate::F64(1f64.to_bits()), Ty::F32),
            Ok(0x3F80_0000)
        );
        assert_eq!(
            literal_bits(&Immediate::Float(1.5), Ty::F32),
            Ok(u64::from(1.5f32.to_bits()))
        );
        assert_eq!(
            literal_bits(&Immediate::F32(0x3F80_0000), Ty::B32),
            Ok(0x3F80_0000)
        );
        assert!(literal_bits(&Immediate::F32(0x3F80_0000), Ty::S32).is_err());
        assert!(literal_bits(&Immediate::Float(1.5), Ty::B32).is_err());
    }

    #[test]
    fn special_registers() {
        assert_eq!(sreg("%tid", Some('y')), Some(Sreg::TidY));
        assert_eq!(sreg("%nctaid.z", None), Some(Sreg::NctaidZ));
        assert_eq!(sreg("%tid", None), None);
        assert_eq!(sreg("%laneid", Some('x')), None);
        assert_eq!(sreg("%envreg31", None), Some(Sreg::Envreg(31)));
        assert_eq!(sreg("%envreg32", None), None);
        assert_eq!(sreg("%lanemask_ge", None), Some(Sreg::LanemaskGe));
        assert_eq!(sreg("%r1", None), None);
        assert_eq!(sreg("%pm7", None), Some(Sreg::PerfCounter));
        assert_eq!(sreg("%pm3_64", None), Some(Sreg::PerfCounter));
        assert_eq!(sreg("%pm8", None), None);
        assert_eq!(sreg("%pm+1", None), None);
        assert_eq!(sreg("%cluster_nctaid", Some('z')), Some(Sreg::ClusterOne));
        assert_eq!(sreg("%clusterid.y", None), Some(Sreg::ClusteridY));
        assert_eq!(
            sreg("%is_explicit_cluster", None),
            Some(Sreg::IsExplicitCluster)
        );
    }
}
