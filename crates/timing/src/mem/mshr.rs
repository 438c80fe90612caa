//! Miss-status holding registers: one entry per line with a miss in flight, holding up to
//! `merge` waiting requests. A miss to a line already in flight merges into its entry while
//! the entry has room; otherwise it needs a free entry. When neither is possible the access is
//! a *reservation failure* and must retry (GPGPU-Sim's behaviour). Storage is allocated once.

/// What [`Mshrs::add`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MshrAdd {
    /// A new entry: the caller sends the miss downstream.
    New,
    /// Merged into the entry of a miss already in flight.
    Merged,
    /// No room: retry later.
    Full,
}

pub struct Mshrs<T: Copy> {
    /// Line address per entry (`u64::MAX`: free).
    line: Vec<u64>,
    /// `waiters[e * merge .. e * merge + count[e]]`.
    waiters: Vec<T>,
    count: Vec<u32>,
    /// Per entry: what the miss fetches (a sectored L2's bookkeeping; unused elsewhere).
    fetch: Vec<Fetch>,
    merge: usize,
    used: usize,
    /// Entries at or above this index are free: a new entry takes the lowest free index, so
    /// the ones in use cluster at the bottom and lookups scan only `line[..top]` (an L2
    /// slice has 256 entries and rarely more than a few in use).
    top: usize,
    /// Counts the entries' changes (waiters added, entries freed): [`Mshrs::add_if`]'s
    /// answer for a line is the same while this stands.
    changes: u64,
    /// A sectored L1's capacity in sectors ([`Mshrs::counting_sectors`]): GPGPU-Sim keeps one
    /// entry per sector there (`mshr_addr` is sector-aligned), so a line whose miss fetches
    /// four sectors takes four of them. `None`: one entry per line.
    sector_cap: Option<usize>,
    /// With `sector_cap`: the sectors the entries in use fetch.
    sectors_used: usize,
}

/// What an entry's miss has asked the level below for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fetch {
    /// Sectors asked for so far.
    pub sectors: u32,
    /// Requests below still to answer; the entry completes with the last.
    pub outstanding: u32,
}

impl<T: Copy + Default> Mshrs<T> {
    pub fn new(entries: u32, merge: u32) -> Mshrs<T> {
        let (n, m) = (entries.max(1) as usize, merge.max(1) as usize);
        Mshrs {
            line: vec![u64::MAX; n],
            waiters: vec![T::default(); n * m],
            count: vec![0; n],
            fetch: vec![Fetch::default(); n],
            merge: m,
            used: 0,
            top: 0,
            changes: 0,
            sector_cap: None,
            sectors_used: 0,
        }
    }

    /// Counts capacity in sectors, as many as there are entries (see `sector_cap`); add with
    /// [`Mshrs::add_sectors`].
    pub fn counting_sectors(mut self) -> Mshrs<T> {
        self.sector_cap = Some(self.line.len());
        self
    }

    /// Frees every entry.
    pub fn clear(&mut self) {
        self.line.iter_mut().for_each(|l| *l = u64::MAX);
        self.top = 0;
        self.count.iter_mut().for_each(|c| *c = 0);
        self.used = 0;
        self.sectors_used = 0;
        self.changes += 1;
    }

