//! AES-128 (FIPS-197) on the CPU, byte by byte: S-box from the multiplicative inverse in
//! GF(2^8) and the affine map, key expansion, and the four round steps as the standard
//! writes them. Also builds the T-tables the `ispass_aes` kernel uses, from the same S-box.

/// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    p
}

/// The S-box: the inverse (0 for 0) followed by the affine transformation of FIPS-197 5.1.1.
pub(crate) fn sbox() -> [u8; 256] {
    let mut s = [0u8; 256];
    for (x, out) in s.iter_mut().enumerate() {
        // x^254 = x^-1 in GF(2^8)* (and 0 for 0).
        let mut inv = 1u8;
        for _ in 0..254 {
            inv = gf_mul(inv, x as u8);
        }
        if x == 0 {
            inv = 0;
        }
        *out = inv
            ^ inv.rotate_left(1)
            ^ inv.rotate_left(2)
            ^ inv.rotate_left(3)
            ^ inv.rotate_left(4)
            ^ 0x63;
    }
    s
}

/// The 44 words of the expanded key (FIPS-197 5.2), big-endian: byte 0 in bits 31..24.
pub(crate) fn expand_key(key: &[u8; 16], sbox: &[u8; 256]) -> [u32; 44] {
    let mut w = [0u32; 44];
    for i in 0..4 {
        w[i] = u32::from_be_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]]);
    }
    let mut rcon = 1u8;
    for i in 4..44 {
        let mut t = w[i - 1];
        if i % 4 == 0 {
            let b = t.rotate_left(8).to_be_bytes();
            t = u32::from_be_bytes([
                sbox[b[0] as usize],
                sbox[b[1] as usize],
                sbox[b[2] as usize],
                sbox[b[3] as usize],
            ]) ^ ((rcon as u32) << 24);
            rcon = gf_mul(rcon, 2);
        }
        w[i] = w[i - 4] ^ t;
    }
    w
}

/// The four T-tables, `T0[x] = (2s, s, s, 3s)` big-endian for `s = S[x]` and `T(k)` = `T0`
/// rotated right by `8k` bits, concatenated (1024 words).
pub(crate) fn ttables(sbox: &[u8; 256]) -> Vec<u32> {
    let t0: Vec<u32> = sbox
        .iter()
        .map(|&s| u32::from_be_bytes([gf_mul(s, 2), s, s, gf_mul(s, 3)]))
        .collect();
    (0..4)
        .flat_map(|k| t0.iter().map(move |t| t.rotate_right(8 * k)))
        .collect()
}

/// Encrypts one 16-byte block; the state is column-major (`state[r + 4c]`), as the input.
pub(crate) fn encrypt_block(block: &mut [u8], round_keys: &[u32; 44], sbox: &[u8; 256]) {
    let add_round_key = |s: &mut [u8], r: usize| {
        for c in 0..4 {
            let k = round_keys[4 * r + c].to_be_bytes();
            for row in 0..4 {
                s[row + 4 * c] ^= k[row];
            }
        }
    };
    add_round_key(block, 0);
    for round in 1..=10 {
        for b in block.iter_mut() {
            *b = sbox[*b as usize];
        }
        // ShiftRows: row r rotates left by r columns.
        let old: Vec<u8> = block.to_vec();
        for row in 1..4 {
            for c in 0..4 {
                block[row + 4 * c] = old[row + 4 * ((c + row) % 4)];
            }
        }
        if round < 10 {
            for c in 0..4 {
                let a: Vec<u8> = block[4 * c..4 * c + 4].to_vec();
                for row in 0..4 {
                    block[row + 4 * c] = gf_mul(a[row], 2)
                        ^ gf_mul(a[(row + 1) % 4], 3)
                        ^ a[(row + 2) % 4]
                        ^ a[(row + 3) % 4];
                }
            }
        }
        add_round_key(block, round);
    }
}

/// Hex text to bytes (test vectors).
pub(crate) fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect()
}

/// FIPS-197 Appendix C.1: (key, plaintext, ciphertext).
pub(crate) const FIPS197_C1: (&str, &str, &str) = (
    "000102030405060708090a0b0c0d0e0f",
    "00112233445566778899aabbccddeeff",
    "69c4e0d86a7b0430d8cdb78070b4c55a",
);
/// FIPS-197 Appendix B.
pub(crate) const FIPS197_B: (&str, &str, &str) = (
    "2b7e151628aed2a6abf7158809cf4f3c",
    "3243f6a8885a308d313198a2e0370734",
    "3925841d02dc09fbdc118597196a0b32",
);

/// Whether this implementation reproduces the two FIPS-197 vectors.
pub(crate) fn self_test() -> bool {
    let s = sbox();
    [FIPS197_C1, FIPS197_B].iter().all(|(k, p, c)| {
        let key: [u8; 16] = hex(k).try_into().unwrap_or([0; 16]);
        let mut block = hex(p);
        encrypt_block(&mut block, &expand_key(&key, &s), &s);
        block == hex(c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbox_known_entries() {
        let s = sbox();
        assert_eq!(
            (s[0x00], s[0x01], s[0x53], s[0xff]),
            (0x63, 0x7c, 0xed, 0x16)
        );
    }

    #[test]
    fn key_expansion_appendix_a1() {
        let key: [u8; 16] = hex(FIPS197_B.0).try_into().unwrap();
        let w = expand_key(&key, &sbox());
        assert_eq!((w[4], w[43]), (0xa0fafe17, 0xb6630ca6));
    }

    #[test]
    fn fips197_vectors() {
        assert!(self_test());
    }

    #[test]
    fn ttables_fold_sbox_and_mixcolumns() {
        let s = sbox();
        let t = ttables(&s);
        assert_eq!(
            t[0x53],
            u32::from_be_bytes([gf_mul(0xed, 2), 0xed, 0xed, gf_mul(0xed, 3)])
        );
        assert_eq!(t[256 + 0x53], t[0x53].rotate_right(8));
        assert_eq!(t[512 + 1] >> 24, s[1] as u32);
    }
}
