//! `gto`: greedy then oldest. The warp that issued last from this scheduler first (while it
//! is not waiting); then the other non-waiting warps oldest first; waiting/finished warps last
//! (oldest first).

use super::{Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

pub struct Gto {
    me: u16,
    last: Option<u16>,
    /// The last order the issue stage got, and what it was computed from: the scheduler's
    /// age order, which of those warps were waiting, and the greedy warp. Most cycles change
    /// none of them, and comparing them costs a third of rebuilding the order. (The empty memo
    /// is a true one: no warps, so no greedy warp and an empty order.)
    cache: OrderMemo,
}

#[derive(Default)]
struct OrderMemo {
    by_age: Vec<u16>,
    waiting: u64,
    greedy: Option<u16>,
    order: Vec<u16>,
}

impl Gto {
    /// The policy of scheduler `me`.
    pub fn new(me: usize) -> Gto {
        Gto {
            me: me as u16,
            last: None,
            cache: OrderMemo::default(),
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

    fn order(&mut self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let by_age = &v.age_order[self.me as usize];
        if by_age.len() > 64 {
            return self.current_order(sh, slots, v, out);
        }
        let waiting = by_age.iter().enumerate().fold(0u64, |m, (i, &s)| m | (v.waiting(s) as u64) << i);
        let greedy = self.greedy(v);
        let c = &self.cache;
        if !(c.waiting == waiting && c.greedy == greedy && c.by_age == *by_age) {
            // `current_order` from the waiting mask just computed: the same two passes, by
            // position bits instead of a second and third look at every slot's flag.
            out.clear();
            out.extend(greedy);
            let all = if by_age.len() == 64 { u64::MAX } else { (1u64 << by_age.len()) - 1 };
            for mask in [all & !waiting, waiting] {
                let mut bits = mask;
                while bits != 0 {
                    let s = by_age[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    if Some(s) != greedy {
                        out.push(s);
                    }
                }
            }
            let c = &mut self.cache;
            c.by_age.clear();
            c.by_age.extend_from_slice(by_age);
            c.order.clear();
            c.order.extend_from_slice(out);
            (c.waiting, c.greedy) = (waiting, greedy);
            return;
        }
        out.clear();
        out.extend_from_slice(&self.cache.order);
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
