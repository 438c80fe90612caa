//! `gto`: greedy then oldest. The warp that issued last from this scheduler first (while it
//! is not waiting); then the other non-waiting warps oldest first; waiting/finished warps last
//! (oldest first).

use super::{Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

pub struct Gto {
    me: u16,
    last: Option<u16>,
}

impl Gto {
    /// The policy of scheduler `me`.
    pub fn new(me: usize) -> Gto {
        Gto {
            me: me as u16,
            last: None,
        }
    }
}

impl Build for Gto {
    fn build(b: &BuildCtx) -> Gto {
        Gto::new(b.scheduler)
    }
}

impl IssuePolicy for Gto {
    type Shared = ();

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        let greedy = self.last.filter(|&g| v.occupied(g) && !v.waiting(g));
        if let Some(g) = greedy {
            out.push(g);
        }
        // `age_order` is already oldest first: two stable passes, no sort.
        let by_age = &v.age_order[self.me as usize];
        out.extend(
            by_age
                .iter()
                .copied()
                .filter(|&s| !v.waiting(s) && Some(s) != greedy),
        );
        out.extend(by_age.iter().copied().filter(|&s| v.waiting(s)));
    }
}

impl Events for Gto {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        // A warp this scheduler issued for another one (warp sharing) is not its own: the
        // greedy warp must come from its own slots.
        if e.scheduler == self.me && !e.shared {
            self.last = Some(e.slot);
        }
    }
}
