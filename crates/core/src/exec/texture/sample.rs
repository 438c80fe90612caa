//! The sampling arithmetic of the texture unit, as the CUDA programming guide's "Texture
//! Fetching" appendix defines it: addressing modes on texel indices, point sampling, and
//! linear filtering with the hardware's low-precision weights. Pure functions.

use super::desc::AddressMode;

/// Fractional bits of a linear-filtering weight: the guide's weights are 9-bit fixed point
/// with 8 fractional bits, so a weight is a multiple of 1/256 in [0, 1] (1.0 included).
pub const WEIGHT_FRACTION_BITS: u32 = 8;

/// The texel a texel index `i` along a dimension of `n` texels reads under `mode`; `None`
/// when it reads the border colour. Wrap and mirror repeat the texture (mirrored every other
/// period); clamp repeats the edge texel; border reads the border outside `0..n`.
pub fn address(mode: AddressMode, i: i64, n: i64) -> Option<i64> {
    let n = n.max(1);
    match mode {
        AddressMode::Clamp => Some(i.clamp(0, n - 1)),
        AddressMode::Border => (0..n).contains(&i).then_some(i),
        AddressMode::Wrap => Some(i.rem_euclid(n)),
        AddressMode::Mirror => {
            let j = i.rem_euclid(n.saturating_mul(2));
            Some(if j < n { j } else { 2 * n - 1 - j })
        }
    }
}

/// The addressing mode a dimension really uses: CUDA supports wrap and mirror with
/// normalized coordinates only; with unnormalized ones they behave as clamp.
pub fn effective_mode(mode: AddressMode, normalized_coords: bool) -> AddressMode {
    match mode {
        AddressMode::Wrap | AddressMode::Mirror if !normalized_coords => AddressMode::Clamp,
        m => m,
    }
}

/// A float coordinate in texel units: normalized coordinates are scaled by the size `n`.
pub fn texel_coord(x: f32, n: u64, normalized_coords: bool) -> f32 {
    if normalized_coords {
        x * n as f32
    } else {
        x
    }
}

/// `floor(x)` as an index (NaN reads texel 0, infinities saturate).
pub fn floor_index(x: f32) -> i64 {
    x.floor() as i64
}

/// Linear filtering along one dimension at texel coordinate `x`: the lower texel index
/// `i = floor(x − 0.5)` and the weight α of texel `i + 1` (texel `i` gets 1 − α), with α the
/// fraction of `x − 0.5` rounded to the nearest multiple of 1/256.
pub fn linear_weight(x: f32) -> (i64, f32) {
    let xb = x - 0.5;
    let fl = xb.floor();
    let scale = (1u32 << WEIGHT_FRACTION_BITS) as f32;
    let alpha = if fl.is_finite() {
        ((xb - fl) * scale).round() / scale
    } else {
        0.0
    };
    (fl as i64, alpha)
}

/// An 8- or 16-bit integer channel read as a normalized float: unsigned values map to
/// [0, 1] (v / (2ⁿ − 1)), signed ones to [-1, 1] (v / (2ⁿ⁻¹ − 1), the most negative value
/// clamped to -1).
pub fn normalized(v: i64, bits: u8, signed: bool) -> f32 {
    if signed {
        let max = ((1i64 << (bits - 1)) - 1) as f32;
        (v as f32 / max).max(-1.0)
    } else {
        v as f32 / ((1i64 << bits) - 1) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressMode::*;

    #[test]
    fn addressing_modes_on_a_four_texel_row() {
        let row = |mode| (-5..9).map(|i| address(mode, i, 4)).collect::<Vec<_>>();
        let s = |v: &[i64]| v.iter().map(|&i| Some(i)).collect::<Vec<_>>();
        assert_eq!(row(Clamp), s(&[0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3]));
        assert_eq!(row(Wrap), s(&[3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]));
        // Mirror: … 3 2 1 0 | 0 1 2 3 | 3 2 1 0 | 0 …
        assert_eq!(row(Mirror), s(&[3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0]));
        let b = row(Border);
        assert_eq!(b[..5], [None; 5]);
        assert_eq!(b[5..9], s(&[0, 1, 2, 3])[..]);
        assert_eq!(b[9..], [None; 5]);
    }

    #[test]
    fn wrap_and_mirror_need_normalized_coordinates() {
        assert_eq!(effective_mode(Wrap, false), Clamp);
        assert_eq!(effective_mode(Mirror, false), Clamp);
        assert_eq!(effective_mode(Wrap, true), Wrap);
        assert_eq!(effective_mode(Border, false), Border);
    }

    #[test]
    fn linear_weights_are_eight_bit_fractions() {
        // x = 1.0 lies halfway between the centres of texels 0 and 1.
        assert_eq!(linear_weight(1.0), (0, 0.5));
        // The centre of texel 2 reads it alone.
        assert_eq!(linear_weight(2.5), (2, 0.0));
        // 0.1 past a centre: 0.1·256 = 25.6 rounds to 26/256.
        assert_eq!(linear_weight(2.6), (2, 26.0 / 256.0));
        // Left of the first centre: texels -1 and 0.
        assert_eq!(linear_weight(0.25), (-1, 0.75));
        // A fraction within 1/512 of 1 rounds to the full weight on the upper texel.
        assert_eq!(linear_weight(3.4990), (2, 1.0));
    }

    #[test]
    fn normalized_reads() {
        assert_eq!(normalized(255, 8, false), 1.0);
        assert_eq!(normalized(0, 8, false), 0.0);
        assert_eq!(normalized(51, 8, false), 0.2);
        assert_eq!(normalized(127, 8, true), 1.0);
        assert_eq!(normalized(-128, 8, true), -1.0);
        assert_eq!(normalized(-127, 8, true), -1.0);
        assert_eq!(normalized(65535, 16, false), 1.0);
    }

    #[test]
    fn normalized_coordinates_scale_by_the_size() {
        assert_eq!(texel_coord(0.5, 8, true), 4.0);
        assert_eq!(texel_coord(0.5, 8, false), 0.5);
        assert_eq!(floor_index(-0.25), -1);
        assert_eq!(floor_index(f32::NAN), 0);
    }
}
