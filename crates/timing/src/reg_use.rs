//! The registers and predicates each instruction reads and writes, listed once per launch.
//!
//! The scoreboard check runs whenever a warp's I-buffer head may have become issuable and the
//! operand collectors count register banks at every issue; both only need these lists, not the
//! operand descriptors (`Opnd`'s register, address and vector forms) they were matching on
//! every call.

use warpsim_core::ir::{Inst, Module, Op, Opnd, PredId, RegId, TensorInst};

/// One instruction's registers and predicates (register numbers relative to its frame).
#[derive(Clone, Copy, Debug)]
pub struct RegUse<'a> {
    /// Distinct source registers: first GPGPU-Sim's input operands (see `in_operands`), then
    /// the others (address bases, a fourth scalar source), each group in order of first
    /// appearance (a vector's `_` sink is listed as it stands); then every destination
    /// register. A tensor-core instruction's fragments count as its operands: the C, A and B
    /// fragments (and a `wmma.store`'s) are input sources, the D fragment (up to 8 registers)
    /// the destinations.
    pub regs: &'a [RegId],
    /// How many of `regs` are sources.
    pub sources: usize,
    /// How many of `regs` (the first ones) GPGPU-Sim lists as the instruction's inputs
    /// (`ptx_instruction::pre_decode`'s `in[]`): the registers of its first three scalar
    /// register or predicate source operands and every element of a vector source; not an
    /// address's base, which it keeps apart (`ar1`). Two-level scheduling demotes a warp only
    /// on these (`two_level_active_scheduler::order_warps` asks `islongop` of `in[]`).
    pub in_operands: usize,
    /// The guard, then predicate sources and destinations.
    pub preds: &'a [PredId],
    /// The register-file reads as GPGPU-Sim makes them: per source operand (register,
    /// vector element, address base, predicate; repeats kept, the guard and `_` left out),
    /// the number in its PTX name (`%f5`, `%rd5` and `%p5` are all 5; `%sp` is 0). A register
    /// whose name has no digits is not read through the banks. Register banks are chosen by
    /// this number (GPGPU-Sim's `arch_reg` and `register_bank`), not by the frame's slots.
    pub bank_regs: &'a [u16],
    /// The register-file writes at writeback, as GPGPU-Sim makes them: the numbers of the
    /// first destination operand's registers (a register, a predicate, or a vector's
    /// elements; GPGPU-Sim's `arch_reg.dst`), `_` and digitless names left out.
    pub bank_dsts: &'a [u16],
}

impl<'a> RegUse<'a> {
    /// The destination registers.
    #[inline]
    pub fn dsts(&self) -> &'a [RegId] {
        &self.regs[self.sources.min(self.regs.len())..]
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Span {
    regs: u32,
    n_regs: u8,
    sources: u8,
    in_operands: u8,
    preds: u32,
    n_preds: u8,
    bank_regs: u32,
    n_bank_regs: u8,
    /// Destinations follow the sources in `bank_regs`.
    n_bank_dsts: u8,
}

/// Per function and PC, its [`RegUse`]; all lists in three flat vectors.
pub struct RegUseTable {
    funcs: Vec<Vec<Span>>,
    regs: Vec<RegId>,
    preds: Vec<PredId>,
    bank_regs: Vec<u16>,
}

/// GPGPU-Sim's architectural number of a register named `name`: its first run of digits
/// (`ptx_parser.cc`, `add_identifier`), 0 for `%sp`, none without digits.
fn arch_number(name: &str) -> Option<u16> {
    if name == "%sp" {
        return Some(0);
    }
    let mut digits = name
        .bytes()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .peekable();
    digits.peek()?;
    // Modulo 2^16: the bank (a power-of-two count up to 256) is the same.
    Some(digits.fold(0u16, |n, d| {
        n.wrapping_mul(10).wrapping_add((d - b'0') as u16)
    }))
}

impl RegUseTable {
    pub fn new(module: &Module) -> RegUseTable {
        let mut t = RegUseTable {
            funcs: Vec::with_capacity(module.functions.len()),
            regs: Vec::new(),
            preds: Vec::new(),
            bank_regs: Vec::new(),
        };
        for f in &module.functions {
            let numbers =
                |names: &[String]| names.iter().map(|n| arch_number(n)).collect::<Vec<_>>();
            let (reg_arch, pred_arch) = (numbers(&f.reg_names), numbers(&f.pred_names));
            let spans = f
                .insts
                .iter()
                .map(|i| {
                    let frag = f
                        .tensor
                        .get(i.target as usize)
                        .filter(|_| i.op == Op::Tensor);
                    t.push(i, frag, &reg_arch, &pred_arch)
                })
                .collect();
            t.funcs.push(spans);
        }
        t
    }

