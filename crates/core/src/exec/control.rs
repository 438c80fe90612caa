//! Control flow on the SIMT stack: branches with divergence and reconvergence, calls and
//! returns with frames, thread exit.
//!
//! Invariant: after every instruction the top entry's `pc` differs from its `rpc` (entries
//! that reached their reconvergence point are popped at once), and every entry marked
//! `call_base` corresponds to exactly one frame above the kernel frame.

use super::context::LaunchCtx;
use super::fault::FaultKind;
use super::operands::Lanes;
use super::warp::{lanes, Frame, SimtEntry, Warp, WarpState, WARP_SIZE};
use crate::ir::{layout, CallSite, Callee, Function, Module, Opnd, Pc};

/// Pops entries that reached their reconvergence point, returning from calls as their base
/// entries pop.
pub fn reconverge(module: &Module, w: &mut Warp) {
    while let Some(top) = w.simt.last().copied() {
        if top.pc != top.rpc && top.mask != 0 {
            break;
        }
        w.simt.pop();
        if top.call_base {
            return_from_call(module, w, top.mask);
        }
    }
    if w.simt.is_empty() {
        w.state = WarpState::Done;
    }
}

/// Advances the top entry to `pc` (and reconverges).
#[inline]
pub fn goto(module: &Module, w: &mut Warp, pc: Pc) {
    if let Some(t) = w.simt.last_mut() {
        t.pc = pc;
    }
    reconverge(module, w);
}

/// A branch: `taken` lanes go to `target`, the other active lanes fall through to `next`;
/// diverged paths meet again at `reconv`.
pub fn branch(module: &Module, w: &mut Warp, taken: u32, target: Pc, next: Pc, reconv: Pc) {
    let active = w.active_mask();
    let taken = taken & active;
    if taken != active && taken != 0 && w.frames.len() == 1 {
        // Lanes branching straight to the kernel's exit (`if (i >= n) return;`) leave now
        // rather than wait at the reconvergence point, so they cannot hold up a barrier that
        // the remaining lanes go on to (hardware exits them the same way).
        let insts = &module.functions[w.frame().func as usize].insts;
        let exits_at = |pc: Pc| {
            insts.get(pc as usize).is_none_or(|i| {
                matches!(i.op, crate::ir::Op::Ret | crate::ir::Op::Exit) && i.guard.pred.is_none()
            })
        };
        if exits_at(target) {
            exit_lanes(module, w, taken);
            return goto(module, w, next);
        }
        if exits_at(next) {
            exit_lanes(module, w, active & !taken);
            return goto(module, w, target);
        }
    }
    if taken == active {
        return goto(module, w, target);
    }
    if taken == 0 {
        return goto(module, w, next);
    }
    let top = w.simt.last_mut().expect("branching warp has an entry");
    top.pc = reconv;
    let rpc = reconv;
    // Fall-through path runs after the taken path (the taken entry is on top).
    for (pc, mask) in [(next, active & !taken), (target, taken)] {
        if pc != rpc {
            w.simt.push(SimtEntry {
                pc,
                rpc,
                mask,
                call_base: false,
            });
        }
    }
    reconverge(module, w);
}

/// `brx.idx`: every distinct per-lane target gets its own entry, lowest target on top.
pub fn branch_indexed(module: &Module, w: &mut Warp, targets: &Lanes, mask: u32, reconv: Pc) {
    let active = w.active_mask();
    let first = lanes(mask).next().map(|l| targets[l] as Pc);
    if let Some(t0) = first {
        if lanes(mask).all(|l| targets[l] as Pc == t0) && mask == active {
            return goto(module, w, t0);
        }
    }
    let top = w.simt.last_mut().expect("branching warp has an entry");
    top.pc = reconv;
    let mut remaining = mask;
    let mut groups: Vec<(Pc, u32)> = Vec::new();
    while remaining != 0 {
        let l = remaining.trailing_zeros() as usize;
        let t = targets[l] as Pc;
        let m = lanes(remaining)
            .filter(|&x| targets[x] as Pc == t)
            .fold(0u32, |a, x| a | 1 << x);
        groups.push((t, m));
        remaining &= !m;
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.0));
    for (pc, m) in groups {
        if pc != reconv {
            w.simt.push(SimtEntry {
                pc,
                rpc: reconv,
                mask: m,
                call_base: false,
            });
        }
    }
    reconverge(module, w);
}

/// Lanes `exiting` leave the kernel: removed from every entry; emptied entries are popped
/// (returning from calls whose lanes all left).
pub fn exit_lanes(module: &Module, w: &mut Warp, exiting: u32) {
    w.exited |= exiting;
    for e in &mut w.simt {
        e.mask &= !exiting;
    }
    reconverge(module, w);
}

