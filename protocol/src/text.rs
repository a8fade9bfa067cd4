//! Which characters free text may hold: one rule for every text a person types, checked
//! when it is saved and applied again wherever stored text is written into another
//! format (SVG for markup, PDF for reports, HTML for mail, log lines).
//!
//! Refused: control characters (C0 and C1; the input's own rule says whether line
//! breaks and tabs are allowed), and Unicode's noncharacters (U+FDD0–U+FDEF and the
//! last two code points of every plane, U+FFFE and U+FFFF among them), which XML 1.0
//! — and so SVG — does not allow at all (XML 1.0 §2.2, production `Char`): one such
//! character made a whole marked-up photo fail to draw. Surrogates cannot occur in a
//! Rust string.

/// Whether `c` is a Unicode noncharacter (Unicode §23.7).
pub fn is_noncharacter(c: char) -> bool {
    let n = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE
}

/// Whether `c` may appear in stored free text, line breaks and tabs aside.
pub fn is_text_char(c: char) -> bool {
    !c.is_control() && !is_noncharacter(c)
}

/// Whether `c` may be written into an XML document's text (XML 1.0 `Char`): what is
/// dropped from stored text that an older rule let in, rather than failing the document.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (!c.is_control() && !is_noncharacter(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noncharacters_and_controls_are_not_text() {
        for c in ['\u{FFFE}', '\u{FFFF}', '\u{FDD0}', '\u{FDEF}', '\u{1FFFE}', '\u{10FFFF}', '\0', '\u{7}', '\u{1B}', '\u{85}'] {
            assert!(!is_text_char(c), "{:?}", c);
            assert!(!is_xml_char(c), "{:?}", c);
        }
        for c in ['a', 'é', '€', '\u{FDCF}', '\u{FDF0}', '\u{FFFD}', '👷', '\u{200D}', '\u{1F3FD}'] {
            assert!(is_text_char(c), "{:?}", c);
            assert!(is_xml_char(c), "{:?}", c);
        }
        assert!(is_xml_char('\n') && !is_text_char('\n'), "line breaks are the input's own rule");
    }
}
