//! The registers and predicates each instruction reads and writes, listed once per launch.
//!
//! The scoreboard check runs whenever a warp's I-buffer head may have become issuable and the
//! operand collectors count register banks at every issue; both only need these lists, not the
//! operand descriptors (`Opnd`'s register, address and vector forms) they were matching on
//! every call.

use warpsim_core::ir::{Inst, Module, Opnd, PredId, RegId};

/// One instruction's registers and predicates (register numbers relative to its frame).
#[derive(Clone, Copy, Debug)]
pub struct RegUse<'a> {
    /// Distinct source registers in order of first appearance (vector elements and address
    /// bases included; a vector's `_` sink is listed as it stands), then every destination
    /// register.
    pub regs: &'a [RegId],
    /// How many of `regs` are sources.
    pub sources: usize,
    /// The guard, then predicate sources and destinations.
    pub preds: &'a [PredId],
}

#[derive(Clone, Copy, Debug, Default)]
struct Span {
    regs: u32,
    n_regs: u8,
    sources: u8,
    preds: u32,
    n_preds: u8,
}

/// Per function and PC, its [`RegUse`]; all lists in two flat vectors.
pub struct RegUseTable {
    funcs: Vec<Vec<Span>>,
    regs: Vec<RegId>,
    preds: Vec<PredId>,
}

impl RegUseTable {
    pub fn new(module: &Module) -> RegUseTable {
        let mut t = RegUseTable {
            funcs: Vec::with_capacity(module.functions.len()),
            regs: Vec::new(),
            preds: Vec::new(),
        };
        for f in &module.functions {
            let spans = f.insts.iter().map(|i| t.push(i)).collect();
            t.funcs.push(spans);
        }
        t
    }

    fn push(&mut self, inst: &Inst) -> Span {
        let (r0, p0) = (self.regs.len(), self.preds.len());
        self.preds.extend(inst.guard.pred);
        for o in &inst.src {
            for_each_reg(o, |r| {
                if !self.regs[r0..].contains(&r) {
                    self.regs.push(r);
                }
            });
            if let Opnd::Pred { id, .. } = *o {
                self.preds.push(id);
            }
        }
        let sources = self.regs.len() - r0;
        for o in &inst.dst {
            for_each_reg(o, |r| self.regs.push(r));
            if let Opnd::Pred { id, .. } = *o {
                self.preds.push(id);
            }
        }
        Span {
            regs: r0 as u32,
            n_regs: (self.regs.len() - r0) as u8,
            sources: sources as u8,
            preds: p0 as u32,
            n_preds: (self.preds.len() - p0) as u8,
        }
    }

    /// `func`'s instruction `pc` (past the end, the implicit return: nothing).
    #[inline]
    pub fn get(&self, func: u32, pc: u32) -> RegUse<'_> {
        let s = self
            .funcs
            .get(func as usize)
            .and_then(|f| f.get(pc as usize))
            .copied()
            .unwrap_or_default();
        let r = s.regs as usize;
        let p = s.preds as usize;
        RegUse {
            regs: &self.regs[r..r + s.n_regs as usize],
            sources: s.sources as usize,
            preds: &self.preds[p..p + s.n_preds as usize],
        }
    }
}

/// The registers operand `o` names: a register, an address's base, a vector's elements.
fn for_each_reg(o: &Opnd, mut f: impl FnMut(RegId)) {
    match *o {
        Opnd::Reg(r) | Opnd::Addr { base: Some(r), .. } => f(r),
        Opnd::Vec { regs, n } => regs[..n as usize].iter().for_each(|&r| f(r)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsim_core::ir::{AddrRel, Guard};

    #[test]
    fn sources_are_distinct_then_destinations_and_predicates_follow_the_guard() {
        let inst = Inst {
            guard: Guard {
                pred: Some(3),
                negated: true,
            },
            dst: [
                Opnd::Vec {
                    regs: [7, 8, 0, 0],
                    n: 2,
                },
                Opnd::Pred {
                    id: 1,
                    negated: false,
                },
            ],
            src: [
                Opnd::Reg(5),
                Opnd::Addr {
                    base: Some(5),
                    rel: AddrRel::default(),
                    offset: 8,
                },
                Opnd::Vec {
                    regs: [6, 5, 9, 0],
                    n: 3,
                },
                Opnd::Pred {
                    id: 2,
                    negated: false,
                },
            ],
            ..Inst::default()
        };
        let module = Module {
            functions: vec![warpsim_core::ir::Function {
                insts: vec![inst, Inst::default()],
                ..Default::default()
            }],
            ..Default::default()
        };
        let t = RegUseTable::new(&module);
        let u = t.get(0, 0);
        assert_eq!((u.regs, u.sources, u.preds), (&[5, 6, 9, 7, 8][..], 3, &[3, 2, 1][..]));
        let nop = t.get(0, 1);
        assert!(nop.regs.is_empty() && nop.preds.is_empty());
        let past_end = t.get(0, 2);
        assert!(past_end.regs.is_empty() && past_end.sources == 0);
        assert!(t.get(1, 0).regs.is_empty());
    }
}
