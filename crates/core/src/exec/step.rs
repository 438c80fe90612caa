//! Executes one warp instruction: the functional heart shared by functional and timing mode.

use super::context::{LaunchCtx, MemCtx};
use super::control;
use super::decoded::{self, Decoded};
use super::fault::{ExecFault, FaultKind};
use super::global::{apply_deferred, Deferred, DeferredOp};
use super::mem_ops;
use super::operands::{gather, pred_mask, scatter, write_pred, Lanes};
use super::printf::{self, ArgSource};
use super::warp::{lanes, Frame, Warp, WARP_SIZE};
use super::warp_ops;
use crate::alu;
use crate::ir::{BarKind, BoolOp, Function, Inst, Op, Opnd, Pc, Space};

/// What the caller must do after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepEvent {
    /// The warp can keep going.
    Continue,
    /// The warp arrived at barrier `id` (its PC already points past the `bar`).
    Barrier {
        id: u8,
        /// Thread count for `bar.sync a, b`; `None` means all threads of the CTA.
        count: Option<u32>,
        kind: BarKind,
        /// Threads of this warp that arrived.
        arrived: u32,
        /// For `bar.red`: arriving threads whose predicate is true.
        pred_true: u32,
    },
    /// Every lane has exited.
    Done,
}

/// Executes the instruction at the warp's PC.
pub fn step(k: &LaunchCtx, m: &mut MemCtx, w: &mut Warp) -> Result<StepEvent, ExecFault> {
    let module = k.module;
    let f = w.frame();
    let func = &module.functions[f.func as usize];
    let Some(top) = w.simt.last().copied() else {
        return Ok(StepEvent::Done);
    };
    let pc = top.pc;
    let Some(inst) = func.insts.get(pc as usize) else {
        // Falling off the end of a function is a return.
        control::ret(module, w, top.mask);
        return Ok(done_or_continue(w));
    };
    let active = top.mask;
    let exec = match inst.guard.pred {
        None => active,
        Some(p) => {
            active
                & (w.preds[f.pred_base + p as usize]
                    ^ if inst.guard.negated { u32::MAX } else { 0 })
        }
    };
    w.instructions += 1;
    // A full warp without the population count (a dozen instructions on CPUs built for
    // without the POPCNT feature).
    w.thread_instructions += if exec == u32::MAX {
        WARP_SIZE as u64
    } else {
        exec.count_ones() as u64
    };
    let next = pc + 1;
    // The load-time decoding; an instruction of a function built by hand decodes here.
    let decoded_here;
    let decoded = match func.decoded.get(pc as usize) {
        Some(d) => d,
        None => {
            decoded_here = decoded::decode(inst, &func.reg_bits);
            &decoded_here
        }
    };
    // The decoded forms execute only for a non-empty mask; then the warp moves on.
    match *decoded {
        Decoded::General => return general(k, m, w, &f, func, inst, pc, active, exec),
        _ if exec == 0 => {}
        Decoded::Lanes(ref li) => super::arith::execute_lanes(k, m, w, &f, inst, li, exec),
        Decoded::Setp(src) => super::arith::execute_setp(k, m, w, &f, inst, src, exec),
        Decoded::LdBased(ref l) => {
            mem_ops::ld_based(k, m, w, &f, inst, l, exec).map_err(|(l, e)| ExecFault {
                kind: e,
                lane: l as u32,
                pc,
                func: f.func,
            })?
        }
    }
    Ok(advance(module, w, next))
}

