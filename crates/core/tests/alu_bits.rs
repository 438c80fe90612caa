//! Bit operations, checked against bit-by-bit transcriptions of the PTX manual's pseudocode.

use proptest::prelude::*;
use warpsim_core::alu::{int_binary, int_op, int_ternary, int_unary};
use warpsim_core::ir::{Mods, Op, Ty};

fn m() -> Mods {
    Mods::default()
}

fn bit(x: u64, i: u32) -> u64 {
    (x >> i) & 1
}

/// bfe as written in the manual (loop over destination bits).
fn bfe_ref(signed: bool, w: u32, a: u64, b: u64, c: u64) -> u64 {
    let msb = w - 1;
    let pos = (b & 0xff) as u32;
    let len = (c & 0xff) as u32;
    let sbit = if !signed || len == 0 {
        0
    } else {
        bit(a, (pos + len - 1).min(msb))
    };
    let mut d = 0u64;
    for i in 0..=msb {
        let v = if i < len && pos + i <= msb {
            bit(a, pos + i)
        } else {
            sbit
        };
        d |= v << i;
    }
    d
}

/// bfi as written in the manual.
fn bfi_ref(w: u32, a: u64, b: u64, c: u64, d: u64) -> u64 {
    let msb = w - 1;
    let pos = (c & 0xff) as u32;
    let len = (d & 0xff) as u32;
    let mut f = b & if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let mut i = 0;
    while i < len && pos + i <= msb {
        f = (f & !(1 << (pos + i))) | (bit(a, i) << (pos + i));
        i += 1;
    }
    f
}

/// prmt as the manual describes it (generic mode: nibble selectors with sign replication;
/// the other modes by the manual's table, written out per mode here).
fn prmt_ref(mode: u8, a: u64, b: u64, c: u64) -> u64 {
    let bytes: Vec<u64> = (0..8)
        .map(|i| (((b << 32) | (a & 0xFFFF_FFFF)) >> (8 * i)) & 0xFF)
        .collect();
    let s = (c & 3) as usize;
    // [d.b3, d.b2, d.b1, d.b0] as the manual's table lists them.
    let table: [usize; 4] = match mode {
        1 => [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]][s],
        2 => [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]][s],
        3 => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]][s],
        4 => [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]][s],
        5 => [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]][s],
        6 => [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]][s],
        _ => {
            let mut d = 0;
            for k in 0..4 {
                let sel = ((c >> (4 * k)) & 0xF) as usize;
                let v = bytes[sel & 7];
                let v = if sel & 8 != 0 {
                    if v >= 0x80 {
                        0xFF
                    } else {
                        0
                    }
                } else {
                    v
                };
                d |= v << (8 * k);
            }
            return d;
        }
    };
    (bytes[table[0]] << 24) | (bytes[table[1]] << 16) | (bytes[table[2]] << 8) | bytes[table[3]]
}

#[test]
fn shifts_clamp() {
    assert_eq!(int_binary(Op::Shl, Ty::B32, &m(), 11, 2), 44);
    assert_eq!(int_binary(Op::Shl, Ty::B32, &m(), 1, 31), 0x8000_0000);
    assert_eq!(int_binary(Op::Shl, Ty::B32, &m(), 1, 32), 0);
    assert_eq!(int_binary(Op::Shl, Ty::B32, &m(), 1, 0xFFFF_FFFF), 0);
    assert_eq!(int_binary(Op::Shl, Ty::B64, &m(), 1, 63), 1 << 63);
    assert_eq!(int_binary(Op::Shl, Ty::B64, &m(), 1, 64), 0);
    assert_eq!(int_binary(Op::Shl, Ty::B16, &m(), 0xFFFF, 8), 0xFF00);
    assert_eq!(int_binary(Op::Shr, Ty::U32, &m(), 0x8000_0000, 31), 1);
    assert_eq!(int_binary(Op::Shr, Ty::U32, &m(), 0x8000_0000, 32), 0);
    assert_eq!(
        int_binary(Op::Shr, Ty::B32, &m(), 0x8000_0000, 4),
        0x0800_0000
    );
    assert_eq!(
        int_binary(Op::Shr, Ty::S32, &m(), 0xFFFF_FFFE, 1),
        0xFFFF_FFFF
    ); // −2 >> 1 = −1
    assert_eq!(
        int_binary(Op::Shr, Ty::S32, &m(), 0x8000_0000, 40),
        0xFFFF_FFFF
    );
    assert_eq!(int_binary(Op::Shr, Ty::S32, &m(), 0x7FFF_FFFF, 40), 0);
    assert_eq!(int_binary(Op::Shr, Ty::S16, &m(), 0x8000, 100), 0xFFFF); // ZLUDA shr_oob
    assert_eq!(int_binary(Op::Shr, Ty::S64, &m(), 1 << 63, 64), u64::MAX);
    // The amount is the low 32 bits of the operand.
    assert_eq!(int_binary(Op::Shl, Ty::B32, &m(), 1, 0x1_0000_0003), 8);
}

