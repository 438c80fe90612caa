//! A DRAM channel's request queue, kept per bank so that FR-FCFS does not scan every queued
//! request on every DRAM cycle.
//!
//! The scheduler asks three things each cycle, all about the requests of one kind (reads or
//! writes), oldest first: the oldest one hitting a ready bank's open row; which banks some
//! request still wants open; the oldest one a closed or unwanted bank could open a row for.
//! Each is a question about a bank's oldest request of a kind, or its oldest row hit, so the
//! queue keeps per bank and kind a list in arrival order plus how many of them hit the open
//! row, and a bit set of the banks with requests and with hits. Arrival order across banks
//! is a sequence number: the oldest of several banks' candidates is the smallest.

use super::DramReq;

/// Banks a channel may have (`dram.banks` is bounded by 256).
pub const MAX_BANKS: usize = 256;

/// A set of bank indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BankSet([u64; MAX_BANKS / 64]);

impl BankSet {
    pub fn insert(&mut self, bank: usize) {
        self.0[bank / 64] |= 1 << (bank % 64);
    }

    pub fn remove(&mut self, bank: usize) {
        self.0[bank / 64] &= !(1 << (bank % 64));
    }

    pub fn contains(&self, bank: usize) -> bool {
        self.0[bank / 64] & (1 << (bank % 64)) != 0
    }

    /// The banks of `self` that are not in `other`.
    pub fn minus(self, other: BankSet) -> BankSet {
        BankSet(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }

    /// The banks in both sets.
    pub fn and(self, other: BankSet) -> BankSet {
        BankSet(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }

    /// The banks in the set, lowest first.
    pub fn iter(self) -> BankIter {
        BankIter {
            words: self.0,
            word: 0,
        }
    }
}

/// Iterates a [`BankSet`] by clearing its lowest bit (the scheduler walks these sets every
/// DRAM cycle; a flattening adapter cost a third of the scheduler's time).
pub struct BankIter {
    words: [u64; MAX_BANKS / 64],
    word: usize,
}

impl Iterator for BankIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < self.words.len() {
            let bits = &mut self.words[self.word];
            if *bits != 0 {
                let b = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(self.word * 64 + b);
            }
            self.word += 1;
        }
        None
    }
}

/// A queued request and its place in arrival order.
#[derive(Clone, Copy, Debug)]
pub struct Queued {
    pub seq: u64,
    pub req: DramReq,
}

/// The requests waiting at one channel, by bank and kind (index 0 reads, 1 writes).
pub struct BankQueues {
    lists: Vec<[Vec<Queued>; 2]>,
    /// Per bank and kind: requests in `lists` whose row is the bank's open row…
    hits: Vec<[u16; 2]>,
    /// …and the index of the oldest of them (`NO_HIT` when there is none), kept as the lists
    /// change: the scheduler asks for it every DRAM cycle, and a search walks past the
    /// older requests to other rows, whose loads miss the cache.
    first_hit: Vec<[u16; 2]>,
    /// Banks with requests of each kind, and with row hits of each kind.
    pending: [BankSet; 2],
    hitting: [BankSet; 2],
    len: usize,
    writes: usize,
    next_seq: u64,
}

/// `BankQueues::first_hit` of a list without a row hit.
const NO_HIT: u16 = u16::MAX;

fn kind(write: bool) -> usize {
    write as usize
}

