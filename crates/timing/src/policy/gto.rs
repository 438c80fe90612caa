//! `gto`: greedy then oldest. The warp that issued last from this scheduler first (while it
//! is not waiting); then the other non-waiting warps oldest first; waiting/finished warps last
//! (oldest first).

use super::{IssuePolicy, PolicyView};

#[derive(Default)]
pub struct Gto {
    last: Option<u16>,
}

impl IssuePolicy for Gto {
    fn order(&mut self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        let greedy = self
            .last
            .filter(|&g| v.occupied[g as usize] && !v.waiting[g as usize]);
        if let Some(g) = greedy {
            out.push(g);
        }
        let start = out.len();
        out.extend(
            slots
                .iter()
                .copied()
                .filter(|&s| v.occupied[s as usize] && !v.waiting[s as usize] && Some(s) != greedy),
        );
        out[start..].sort_unstable_by_key(|&s| v.age[s as usize]);
        let start = out.len();
        out.extend(
            slots
                .iter()
                .copied()
                .filter(|&s| v.occupied[s as usize] && v.waiting[s as usize]),
        );
        out[start..].sort_unstable_by_key(|&s| v.age[s as usize]);
    }

    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
    }
}