    fn push(
        &mut self,
        inst: &Inst,
        frag: Option<&TensorInst>,
        reg_arch: &[Option<u16>],
        pred_arch: &[Option<u16>],
    ) -> Span {
        let (r0, p0, b0) = (self.regs.len(), self.preds.len(), self.bank_regs.len());
        let arch = |r: &RegId| reg_arch.get(*r as usize).copied().flatten();
        for o in &inst.src {
            push_arch_numbers(&mut self.bank_regs, o, reg_arch, pred_arch);
        }
        // Every fragment register is read through the banks, as GPGPU-Sim reads a vector
        // operand's elements.
        if let Some(t) = frag {
            let srcs = t.c_regs.iter().chain(&t.a_regs).chain(&t.b_regs);
            self.bank_regs.extend(srcs.filter_map(arch));
        }
        let n_bank_regs = (self.bank_regs.len() - b0).min(u8::MAX as usize);
        self.bank_regs.truncate(b0 + n_bank_regs);
        // Only the first destination operand is written through the banks (GPGPU-Sim's
        // `ptx_instruction` fills `arch_reg.dst` from operand 0 alone).
        let d0 = self.bank_regs.len();
        if let Some(o) = inst.dst.first() {
            push_arch_numbers(&mut self.bank_regs, o, reg_arch, pred_arch);
        }
        if let Some(t) = frag {
            self.bank_regs.extend(t.d_regs.iter().filter_map(arch));
        }
        self.preds.extend(inst.guard.pred);
        let push_distinct = |regs: &mut Vec<RegId>, r: RegId| {
            if !regs[r0..].contains(&r) {
                regs.push(r);
            }
        };
        // GPGPU-Sim's `in[]`: a scalar register or predicate operand takes the next input
        // position and is kept only in the first three; a vector takes one per element.
        let mut position = 0;
        for o in &inst.src {
            match *o {
                Opnd::Reg(r) => {
                    if position < 3 {
                        push_distinct(&mut self.regs, r);
                    }
                    position += 1;
                }
                Opnd::Pred { .. } => position += 1,
                Opnd::Vec { regs, n } => {
                    for &r in &regs[..n as usize] {
                        push_distinct(&mut self.regs, r);
                    }
                    position += n as usize;
                }
                _ => {}
            }
        }
        if let Some(t) = frag {
            for &r in t.c_regs.iter().chain(&t.a_regs).chain(&t.b_regs) {
                push_distinct(&mut self.regs, r);
            }
        }
        let in_operands = self.regs.len() - r0;
        for o in &inst.src {
            for_each_reg(o, |r| push_distinct(&mut self.regs, r));
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
        if let Some(t) = frag {
            self.regs.extend(&t.d_regs);
        }
        Span {
            regs: r0 as u32,
            n_regs: (self.regs.len() - r0) as u8,
            sources: sources as u8,
            in_operands: in_operands as u8,
            preds: p0 as u32,
            n_preds: (self.preds.len() - p0) as u8,
            bank_regs: b0 as u32,
            n_bank_regs: n_bank_regs as u8,
            n_bank_dsts: (self.bank_regs.len() - d0) as u8,
        }
    }

    /// `func`'s instruction `pc` (past the end, the implicit return: nothing).
    #[inline(always)]
    pub fn get(&self, func: u32, pc: u32) -> RegUse<'_> {
        let s = self
            .funcs
            .get(func as usize)
            .and_then(|f| f.get(pc as usize))
            .copied()
            .unwrap_or_default();
        let r = s.regs as usize;
        let p = s.preds as usize;
        let b = s.bank_regs as usize;
        RegUse {
            regs: &self.regs[r..r + s.n_regs as usize],
            sources: s.sources as usize,
            in_operands: s.in_operands as usize,
            preds: &self.preds[p..p + s.n_preds as usize],
            bank_regs: &self.bank_regs[b..b + s.n_bank_regs as usize],
            bank_dsts: &self.bank_regs
                [b + s.n_bank_regs as usize..b + s.n_bank_regs as usize + s.n_bank_dsts as usize],
        }
    }
}

/// Appends to `out` GPGPU-Sim's numbers of the registers and predicate operand `o` names (a
/// name without digits has none).
fn push_arch_numbers(
    out: &mut Vec<u16>,
    o: &Opnd,
    reg_arch: &[Option<u16>],
    pred_arch: &[Option<u16>],
) {
    for_each_reg(o, |r| {
        if let Some(&Some(n)) = reg_arch.get(r as usize) {
            out.push(n);
        }
    });
    if let Opnd::Pred { id, .. } = *o {
        if let Some(&Some(n)) = pred_arch.get(id as usize) {
            out.push(n);
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
    fn gpgpusim_numbers_registers_by_the_digits_in_their_names() {
        assert_eq!(arch_number("%f5"), Some(5));
        assert_eq!(arch_number("%rd12"), Some(12));
        assert_eq!(arch_number("%r2x7"), Some(2));
        assert_eq!(arch_number("%sp"), Some(0));
        assert_eq!(arch_number("%acc"), None);
        assert_eq!(arch_number("%r65541"), Some(5));
    }

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
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let module = Module {
            functions: vec![warpsim_core::ir::Function {
                insts: vec![inst, Inst::default()],
                // Register 6 has no digits; register 9 is %sp.
                reg_names: names(&[
                    "%r0", "%r1", "%r2", "%r3", "%r4", "%rd15", "%tmp", "%f7", "%f8", "%sp",
                ]),
                pred_names: names(&["%p0", "%p1", "%p12", "%p3"]),
                ..Default::default()
            }],
            ..Default::default()
        };
        let t = RegUseTable::new(&module);
        let u = t.get(0, 0);
        assert_eq!(
            (u.regs, u.sources, u.preds),
            (&[5, 6, 9, 7, 8][..], 3, &[3, 2, 1][..])
        );
        // Every source operand's number, repeats kept: %rd15, the address base %rd15, the
        // vector's %rd15 and %sp (not %tmp), the predicate %p12; not the guard or destinations.
        assert_eq!(u.bank_regs, &[15, 15, 15, 0, 12][..]);
        // Written at writeback: the first destination operand's registers, %f7 and %f8 (not
        // the predicate of the second).
        assert_eq!(u.bank_dsts, &[7, 8][..]);
        let nop = t.get(0, 1);
        assert!(nop.regs.is_empty() && nop.preds.is_empty() && nop.bank_regs.is_empty());
        assert!(nop.bank_dsts.is_empty());
        let past_end = t.get(0, 2);
        assert!(past_end.regs.is_empty() && past_end.sources == 0);
        assert!(t.get(1, 0).regs.is_empty());
    }
}