impl BankQueues {
    /// Queues for `banks` banks, each list able to hold `cap` requests without growing.
    pub fn new(banks: usize, cap: usize) -> BankQueues {
        assert!(banks <= MAX_BANKS, "dram.banks is bounded by {MAX_BANKS}");
        BankQueues {
            lists: (0..banks)
                .map(|_| [Vec::with_capacity(cap), Vec::with_capacity(cap)])
                .collect(),
            hits: vec![[0; 2]; banks],
            first_hit: vec![[NO_HIT; 2]; banks],
            pending: [BankSet::default(); 2],
            hitting: [BankSet::default(); 2],
            len: 0,
            writes: 0,
            next_seq: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn writes(&self) -> usize {
        self.writes
    }

    pub fn clear(&mut self) {
        for l in self.lists.iter_mut().flatten() {
            l.clear();
        }
        self.hits.iter_mut().for_each(|h| *h = [0; 2]);
        self.first_hit.iter_mut().for_each(|h| *h = [NO_HIT; 2]);
        self.pending = [BankSet::default(); 2];
        self.hitting = [BankSet::default(); 2];
        self.len = 0;
        self.writes = 0;
    }

    /// `r` joins the queue, the youngest; `open` is its bank's open row.
    pub fn push(&mut self, r: DramReq, open: u32) {
        let (b, k) = (r.bank as usize, kind(r.write));
        self.lists[b][k].push(Queued {
            seq: self.next_seq,
            req: r,
        });
        self.next_seq += 1;
        self.pending[k].insert(b);
        if r.row == open {
            if self.hits[b][k] == 0 {
                self.first_hit[b][k] = (self.lists[b][k].len() - 1) as u16;
            }
            self.hits[b][k] += 1;
            self.hitting[k].insert(b);
        }
        self.len += 1;
        self.writes += r.write as usize;
    }

    /// Bank `bank`'s requests of kind `write`, oldest first.
    pub fn list(&self, bank: usize, write: bool) -> &[Queued] {
        &self.lists[bank][kind(write)]
    }

    /// Mutable access to a queued request (to count down its column commands).
    pub fn get_mut(&mut self, bank: usize, write: bool, i: usize) -> &mut DramReq {
        &mut self.lists[bank][kind(write)][i].req
    }

    /// The index in [`BankQueues::list`] of `bank`'s oldest request of kind `write` that hits
    /// its open row.
    #[inline]
    pub fn first_hit(&self, bank: usize, write: bool) -> Option<usize> {
        let i = self.first_hit[bank][kind(write)];
        (i != NO_HIT).then_some(i as usize)
    }

    /// How many of `bank`'s requests of kind `write` hit its open row.
    pub fn hits(&self, bank: usize, write: bool) -> usize {
        self.hits[bank][kind(write)] as usize
    }

    /// Banks with requests of kind `write`.
    pub fn pending(&self, write: bool) -> BankSet {
        self.pending[kind(write)]
    }

    /// Banks with requests of kind `write` that hit the open row.
    pub fn hitting(&self, write: bool) -> BankSet {
        self.hitting[kind(write)]
    }

    /// Removes the `i`th request of `bank`'s list of kind `write`; `open` is the bank's open row.
    pub fn remove(&mut self, bank: usize, write: bool, i: usize, open: u32) -> DramReq {
        let k = kind(write);
        let r = self.lists[bank][k].remove(i).req;
        if self.lists[bank][k].is_empty() {
            self.pending[k].remove(bank);
        }
        let first = self.first_hit[bank][k];
        if r.row == open {
            self.hits[bank][k] -= 1;
            if self.hits[bank][k] == 0 {
                self.hitting[k].remove(bank);
                self.first_hit[bank][k] = NO_HIT;
            } else if i == first as usize {
                // The next hit is younger: search from where the removed one was.
                let next = self.lists[bank][k][i..]
                    .iter()
                    .position(|q| q.req.row == open);
                self.first_hit[bank][k] = (i + next.expect("hits counts it")) as u16;
            }
        } else if first != NO_HIT && i < first as usize {
            self.first_hit[bank][k] = first - 1;
        }
        self.len -= 1;
        self.writes -= r.write as usize;
        r
    }

    /// Bank `bank`'s open row is now `open` (an activate or a precharge): recount its hits.
    pub fn reopened(&mut self, bank: usize, open: u32) {
        for k in 0..2 {
            let (mut n, mut first) = (0, NO_HIT);
            for (i, q) in self.lists[bank][k].iter().enumerate() {
                if q.req.row == open {
                    first = first.min(i as u16);
                    n += 1;
                }
            }
            self.first_hit[bank][k] = first;
            self.hits[bank][k] = n;
            if n > 0 {
                self.hitting[k].insert(bank);
            } else {
                self.hitting[k].remove(bank);
            }
        }
    }

    /// The bank holding the oldest request of kind `write`.
    pub fn oldest(&self, write: bool) -> Option<usize> {
        self.pending(write)
            .iter()
            .min_by_key(|&b| self.lists[b][kind(write)][0].seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(bank: u16, row: u32, write: bool) -> DramReq {
        DramReq {
            addr: 0,
            bank,
            row,
            write,
            slice: 0,
            cmds: 1,
        }
    }

    #[test]
    fn bank_sets_iterate_in_order_across_words() {
        let mut s = BankSet::default();
        for b in [200, 3, 64, 63, 255, 0] {
            s.insert(b);
        }
        s.remove(63);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 3, 64, 200, 255]);
        assert!(s.contains(64) && !s.contains(63));
    }

    #[test]
    fn hit_counts_follow_pushes_removals_and_row_changes() {
        let mut q = BankQueues::new(4, 8);
        q.push(req(1, 5, false), 5);
        q.push(req(1, 6, false), 5);
        q.push(req(1, 5, true), 5);
        assert_eq!((q.hits(1, false), q.hits(1, true)), (1, 1));
        assert!(q.hitting(false).contains(1) && q.pending(true).contains(1));
        q.reopened(1, 6);
        assert_eq!((q.hits(1, false), q.hits(1, true)), (1, 0));
        assert!(!q.hitting(true).contains(1));
        let r = q.remove(1, false, 1, 6);
        assert_eq!(r.row, 6);
        assert_eq!((q.hits(1, false), q.len(), q.writes()), (0, 2, 1));
        assert!(!q.hitting(false).contains(1) && q.pending(false).contains(1));
        assert_eq!(q.oldest(false), Some(1));
        q.remove(1, false, 0, 6);
        assert_eq!(q.oldest(false), None);
        assert_eq!(q.oldest(true), Some(1));
    }

    /// `first_hit` stays the oldest row hit's index through random pushes, removals and row
    /// changes (against a search of the list after every step).
    #[test]
    fn first_hit_follows_every_change() {
        let mut rand = crate::test_rng::below(0x2545_f491_4f6c_dd1d);
        let mut q = BankQueues::new(4, 16);
        let mut open = [0u32; 4];
        for _ in 0..20_000 {
            let b = rand(4) as usize;
            match rand(5) {
                0 | 1 if q.len() < 48 => {
                    q.push(req(b as u16, rand(3) as u32, rand(3) == 0), open[b])
                }
                2 => {
                    open[b] = rand(3) as u32;
                    q.reopened(b, open[b]);
                }
                _ => {
                    let write = rand(2) == 0;
                    let n = q.list(b, write).len();
                    if n > 0 {
                        q.remove(b, write, rand(n as u64) as usize, open[b]);
                    }
                }
            }
            for (bank, &row) in open.iter().enumerate() {
                for write in [false, true] {
                    let expect = q.list(bank, write).iter().position(|e| e.req.row == row);
                    assert_eq!(
                        q.first_hit(bank, write),
                        expect,
                        "bank {bank} write {write}"
                    );
                }
            }
        }
    }

    #[test]
    fn oldest_compares_arrival_across_banks() {
        let mut q = BankQueues::new(8, 8);
        q.push(req(7, 0, false), 1);
        q.push(req(2, 0, false), 1);
        q.push(req(2, 0, true), 1);
        assert_eq!(q.oldest(false), Some(7));
        q.remove(7, false, 0, 1);
        assert_eq!(q.oldest(false), Some(2));
    }
}
