//! Fetch + decode: each cycle the fetch policy picks up to `sm.fetch_warps_per_cycle` eligible
//! warps (baseline `rr`: round robin over warps whose I-buffer is empty). Each looks the L1
//! I-cache up (`sm/icache.rs`): on a hit, decode appends `min(sm.ibuffer_entries,
//! sm.fetch_bytes / 8)` sequential instructions (at most the free entries, not past the
//! line) from the warp's current PC, usable by issue from the next cycle; on a miss the warp
//! waits for the line (`fetch_wait`).

use super::{Env, Sm};
use crate::classify::INST_BYTES;
use crate::fetch_policy::FetchPolicy;
use crate::policy::{IssueOrders, IssuePolicy};
use warpsim_core::exec::warp::WarpState;

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn fetch_stage(&mut self, env: &Env, now: u64) {
        if self.fetch_idle && now < self.fetch_wake {
            return; // nothing became eligible since the last fetch found nothing
        }
        let per_fetch = (env.cfg.sm.fetch_bytes / 8)
            .max(1)
            .min(self.ib_depth as u32) as u8;
        let budget = env.cfg.sm.fetch_warps_per_cycle.max(1) as usize;
        let mut pick = std::mem::take(&mut self.fetch_pick);
        pick.clear();
        {
            let v = view!(self, now, env.all_dispatched);
            let mut orders = IssueOrders::new(&mut self.policies, &self.shared, &self.sched_slots);
            self.fetch.pick(&v, &mut orders, budget, &mut pick);
        }
        self.fetch_idle = pick.is_empty();
        if self.fetch_idle {
            // Sleep until the earliest outstanding I-cache miss returns (or an event).
            self.fetch_wake = self
                .w
                .fetch_wait
                .iter()
                .copied()
                .filter(|&t| t > now)
                .min()
                .unwrap_or(u64::MAX);
        }
        for &s in &pick {
            self.fill(env, s as usize, per_fetch, now);
        }
        self.fetch_pick = pick;
    }

    /// Decodes up to `n` instructions (not past the end of their I-cache line) into warp `s`'s
    /// I-buffer in cycle `now`; on an I-cache miss the warp waits for the line instead.
    fn fill(&mut self, env: &Env, s: usize, n: u8, now: u64) {
        let was_empty = self.w.ib_n[s] == 0;
        let (func, pc) = if was_empty {
            (self.cur_func[s], self.cur_pc[s])
        } else {
            (self.ib_func[s], self.ib_pc[s] + self.w.ib_n[s] as u32)
        };
        let addr = env.table.inst_addr(func, pc);
        if let Err(ready) = self.icache.access(addr, now, s) {
            self.w.fetch_wait[s] = ready;
            return;
        }
        if was_empty {
            self.ib_func[s] = func;
            self.ib_pc[s] = pc;
            self.flushed[s] = false;
        }
        let line = self.icache.line();
        let in_line = ((line - addr % line) / INST_BYTES).clamp(1, 255) as u8;
        let room = self.ib_depth.saturating_sub(self.w.ib_n[s]);
        self.w
            .set_ib_n(s, self.w.ib_n[s] + n.min(room).min(in_line));
        if was_empty && self.w.state[s] == WarpState::Ready {
            self.set_head(env, s, now + 1);
        }
    }
}
