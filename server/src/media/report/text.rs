//! The report's two fonts and line breaking. krilla shapes and embeds the text; this
//! measures it (advance widths from the same font files) to break lines, so what is
//! measured is what is drawn.

use std::sync::LazyLock;

/// DejaVu Sans and DejaVu Sans Bold (free licence: assets/fonts/LICENSE-DejaVu.txt):
/// every Latin, Greek and Cyrillic letter a name or caption may hold.
pub const REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
pub const BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

struct Metrics {
    face: ttf_parser::Face<'static>,
    units_per_em: f32,
}

impl Metrics {
    fn load(data: &'static [u8]) -> Option<Metrics> {
        let face = ttf_parser::Face::parse(data, 0).ok()?;
        let units_per_em = f32::from(face.units_per_em());
        Some(Metrics { face, units_per_em })
    }

    /// Width of `text` at 1 pt. A character the font lacks measures as the font's
    /// missing glyph, which is what krilla draws for it.
    fn width(&self, text: &str) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| {
                let glyph = self.face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
                u32::from(self.face.glyph_hor_advance(glyph).unwrap_or(0))
            })
            .sum();
        units as f32 / self.units_per_em
    }
}

static METRICS: LazyLock<Option<(Metrics, Metrics)>> =
    LazyLock::new(|| Some((Metrics::load(REGULAR)?, Metrics::load(BOLD)?)));

/// The width of `text` set at `size` points.
pub fn width(text: &str, weight: Weight, size: f32) -> f32 {
    let Some((regular, bold)) = METRICS.as_ref() else {
        // The fonts are compiled in; a parse failure would be a broken build, so
        // measure generously rather than fail a report.
        return text.chars().count() as f32 * size * 0.6;
    };
    let metrics = if weight == Weight::Bold { bold } else { regular };
    metrics.width(text) * size
}

/// `text` broken into lines no wider than `max` points: at spaces where it can, inside
/// a word that is wider than a line on its own. Line breaks in the text are kept.
pub fn wrap(text: &str, weight: Weight, size: f32, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if width(&candidate, weight, size) <= max {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            // A word wider than the line is cut where it must be.
            let mut piece = String::new();
            for c in word.chars() {
                piece.push(c);
                if width(&piece, weight, size) > max && piece.chars().count() > 1 {
                    piece.pop();
                    lines.push(std::mem::take(&mut piece));
                    piece.push(c);
                }
            }
            line = piece;
        }
        lines.push(line);
    }
    lines
}

/// At most `max_lines` of `lines`, the last one ending in "…" when some were left out.
pub fn clamp(mut lines: Vec<String>, max_lines: usize, weight: Weight, size: f32, max: f32) -> Vec<String> {
    if lines.len() <= max_lines {
        return lines;
    }
    lines.truncate(max_lines);
    if let Some(last) = lines.last_mut() {
        while !last.is_empty() && width(&format!("{last}…"), weight, size) > max {
            last.pop();
        }
        let trimmed = last.trim_end().to_owned();
        *last = format!("{trimmed}…");
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_fit_and_keep_every_word_in_order() {
        let text = "Rough-in electrical on the north kitchen wall, before the drywall goes up next week";
        let lines = wrap(text, Weight::Regular, 10.0, 120.0);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| width(l, Weight::Regular, 10.0) <= 120.0), "{lines:?}");
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn bold_is_wider_and_size_scales() {
        let regular = width("Framing", Weight::Regular, 10.0);
        assert!(width("Framing", Weight::Bold, 10.0) > regular);
        assert!((width("Framing", Weight::Regular, 20.0) - 2.0 * regular).abs() < 0.01);
    }

    #[test]
    fn a_word_longer_than_a_line_is_cut_and_newlines_are_kept() {
        let lines = wrap("Supercalifragilisticexpialidocious\nnext", Weight::Regular, 12.0, 60.0);
        assert!(lines.len() >= 3, "{lines:?}");
        assert_eq!(lines.last().map(String::as_str), Some("next"));
        assert_eq!(lines[..lines.len() - 1].concat(), "Supercalifragilisticexpialidocious");
    }

    #[test]
    fn clamping_marks_what_was_left_out() {
        let lines = vec!["one two".to_owned(), "three".to_owned(), "four".to_owned()];
        assert_eq!(clamp(lines.clone(), 3, Weight::Regular, 10.0, 100.0), lines);
        assert_eq!(clamp(lines, 2, Weight::Regular, 10.0, 100.0), vec!["one two".to_owned(), "three…".to_owned()]);
    }
}
