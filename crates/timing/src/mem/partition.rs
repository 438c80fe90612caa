//! The memory-partition index hash (`l2.partition_index`, GPGPU-Sim's
//! `-gpgpu_memory_partition_indexing`): which slice (partition × slices per partition + slice)
//! an address goes to once the address map has picked one. Power-of-two strides would
//! otherwise camp on a few partitions; the hash folds the address bits above the partition and
//! slice bits into the slice number, as `addrdec_tlx` does. The bank, row and the slice's set
//! index still come from the unhashed address (GPGPU-Sim changes only the chip and
//! sub-partition). `random` (titanx-pascal) draws a slice per piece of the address instead.

use super::CHUNK_BYTES;
use warpsim_core::config::PartitionIndex;

/// What the hash needs of the address map, fixed per configuration.
#[derive(Clone, Copy, Debug)]
pub struct PartitionHash {
    index: PartitionIndex,
    partitions: u64,
    slices_per_partition: u64,
    /// Partitions rounded up to a power of two × slices per partition (IPOLY's table size).
    hashed_slices: u64,
    /// Shift of the bits above the partition and slice bits (power-of-two partitions).
    high_shift: u32,
}

impl PartitionHash {
    pub fn new(index: PartitionIndex, partitions: u64, slices_per_partition: u64) -> Self {
        let p = partitions.max(1);
        let spp = slices_per_partition.max(1);
        PartitionHash {
            index,
            partitions: p,
            slices_per_partition: spp,
            hashed_slices: p.next_power_of_two() * spp,
            high_shift: CHUNK_BYTES.trailing_zeros() + p.trailing_zeros() + spp.trailing_zeros(),
        }
    }

    /// The address bits above the partition (and slice) bits: with a power-of-two number of
    /// partitions the bits above them and the slice bits; otherwise the quotient of the chunk
    /// number by the partitions (GPGPU-Sim's `gap` case).
    #[inline]
    fn high_bits(&self, addr: u64) -> u64 {
        if self.partitions.is_power_of_two() {
            addr >> self.high_shift
        } else {
            (addr / CHUNK_BYTES) / self.partitions
        }
    }

    /// The slice `addr` goes to, given the one the address map picked (`slice`).
    #[inline]
    pub fn slice(&self, addr: u64, slice: u64) -> u64 {
        match self.index {
            PartitionIndex::Consecutive => slice,
            PartitionIndex::Xor => {
                let spp = self.slices_per_partition;
                let chip = (slice / spp) ^ (self.high_bits(addr) & (self.partitions - 1));
                chip * spp + slice % spp
            }
            PartitionIndex::Ipoly => {
                let h = ipoly(self.high_bits(addr), slice, self.hashed_slices);
                h % (self.partitions * self.slices_per_partition)
            }
            PartitionIndex::Random => {
                let piece = addr / (CHUNK_BYTES / self.slices_per_partition).max(1);
                mix(piece) % (self.partitions * self.slices_per_partition)
            }
        }
    }
}

/// A fixed, well-spread hash of `x` (SplitMix64's finaliser): `Random`'s draw for a piece.
#[inline]
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// XOR of the bits of `a` at `positions`.
#[inline]
fn parity(a: u64, positions: &[u32]) -> u64 {
    positions.iter().fold(0, |x, &p| x ^ (a >> p & 1))
}

