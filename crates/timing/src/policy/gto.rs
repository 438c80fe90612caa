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
        by_age(self.me, v, out);
        greedy_first(out, self.greedy(v));
    }

    // CFF reads the order every fetch cycle: through the memo too.
    fn fetch_order(&mut self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.order(sh, slots, v, out);
    }

    fn order(&mut self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let greedy = self.greedy(v);
        let m = &mut self.memo;
        if m.version != v.warps.version() {
            m.by_age.clear();
            by_age(self.me, v, &mut m.by_age);
            m.version = v.warps.version();
            m.order_valid = false;
        }
        if !m.order_valid || m.greedy != greedy {
            m.order.clear();
            m.order.extend_from_slice(&m.by_age);
            greedy_first(&mut m.order, greedy);
            (m.greedy, m.order_valid) = (greedy, true);
        }
        out.clear();
        out.extend_from_slice(&m.order);
    }
}

/// Appends scheduler `me`'s warps: non-waiting ones oldest first, then waiting ones oldest
/// first (`age_order` is already oldest first: two stable passes, no sort).
fn by_age(me: u16, v: &PolicyView, out: &mut Vec<u16>) {
    let slots = &v.age_order[me as usize];
    out.extend(slots.iter().copied().filter(|&s| !v.waiting(s)));
    out.extend(slots.iter().copied().filter(|&s| v.waiting(s)));
}

/// Moves the greedy warp to the front, the others keeping their order.
fn greedy_first(order: &mut [u16], greedy: Option<u16>) {
    if let Some(i) = greedy.and_then(|g| order.iter().position(|&s| s == g)) {
        order[..=i].rotate_right(1);
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
