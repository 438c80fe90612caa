//! The unified L1 D-cache / shared-memory carve-out (`l1d.unified_size`,
//! `l1d.shared_carveouts`): Volta's SM has one 128 KB array, and each kernel's shared memory
//! is cut out of it; the L1 gets the rest. As GPGPU-Sim's `shader_core_config::max_cta` with
//! `-gpgpu_adaptive_cache_config 1`: the shared memory a launch needs on an SM (per CTA ×
//! resident CTAs) picks the smallest carve-out option that holds it, and the L1 keeps its sets
//! and takes `round(max ways × (1 − carve-out / unified size))` ways, where max ways fill the
//! whole array.

use super::{GpuConfig, L1d};

impl L1d {
    /// `(size, assoc)` of the L1 for a launch whose resident CTAs use `shared_per_sm` bytes of
    /// shared memory on an SM. Without a unified array (`unified_size = 0`), `size` and `assoc`.
    /// A need above every carve-out (validation makes the largest hold `sm.shared_memory`, so
    /// only a launch that does not fit gets here with one) takes the largest.
    pub fn carved(&self, shared_per_sm: u64) -> (u32, u32) {
        if self.unified_size == 0 {
            return (self.size, self.assoc);
        }
        let set_bytes = self.size as u64 / self.assoc.max(1) as u64;
        let unified = self.unified_size as u64;
        // GPGPU-Sim's get_max_assoc: the ways that fill the whole array with the same sets.
        let max_ways = unified / set_bytes.max(1);
        let carve = self
            .shared_carveouts
            .iter()
            .map(|&c| c as u64)
            .filter(|&c| c >= shared_per_sm)
            .min()
            .or_else(|| self.shared_carveouts.iter().map(|&c| c as u64).max())
            .unwrap_or(0);
        // max_ways × (1 − carve / unified), rounded half up (GPGPU-Sim adds 0.5 and truncates).
        let ways = (max_ways * (unified - carve.min(unified)) * 2 + unified) / (2 * unified);
        let ways = ways.max(1);
        ((ways * set_bytes) as u32, ways as u32)
    }
}

impl GpuConfig {
    /// This configuration as a launch whose resident CTAs use `shared_per_sm` bytes of shared
    /// memory per SM sees it: the L1 D-cache carved out of the unified array
    /// ([`L1d::carved`]). `None` when nothing changes (no unified array), so callers borrow
    /// the configuration as it is.
    pub fn for_launch_shared(&self, shared_per_sm: u64) -> Option<GpuConfig> {
        if self.l1d.unified_size == 0 {
            return None;
        }
        let (size, assoc) = self.l1d.carved(shared_per_sm);
        let mut c = self.clone();
        c.l1d.size = size;
        c.l1d.assoc = assoc;
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::GpuConfig;

    const KIB: u64 = 1024;

    #[test]
    fn qv100_gives_the_l1_what_shared_memory_leaves() {
        // SM7_QV100: 4 sets × 128 B lines, 128 KB unified (256 ways at most), carve-outs
        // 0, 8, 16, 32, 64, 96 KB.
        let l1 = GpuConfig::load("qv100").unwrap().l1d;
        assert_eq!(
            l1.carved(0),
            (128 * KIB as u32, 256),
            "no shared memory: all of it"
        );
        // 1 byte needs the 8 KB carve-out: 256 × 120/128 = 240 ways.
        assert_eq!(l1.carved(1), (120 * KIB as u32, 240));
        assert_eq!(l1.carved(8 * KIB), (120 * KIB as u32, 240));
        assert_eq!(l1.carved(8 * KIB + 1), (112 * KIB as u32, 224));
        assert_eq!(l1.carved(40 * KIB), (64 * KIB as u32, 128));
        assert_eq!(l1.carved(96 * KIB), (32 * KIB as u32, 64));
    }

    #[test]
    fn without_a_unified_array_the_l1_is_its_size() {
        let c = GpuConfig::load("titanx-pascal").unwrap();
        assert_eq!(c.l1d.carved(48 * KIB), (c.l1d.size, c.l1d.assoc));
        assert!(c.for_launch_shared(48 * KIB).is_none());
        let q = GpuConfig::load("qv100")
            .unwrap()
            .for_launch_shared(0)
            .unwrap();
        assert_eq!((q.l1d.size, q.l1d.assoc), (128 * KIB as u32, 256));
    }

    #[test]
    fn rounding_is_half_up() {
        // 3 ways at most, carve-out a third: 3 × 2/3 = 2 exactly; a quarter: 2.25 → 2;
        // half: 1.5 → 2.
        let mut c = GpuConfig::load("qv100").unwrap().l1d;
        c.size = 512;
        c.assoc = 1;
        c.unified_size = 1536;
        c.shared_carveouts = vec![384, 512, 768];
        assert_eq!(c.carved(500).1, 2);
        assert_eq!(c.carved(384).1, 2);
        assert_eq!(c.carved(700).1, 2);
    }
}
