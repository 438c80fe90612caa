//! Typed ids for an SM's warp slots, CTA slots and warp schedulers, so a signature says which
//! of the three an index is and the compiler refuses one where another is meant.
//!
//! Per-slot state stays in plain `Vec`s (struct-of-arrays: the issue walk reads one array at a
//! time), indexed directly by the id: `v[slot]` works on any `Vec<T>` or `[T]`. An id holds a
//! `u32` (with `u16` inside, every use paid a zero-extension: +0.5% instructions on the timing
//! benchmarks); the policy interface and the records carry the narrower *raw* value (`u16`
//! warp and CTA slots, `u8` schedulers: what the hardware limits allow), converted at the
//! boundary with `from_raw`/`raw`.

use std::ops::{Index, IndexMut};

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident($raw:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The id of position `i` (which must fit: the SM's shape bounds every id).
            #[inline(always)]
            pub fn new(i: usize) -> Self {
                debug_assert!(i <= <$raw>::MAX as usize, "{} {} out of range", stringify!($name), i);
                $name(i as u32)
            }

            /// The id of a raw value from the policy interface (an order, an event).
            #[inline(always)]
            pub fn from_raw(r: $raw) -> Self {
                $name(r as u32)
            }

            /// The id as the policy interface and the records carry it.
            #[inline(always)]
            pub fn raw(self) -> $raw {
                self.0 as $raw
            }

            /// Its position in per-id arrays.
            #[inline(always)]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl<T> Index<$name> for [T] {
            type Output = T;
            #[inline(always)]
            fn index(&self, i: $name) -> &T {
                &self[i.index()]
            }
        }

        impl<T> IndexMut<$name> for [T] {
            #[inline(always)]
            fn index_mut(&mut self, i: $name) -> &mut T {
                &mut self[i.index()]
            }
        }

        impl<T> Index<$name> for Vec<T> {
            type Output = T;
            #[inline(always)]
            fn index(&self, i: $name) -> &T {
                &self[i.index()]
            }
        }

        impl<T> IndexMut<$name> for Vec<T> {
            #[inline(always)]
            fn index_mut(&mut self, i: $name) -> &mut T {
                &mut self[i.index()]
            }
        }
    };
}

typed_id!(
    /// A warp slot of one SM: where a resident warp's per-warp state lives. CTA slot `c` owns
    /// warp slots `c*W .. c*W + W` (W = warps per CTA); slot `w` belongs to scheduler `w mod S`.
    WarpSlot(u16)
);

typed_id!(
    /// A CTA slot of one SM: where a resident CTA's per-CTA state lives.
    CtaSlot(u16)
);

typed_id!(
    /// One of an SM's warp schedulers.
    SchedId(u8)
);

impl WarpSlot {
    /// The warp slots `range` (a CTA's, a scheduler's).
    pub fn range(range: std::ops::Range<usize>) -> impl Iterator<Item = WarpSlot> + Clone {
        range.map(WarpSlot::new)
    }
}

impl SchedId {
    /// The first `n` schedulers.
    pub fn all(n: usize) -> impl Iterator<Item = SchedId> {
        (0..n).map(SchedId::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_index_vectors_and_slices_by_position() {
        let mut v: Vec<i32> = (10..13).collect();
        v[WarpSlot(2)] += 1;
        assert_eq!(v[WarpSlot(2)], 13);
        assert_eq!(v[..][CtaSlot(1)], 11);
        assert_eq!(v[SchedId::new(0)], 10);
        assert_eq!(
            WarpSlot::range(1..3).collect::<Vec<_>>(),
            [WarpSlot(1), WarpSlot(2)]
        );
    }
}
