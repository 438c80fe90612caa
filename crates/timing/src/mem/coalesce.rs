//! The coalescer: turns one warp memory instruction's lane addresses into the line requests
//! the LD/ST unit processes (one per distinct line, with the mask of 32-byte sectors it
//! touches), and the shared-memory bank-conflict degree.

use warpsim_core::exec::warp::WARP_SIZE;

/// One line touched by a warp access.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineAccess {
    /// Line-aligned address.
    pub addr: u64,
    /// Bit `i`: sector `i` of the line is touched.
    pub sectors: u32,
    /// Bit `i`: every byte of sector `i` is written (stores, after [`mark_whole_sectors`];
    /// 0 otherwise).
    pub whole: u32,
}

impl LineAccess {
    /// Bytes moved for this line at `sector` bytes per sector.
    pub fn bytes(&self, sector: u64) -> u16 {
        (self.sectors.count_ones() as u64 * sector).min(u16::MAX as u64) as u16
    }
}

/// Appends to `out` (cleared first) the lines of `line` bytes touched by the lanes in `lanes`,
/// each lane accessing `size` bytes at its address, in order of first touch by lane. `line` and
/// `sector` are powers of two.
pub fn lines(
    addrs: &[u64; WARP_SIZE],
    lanes: u32,
    size: u32,
    line: u64,
    sector: u64,
    out: &mut Vec<LineAccess>,
) {
    out.clear();
    // Line and sector sizes are powers of two (the config validation requires it): shifts
    // instead of three 64-bit divisions per lane (this runs for every global access).
    debug_assert!(
        line.is_power_of_two() && sector.is_power_of_two(),
        "{line} {sector}"
    );
    let line_shift = line.max(1).trailing_zeros();
    let sector_shift = sector.clamp(1, line.max(1)).trailing_zeros();
    let line_of = |a: u64| a >> line_shift << line_shift;
    let sector_in = |off: u64| off >> sector_shift;
    let next_sector = |a: u64| ((a >> sector_shift) + 1) << sector_shift;
    if lanes == u32::MAX {
        if let Some(end) = consecutive_end(addrs, size) {
            // One run of bytes `[addrs[0], end)`: its lines in ascending order (which is the
            // order lanes first touch them), each with the sectors the run covers.
            let mut a = addrs[0];
            while a < end {
                let base = line_of(a);
                let stop = end.min(base.saturating_add(line.max(1)));
                let mut sectors = 0u32;
                for s in sector_in(a - base)..=sector_in(stop - 1 - base) {
                    sectors |= 1 << (s & 31);
                }
                out.push(LineAccess {
                    addr: base,
                    sectors,
                    whole: 0,
                });
                a = stop;
            }
            return;
        }
    }
    // The line the previous byte went to: consecutive lanes usually share it.
    let mut at = usize::MAX;
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let first = addrs[l];
        let last = first.wrapping_add(size.max(1) as u64 - 1);
        // An access may straddle a sector or (unaligned) a line: mark every byte's sector.
        let mut a = first;
        loop {
            let base = line_of(a);
            let bit = 1u32 << (sector_in(a - base) & 31);
            if at >= out.len() || out[at].addr != base {
                at = match out.iter().position(|x| x.addr == base) {
                    Some(i) => i,
                    None => {
                        out.push(LineAccess {
                            addr: base,
                            sectors: 0,
                            whole: 0,
                        });
                        out.len() - 1
                    }
                };
            }
            out[at].sectors |= bit;
            let next = next_sector(a);
            if next > last || next <= a {
                break;
            }
            a = next;
        }
    }
}

/// When a full warp's lanes access consecutive `size`-byte elements (lane `l` at
/// `addrs[0] + l * size`, the usual coalesced access), the end of the bytes they cover; `None`
/// otherwise, or when the run would pass the top of the address space. Stops at the first lane
/// that breaks the pattern.
fn consecutive_end(addrs: &[u64; WARP_SIZE], size: u32) -> Option<u64> {
    let size = size.max(1) as u64;
    let first = addrs[0];
    let end = first.checked_add(size * WARP_SIZE as u64)?;
    let mut expect = first;
    for &a in addrs {
        if a != expect {
            return None;
        }
        expect += size;
    }
    Some(end)
}

