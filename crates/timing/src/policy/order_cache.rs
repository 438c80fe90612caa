//! A scheduler's warp order kept until the SM-wide state it derives from changes. Policies
//! whose order is a function of shared state that bumps a version on every change (`kaws`,
//! `pro`) rebuild it only then and copy it on every other call — no per-cycle sorting.

/// The order built at some version of the shared state.
#[derive(Debug)]
pub struct OrderCache {
    order: Vec<u16>,
    built_at: u64,
}

impl OrderCache {
    pub fn with_capacity(slots: usize) -> OrderCache {
        OrderCache {
            order: Vec::with_capacity(slots),
            built_at: u64::MAX,
        }
    }

    /// The order at `version` into `out`: copied when cached, else built into `out` (the
    /// cache is left alone: `current_order` takes `&self`).
    pub fn peek(&self, version: u64, out: &mut Vec<u16>, build: impl FnOnce(&mut Vec<u16>)) {
        out.clear();
        if self.built_at == version {
            out.extend_from_slice(&self.order);
        } else {
            build(out);
        }
    }

    /// The order at `version` into `out`, rebuilt into the cache first when it is older.
    pub fn get(&mut self, version: u64, out: &mut Vec<u16>, build: impl FnOnce(&mut Vec<u16>)) {
        if self.built_at != version {
            self.order.clear();
            build(&mut self.order);
            self.built_at = version;
        }
        out.clear();
        out.extend_from_slice(&self.order);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuilds_only_when_the_version_moves() {
        let mut c = OrderCache::with_capacity(4);
        let mut out = Vec::new();
        let mut builds = 0;
        for (version, expect_builds) in [(1, 1), (1, 1), (2, 2), (2, 2)] {
            c.get(version, &mut out, |o| {
                builds += 1;
                o.extend([version as u16, 7]);
            });
            assert_eq!(
                (builds, out.as_slice()),
                (expect_builds, &[version as u16, 7][..])
            );
        }
        // A peek at a newer version builds into `out` without caching it.
        c.peek(3, &mut out, |o| o.push(3));
        assert_eq!(out, vec![3]);
        c.peek(2, &mut out, |_| unreachable!("cached"));
        assert_eq!(out, vec![2, 7]);
    }
}