    /// See `changes`.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.used
    }

    #[inline]
    fn find(&self, line: u64) -> Option<usize> {
        if self.used == 0 {
            return None;
        }
        self.line[..self.top].iter().position(|&l| l == line)
    }

    /// Whether a miss to `line` is in flight.
    pub fn pending(&self, line: u64) -> bool {
        self.find(line).is_some()
    }

    /// Whether [`Mshrs::add`] for `line` would succeed.
    pub fn can_add(&self, line: u64) -> bool {
        match self.find(line) {
            Some(e) => (self.count[e] as usize) < self.merge,
            None => self.used < self.line.len(),
        }
    }

    /// Records `waiter` on a miss to `line`.
    pub fn add(&mut self, line: u64, waiter: T) -> MshrAdd {
        self.add_if(line, waiter, true)
    }

    /// [`Mshrs::add`], but a new entry only when `new_allowed` (the caller has room to send
    /// the miss on); one lookup.
    pub fn add_if(&mut self, line: u64, waiter: T, new_allowed: bool) -> MshrAdd {
        let (e, kind) = match self.find(line) {
            Some(e) if (self.count[e] as usize) < self.merge => (e, MshrAdd::Merged),
            Some(_) => return MshrAdd::Full,
            None if new_allowed && self.used < self.line.len() => {
                (self.open(line, Fetch::default()), MshrAdd::New)
            }
            None => return MshrAdd::Full,
        };
        self.push_waiter(e, waiter);
        kind
    }

    /// Opens an entry for `line` in the first free place (the caller checked there is one).
    fn open(&mut self, line: u64, fetch: Fetch) -> usize {
        let e = self.line[..self.top]
            .iter()
            .position(|&l| l == u64::MAX)
            .unwrap_or(self.top);
        self.line[e] = line;
        self.top = self.top.max(e + 1);
        self.fetch[e] = fetch;
        self.used += 1;
        e
    }

    /// Records `waiter` on entry `e` (the caller checked it has room).
    fn push_waiter(&mut self, e: usize, waiter: T) {
        self.waiters[e * self.merge + self.count[e] as usize] = waiter;
        self.count[e] += 1;
        self.changes += 1;
    }

    /// A sectored cache's miss ([`Mshrs::counting_sectors`]): records `waiter` on `line`,
    /// which wants sectors `want` the cache lacks. Returns what it did and the sectors to ask
    /// the level below for now: a new entry fetches `want`; a merge fetches those of `want`
    /// its entry does not (0 when none), as one more request the entry waits for. Full when
    /// the entry has no merge room, no entry or sector capacity is left, or a request would
    /// be needed and `send_allowed` is false (no miss-queue room).
    pub fn add_sectors(
        &mut self,
        line: u64,
        waiter: T,
        want: u32,
        send_allowed: bool,
    ) -> (MshrAdd, u32) {
        let cap = self.sector_cap.unwrap_or(usize::MAX);
        let fits = |used: usize, ask: u32| used + ask.count_ones() as usize <= cap;
        let (e, kind, ask) = match self.find(line) {
            Some(e) if (self.count[e] as usize) < self.merge => {
                let ask = want & !self.fetch[e].sectors;
                if ask != 0 && !(send_allowed && fits(self.sectors_used, ask)) {
                    return (MshrAdd::Full, 0);
                }
                if ask != 0 {
                    self.fetch[e].sectors |= ask;
                    self.fetch[e].outstanding += 1;
                }
                (e, MshrAdd::Merged, ask)
            }
            Some(_) => return (MshrAdd::Full, 0),
            None if send_allowed
                && self.used < self.line.len()
                && fits(self.sectors_used, want) =>
            {
                let fetch = Fetch {
                    sectors: want,
                    outstanding: 1,
                };
                (self.open(line, fetch), MshrAdd::New, want)
            }
            None => return (MshrAdd::Full, 0),
        };
        if self.sector_cap.is_some() {
            self.sectors_used += ask.count_ones() as usize;
        }
        self.push_waiter(e, waiter);
        (kind, ask)
    }

    /// One of the requests the miss to `line` waits for came back: the sectors it has fetched
    /// when that was the last (complete it then with [`Mshrs::complete`]; 0 when no miss to
    /// `line` is in flight), `None` while more are to come.
    pub fn arrived(&mut self, line: u64) -> Option<u32> {
        let Some(e) = self.find(line) else {
            return Some(0);
        };
        let f = &mut self.fetch[e];
        if f.outstanding > 1 {
            f.outstanding -= 1;
            return None;
        }
        Some(f.sectors)
    }

    /// The fetch state of the miss to `line` in flight.
    pub fn fetch_mut(&mut self, line: u64) -> Option<&mut Fetch> {
        let e = self.find(line)?;
        Some(&mut self.fetch[e])
    }

    /// The fill for `line` arrived: frees its entry and copies its waiters (oldest first) into
    /// `out` (cleared first). Returns false when no miss to `line` was in flight.
    pub fn complete(&mut self, line: u64, out: &mut Vec<T>) -> bool {
        out.clear();
        let Some(e) = self.find(line) else {
            return false;
        };
        let n = self.count[e] as usize;
        out.extend_from_slice(&self.waiters[e * self.merge..e * self.merge + n]);
        if self.sector_cap.is_some() {
            self.sectors_used -= self.fetch[e].sectors.count_ones() as usize;
        }
        self.line[e] = u64::MAX;
        while self.top > 0 && self.line[self.top - 1] == u64::MAX {
            self.top -= 1;
        }
        self.count[e] = 0;
        self.used -= 1;
        self.changes += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_up_to_the_limit_then_fails() {
        let mut m: Mshrs<u32> = Mshrs::new(2, 2);
        assert_eq!(m.add(128, 1), MshrAdd::New);
        assert_eq!(m.add(128, 2), MshrAdd::Merged);
        assert!(!m.can_add(128));
        assert_eq!(m.add(128, 3), MshrAdd::Full, "merge limit");
        assert_eq!(m.add(256, 4), MshrAdd::New);
        assert_eq!(m.add(384, 5), MshrAdd::Full, "no free entry");
        let mut out = Vec::new();
        assert!(m.complete(128, &mut out));
        assert_eq!(out, vec![1, 2]);
        assert_eq!(m.used(), 1);
        assert!(!m.complete(128, &mut out) && out.is_empty());
        assert_eq!(m.add(384, 6), MshrAdd::New, "the freed entry is reused");
        assert!(m.pending(256) && m.pending(384) && !m.pending(128));
    }

    /// Counted in sectors (a sectored L1): a line's entry takes a unit per sector it fetches,
    /// a merge wanting sectors the entry does not fetch asks for them as one more request,
    /// and the entry completes with the last of its requests, freeing all its sectors.
    #[test]
    fn sector_counted_entries_fetch_only_what_they_lack() {
        let mut m: Mshrs<u32> = Mshrs::new(4, 4).counting_sectors();
        assert_eq!(m.add_sectors(0, 1, 0b0001, true), (MshrAdd::New, 0b0001));
        assert_eq!(m.add_sectors(0, 2, 0b0001, false), (MshrAdd::Merged, 0));
        assert_eq!(
            m.add_sectors(0, 3, 0b0110, false),
            (MshrAdd::Full, 0),
            "more sectors need a request, and the miss queue has no room"
        );
        assert_eq!(m.add_sectors(0, 3, 0b0111, true), (MshrAdd::Merged, 0b0110));
        // Three of the four sectors are in use: a new line wanting two does not fit.
        assert_eq!(m.add_sectors(128, 4, 0b0011, true), (MshrAdd::Full, 0));
        assert_eq!(m.add_sectors(128, 4, 0b1000, true), (MshrAdd::New, 0b1000));
        assert_eq!(
            m.arrived(0),
            None,
            "two requests for line 0: one more to come"
        );
        assert_eq!(m.arrived(0), Some(0b0111));
        let mut out = Vec::new();
        assert!(m.complete(0, &mut out));
        assert_eq!(out, vec![1, 2, 3]);
        assert_eq!(m.add_sectors(256, 5, 0b0111, true), (MshrAdd::New, 0b0111));
        assert_eq!(m.arrived(384), Some(0), "no miss in flight");
    }

    /// Lookups scan only up to the highest entry in use: random adds and completions agree
    /// with a plain set of the lines in flight, and a new entry always takes the lowest free
    /// index (so the choice of entry is what a full scan would give).
    #[test]
    fn lookups_agree_with_the_lines_in_flight() {
        let mut m: Mshrs<u32> = Mshrs::new(8, 2);
        let mut model = std::collections::BTreeSet::new();
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        let mut out = Vec::new();
        for step in 0..20_000u32 {
            let x = next();
            let line = (x % 12) * 128;
            if x >> 40 & 1 == 0 {
                let (expected, lowest_free) =
                    (m.can_add(line), m.line.iter().position(|&l| l == u64::MAX));
                match m.add(line, step) {
                    MshrAdd::Full => assert!(!expected),
                    MshrAdd::Merged => assert!(expected && model.contains(&line)),
                    MshrAdd::New => {
                        assert!(expected && !model.contains(&line));
                        assert_eq!(m.line[lowest_free.unwrap()], line, "the lowest free entry");
                        model.insert(line);
                    }
                }
            } else {
                assert_eq!(m.complete(line, &mut out), model.remove(&line));
            }
            for l in 0..12u64 {
                assert_eq!(
                    m.pending(l * 128),
                    model.contains(&(l * 128)),
                    "step {step}"
                );
            }
            assert_eq!(m.used(), model.len());
            assert!(m.line[m.top..].iter().all(|&l| l == u64::MAX));
        }
    }
}
