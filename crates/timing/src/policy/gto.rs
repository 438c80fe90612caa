//! `gto`: greedy then oldest. The warp that issued last from this scheduler first (while it
//! is not waiting); then the other non-waiting warps oldest first; waiting/finished warps last
//! (oldest first).

use super::{Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

pub struct Gto {
    me: u16,
    last: Option<u16>,
    memo: Memo,
}

/// GTO's order, kept between cycles: the SM's occupancy, waiting flags and age orders (one
/// version number covers them) change rarely, the greedy warp with many issues, and most
/// cycles change neither — then the order is a copy.
struct Memo {
    /// Non-waiting warps oldest first, then waiting ones, at `version`.
    by_age: Vec<u16>,
    version: u64,
    /// `by_age` with the greedy warp `greedy` moved to the front.
    order: Vec<u16>,
    greedy: Option<u16>,
    /// `order` is derived from the current `by_age`.
    order_valid: bool,
}

impl Gto {
    /// The policy of scheduler `me`.
    pub fn new(me: usize) -> Gto {
        Gto {
            me: me as u16,
            last: None,
            memo: Memo {
                by_age: Vec::new(),
                version: u64::MAX,
                order: Vec::new(),
                greedy: None,
                order_valid: false,
            },
        }
    }
}

impl Gto {
    /// The warp that issued last from this scheduler, while it can still issue.
    fn greedy(&self, v: &PolicyView) -> Option<u16> {
        self.last.filter(|&g| v.occupied(g) && !v.waiting(g))
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
        let greedy = self.greedy(v);
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

    fn order(&mut self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let greedy = self.greedy(v);
        let m = &mut self.memo;
        if m.version != v.warps.version {
            let by_age = &v.age_order[self.me as usize];
            m.by_age.clear();
            m.by_age.extend(by_age.iter().copied().filter(|&s| !v.waiting(s)));
            m.by_age.extend(by_age.iter().copied().filter(|&s| v.waiting(s)));
            m.version = v.warps.version;
            m.order_valid = false;
        }
        if !m.order_valid || m.greedy != greedy {
            m.order.clear();
            // The greedy warp is not waiting: it moves to the front of the non-waiting ones.
            m.order.extend(greedy);
            m.order.extend(m.by_age.iter().copied().filter(|&s| Some(s) != greedy));
            (m.greedy, m.order_valid) = (greedy, true);
        }
        out.clear();
        out.extend_from_slice(&m.order);
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