/// GPGPU-Sim's `ipoly_hash_function`: bit `i` of the new index is bit `i` of `index` XOR the
/// parity of a fixed set of `high` bits (IPOLY(5) for 16, IPOLY(37) for 32, IPOLY(67) for 64
/// slices; configuration validation admits only those).
fn ipoly(high: u64, index: u64, slices: u64) -> u64 {
    const P16: [&[u32]; 4] = [
        &[11, 10, 9, 8, 6, 4, 3, 0],
        &[12, 8, 7, 6, 5, 3, 1, 0],
        &[9, 8, 7, 6, 4, 2, 1],
        &[10, 9, 8, 7, 5, 3, 2],
    ];
    const P32: [&[u32]; 5] = [
        &[13, 12, 11, 10, 9, 6, 5, 3, 0],
        &[14, 13, 12, 11, 10, 7, 6, 4, 1],
        &[14, 10, 9, 8, 7, 6, 3, 2, 0],
        &[11, 10, 9, 8, 7, 4, 3, 1],
        &[12, 11, 10, 9, 8, 5, 4, 2],
    ];
    const P64: [&[u32]; 6] = [
        &[18, 17, 16, 15, 12, 10, 6, 5, 0],
        &[15, 13, 12, 11, 10, 7, 5, 1, 0],
        &[16, 14, 13, 12, 11, 8, 6, 2, 1],
        &[17, 15, 14, 13, 12, 9, 7, 3, 2],
        &[18, 16, 15, 14, 13, 10, 8, 4, 3],
        &[17, 16, 15, 14, 11, 9, 5, 4],
    ];
    let table: &[&[u32]] = match slices {
        16 => &P16,
        32 => &P32,
        64 => &P64,
        _ => return index,
    };
    table.iter().enumerate().fold(0, |x, (i, bits)| {
        x | ((index >> i & 1) ^ parity(high, bits)) << i
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipoly_leaves_the_index_alone_below_the_hashed_bits() {
        let h = PartitionHash::new(PartitionIndex::Ipoly, 32, 2);
        // High bits start at bit 8 + 5 + 1 = 14: anything below keeps the map's slice.
        for s in 0..64 {
            assert_eq!(h.slice(0x3fff, s), s);
        }
    }

    #[test]
    fn ipoly_64_flips_the_bits_its_polynomial_names() {
        // High bit 0 (address bit 14) is in the equations of index bits 0 and 1; high bit 18
        // (address bit 32) in those of bits 0 and 4; high bit 6 (address bit 20) in bits 0 and 2.
        let h = PartitionHash::new(PartitionIndex::Ipoly, 32, 2);
        assert_eq!(h.slice(1 << 14, 0), 0b00011);
        assert_eq!(h.slice(1 << 32, 0), 0b10001);
        assert_eq!(h.slice(1 << 20, 0), 0b00101);
        assert_eq!(h.slice(1 << 20, 0b00101), 0);
    }

    #[test]
    fn a_power_of_two_stride_spreads_over_every_slice() {
        // 64 addresses 16 KiB apart (the bits above the slice bits count up): the consecutive
        // map sends them all to slice 0, IPOLY to each of the 64 once (on the 6 lowest high
        // bits its matrix is invertible).
        let c = PartitionHash::new(PartitionIndex::Consecutive, 32, 2);
        let h = PartitionHash::new(PartitionIndex::Ipoly, 32, 2);
        let mut seen = [0u32; 64];
        for i in 0..64u64 {
            assert_eq!(c.slice(i << 14, 0), 0);
            seen[h.slice(i << 14, 0) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }

    #[test]
    fn xor_permutes_the_partition_and_keeps_the_slice() {
        // 8 partitions, 2 slices each: high bits from bit 8 + 3 + 1 = 12.
        let h = PartitionHash::new(PartitionIndex::Xor, 8, 2);
        assert_eq!(h.slice(5 << 12, 2 * 2 + 1), (2 ^ 5) * 2 + 1);
    }

    #[test]
    fn a_non_power_of_two_count_takes_the_remainder() {
        // gtx480's shape: 6 partitions × 2 slices hashed as 16, then mod 12.
        let h = PartitionHash::new(PartitionIndex::Ipoly, 6, 2);
        for a in (0..1u64 << 24).step_by(4099 * 256) {
            assert!(h.slice(a, (a / 256 % 6) * 2) < 12);
        }
    }

    #[test]
    fn qv100s_map_spreads_a_64_kib_stride_that_consecutive_indexing_camps_on() {
        // 64 KiB apart, the chunk number moves by 256, a multiple of 32 partitions: the
        // consecutive map (titanx-pascal's rule on qv100's shape) puts all 64 addresses in
        // partition 0's slices; qv100's IPOLY sends each to a different slice of the 64.
        let cfg = warpsim_core::config::GpuConfig::load("qv100").unwrap();
        let ipoly = super::super::AddrMap::new(&cfg);
        let plain = super::super::AddrMap::new(
            &cfg.with_overrides(&["l2.partition_index=consecutive".into()])
                .unwrap(),
        );
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..64u64 {
            assert!(plain.slice(i << 16) < 2);
            seen.insert(ipoly.slice(i << 16));
        }
        assert_eq!(seen.len(), 64, "{seen:?}");
    }

    #[test]
    fn random_draws_a_fixed_slice_per_piece_and_spreads_them_evenly() {
        // titanx-pascal: 12 partitions x 2 slices, 128-byte pieces.
        let h = PartitionHash::new(PartitionIndex::Random, 12, 2);
        let mut count = [0u32; 24];
        for piece in 0..24_000u64 {
            let s = h.slice(piece * 128, 0);
            assert_eq!(s, h.slice(piece * 128 + 127, 5), "one slice per piece");
            count[s as usize] += 1;
        }
        assert!(count.iter().all(|&c| (800..1200).contains(&c)), "{count:?}");
        // Unlike the address map, consecutive pieces do not walk the slices in order.
        let walk: Vec<u64> = (0..8).map(|p| h.slice(p * 128, 0)).collect();
        assert!(walk.windows(2).any(|w| w[1] != (w[0] + 1) % 24), "{walk:?}");
    }
}
