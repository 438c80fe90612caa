//! `lrr`: loose round robin. Start from the warp after the one that issued last from this
//! scheduler, wrap around; the issue walk skips stalled warps.

use super::{Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

pub struct Lrr {
    me: u16,
    last: Option<u16>,
}

impl Lrr {
    /// The policy of scheduler `me`.
    pub fn new(me: usize) -> Lrr {
        Lrr {
            me: me as u16,
            last: None,
        }
    }
}

impl Build for Lrr {
    fn build(b: &BuildCtx) -> Lrr {
        Lrr::new(b.scheduler)
    }
}

impl IssuePolicy for Lrr {
    type Shared = ();

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        // The occupied slots in slot order, rotated to start after the last issuer.
        let o = &v.slot_order[self.me as usize];
        let start = self.last.map_or(0, |l| o.partition_point(|&s| s <= l));
        out.extend_from_slice(&o[start..]);
        out.extend_from_slice(&o[..start]);
    }
}

impl Events for Lrr {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        if e.scheduler == self.me {
            self.last = Some(e.slot);
        }
    }
}
