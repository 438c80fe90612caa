//! Text measurement and shortening. The SVG backend writes text as `<text>` elements and the
//! viewer picks the font, so no font is loaded here: widths are estimated from per-character
//! classes of a typical sans-serif font, erring wide so that layouts leave room.

/// Estimated width in pixels of `s` set in a sans-serif font of `px` pixels.
pub(crate) fn width(s: &str, px: f64) -> f64 {
    s.chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | ' ' | '(' | ')' | '1'
            | 'I' | 'f' | 't' | 'r' => 0.34,
            'm' | 'w' | 'M' | 'W' => 0.86,
            c if c.is_ascii_uppercase() => 0.68,
            _ => 0.56,
        })
        .sum::<f64>()
        * px
}

/// `s` cut to at most `max_chars` characters, the cut marked with an ellipsis, so that one
/// very long program or policy name cannot push the plot area off the canvas.
pub(crate) fn truncate(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max_chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `s` broken at spaces into lines at most `max_w` pixels wide (a word wider than that gets a
/// line of its own), for notes that must be read in full.
pub(crate) fn wrap(s: &str, max_w: f64, px: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split(' ') {
        match lines.last_mut() {
            Some(line) if width(line, px) + width(" ", px) + width(word, px) <= max_w => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_within_width() {
        let lines = wrap(
            "No GM bar for S0, S1: a value is missing or not positive.",
            120.0,
            11.0,
        );
        assert!(lines.len() > 1);
        assert_eq!(
            lines.join(" "),
            "No GM bar for S0, S1: a value is missing or not positive."
        );
        assert!(lines.iter().all(|l| width(l, 11.0) <= 120.0));
        assert_eq!(wrap("short", 500.0, 11.0), vec!["short".to_string()]);
    }

    #[test]
    fn truncate_keeps_short_and_marks_cut() {
        assert_eq!(truncate("MM", 5), "MM");
        assert_eq!(truncate("abcdefgh", 5), "abcd…");
        assert_eq!(truncate("abcdefgh", 5).chars().count(), 5);
    }

    #[test]
    fn wider_text_measures_wider() {
        assert!(width("MWF(GTO)+CFF", 12.0) > width("GTO", 12.0));
        assert!(width("W", 12.0) > width("i", 12.0));
        assert_eq!(width("", 12.0), 0.0);
    }
}