/// The instructions `exec::decoded` leaves to a match on their `Op` (control flow, memory,
/// warp-level and the rest), kept out of line so that the decoded forms' common path in
/// [`step`] stays a small function.
#[inline(never)]
// Per instruction: the step's context and instruction in registers, not a struct built per step.
#[allow(clippy::too_many_arguments)]
fn general(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    f: &Frame,
    func: &Function,
    inst: &Inst,
    pc: Pc,
    active: u32,
    exec: u32,
) -> Result<StepEvent, ExecFault> {
    let module = k.module;
    let f = *f;
    let next = pc + 1;
    let fault = |lane: usize, kind: FaultKind| ExecFault {
        kind,
        lane: lane as u32,
        pc,
        func: f.func,
    };
    // Scratch lanes are declared in the arms that use them: zeroing four 256-byte arrays on
    // every instruction cost more than most instructions' own work.
    match inst.op {
        Op::Bra => {
            control::branch(module, w, exec, inst.target, next, inst.reconv);
            return Ok(done_or_continue(w));
        }
        Op::BrxIdx => {
            let mut a: Lanes = [0; WARP_SIZE];
            gather(k, m, w, &f, &inst.src[0], &mut a);
            let table = &func.branch_tables[inst.target as usize];
            for l in lanes(exec) {
                a[l] = table
                    .get(a[l] as usize)
                    .copied()
                    .unwrap_or(func.insts.len() as Pc) as u64;
            }
            if exec == 0 {
                control::goto(module, w, next);
            } else {
                control::branch_indexed(module, w, &a, exec, inst.reconv);
            }
            return Ok(done_or_continue(w));
        }
        Op::Exit => {
            control::exit_lanes(module, w, exec);
            if exec != active {
                control::goto(module, w, next);
            }
            return Ok(done_or_continue(w));
        }
        Op::Ret => {
            if exec == 0 {
                control::goto(module, w, next);
            } else {
                control::ret(module, w, exec);
            }
            return Ok(done_or_continue(w));
        }
        Op::Call if exec != 0 => {
            let site = &func.call_sites[inst.target as usize];
            let mut a: Lanes = [0; WARP_SIZE];
            if let crate::ir::Callee::Indirect(r) = site.callee {
                gather(k, m, w, &f, &Opnd::Reg(r), &mut a);
            }
            let mut args: Vec<Lanes> = Vec::new();
            if site.arg_values.iter().any(|v| v.is_some()) {
                for v in &site.arg_values {
                    let mut vals = [0; WARP_SIZE];
                    if let Some(o) = v {
                        gather(k, m, w, &f, o, &mut vals);
                    }
                    args.push(vals);
                }
            }
            control::call(k, w, site, inst.target, &a, &args, exec, next)
                .map_err(|(l, e)| fault(l, e))?;
            return Ok(done_or_continue(w));
        }
        Op::Trap if exec != 0 => {
            return Err(fault(exec.trailing_zeros() as usize, FaultKind::Trap))
        }
        Op::AssertFail if exec != 0 => {
            let lane = exec.trailing_zeros() as usize;
            let mut vals = [0u64; 4];
            for (i, v) in vals.iter_mut().enumerate() {
                *v = read_arg(k, m, w, lane, &inst.src[i], if i == 2 { 4 } else { 8 });
            }
            let kind = FaultKind::Assert {
                message: mem_ops::read_cstr(k, m, w, lane, vals[0]),
                file: mem_ops::read_cstr(k, m, w, lane, vals[1]),
                line: vals[2] as u32,
                function: mem_ops::read_cstr(k, m, w, lane, vals[3]),
            };
            return Err(fault(lane, kind));
        }
        Op::Bar if exec != 0 => {
            let (mut a, mut b): (Lanes, Lanes) = ([0; WARP_SIZE], [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], &mut a);
            let first = exec.trailing_zeros() as usize;
            let count = match inst.src[1] {
                Opnd::None => None,
                ref o => {
                    gather(k, m, w, &f, o, &mut b);
                    Some(b[first] as u32)
                }
            };
            let pred_true = match inst.mods.bar {
                BarKind::RedPopc | BarKind::RedAnd | BarKind::RedOr => {
                    (pred_mask(w, &f, &inst.src[2]) & exec).count_ones()
                }
                _ => 0,
            };
            w.pending_bar_dst = match inst.mods.bar {
                BarKind::RedPopc | BarKind::RedAnd | BarKind::RedOr => Some(inst.dst[0]),
                _ => None,
            };
            w.barrier_pc = pc;
            w.barrier_lanes = exec;
            control::goto(module, w, next);
            return Ok(StepEvent::Barrier {
                id: a[first] as u8,
                count,
                kind: inst.mods.bar,
                arrived: exec.count_ones(),
                pred_true,
            });
        }
        _ if exec == 0 => {}
        Op::Ld => mem_ops::ld(k, m, w, &f, func, inst, exec).map_err(|(l, e)| fault(l, e))?,
        Op::St => mem_ops::st(k, m, w, inst, exec).map_err(|(l, e)| fault(l, e))?,
        Op::Atom | Op::Red => mem_ops::atom(k, m, w, inst, exec).map_err(|(l, e)| fault(l, e))?,
        Op::CpAsync => {
            super::cp_async::cp_async(k, m, w, inst, exec).map_err(|(l, e)| fault(l, e))?
        }
        Op::Tex | Op::Tld4 => {
            super::texture::fetch::tex(k, m, w, inst, exec).map_err(|(l, e)| fault(l, e))?
        }
        Op::Suld | Op::Sust => {
            super::texture::fetch::surface(k, m, w, inst, exec).map_err(|(l, e)| fault(l, e))?
        }
        Op::Tensor => {
            super::tensor::execute(k, m, w, func, inst, exec).map_err(|(l, e)| fault(l, e))?
        }
        Op::Vprintf => vprintf(k, m, w, inst, exec),
        Op::Malloc | Op::Free => {
            let mut arg = [0u64; WARP_SIZE];
            for lane in lanes(exec) {
                arg[lane] = read_arg(k, m, w, lane, &inst.src[0], 8);
            }
            let op = match inst.op {
                Op::Malloc => DeferredOp::Malloc {
                    size: arg,
                    dst: inst.dst[0],
                },
                _ => DeferredOp::Free { ptr: arg },
            };
            let d = Deferred::new(w.frame(), exec, op);
            match m.global.journal() {
                // Staged (timing model): the heap changes at the cycle's commit.
                Some(journal) => journal.defer(d.frame, d.mask, d.op),
                None => apply_deferred(k, m, w, &d).map_err(|(l, e)| fault(l, e))?,
            }
        }
        Op::Nop
        | Op::MemHint
        | Op::CpAsyncCommit
        | Op::CpAsyncWait
        | Op::CpAsyncWaitAll
        | Op::Membar
        | Op::Nanosleep
        | Op::BarWarpSync
        | Op::Call
        | Op::Trap
        | Op::AssertFail
        | Op::Bar => {}
        Op::Shfl => {
            let [mut a, mut b, mut c, mut d]: [Lanes; 4] = [[0; WARP_SIZE]; 4];
            gather(k, m, w, &f, &inst.src[0], &mut a);
            gather(k, m, w, &f, &inst.src[1], &mut b);
            gather(k, m, w, &f, &inst.src[2], &mut c);
            let valid = warp_ops::shfl(inst.mods.shfl, &a, &b, &c, exec, &mut d);
            write_dst_pair(w, inst, exec, &d, valid);
        }
        Op::Vote => {
            let p = pred_mask(w, &f, &inst.src[0]);
            let r = warp_ops::vote(inst.mods.vote, p, exec);
            match inst.dst[0] {
                Opnd::Pred { id, .. } => write_pred(w, &f, id, exec, r),
                ref o => scatter(w, &f, o, exec, &[r as u64; WARP_SIZE]),
            }
        }
        Op::Activemask => scatter(w, &f, &inst.dst[0], exec, &[exec as u64; WARP_SIZE]),
        Op::Match => {
            let (mut a, mut d): (Lanes, Lanes) = ([0; WARP_SIZE], [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], &mut a);
            let uniform = warp_ops::match_sync(inst.mods.match_all, inst.ty, &a, exec, &mut d);
            write_dst_pair(w, inst, exec, &d, if uniform { u32::MAX } else { 0 });
        }
        Op::Redux => {
            let (mut a, mut members): (Lanes, Lanes) = ([0; WARP_SIZE], [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], &mut a);
            gather(k, m, w, &f, &inst.src[1], &mut members);
            // Each lane reduces over the active lanes of its own membermask: the two 16-lane
            // tiles of `cg::reduce` on a `tiled_partition<16>` run one `redux` with two masks.
            let mut d: Lanes = [0; WARP_SIZE];
            let mut done = 0u32;
            for l in lanes(exec) {
                if done & (1 << l) != 0 {
                    continue;
                }
                let mask = members[l] as u32;
                let r = warp_ops::redux(inst.mods.redux, inst.ty, &a, exec & mask);
                for j in lanes(exec & !done) {
                    if members[j] as u32 == mask {
                        d[j] = r;
                        done |= 1 << j;
                    }
                }
            }
            scatter(w, &f, &inst.dst[0], exec, &d);
        }
        _ => super::arith::execute(k, m, w, &f, inst, exec),
    }
    Ok(advance(module, w, next))
}