/// The lanes whose bits are set in `mask`, lowest first.
fn lanes_of(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            l
        })
    })
}

/// Sets each line's `whole` mask in `out` (the lines of a store by `lanes`, each writing
/// `size` bytes at its address): the sectors every byte of which some lane writes. A sectored
/// L2 can read those from the line afterwards; a sector written in part needs its other bytes
/// from DRAM first. Lines longer than 128 bytes (no byte mask) count every touched sector.
pub fn mark_whole_sectors(
    addrs: &[u64; WARP_SIZE],
    lanes: u32,
    size: u32,
    line: u64,
    sector: u64,
    out: &mut [LineAccess],
) {
    let spans = || lanes_of(lanes).map(|l| (addrs[l], size));
    mark_whole_spans(spans, line, sector, out);
}

/// Sets each line's `whole` mask in `out` from the bytes written, `(address, bytes)` per
/// lane access as `spans()` lists them (a store's lanes, or a fragment store's lanes over all
/// its waves), as [`mark_whole_sectors`] says.
pub fn mark_whole_spans<I>(spans: impl Fn() -> I, line: u64, sector: u64, out: &mut [LineAccess])
where
    I: Iterator<Item = (u64, u32)>,
{
    let (line, sector) = (line.max(1), sector.clamp(1, line.max(1)));
    if line > 128 {
        out.iter_mut().for_each(|x| x.whole = x.sectors);
        return;
    }
    let per = if sector >= 128 {
        u128::MAX
    } else {
        (1u128 << sector) - 1
    };
    for x in out.iter_mut() {
        // Bit b: byte b of the line is written.
        let mut bytes = 0u128;
        for (addr, size) in spans() {
            let (first, last) = (addr, addr.wrapping_add(size.max(1) as u64 - 1));
            if last < x.addr || first >= x.addr + line {
                continue;
            }
            let (lo, hi) = (
                first.max(x.addr) - x.addr,
                last.min(x.addr + line - 1) - x.addr,
            );
            let span = hi - lo + 1;
            bytes |= if span >= 128 {
                u128::MAX
            } else {
                ((1u128 << span) - 1) << lo
            };
        }
        x.whole = (0..(line / sector).min(32))
            .filter(|&i| (bytes >> (i * sector)) & per == per)
            .fold(0, |w, i| w | 1 << i);
    }
}

/// Appends to `out` (cleared first) the requests of a warp's atomic access, as GPGPU-Sim's
/// atomic coalescer forms them (`memory_coalescing_arch_atomic`): lanes of one line share a
/// request unless their bytes overlap, so a lane that touches bytes another lane of every
/// request so far touches starts a new one. Atomics to one word thus become one request per
/// lane, each executed at L2 in turn; atomics to distinct words of a line stay one request.
/// Atomics are naturally aligned, so a lane's bytes lie in one line.
pub fn atomic_requests(
    addrs: &[u64; WARP_SIZE],
    lanes: u32,
    size: u32,
    line: u64,
    sector: u64,
    out: &mut Vec<LineAccess>,
) {
    out.clear();
    let (line, sector) = (line.max(1), sector.clamp(1, line.max(1)));
    let size = size.max(1) as u64;
    // The lanes of each request in `out`, to test a new lane's bytes against theirs.
    let mut members = [0u32; WARP_SIZE];
    for l in lanes_of(lanes) {
        let first = addrs[l];
        let base = first / line * line;
        let overlaps = |other: u32| {
            lanes_of(other)
                .any(|o| addrs[o] < first.wrapping_add(size) && first < addrs[o].wrapping_add(size))
        };
        let slot = (0..out.len()).find(|&i| out[i].addr == base && !overlaps(members[i]));
        let i = slot.unwrap_or_else(|| {
            out.push(LineAccess {
                addr: base,
                sectors: 0,
                whole: 0,
            });
            out.len() - 1
        });
        members[i] |= 1 << l;
        let last = (first.wrapping_add(size - 1)).min(base + line - 1);
        let (lo, hi) = ((first - base) / sector, (last.max(first) - base) / sector);
        for s in lo..=hi {
            out[i].sectors |= 1 << (s & 31);
        }
    }
}

