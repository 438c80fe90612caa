//! Colours. Series and stack components use Paul Tol's "muted" qualitative scheme, which
//! stays distinguishable for the common forms of colour blindness and in greyscale print
//! (its order alternates dark and light, so neighbouring bars differ in lightness as well as
//! hue). Timeline phases use Tol's "light" scheme, light enough for black phase numbers.

use plotters::style::RGBColor;

const MUTED: [RGBColor; 9] = [
    RGBColor(0xCC, 0x66, 0x77), // rose
    RGBColor(0x33, 0x22, 0x88), // indigo
    RGBColor(0xDD, 0xCC, 0x77), // sand
    RGBColor(0x11, 0x77, 0x33), // green
    RGBColor(0x88, 0xCC, 0xEE), // cyan
    RGBColor(0x88, 0x22, 0x55), // wine
    RGBColor(0x44, 0xAA, 0x99), // teal
    RGBColor(0x99, 0x99, 0x33), // olive
    RGBColor(0xAA, 0x44, 0x99), // purple
];

const LIGHT: [RGBColor; 8] = [
    RGBColor(0x77, 0xAA, 0xDD), // light blue
    RGBColor(0xEE, 0x88, 0x66), // orange
    RGBColor(0xEE, 0xDD, 0x88), // light yellow
    RGBColor(0xFF, 0xAA, 0xBB), // pink
    RGBColor(0x99, 0xDD, 0xFF), // light cyan
    RGBColor(0x44, 0xBB, 0x99), // mint
    RGBColor(0xBB, 0xCC, 0x33), // pear
    RGBColor(0xAA, 0xAA, 0x00), // olive
];

/// Colour of series (or stack component) `i`; past nine the colours repeat (the legend still
/// names every series in bar order).
pub(crate) fn series(i: usize) -> RGBColor {
    MUTED[i % MUTED.len()]
}

/// Colour of warp phase `k`; consecutive phases always differ.
pub(crate) fn phase(k: u32) -> RGBColor {
    LIGHT[k as usize % LIGHT.len()]
}

/// Black or white, whichever reads better on `bg` (by relative luminance).
pub(crate) fn text_on(bg: RGBColor) -> RGBColor {
    let lum = 0.2126 * bg.0 as f64 + 0.7152 * bg.1 as f64 + 0.0722 * bg.2 as f64;
    if lum < 140.0 {
        RGBColor(0xFF, 0xFF, 0xFF)
    } else {
        TEXT
    }
}

pub(crate) const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub(crate) const AXIS: RGBColor = RGBColor(0x44, 0x44, 0x44);
pub(crate) const GRID: RGBColor = RGBColor(0xE3, 0xE3, 0xE3);
pub(crate) const NOTE: RGBColor = RGBColor(0x66, 0x66, 0x66);
pub(crate) const REFERENCE: RGBColor = RGBColor(0x22, 0x22, 0x22);
pub(crate) const BARRIER_WAIT: RGBColor = RGBColor(0xB4, 0xB4, 0xB4);
pub(crate) const EXIT_WAIT: RGBColor = RGBColor(0x55, 0x55, 0x55);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_contrasts_with_its_background() {
        assert_eq!(
            text_on(RGBColor(0x33, 0x22, 0x88)),
            RGBColor(0xFF, 0xFF, 0xFF)
        );
        assert_eq!(text_on(RGBColor(0xDD, 0xCC, 0x77)), TEXT);
    }
}