/// A `ret` in a device function: the lanes wait at the function's exit sentinel. When the
/// returning entry's own reconvergence point lies elsewhere (which well-structured code never
/// produces), its lanes are parked in the call's base entry instead.
pub fn ret(module: &Module, w: &mut Warp, returning: u32) {
    let f = w.frame();
    if w.frames.len() == 1 {
        return exit_lanes(module, w, returning);
    }
    let end = module.functions[f.func as usize].insts.len() as Pc;
    let active = w.active_mask();
    if returning == active {
        let top = w.simt.last().copied().unwrap();
        if top.rpc == end || top.call_base {
            return goto(module, w, end);
        }
    }
    // Partial return (guarded `ret`) or an unstructured one: park the lanes.
    let base = w.simt.iter().rposition(|e| e.call_base).unwrap_or(0);
    let n = w.simt.len();
    for e in &mut w.simt[base + 1..n] {
        e.mask &= !returning;
    }
    let top = w.simt.last_mut().unwrap();
    if top.mask != 0 && !top.call_base {
        top.pc += 1;
    } else if top.call_base && returning == top.mask {
        top.pc = end;
    } else if top.call_base {
        // Some lanes of the base entry returned; they keep their bit in the base mask and are
        // simply not scheduled again: move them out by splitting the base entry.
        let keep = top.mask & !returning;
        let pc = top.pc + 1;
        top.pc = end;
        w.simt.push(SimtEntry {
            pc,
            rpc: end,
            mask: keep,
            call_base: false,
        });
    }
    reconverge(module, w);
}

/// Enters `site`'s callee for the lanes in `mask` (the caller continues at `next`).
// The call instruction's operands as `general` holds them; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn call(
    k: &LaunchCtx,
    w: &mut Warp,
    site: &CallSite,
    site_index: u32,
    target_values: &Lanes,
    arg_values: &[Lanes],
    mask: u32,
    next: Pc,
) -> Result<(), (usize, FaultKind)> {
    let module = k.module;
    let first = lanes(mask).next().unwrap_or(0);
    let callee_id = match site.callee {
        Callee::Direct(id) => id,
        Callee::Indirect(_) => {
            let v = target_values[first];
            let id = v.wrapping_sub(layout::FUNC_HANDLE_BASE);
            if v < layout::FUNC_HANDLE_BASE
                || id >= module.functions.len() as u64
                || !module.functions[id as usize].has_body
                || lanes(mask).any(|l| target_values[l] != v)
            {
                return Err((first, FaultKind::BadCallTarget { value: v }));
            }
            id as u32
        }
    };
    let callee: &Function = &module.functions[callee_id as usize];
    let caller = w.frame();
    let align = callee.frame_align.max(8);
    let base = w.local_top.div_ceil(align) * align;
    let top = base as u64 + callee.frame_bytes as u64;
    if top > k.local_limit as u64 {
        return Err((
            first,
            FaultKind::StackOverflow {
                needed: top,
                limit: k.local_limit as u64,
            },
        ));
    }
    w.ensure_local(top as u32);
    w.local_top = top as u32;
    let frame = Frame {
        func: callee_id,
        reg_base: w.regs.len(),
        pred_base: w.preds.len(),
        local_base: base,
        call_site: site_index,
    };
    w.regs
        .resize(w.regs.len() + callee.num_regs as usize * WARP_SIZE, 0);
    w.preds.resize(w.preds.len() + callee.num_preds as usize, 0);
    // Arguments: from the caller's `.param` variables, or from register/immediate values.
    for (i, p) in callee.params.iter().enumerate() {
        let Some(&(off, size)) = site.args.get(i) else {
            break;
        };
        for lane in lanes(mask) {
            let dst = (base + p.offset) as usize;
            let n = p.size as usize;
            match site.arg_values.get(i).copied().flatten() {
                Some(_) => {
                    let bytes = arg_values[i][lane].to_le_bytes();
                    let n = n.min(8);
                    w.lane_local_mut(lane)[dst..dst + n].copy_from_slice(&bytes[..n]);
                }
                None => {
                    let src = (caller.local_base + off) as usize;
                    let n = n.min(size as usize);
                    w.lane_local_mut(lane).copy_within(src..src + n, dst);
                }
            }
        }
    }
    w.frames.push(frame);
    if let Some(t) = w.simt.last_mut() {
        t.pc = next;
    }
    let end = callee.insts.len() as Pc;
    if end == 0 {
        return_from_call(module, w, mask);
        return Ok(());
    }
    w.simt.push(SimtEntry {
        pc: 0,
        rpc: end,
        mask,
        call_base: true,
    });
    Ok(())
}

/// Pops the innermost frame, copying its return values to the caller for the lanes in `mask`.
fn return_from_call(module: &Module, w: &mut Warp, mask: u32) {
    let Some(frame) = w.frames.pop() else { return };
    let callee = &module.functions[frame.func as usize];
    let caller = w.frame();
    let site = &module.functions[caller.func as usize].call_sites[frame.call_site as usize];
    for (i, r) in callee.returns.iter().enumerate() {
        let src = (frame.local_base + r.offset) as usize;
        match site.ret_values.get(i).copied().flatten() {
            Some(Opnd::Reg(reg)) => {
                for lane in lanes(mask) {
                    let n = (r.size as usize).min(8);
                    let mut b = [0u8; 8];
                    b[..n].copy_from_slice(&w.lane_local(lane)[src..src + n]);
                    w.regs[caller.reg_base + reg as usize * WARP_SIZE + lane] =
                        u64::from_le_bytes(b);
                }
            }
            _ => {
                if let Some(&(off, size)) = site.rets.get(i) {
                    let dst = (caller.local_base + off) as usize;
                    let n = (r.size.min(size)) as usize;
                    for lane in lanes(mask) {
                        w.lane_local_mut(lane).copy_within(src..src + n, dst);
                    }
                }
            }
        }
    }
    w.regs.truncate(frame.reg_base);
    w.preds.truncate(frame.pred_base);
    w.local_top = frame.local_base;
}
