//! A CTA's shared state: its warps, shared memory and the 16 named barriers.

use super::operands::write_pred;
use super::step::StepEvent;
use super::warp::{Warp, WarpState, WARP_SIZE};
use crate::ir::{BarKind, FuncId, Opnd, Pc};

/// One named barrier (`bar.sync id`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Barrier {
    /// Threads arrived so far in this phase.
    pub arrived: u32,
    /// Warps waiting (bit per warp index; CTAs have at most 32 warps).
    pub waiting: u32,
    /// The thread count named by the first arrival (`bar.sync id, count`), if any.
    pub count: Option<u32>,
    /// `bar.red`: arrived threads whose predicate was true.
    pub pred_true: u32,
    pub kind: BarKind,
    /// Where the first warp of this phase arrived (function and PC), for `--synccheck`.
    pub func: FuncId,
    pub pc: Pc,
}

/// `--synccheck`: a barrier completed although threads it should have waited for had exited
/// (undefined behaviour that hardware, and warpsim without the check, let pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierAfterExit {
    pub barrier: u8,
    /// The thread count of `bar.sync id, count`; `None`: every thread of the CTA.
    pub count: Option<u32>,
    /// Function and PC of the barrier instruction (its first arrival).
    pub func: FuncId,
    pub pc: Pc,
    /// Warps (index in the CTA) and their lanes that had exited.
    pub exited: Vec<(u32, u32)>,
}

#[derive(Clone, Debug)]
pub struct Cta {
    pub id: [u32; 3],
    pub warps: Vec<Warp>,
    pub shared: Vec<u8>,
    pub barriers: [Barrier; 16],
    /// Barriers that may have arrivals (a bit per id; a superset of those with any):
    /// [`Cta::release_ready`] looks at these only.
    pub busy: u16,
    /// Warp instructions executed by the CTA (the functional `%clock`).
    pub clock: u64,
    /// Report barriers that complete without exited threads ([`BarrierAfterExit`]).
    pub synccheck: bool,
}

impl Cta {
    /// Threads that have not exited.
    pub fn live_threads(&self) -> u32 {
        // A full warp without the population count (a dozen instructions on CPUs built for
        // without the POPCNT feature): every barrier arrival asks.
        self.warps
            .iter()
            .map(|w| match w.valid & !w.exited {
                u32::MAX => WARP_SIZE as u32,
                m => m.count_ones(),
            })
            .sum()
    }

    pub fn finished(&self) -> bool {
        self.warps.iter().all(|w| w.state == WarpState::Done)
    }

    /// Records warp `wi` arriving at a barrier, then releases any barrier now complete.
    pub fn arrive(&mut self, wi: usize, ev: StepEvent) -> Result<(), BarrierAfterExit> {
        if let StepEvent::Barrier {
            id,
            count,
            kind,
            arrived,
            pred_true,
        } = ev
        {
            let w = &self.warps[wi];
            let (func, pc) = (w.frame().func, w.barrier_pc);
            let b = &mut self.barriers[(id & 15) as usize];
            self.busy |= 1 << (id & 15);
            if b.arrived == 0 && b.waiting == 0 {
                (b.func, b.pc) = (func, pc);
            }
            b.arrived += arrived;
            b.pred_true += pred_true;
            b.kind = kind;
            if b.count.is_none() {
                b.count = count;
            }
            if kind != BarKind::Arrive {
                b.waiting |= 1 << wi;
                self.warps[wi].state = WarpState::AtBarrier { id };
            }
        }
        self.release_ready()
    }

    /// Releases every barrier whose expected thread count has arrived. Exited threads are not
    /// expected (hardware behaviour that `if (t >= n) return; __syncthreads();` relies on);
    /// with `synccheck` such a release is the error instead.
    pub fn release_ready(&mut self) -> Result<(), BarrierAfterExit> {
        // Called on every arrival: only the busy barriers are looked at, and the live
        // count is taken only when a barrier waits for every thread.
        let mut live = None;
        let mut busy = self.busy;
        while busy != 0 {
            let id = busy.trailing_zeros() as usize;
            busy &= busy - 1;
            let b = &self.barriers[id];
            if b.waiting == 0 && b.arrived == 0 {
                self.busy &= !(1 << id);
                continue;
            }
            let expected = match b.count {
                Some(n) => n,
                None => *live.get_or_insert_with(|| self.live_threads()),
            };
            if b.arrived < expected {
                continue;
            }
            let b = *b;
            if self.synccheck {
                self.check_exited(id as u8, &b)?;
            }
            let result = match b.kind {
                BarKind::RedPopc => b.pred_true as u64,
                BarKind::RedAnd => (b.pred_true == b.arrived) as u64,
                BarKind::RedOr => (b.pred_true > 0) as u64,
                _ => 0,
            };
            for wi in 0..self.warps.len() {
                if b.waiting & (1 << wi) == 0 {
                    continue;
                }
                let w = &mut self.warps[wi];
                if let Some(dst) = w.pending_bar_dst.take() {
                    let f = w.frame();
                    let mask = w.active_mask();
                    match dst {
                        Opnd::Reg(r) => {
                            let base = f.reg_base + r as usize * WARP_SIZE;
                            for l in super::warp::lanes(mask) {
                                w.regs[base + l] = result;
                            }
                        }
                        Opnd::Pred { id, .. } => {
                            write_pred(w, &f, id, mask, if result != 0 { u32::MAX } else { 0 })
                        }
                        _ => {}
                    }
                }
                if w.state != WarpState::Done {
                    w.state = WarpState::Ready;
                }
            }
            self.barriers[id] = Barrier::default();
            self.busy &= !(1 << id);
        }
        Ok(())
    }

    /// The synccheck rule for barrier `id` about to complete: without a thread count every
    /// thread of the CTA should have arrived, so any exited thread is an error; with a count
    /// (the threads taking part are any `count`), the exited lanes of the warps that arrived
    /// are — their warp synchronises there, they cannot.
    fn check_exited(&self, id: u8, b: &Barrier) -> Result<(), BarrierAfterExit> {
        let exited: Vec<(u32, u32)> = self
            .warps
            .iter()
            .enumerate()
            .filter(|&(wi, _)| b.count.is_none() || b.waiting & (1 << wi) != 0)
            .map(|(_, w)| (w.index, w.valid & w.exited))
            .filter(|&(_, lanes)| lanes != 0)
            .collect();
        if exited.is_empty() {
            return Ok(());
        }
        Err(BarrierAfterExit {
            barrier: id,
            count: b.count,
            func: b.func,
            pc: b.pc,
            exited,
        })
    }
}
