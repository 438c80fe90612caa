//! The seeded xorshift64 generator the crate's randomized unit tests share (deterministic: a
//! failing case reproduces from its seed).

/// The generator's successive 64-bit values from `seed` (which must not be 0).
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// Values below the argument, from [`xorshift`]`(seed)`.
pub fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut next = xorshift(seed);
    move |n| next() % n
}
