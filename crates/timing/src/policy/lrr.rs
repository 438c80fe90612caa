//! `lrr`: loose round robin. Start from the warp after the one that issued last from this
//! scheduler, wrap around; the issue walk skips stalled warps.

use super::{rotate_after, IssuePolicy, PolicyView};

#[derive(Default)]
pub struct Lrr {
    last: Option<u16>,
}

impl IssuePolicy for Lrr {
    fn order(&mut self, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        rotate_after(slots, self.last, v, out);
    }

    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
    }
}