/// Moves the warp past an instruction that left its SIMT stack as it was: `control::goto`
/// to `next`, with the common case (not yet at the entry's reconvergence point) answered
/// without the reconvergence loop.
#[inline]
fn advance(module: &crate::ir::Module, w: &mut Warp, next: Pc) -> StepEvent {
    if let Some(t) = w.simt.last_mut() {
        t.pc = next;
        if next != t.rpc && t.mask != 0 {
            return StepEvent::Continue;
        }
    }
    control::reconverge(module, w);
    done_or_continue(w)
}

fn done_or_continue(w: &Warp) -> StepEvent {
    if w.simt.is_empty() {
        StepEvent::Done
    } else {
        StepEvent::Continue
    }
}

/// Writes `d` to dst[0] and the per-lane predicate `p` to dst[1] (if any).
fn write_dst_pair(w: &mut Warp, inst: &Inst, exec: u32, d: &Lanes, p: u32) {
    let f = w.frame();
    scatter(w, &f, &inst.dst[0], exec, d);
    if let Opnd::Pred { id, .. } = inst.dst[1] {
        write_pred(w, &f, id, exec, p);
    }
}

/// Reads a built-in call argument: a frame `.param` slot (via its address) or a value.
fn read_arg(k: &LaunchCtx, m: &mut MemCtx, w: &mut Warp, lane: usize, o: &Opnd, size: u32) -> u64 {
    match *o {
        Opnd::Addr { .. } => {
            let f = w.frame();
            let mut addr = [0u64; WARP_SIZE];
            mem_ops::addresses(k, m, w, &f, o, Space::Local, &mut addr);
            mem_ops::access(k, m, w, lane, Space::Local, addr[lane], size, None).unwrap_or(0)
        }
        _ => {
            let f = w.frame();
            let mut v = [0u64; WARP_SIZE];
            gather(k, m, w, &f, o, &mut v);
            v[lane]
        }
    }
}

