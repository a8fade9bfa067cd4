//! Which page shows what: the report paginated before anything is drawn, so every
//! page can say "Page 3 of 14" and the generator knows how many photos it will place.
//! Sizes are PDF points on US Letter paper.

use std::ops::Range;

use protocol::ReportContent;

use super::text::{self, Weight};
use super::words;

pub const PAGE_WIDTH: f32 = 612.0;
pub const PAGE_HEIGHT: f32 = 792.0;
pub const MARGIN: f32 = 54.0;
/// Where page content starts, under the running header.
pub const CONTENT_TOP: f32 = 78.0;
/// Where page content ends, above the footer.
pub const CONTENT_BOTTOM: f32 = 738.0;
pub const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;

pub const MILESTONES_PER_PAGE: usize = 22;
pub const PAIRS_PER_PAGE: usize = 2;
/// The "what changed" list: sentence size and line height, and its date column.
pub const CHANGE_SIZE: f32 = 9.5;
pub const CHANGE_LINE: f32 = 13.0;
pub const CHANGE_GAP: f32 = 6.0;
pub const DATE_COLUMN: f32 = 92.0;
/// Headings of the list pages ("Milestones", "What changed"): the band they take.
pub const HEADING_BAND: f32 = 44.0;

#[derive(Clone, Debug, PartialEq)]
pub enum Page {
    Cover,
    Milestones(Range<usize>),
    /// Photos of one section; `first` when the section starts on this page.
    Photos { section: usize, photos: Range<usize>, first: bool },
    Pairs(Range<usize>),
    Changes(Range<usize>),
}

/// A change's sentence, broken to the width of its column.
pub fn change_lines(content: &ReportContent, index: usize) -> Vec<String> {
    content.changes.get(index).map_or_else(Vec::new, |entry| {
        text::wrap(&words::change(entry), Weight::Regular, CHANGE_SIZE, CONTENT_WIDTH - DATE_COLUMN)
    })
}

/// Every page of the report, in order.
pub fn paginate(content: &ReportContent) -> Vec<Page> {
    let mut pages = vec![Page::Cover];
    for start in (0..content.milestones.len()).step_by(MILESTONES_PER_PAGE) {
        pages.push(Page::Milestones(start..(start + MILESTONES_PER_PAGE).min(content.milestones.len())));
    }
    let per_page = usize::from(content.per_page.clamp(1, 4));
    for (section, s) in content.sections.iter().enumerate() {
        for start in (0..s.photos.len()).step_by(per_page) {
            pages.push(Page::Photos { section, photos: start..(start + per_page).min(s.photos.len()), first: start == 0 });
        }
    }
    for start in (0..content.pairs.len()).step_by(PAIRS_PER_PAGE) {
        pages.push(Page::Pairs(start..(start + PAIRS_PER_PAGE).min(content.pairs.len())));
    }
    // The closing page(s): as many changes as fit under the heading, then the next page.
    let room = CONTENT_BOTTOM - CONTENT_TOP - HEADING_BAND;
    let mut start = 0;
    let mut used = 0.0;
    for index in 0..content.changes.len() {
        let height = change_lines(content, index).len() as f32 * CHANGE_LINE + CHANGE_GAP;
        if used + height > room && index > start {
            pages.push(Page::Changes(start..index));
            start = index;
            used = 0.0;
        }
        used += height;
    }
    // A closing page even with nothing in it: it says so.
    pages.push(Page::Changes(start..content.changes.len()));
    pages
}

/// How many photos a report places (the generator's progress counts these).
pub fn photo_count(content: &ReportContent) -> usize {
    content.sections.iter().map(|s| s.photos.len()).sum::<usize>() + 2 * content.pairs.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{ReportPhoto, ReportSection};

    pub(crate) fn content(per_page: u8, sections: &[usize], changes: usize) -> ReportContent {
        let photo = ReportPhoto { photo: crate::media::report::tests::image("i"), comments: vec![], shapes: vec![] };
        ReportContent {
            project: crate::media::report::tests::project(),
            from: None,
            to: None,
            generated_at: 0,
            per_page,
            milestones: vec![],
            sections: sections
                .iter()
                .map(|n| ReportSection { milestone: None, date: Some(0), note: None, photos: vec![photo.clone(); *n] })
                .collect(),
            pairs: vec![],
            changes: (0..changes).map(|_| crate::media::report::tests::entry()).collect(),
        }
    }

    #[test]
    fn each_section_starts_a_page_and_fills_pages_of_its_size() {
        let pages = paginate(&content(4, &[5, 4], 0));
        assert_eq!(
            pages,
            vec![
                Page::Cover,
                Page::Photos { section: 0, photos: 0..4, first: true },
                Page::Photos { section: 0, photos: 4..5, first: false },
                Page::Photos { section: 1, photos: 0..4, first: true },
                Page::Changes(0..0),
            ]
        );
        assert_eq!(paginate(&content(1, &[3], 0)).len(), 5);
    }

    #[test]
    fn long_change_lists_run_onto_more_pages_and_keep_every_entry() {
        let pages = paginate(&content(2, &[], 120));
        let ranges: Vec<Range<usize>> = pages
            .iter()
            .filter_map(|p| match p {
                Page::Changes(r) => Some(r.clone()),
                _ => None,
            })
            .collect();
        assert!(ranges.len() > 1, "{ranges:?}");
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(120));
        assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
    }
}
