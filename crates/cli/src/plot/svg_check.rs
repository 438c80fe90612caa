//! Test helpers that read the SVG the charts write, just enough to check structure: tags
//! balance, which texts are present, how many rectangles have a given fill.

/// Panics unless `svg` is one `<svg>` element whose tags all balance.
pub(crate) fn well_formed(svg: &str) {
    assert!(
        svg.starts_with("<svg "),
        "does not start with <svg: {:?}",
        &svg[..svg.len().min(40)]
    );
    assert!(
        svg.trim_end().ends_with("</svg>"),
        "does not end with </svg>"
    );
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let end = rest[i..]
            .find('>')
            .map(|j| i + j)
            .expect("unterminated tag");
        let tag = &rest[i + 1..end];
        let name = tag
            .trim_start_matches('/')
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        assert!(!name.is_empty(), "empty tag name in {tag:?}");
        if tag.starts_with('/') {
            assert_eq!(stack.pop(), Some(name), "unbalanced </{name}>");
        } else if !tag.ends_with('/') {
            stack.push(name);
        }
        assert!(
            !stack.is_empty() || rest[end + 1..].trim().is_empty(),
            "content after the root element"
        );
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// Whether a `<text>` element holds exactly `s`.
pub(crate) fn has_text(svg: &str, s: &str) -> bool {
    svg.contains(&format!(">\n{}\n</text>", escape(s)))
}

/// Number of `<text>` elements holding exactly `s`.
pub(crate) fn count_text(svg: &str, s: &str) -> usize {
    svg.matches(&format!(">\n{}\n</text>", escape(s))).count()
}

/// Number of filled `<rect>`s whose fill is `hex` (`#RRGGBB`, upper case).
pub(crate) fn count_filled(svg: &str, hex: &str) -> usize {
    let fill = format!("fill=\"{hex}\"");
    svg.lines()
        .filter(|l| l.starts_with("<rect") && l.contains(&fill))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_rejects_broken_documents() {
        well_formed("<svg a=\"1\">\n<rect/>\n<text>\nx\n</text>\n</svg>\n");
        for bad in [
            "<svg a=\"1\">\n<text>\nx\n</svg>\n",
            "<g>\n</g>\n",
            "<svg a=\"1\">\n</svg>\n<rect/>\n",
        ] {
            assert!(
                std::panic::catch_unwind(|| well_formed(bad)).is_err(),
                "{bad:?}"
            );
        }
    }
}
