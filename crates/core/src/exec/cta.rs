//! A CTA's shared state: its warps, shared memory and the 16 named barriers.

use super::operands::write_pred;
use super::step::StepEvent;
use super::warp::{Warp, WarpState, WARP_SIZE};
use crate::ir::{BarKind, Opnd};

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
}

#[derive(Clone, Debug)]
pub struct Cta {
    pub id: [u32; 3],
    pub warps: Vec<Warp>,
    pub shared: Vec<u8>,
    pub barriers: [Barrier; 16],
    /// Warp instructions executed by the CTA (the functional `%clock`).
    pub clock: u64,
}

impl Cta {
    /// Threads that have not exited.
    pub fn live_threads(&self) -> u32 {
        self.warps.iter().map(|w| (w.valid & !w.exited).count_ones()).sum()
    }

    pub fn finished(&self) -> bool {
        self.warps.iter().all(|w| w.state == WarpState::Done)
    }

    /// Records warp `wi` arriving at a barrier, then releases any barrier now complete.
    pub fn arrive(&mut self, wi: usize, ev: StepEvent) {
        if let StepEvent::Barrier { id, count, kind, arrived, pred_true } = ev {
            let b = &mut self.barriers[(id & 15) as usize];
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
        self.release_ready();
    }

    /// Releases every barrier whose expected thread count has arrived. Exited threads are not
    /// expected (hardware behaviour that `if (t >= n) return; __syncthreads();` relies on).
    pub fn release_ready(&mut self) {
        let live = self.live_threads();
        for id in 0..16 {
            let b = self.barriers[id];
            if b.waiting == 0 && b.arrived == 0 {
                continue;
            }
            let expected = b.count.unwrap_or(live);
            if b.arrived < expected {
                continue;
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
                        Opnd::Pred { id, .. } => write_pred(w, &f, id, mask, if result != 0 { u32::MAX } else { 0 }),
                        _ => {}
                    }
                }
                if w.state != WarpState::Done {
                    w.state = WarpState::Ready;
                }
            }
            self.barriers[id] = Barrier::default();
        }
    }
}
