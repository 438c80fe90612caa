//! Fetch + decode, policy `rr` (GPGPU-Sim's baseline): each cycle up to
//! `sm.fetch_warps_per_cycle` warps, round robin over warp slots whose I-buffer is empty. The
//! I-cache always hits in v0; decode fills `min(sm.ibuffer_entries, sm.fetch_bytes / 8)`
//! sequential instructions from the warp's current PC, usable by issue from the next cycle.

use super::{Env, Sm};
use warpsim_core::exec::warp::WarpState;

impl Sm {
    pub(crate) fn fetch_stage(&mut self, env: &Env, _now: u64) {
        let n = self.occupied.len();
        let per_fetch = (env.cfg.sm.fetch_bytes / 8)
            .max(1)
            .min(env.cfg.sm.ibuffer_entries.max(1))
            .min(255) as u8;
        let mut budget = env.cfg.sm.fetch_warps_per_cycle.max(1);
        for i in 0..n {
            let s = (self.fetch_rr + i) % n;
            if !self.occupied[s] || self.ib_n[s] != 0 {
                continue;
            }
            if self.state[s] == WarpState::Done {
                continue;
            }
            self.ib_func[s] = self.cur_func[s];
            self.ib_pc[s] = self.cur_pc[s];
            self.ib_n[s] = per_fetch;
            self.flushed[s] = false;
            self.fetch_rr = (s + 1) % n;
            budget -= 1;
            if budget == 0 {
                break;
            }
        }
    }
}
