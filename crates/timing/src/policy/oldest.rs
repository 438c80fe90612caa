//! `oldest`: by age (dynamic id) only, oldest first.

use super::{Build, BuildCtx, Events, IssuePolicy, PolicyView};

pub struct Oldest {
    me: u16,
}

impl Oldest {
    /// The policy of scheduler `me`.
    pub fn new(me: usize) -> Oldest {
        Oldest { me: me as u16 }
    }
}

impl Build for Oldest {
    fn build(b: &BuildCtx) -> Oldest {
        Oldest::new(b.scheduler)
    }
}

impl Events for Oldest {}

impl IssuePolicy for Oldest {
    type Shared = ();

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        out.extend_from_slice(&v.age_order[self.me as usize]);
    }
}