/// The lowest and highest of a full warp's addresses. Plain x86-64 has no 64-bit vector
/// comparison, so the loop is a compare and two conditional moves per lane; where the CPU has
/// AVX2 (checked once at run time) the same loop is compiled with it, four lanes a vector.
fn full_span(addrs: &[u64; WARP_SIZE]) -> (u64, u64) {
    #[inline(always)]
    fn span(addrs: &[u64; WARP_SIZE]) -> (u64, u64) {
        // Compared as signed numbers with the top bit flipped (the same order): AVX2 has a
        // signed 64-bit vector comparison and no unsigned one.
        const FLIP: u64 = 1 << 63;
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for &a in addrs {
            let x = (a ^ FLIP) as i64;
            lo = lo.min(x);
            hi = hi.max(x);
        }
        (lo as u64 ^ FLIP, hi as u64 ^ FLIP)
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        unsafe fn with_avx2(addrs: &[u64; WARP_SIZE]) -> (u64, u64) {
            span(addrs)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { with_avx2(addrs) };
        }
    }
    span(addrs)
}

/// The most distinct 4-byte words mapped to one bank (1 when conflict-free, 0 with no lanes):
/// a shared access takes this many bank cycles.
pub fn bank_degree(addrs: &[u64; WARP_SIZE], lanes: u32, banks: u32) -> u32 {
    let banks = banks.clamp(1, 32) as u64;
    // Bank counts are powers of two in every preset: a mask instead of a 64-bit division per
    // word (this runs for every shared access).
    let bank_mask = banks.is_power_of_two().then_some(banks - 1);
    let bank = |w: u64| bank_mask.map_or(w % banks, |mask| w & mask) as usize;
    // Fastest proof of no conflict: the words span fewer than `banks` consecutive words, so
    // no two distinct ones share a bank (a broadcast, consecutive words, two rows of a tile).
    // Branch-free over all 32 lanes (a full warp, the usual case, without the lane test).
    if lanes == 0 {
        return 0;
    }
    let (lo, hi) = if lanes == u32::MAX {
        full_span(addrs)
    } else {
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for (l, &a) in addrs.iter().enumerate() {
            let on = lanes >> l & 1 != 0;
            lo = lo.min(if on { a } else { u64::MAX });
            hi = hi.max(if on { a } else { 0 });
        }
        (lo, hi)
    };
    // Dividing by 4 keeps the order, so the extreme words are the extreme addresses' words.
    if hi / 4 - lo / 4 < banks {
        return 1;
    }
    // The usual access is conflict-free: every bank gets at most one distinct word (a
    // broadcast, consecutive words, lanes pairing up on a word). One pass proves that, in
    // one compare for a lane that repeats the previous lane's word and two more otherwise;
    // the first bank to get a second word sends the warp to the general count.
    // (`u64::MAX` is no word: a word is an address divided by 4.)
    let mut first = [u64::MAX; 32];
    let mut last = u64::MAX;
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let w = addrs[l] / 4;
        if w == last {
            continue;
        }
        last = w;
        let b = bank(w);
        if first[b] == w {
            continue;
        }
        if first[b] != u64::MAX {
            return conflict_degree(addrs, lanes, bank);
        }
        first[b] = w;
    }
    1
}

