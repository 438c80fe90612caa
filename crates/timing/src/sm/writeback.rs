//! Writeback and CTA retirement. Results are released from the scoreboard by time (an entry's
//! ready cycle); this stage retires a CTA once every warp has finished and every in-flight
//! result of its warps has been written back, recording per-CTA and per-warp statistics and
//! freeing the CTA's warp slots (the implicit exit barrier).

use super::{Env, Sm};
use crate::stats::{CtaRecord, WarpRecord};

impl Sm {
    pub(crate) fn retire(&mut self, env: &mut Env, now: u64) {
        if !self.pending_exit {
            return;
        }
        self.pending_exit = false;
        for c in 0..self.ctas.len() {
            let Some(rc) = &self.ctas[c] else { continue };
            if !rc.cta.finished() {
                continue;
            }
            let slots = c * self.wpc..c * self.wpc + rc.cta.warps.len();
            let drain = slots
                .clone()
                .map(|s| self.last_complete[s])
                .max()
                .unwrap_or(now);
            if drain > now {
                self.pending_exit = true;
                continue;
            }
            let rc = self.ctas[c].take().expect("checked");
            for s in slots {
                let w = &rc.cta.warps[s - c * self.wpc];
                let resident = (now - rc.start).max(1);
                env.warps.push(WarpRecord {
                    cta: rc.linear,
                    warp: w.index,
                    sm: self.id,
                    slot: s as u32,
                    age: self.age[s],
                    instructions: w.instructions,
                    thread_instructions: w.thread_instructions,
                    start: self.start[s],
                    done: self.done_at[s],
                    stalls: self.stalls[s],
                    barrier_fraction: self.stalls[s].barrier as f64 / resident as f64,
                });
                self.occupied[s] = false;
                self.ib_n[s] = 0;
            }
            env.ctas.push(CtaRecord {
                linear: rc.linear,
                id: rc.cta.id,
                sm: self.id,
                start: rc.start,
                end: now,
            });
            self.resident -= 1;
        }
    }
}