#[test]
fn counting() {
    assert_eq!(
        int_unary(
            Op::Popc,
            Ty::B32,
            &m(),
            0b10111100_10010010_01001001_10001010
        ),
        14
    );
    assert_eq!(int_unary(Op::Popc, Ty::B64, &m(), u64::MAX), 64);
    assert_eq!(int_unary(Op::Popc, Ty::B32, &m(), 0xFFFF_FFFF_0000_0001), 1);
    assert_eq!(
        int_unary(
            Op::Clz,
            Ty::B32,
            &m(),
            0b00000101_00101101_00010011_10101011
        ),
        5
    );
    assert_eq!(int_unary(Op::Clz, Ty::B32, &m(), 0), 32);
    assert_eq!(int_unary(Op::Clz, Ty::B64, &m(), 0), 64);
    assert_eq!(int_unary(Op::Clz, Ty::B64, &m(), 1), 63);
    assert_eq!(
        int_unary(
            Op::Brev,
            Ty::B32,
            &m(),
            0b11000111_01011100_10101110_11111011
        ),
        0b11011111_01110101_00111010_11100011
    );
    assert_eq!(int_unary(Op::Brev, Ty::B64, &m(), 1), 1 << 63);
    // bfind (ZLUDA data) and signed forms.
    let sa = Mods {
        shiftamt: true,
        ..m()
    };
    assert_eq!(int_unary(Op::Bfind, Ty::U32, &m(), 0), 0xFFFF_FFFF);
    assert_eq!(int_unary(Op::Bfind, Ty::U32, &m(), 1), 0);
    assert_eq!(int_unary(Op::Bfind, Ty::U32, &m(), 0x64eb_0414), 30);
    assert_eq!(int_unary(Op::Bfind, Ty::U32, &sa, 0), 0xFFFF_FFFF);
    assert_eq!(int_unary(Op::Bfind, Ty::U32, &sa, 1), 31);
    assert_eq!(int_unary(Op::Bfind, Ty::U32, &sa, 0x19be_a67d), 3);
    assert_eq!(
        int_unary(Op::Bfind, Ty::S32, &m(), 0xFFFF_FFFF),
        0xFFFF_FFFF
    ); // −1: no non-sign bit
    assert_eq!(int_unary(Op::Bfind, Ty::S32, &m(), 0xFFFF_FFFE), 0); // −2
    assert_eq!(int_unary(Op::Bfind, Ty::S32, &m(), 0x8000_0000), 30);
    assert_eq!(int_unary(Op::Bfind, Ty::S32, &m(), 0x7FFF_FFFF), 30);
    assert_eq!(int_unary(Op::Bfind, Ty::S64, &sa, 0x8000_0000), 32);
    assert_eq!(int_unary(Op::Bfind, Ty::U64, &m(), 1 << 63), 63);
}