/// [`bank_degree`] of an access with a bank conflict: the distinct words, then the most of
/// them in one bank.
#[cold]
fn conflict_degree(addrs: &[u64; WARP_SIZE], lanes: u32, bank: impl Fn(u64) -> usize) -> u32 {
    let mut words = [0u64; WARP_SIZE];
    let mut n = 0usize;
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let w = addrs[l] / 4;
        if !words[..n].contains(&w) {
            words[n] = w;
            n += 1;
        }
    }
    let mut per_bank = [0u32; 32];
    let mut worst = 0;
    for &w in &words[..n] {
        let b = bank(w);
        per_bank[b] += 1;
        worst = worst.max(per_bank[b]);
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::xorshift;

    fn addrs(f: impl Fn(u64) -> u64) -> [u64; WARP_SIZE] {
        std::array::from_fn(|i| f(i as u64))
    }

    #[test]
    fn unit_stride_words_are_one_line_all_sectors() {
        let mut out = Vec::new();
        lines(&addrs(|i| 0x1000 + 4 * i), u32::MAX, 4, 128, 32, &mut out);
        assert_eq!(
            out,
            vec![LineAccess {
                addr: 0x1000,
                sectors: 0xf,
                whole: 0,
            }]
        );
        assert_eq!(out[0].bytes(32), 128);
    }

    /// [`lines`] computed the plain way: every byte of every active lane, in lane order,
    /// marks its sector of its line (lines in order of first touch).
    fn lines_by_definition(
        addrs: &[u64; WARP_SIZE],
        lanes: u32,
        size: u32,
        line: u64,
        sector: u64,
    ) -> Vec<LineAccess> {
        let (line, sector) = (line.max(1), sector.clamp(1, line.max(1)));
        let mut out: Vec<LineAccess> = Vec::new();
        for l in (0..WARP_SIZE).filter(|l| lanes >> l & 1 != 0) {
            for b in 0..size.max(1) as u64 {
                let a = addrs[l].wrapping_add(b);
                let base = a / line * line;
                let bit = 1u32 << (((a - base) / sector) & 31);
                match out.iter_mut().find(|x| x.addr == base) {
                    Some(x) => x.sectors |= bit,
                    None => out.push(LineAccess {
                        addr: base,
                        sectors: bit,
                        whole: 0,
                    }),
                }
            }
        }
        out
    }

    #[test]
    fn lines_match_their_definition() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut out = Vec::new();
        for case in 0..5_000u64 {
            let span = [16u64, 256, 4096, 1 << 20][case as usize % 4];
            let base = next() & 0xffff_ff00;
            let stride = [0u64, 4, 8, 16, 128][(case / 4) as usize % 5];
            let a: [u64; WARP_SIZE] = std::array::from_fn(|i| {
                if case % 7 == 0 {
                    base + next() % span
                } else {
                    base + stride * i as u64 + (case % 3)
                }
            });
            let lanes = if case % 2 == 0 {
                u32::MAX
            } else {
                next() as u32
            };
            let size = [1u32, 4, 8, 16][(case / 3) as usize % 4];
            for (line, sector) in [(128u64, 32u64), (32, 32), (64, 16), (256, 32), (128, 128)] {
                lines(&a, lanes, size, line, sector, &mut out);
                assert_eq!(
                    out,
                    lines_by_definition(&a, lanes, size, line, sector),
                    "{a:x?} {lanes:#x} {size} {line} {sector}"
                );
            }
        }
    }

    /// The run of a full warp's consecutive elements (one pass over its lines) against the
    /// definition: every element size, start offsets within a sector and a line, line and
    /// sector pairs with up to 64 sectors a line (masks wrap at 32), and runs that would pass
    /// the top of the address space (the per-lane path).
    #[test]
    fn consecutive_runs_match_their_definition() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        let mut out = Vec::new();
        for case in 0..3_000u64 {
            let size = [1u32, 2, 4, 8, 16][case as usize % 5];
            let base = match case % 11 {
                // Aligned to the element, so no lane's own bytes wrap past the top.
                0 => (u64::MAX - next() % 700) / size as u64 * size as u64,
                _ => next() & 0xffff_ffff,
            };
            let a: [u64; WARP_SIZE] =
                std::array::from_fn(|i| base.wrapping_add(size as u64 * i as u64));
            for (line, sector) in [
                (128u64, 32u64),
                (32, 32),
                (64, 16),
                (256, 32),
                (128, 128),
                (256, 4),
            ] {
                lines(&a, u32::MAX, size, line, sector, &mut out);
                assert_eq!(
                    out,
                    lines_by_definition(&a, u32::MAX, size, line, sector),
                    "{base:#x} {size} {line} {sector}"
                );
            }
        }
    }

    #[test]
    fn strided_and_partial_accesses() {
        let mut out = Vec::new();
        // Stride 128 B: 32 lines, one sector each.
        lines(&addrs(|i| 128 * i), u32::MAX, 4, 128, 32, &mut out);
        assert_eq!(out.len(), 32);
        assert!(out.iter().all(|x| x.sectors == 1));
        // Only lanes 0 and 31 active, 8-byte accesses 248 B apart: one line, sectors 0 and 3
        // of the first... and the next line.
        let a = addrs(|i| 0x2000 + 8 * i);
        lines(&a, 1 | 1 << 31, 8, 128, 32, &mut out);
        assert_eq!(
            out,
            vec![
                LineAccess {
                    addr: 0x2000,
                    sectors: 1,
                    whole: 0,
                },
                LineAccess {
                    addr: 0x2080,
                    sectors: 0b1000,
                    whole: 0,
                },
            ]
        );
        // 16-byte vector accesses, unit stride: 512 B = 4 lines.
        lines(&addrs(|i| 16 * i), u32::MAX, 16, 128, 32, &mut out);
        assert_eq!(out.len(), 4);
        lines(&a, 0, 4, 128, 32, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn stores_mark_the_sectors_they_write_whole() {
        let mut out = Vec::new();
        // Unit-stride words: every sector of the line whole.
        let a = addrs(|i| 0x1000 + 4 * i);
        lines(&a, u32::MAX, 4, 128, 32, &mut out);
        mark_whole_sectors(&a, u32::MAX, 4, 128, 32, &mut out);
        assert_eq!((out[0].sectors, out[0].whole), (0xf, 0xf));
        // Lanes 0-7 (eight words): sector 0 whole, nothing else touched.
        lines(&a, 0xff, 4, 128, 32, &mut out);
        mark_whole_sectors(&a, 0xff, 4, 128, 32, &mut out);
        assert_eq!((out[0].sectors, out[0].whole), (0x1, 0x1));
        // Lanes 0-6: sector 0 touched, one word short of whole.
        lines(&a, 0x7f, 4, 128, 32, &mut out);
        mark_whole_sectors(&a, 0x7f, 4, 128, 32, &mut out);
        assert_eq!((out[0].sectors, out[0].whole), (0x1, 0));
        // One word per line (a pointer chain's set-up): touched, never whole.
        let s = addrs(|i| 128 * i);
        lines(&s, u32::MAX, 4, 128, 32, &mut out);
        mark_whole_sectors(&s, u32::MAX, 4, 128, 32, &mut out);
        assert!(out.iter().all(|x| x.sectors == 1 && x.whole == 0));
        // 16-byte vectors: two lanes fill a sector.
        let v = addrs(|i| 0x2000 + 16 * i);
        lines(&v, 0b11, 16, 128, 32, &mut out);
        mark_whole_sectors(&v, 0b11, 16, 128, 32, &mut out);
        assert_eq!((out[0].sectors, out[0].whole), (0x1, 0x1));
    }

    #[test]
    fn atomics_to_one_word_are_one_request_per_lane() {
        let mut out = Vec::new();
        atomic_requests(&addrs(|_| 0x3004), u32::MAX, 4, 128, 32, &mut out);
        assert_eq!(out.len(), 32);
        assert!(out.iter().all(|x| *x
            == LineAccess {
                addr: 0x3000,
                sectors: 1,
                whole: 0
            }));
        // Distinct words of one line share a request, as a load's lanes do.
        atomic_requests(&addrs(|i| 0x3000 + 4 * i), u32::MAX, 4, 128, 32, &mut out);
        assert_eq!(
            out,
            vec![LineAccess {
                addr: 0x3000,
                sectors: 0xf,
                whole: 0
            }]
        );
        // Two lanes per word: two requests for the line, each with every sector.
        atomic_requests(
            &addrs(|i| 0x3000 + 4 * (i % 16) * 2),
            u32::MAX,
            4,
            128,
            32,
            &mut out,
        );
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|x| x.sectors == 0xf));
        // 8-byte atomics overlapping a 4-byte lane's bytes conflict; only active lanes count.
        atomic_requests(
            &addrs(|i| 0x4000 + 128 * (i % 2)),
            0b1111,
            8,
            128,
            32,
            &mut out,
        );
        assert_eq!(
            out.len(),
            4,
            "lanes 0, 2 on one word and 1, 3 on another line's"
        );
        atomic_requests(&addrs(|_| 0), 0, 4, 128, 32, &mut out);
        assert!(out.is_empty());
    }

    /// Every lane is in exactly one request, no request holds two lanes whose bytes overlap,
    /// and a warp never makes more requests than its most-repeated word has lanes per line.
    #[test]
    fn atomic_requests_partition_the_lanes_without_overlap() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut out = Vec::new();
        for case in 0..5_000u64 {
            let span = [4u64, 64, 512, 1 << 20][case as usize % 4];
            let a: [u64; WARP_SIZE] = std::array::from_fn(|_| (next() % span) / 4 * 4);
            let lanes = if case % 2 == 0 {
                u32::MAX
            } else {
                next() as u32
            };
            atomic_requests(&a, lanes, 4, 128, 32, &mut out);
            let mut per_word = std::collections::BTreeMap::new();
            for l in (0..WARP_SIZE).filter(|l| lanes >> l & 1 != 0) {
                *per_word.entry(a[l]).or_insert(0usize) += 1;
            }
            let mut loads = Vec::new();
            lines(&a, lanes, 4, 128, 32, &mut loads);
            let worst = per_word.values().copied().max().unwrap_or(0);
            assert!(
                out.len() >= loads.len() && out.len() <= loads.len() * worst.max(1),
                "{a:x?}"
            );
            // As many requests as the most-repeated word of each line has lanes.
            let mut want = 0;
            for l in &loads {
                want += per_word
                    .iter()
                    .filter(|(w, _)| **w / 128 * 128 == l.addr)
                    .map(|(_, n)| *n)
                    .max()
                    .unwrap();
            }
            assert_eq!(out.len(), want, "{a:x?} {lanes:#x}");
        }
    }

    #[test]
    fn bank_conflict_degrees() {
        assert_eq!(bank_degree(&addrs(|i| 4 * i), u32::MAX, 32), 1);
        assert_eq!(bank_degree(&addrs(|i| 8 * i), u32::MAX, 32), 2);
        assert_eq!(bank_degree(&addrs(|i| 128 * i), u32::MAX, 32), 32);
        assert_eq!(bank_degree(&addrs(|_| 64), u32::MAX, 32), 1, "broadcast");
        assert_eq!(bank_degree(&addrs(|i| 4 * i), 0, 32), 0);
    }

    /// The definition, computed the plain way: distinct words of the warp, counted per bank.
    fn bank_degree_by_definition(addrs: &[u64; WARP_SIZE], lanes: u32, banks: u32) -> u32 {
        let banks = banks.clamp(1, 32) as u64;
        let mut words: Vec<u64> = (0..WARP_SIZE)
            .filter(|l| lanes >> l & 1 != 0)
            .map(|l| addrs[l] / 4)
            .collect();
        words.sort_unstable();
        words.dedup();
        let mut per_bank = [0u32; 32];
        for w in words {
            per_bank[(w % banks) as usize] += 1;
        }
        per_bank.into_iter().max().unwrap_or(0)
    }

    #[test]
    fn bank_degree_matches_its_definition() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        for case in 0..20_000u64 {
            // Few distinct words (small spans) make conflicts and duplicates likely.
            let span = [8u64, 64, 256, 4096, u64::MAX][case as usize % 5];
            let base = next() & 0xffff_fff0;
            let a: [u64; WARP_SIZE] =
                std::array::from_fn(|_| base.wrapping_add((next() % span) / 4 * 4 + next() % 4));
            let lanes = if case % 3 == 0 {
                u32::MAX
            } else {
                next() as u32
            };
            for banks in [1, 2, 16, 24, 32, 40] {
                assert_eq!(
                    bank_degree(&a, lanes, banks),
                    bank_degree_by_definition(&a, lanes, banks),
                    "{a:x?} {lanes:#x} {banks}"
                );
            }
        }
    }
}
