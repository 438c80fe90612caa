//! SHA-1 (FIPS 180-4) on the CPU for messages of any byte length, written from the standard:
//! padding, the 80-word message schedule, and the four round functions.

/// The digest of `msg` as five big-endian words.
pub(crate) fn sha1(msg: &[u8]) -> [u32; 5] {
    let mut h = [
        0x6745_2301u32,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let mut padded = msg.to_vec();
    padded.push(0x80);
    while padded.len() % 64 != 56 {
        padded.push(0);
    }
    padded.extend_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
    for block in padded.chunks_exact(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (hi, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *hi = hi.wrapping_add(v);
        }
    }
    h
}

/// FIPS 180-4 example "abc".
pub(crate) const ABC: (&[u8], [u32; 5]) = (
    b"abc",
    [0xa9993e36, 0x4706816a, 0xba3e2571, 0x7850c26c, 0x9cd0d89d],
);
/// FIPS 180-4 example of 448 bits (two blocks after padding).
pub(crate) const ABCDBCDE: (&[u8], [u32; 5]) = (
    b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    [0x84983e44, 0x1c3bd26e, 0xbaae4aa1, 0xf95129e5, 0xe54670f1],
);

/// Whether this implementation reproduces the FIPS 180-4 examples.
pub(crate) fn self_test() -> bool {
    sha1(ABC.0) == ABC.1 && sha1(ABCDBCDE.0) == ABCDBCDE.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fips180_vectors() {
        assert!(self_test());
        assert_eq!(
            sha1(b""),
            [0xda39a3ee, 0x5e6b4b0d, 0x3255bfef, 0x95601890, 0xafd80709]
        );
        // One million 'a': the long-message example.
        assert_eq!(
            sha1(&vec![b'a'; 1_000_000]),
            [0x34aa973c, 0xd4c4daa4, 0xf61eeb2b, 0xdbad2731, 0x6534016f]
        );
    }
}