#[test]
fn bitfields_and_permutes() {
    assert_eq!(
        int_ternary(
            Op::Bfe,
            Ty::U32,
            &m(),
            0b11111000_11000001_00100010_10100000,
            16,
            8
        ),
        0b11000001
    );
    assert_eq!(
        int_ternary(
            Op::Bfe,
            Ty::S32,
            &m(),
            0b11111000_11000001_00100010_10100000,
            16,
            8
        ),
        0xFFFF_FFC1
    );
    assert_eq!(
        int_ternary(Op::Bfe, Ty::S32, &m(), 0x8000_0000, 40, 3),
        0xFFFF_FFFF
    ); // pos > msb: sign fill
    assert_eq!(int_ternary(Op::Bfe, Ty::U32, &m(), 0xFFFF_FFFF, 40, 3), 0);
    assert_eq!(int_ternary(Op::Bfe, Ty::S32, &m(), 0xFFFF_FFFF, 4, 0), 0); // len 0
    assert_eq!(
        int_ternary(Op::Bfe, Ty::U32, &m(), 0xABCD_1234, 0x104, 0x108),
        0x23
    ); // & 0xff
    assert_eq!(
        int_ternary(Op::Bfe, Ty::S64, &m(), 1 << 63, 60, 10),
        (-8i64) as u64
    ); // field 0b1000, clipped at the msb
    assert_eq!(int_op(Op::Bfi, Ty::B32, &m(), [0b10, 0b101, 0, 2]), 0b110);
    assert_eq!(
        int_op(Op::Bfi, Ty::B32, &m(), [0xFF, 0, 28, 8]),
        0xF000_0000
    );
    assert_eq!(int_op(Op::Bfi, Ty::B32, &m(), [0xFF, 7, 32, 8]), 7);
    assert_eq!(
        int_op(Op::Bfi, Ty::B64, &m(), [u64::MAX, 0, 60, 100]),
        0xF << 60
    );
    // prmt (ZLUDA data).
    let p = |mode: u8, a, b, c| {
        int_ternary(
            Op::Prmt,
            Ty::B32,
            &Mods {
                prmt_mode: mode,
                ..m()
            },
            a,
            b,
            c,
        )
    };
    assert_eq!(p(0, 0x70c5_07d6, 0x6fbd_4b5c, 0x7604), 0x6fbd_d65c);
    // Sign replication (msb of the selector nibble): ZLUDA prmt_signext data.
    assert_eq!(p(0, 0x0100_FE80, 0, 0x0208), 0x8000_80FF);
    assert_eq!(p(0, 0x0100_FE80, 0, 0x8C8C), 0xFF00_FF00);
    assert_eq!(p(0, 0x0100_FE80, 0, 0x8180), 0xFFFE_FF80);
    assert_eq!(p(0, 0x0100_FE80, 0, 0x0801), 0x80FF_80FE);
    // Only the low 16 bits of the selector matter in generic mode.
    assert_eq!(p(0, 0x70c5_07d6, 0x6fbd_4b5c, 0xFFFF_7604), 0x6fbd_d65c);
    assert_eq!(p(1, 0x4433_2211, 0x8877_6655, 1), 0x5544_3322); // f4e
    assert_eq!(p(2, 0x4433_2211, 0x8877_6655, 0), 0x6677_8811); // b4e
    assert_eq!(p(3, 0x4433_2211, 0x8877_6655, 2), 0x3333_3333); // rc8
    assert_eq!(p(4, 0x4433_2211, 0x8877_6655, 1), 0x4433_2222); // ecl
    assert_eq!(p(5, 0x4433_2211, 0x8877_6655, 2), 0x3333_2211); // ecr
    assert_eq!(p(6, 0x4433_2211, 0x8877_6655, 1), 0x4433_4433); // rc16
}