struct LaneMemory<'a, 'b, 'c> {
    k: &'a LaunchCtx<'a>,
    m: &'b mut MemCtx<'c>,
    w: &'b mut Warp,
    lane: usize,
}

impl ArgSource for LaneMemory<'_, '_, '_> {
    fn read(&mut self, addr: u64, size: u32) -> Option<u64> {
        mem_ops::access(
            self.k,
            self.m,
            self.w,
            self.lane,
            Space::Generic,
            addr,
            size,
            None,
        )
        .ok()
    }
    fn read_str(&mut self, addr: u64) -> String {
        mem_ops::read_cstr(self.k, self.m, self.w, self.lane, addr)
    }
}

/// Writes a call's return `value` for `lane` to `o` (a register, or a `.param` slot in local
/// memory) in frame `f` (a deferred `malloc` returns into the frame it was called in).
// The return slot, the frame and the value: one call per lane, no struct.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_ret_at(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    f: &Frame,
    lane: usize,
    o: &Opnd,
    size: u32,
    value: u64,
) {
    match *o {
        Opnd::Addr { .. } => {
            let mut addr = [0u64; WARP_SIZE];
            mem_ops::addresses(k, m, w, f, o, Space::Local, &mut addr);
            let _ = mem_ops::access(k, m, w, lane, Space::Local, addr[lane], size, Some(value));
        }
        Opnd::Reg(r) => w.regs[f.reg_base + r as usize * WARP_SIZE + lane] = value,
        _ => {}
    }
}

/// `vprintf(fmt, args)` for each executing lane in lane order.
fn vprintf(k: &LaunchCtx, m: &mut MemCtx, w: &mut Warp, inst: &Inst, exec: u32) {
    for lane in lanes(exec) {
        let fmt_ptr = read_arg(k, m, w, lane, &inst.src[0], 8);
        let args = read_arg(k, m, w, lane, &inst.src[1], 8);
        let fmt = mem_ops::read_cstr(k, m, w, lane, fmt_ptr);
        let text = printf::format(&fmt, args, &mut LaneMemory { k, m, w, lane });
        m.printf.push_str(&text);
        if let Opnd::Addr { .. } = inst.dst[0] {
            let f = w.frame();
            let mut addr = [0u64; WARP_SIZE];
            mem_ops::addresses(k, m, w, &f, &inst.dst[0], Space::Local, &mut addr);
            let _ = mem_ops::access(
                k,
                m,
                w,
                lane,
                Space::Local,
                addr[lane],
                4,
                Some(text.len() as u64),
            );
        }
    }
}

/// Combines a comparison result with `setp`'s optional boolean operand.
#[inline]
pub fn combine(op: Option<BoolOp>, p: bool, c: bool) -> bool {
    match op {
        None => p,
        Some(o) => alu::bool_combine(o, p, c),
    }
}
