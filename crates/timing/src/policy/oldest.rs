//! `oldest`: by age (dynamic id) only, oldest first.

use super::{IssuePolicy, PolicyView};

pub struct Oldest;

impl IssuePolicy for Oldest {
    fn order(&mut self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        out.extend(slots.iter().copied().filter(|&s| v.occupied[s as usize]));
        out.sort_unstable_by_key(|&s| v.age[s as usize]);
    }

    fn issued(&mut self, _slot: u16) {}
}