#[test]
fn funnel_shifts() {
    let s = |right: bool, clamp: bool, c: u64| {
        int_ternary(
            Op::Shf,
            Ty::B32,
            &Mods {
                hi: right,
                clamp,
                ..m()
            },
            0x1234_5678,
            0x9abc_def0,
            c,
        )
    };
    // ZLUDA shf data.
    assert_eq!(s(false, false, 12), 0xcdef_0123);
    assert_eq!(s(true, false, 12), 0xef01_2345);
    assert_eq!(s(false, true, 44), 0x1234_5678);
    assert_eq!(s(true, true, 44), 0x9abc_def0);
    assert_eq!(s(false, false, 44), 0xcdef_0123);
    assert_eq!(s(true, false, 44), 0xef01_2345);
    assert_eq!(s(false, false, 0), 0x9abc_def0);
    assert_eq!(s(true, false, 0), 0x1234_5678);
    assert_eq!(s(true, true, 32), 0x9abc_def0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn bfe_matches_manual(a in any::<u64>(), pos in prop_oneof![0u64..70, any::<u64>()], len in prop_oneof![0u64..70, any::<u64>()]) {
        for (ty, signed, w) in [(Ty::U32, false, 32), (Ty::S32, true, 32), (Ty::U64, false, 64), (Ty::S64, true, 64)] {
            let aa = if w == 32 { a & 0xFFFF_FFFF } else { a };
            prop_assert_eq!(int_ternary(Op::Bfe, ty, &m(), a, pos, len), bfe_ref(signed, w, aa, pos, len), "{:?}", ty);
        }
    }

    #[test]
    fn bfi_matches_manual(a in any::<u64>(), b in any::<u64>(), pos in prop_oneof![0u64..70, any::<u64>()], len in prop_oneof![0u64..70, any::<u64>()]) {
        prop_assert_eq!(int_op(Op::Bfi, Ty::B32, &m(), [a, b, pos, len]), bfi_ref(32, a, b, pos, len));
        prop_assert_eq!(int_op(Op::Bfi, Ty::B64, &m(), [a, b, pos, len]), bfi_ref(64, a, b, pos, len));
    }

    #[test]
    fn prmt_matches_manual(a in any::<u32>(), b in any::<u32>(), c in any::<u32>(), mode in 0u8..7) {
        let md = Mods { prmt_mode: mode, ..m() };
        prop_assert_eq!(int_ternary(Op::Prmt, Ty::B32, &md, a as u64, b as u64, c as u64), prmt_ref(mode, a as u64, b as u64, c as u64));
    }

    #[test]
    fn shifts_reference(a in any::<u64>(), n in prop_oneof![0u32..70, any::<u32>()]) {
        let a32 = a as u32;
        prop_assert_eq!(int_binary(Op::Shl, Ty::B32, &m(), a, n as u64), a32.checked_shl(n).unwrap_or(0) as u64);
        prop_assert_eq!(int_binary(Op::Shr, Ty::U32, &m(), a, n as u64), a32.checked_shr(n).unwrap_or(0) as u64);
        prop_assert_eq!(int_binary(Op::Shr, Ty::S32, &m(), a, n as u64), ((a32 as i32) >> n.min(31)) as u32 as u64);
        prop_assert_eq!(int_binary(Op::Shl, Ty::B64, &m(), a, n as u64), a.checked_shl(n).unwrap_or(0));
        prop_assert_eq!(int_binary(Op::Shr, Ty::S64, &m(), a, n as u64), ((a as i64) >> n.min(63)) as u64);
        let a16 = a as u16;
        prop_assert_eq!(int_binary(Op::Shr, Ty::U16, &m(), a, n as u64), a16.checked_shr(n).unwrap_or(0) as u64);
        prop_assert_eq!(int_binary(Op::Shr, Ty::S16, &m(), a, n as u64), ((a16 as i16) >> n.min(15)) as u16 as u64);
    }

    #[test]
    fn funnel_reference(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
        let wide = ((b as u64) << 32) | a as u64;
        for clamp in [false, true] {
            let n = if clamp { c.min(32) } else { c & 31 };
            let l = ((wide << n) >> 32) as u32; // n ≤ 32: the shift stays inside 64 bits
            let r = (wide >> n) as u32;
            let ml = Mods { clamp, ..m() };
            let mr = Mods { clamp, hi: true, ..m() };
            prop_assert_eq!(int_ternary(Op::Shf, Ty::B32, &ml, a as u64, b as u64, c as u64), l as u64);
            prop_assert_eq!(int_ternary(Op::Shf, Ty::B32, &mr, a as u64, b as u64, c as u64), r as u64);
        }
    }

    #[test]
    fn counting_reference(a in any::<u64>()) {
        let a32 = a as u32;
        prop_assert_eq!(int_unary(Op::Popc, Ty::B32, &m(), a), a32.count_ones() as u64);
        prop_assert_eq!(int_unary(Op::Clz, Ty::B32, &m(), a), a32.leading_zeros() as u64);
        prop_assert_eq!(int_unary(Op::Brev, Ty::B32, &m(), a), a32.reverse_bits() as u64);
        prop_assert_eq!(int_unary(Op::Clz, Ty::B64, &m(), a), a.leading_zeros() as u64);
        prop_assert_eq!(int_unary(Op::Brev, Ty::B64, &m(), a), a.reverse_bits());
        // bfind: highest bit differing from the sign (signed) / highest set bit (unsigned).
        let pos_u = if a32 == 0 { 0xFFFF_FFFF } else { 31 - a32.leading_zeros() as u64 };
        prop_assert_eq!(int_unary(Op::Bfind, Ty::U32, &m(), a), pos_u);
        let v = if (a32 as i32) < 0 { !a32 } else { a32 };
        let pos_s = if v == 0 { 0xFFFF_FFFF } else { 31 - v.leading_zeros() as u64 };
        prop_assert_eq!(int_unary(Op::Bfind, Ty::S32, &m(), a), pos_s);
        let sa = Mods { shiftamt: true, ..m() };
        let sh = if pos_s == 0xFFFF_FFFF { pos_s } else { 31 - pos_s };
        prop_assert_eq!(int_unary(Op::Bfind, Ty::S32, &sa, a), sh);
    }
}

/// bmsk as written in the PTX ISA (building the mask bit by bit).
fn bmsk_ref(clamp: bool, a: u32, b: u32) -> u32 {
    let (a1, b1) = (a & 31, b & 31);
    let (mut pos, mut len) = (a1, b1);
    if a1 + b1 >= 32 {
        len = 32 - a1; // the mask runs to bit 31
    }
    if clamp {
        if a >= 32 {
            return 0;
        }
        if b >= 32 {
            len = 32 - a1;
        }
    }
    if !clamp && a1 + b1 >= 32 {
        pos = a1;
    }
    (pos..pos + len).fold(0, |d, i| d | 1 << i)
}

#[test]
fn bmsk_examples_from_the_manual_and_edges() {
    let clamp = Mods {
        clamp: true,
        ..Mods::default()
    };
    let bm = |mods: &Mods, a: u64, b: u64| int_binary(Op::Bmsk, Ty::B32, mods, a, b);
    // The manual's example: `bmsk.wrap.b32 rd, 1, 2` is 0x00000006.
    assert_eq!(bm(&m(), 1, 2), 6);
    assert_eq!(bm(&clamp, 1, 2), 6);
    assert_eq!(bm(&m(), 0, 0), 0);
    assert_eq!(bm(&m(), 0, 31), 0x7fff_ffff);
    assert_eq!(bm(&m(), 4, 30), 0xffff_fff0); // past bit 31: from bit 4 up
    assert_eq!(bm(&m(), 36, 2), 0x30); // wrap: positions mod 32
    assert_eq!(bm(&clamp, 36, 2), 0); // clamp: a position past 31 gives nothing
    assert_eq!(bm(&clamp, 8, 32), 0xffff_ff00); // clamp: a width past 31 runs to bit 31
    assert_eq!(bm(&m(), 8, 32), 0); // wrap: width 32 is width 0
    assert_eq!(bm(&clamp, 0, 40), u32::MAX as u64);
}

proptest! {
    #[test]
    fn bmsk_matches_the_manual(a in 0u32..80, b in 0u32..80, clamp: bool) {
        let mods = Mods { clamp, ..Mods::default() };
        prop_assert_eq!(
            int_binary(Op::Bmsk, Ty::B32, &mods, a as u64, b as u64),
            bmsk_ref(clamp, a, b) as u64
        );
    }
}
