//! Progress reports as PDF (docs/FEATURES.md, "Progress reports"). The domain decides
//! what a report holds (`ReportContent`); this lays it out on US Letter pages and writes
//! the PDF with krilla: text set in the bundled DejaVu fonts (subset and embedded, so it
//! is selectable and prints the same everywhere), photos embedded as the JPEGs they are
//! (the display rendition, markup already drawn on), never re-compressed. Pages are drawn
//! one at a time and each photo is asked for only when its page is drawn, so no more than
//! one photo's bytes wait here at a time.

pub mod layout;
pub mod text;
pub mod words;

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::image::Image;
use krilla::metadata::{DateTime, Metadata};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::{Data, Document};
use protocol::{ReportContent, ReportMilestoneState, ReportPhoto};

use layout::{Page, CONTENT_BOTTOM, CONTENT_TOP, CONTENT_WIDTH, MARGIN, PAGE_HEIGHT, PAGE_WIDTH};
use text::Weight;

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("the report's PDF could not be written: {0}")]
    Pdf(String),
}

/// A finished report.
pub struct Rendered {
    pub bytes: Vec<u8>,
    pub pages: usize,
}

/// Where the report's photos come from, one at a time as their pages are drawn.
pub trait PhotoSource {
    /// The JPEG to show for a photo (markup drawn on when the report asks for it), or
    /// `None` when it cannot be had: its place then says so.
    fn jpeg(&mut self, photo_id: &str) -> Option<Vec<u8>>;
    /// `done` photos of the report are placed.
    fn placed(&mut self, done: usize);
}

const INK: (u8, u8, u8) = (15, 23, 42);
const MUTED: (u8, u8, u8) = (100, 116, 139);
const RULE: (u8, u8, u8) = (226, 232, 240);
const PAPER_TINT: (u8, u8, u8) = (241, 245, 249);
const BRAND: (u8, u8, u8) = (217, 119, 6);
const DONE: (u8, u8, u8) = (22, 163, 74);
const LATE: (u8, u8, u8) = (220, 38, 38);
const CURRENT: (u8, u8, u8) = (245, 158, 11);

/// Writes the report. `cover` is the photo shown on the cover, if any.
pub fn render(content: &ReportContent, cover: Option<&str>, photos: &mut dyn PhotoSource) -> Result<Rendered, ReportError> {
    let pages = layout::paginate(content);
    let count = pages.len();
    let regular = Font::new(Data::from(text::REGULAR), 0).ok_or_else(|| ReportError::Pdf("the regular font".into()))?;
    let bold = Font::new(Data::from(text::BOLD), 0).ok_or_else(|| ReportError::Pdf("the bold font".into()))?;
    let settings =
        PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT).ok_or_else(|| ReportError::Pdf("the page size".into()))?;

    let mut document = Document::new();
    document.set_metadata(metadata(content));
    let mut placed = 0;
    for (index, plan) in pages.iter().enumerate() {
        let mut page = document.start_page_with(settings.clone());
        let mut surface = page.surface();
        let mut pen = Pen { surface: &mut surface, regular: regular.clone(), bold: bold.clone() };
        match plan {
            Page::Cover => cover_page(&mut pen, content, cover.and_then(|id| photos.jpeg(id))),
            Page::Milestones(rows) => milestones_page(&mut pen, content, rows.clone()),
            Page::Photos { section, photos: range, first } => {
                let section = &content.sections[*section];
                let heading = section_heading(section, content);
                let note = if *first { section.note.as_deref() } else { None };
                let top = pen.heading(&if *first { heading } else { format!("{heading} (continued)") }, note);
                let slots = slots(usize::from(content.per_page.clamp(1, 4)), top);
                for (photo, slot) in section.photos[range.clone()].iter().zip(slots) {
                    let jpeg = photos.jpeg(&photo.photo.id);
                    pen.photo(slot, photo, jpeg, content.per_page);
                    placed += 1;
                    photos.placed(placed);
                }
            }
            Page::Pairs(range) => {
                let top = pen.heading("Before and after", None);
                let block = (CONTENT_BOTTOM - top - 18.0) / layout::PAIRS_PER_PAGE as f32;
                for (i, pair) in content.pairs[range.clone()].iter().enumerate() {
                    let y = top + i as f32 * (block + 18.0);
                    let half = (CONTENT_WIDTH - 18.0) / 2.0;
                    for (j, (label, photo)) in [("Before", &pair.before), ("After", &pair.after)].into_iter().enumerate() {
                        let jpeg = photos.jpeg(&photo.photo.id);
                        let slot = Slot { x: MARGIN + j as f32 * (half + 18.0), y, w: half, h: block };
                        pen.pair_photo(slot, label, photo, jpeg);
                        placed += 1;
                        photos.placed(placed);
                    }
                }
            }
            Page::Changes(range) => changes_page(&mut pen, content, range.clone()),
        }
        if index > 0 {
            pen.header(content);
        }
        pen.footer(content, index + 1, count);
        surface.finish();
        page.finish();
    }
    let bytes = document.finish().map_err(|e| ReportError::Pdf(format!("{e:?}")))?;
    Ok(Rendered { bytes, pages: count })
}

fn metadata(content: &ReportContent) -> Metadata {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(content.generated_at) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let created = DateTime::new(u16::try_from(at.year()).unwrap_or(0))
        .month(u8::from(at.month()))
        .day(at.day())
        .hour(at.hour())
        .minute(at.minute())
        .second(at.second())
        .utc_offset_hour(0)
        .utc_offset_minute(0);
    Metadata::new()
        .title(format!("{} — Progress report", content.project.title))
        .creator("Sitecast".to_owned())
        .producer("Sitecast".to_owned())
        .description(format!("{} · {}", content.project.address, words::period(content)))
        .creation_date(created)
}

fn section_heading(section: &protocol::ReportSection, content: &ReportContent) -> String {
    match (&section.milestone, section.date) {
        (Some(name), _) => name.clone(),
        (None, Some(date)) if content.sections.iter().all(|s| s.milestone.is_none()) => {
            format!("Site visit · {}", words::date(date))
        }
        _ => "Photos without a milestone".to_owned(),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
}

/// Where the photos of a page go, below `top`: one, two stacked, or four in a grid.
fn slots(per_page: usize, top: f32) -> Vec<Slot> {
    let height = CONTENT_BOTTOM - top;
    match per_page {
        1 => vec![Slot { x: MARGIN, y: top, w: CONTENT_WIDTH, h: height }],
        2 => {
            let h = (height - 18.0) / 2.0;
            (0..2).map(|i| Slot { x: MARGIN, y: top + i as f32 * (h + 18.0), w: CONTENT_WIDTH, h }).collect()
        }
        _ => {
            let (w, h) = ((CONTENT_WIDTH - 18.0) / 2.0, (height - 14.0) / 2.0);
            (0..4)
                .map(|i| Slot { x: MARGIN + (i % 2) as f32 * (w + 18.0), y: top + (i / 2) as f32 * (h + 14.0), w, h })
                .collect()
        }
    }
}

fn color((r, g, b): (u8, u8, u8)) -> krilla::paint::Paint {
    rgb::Color::new(r, g, b).into()
}

struct Pen<'p, 's> {
    surface: &'p mut Surface<'s>,
    regular: Font,
    bold: Font,
}

impl Pen<'_, '_> {
    fn font(&self, weight: Weight) -> Font {
        match weight {
            Weight::Regular => self.regular.clone(),
            Weight::Bold => self.bold.clone(),
        }
    }

    /// One line of text with its baseline at `y`.
    fn text(&mut self, x: f32, y: f32, line: &str, weight: Weight, size: f32, ink: (u8, u8, u8)) {
        if line.is_empty() {
            return;
        }
        self.surface.set_fill(Some(Fill { paint: color(ink), opacity: NormalizedF32::ONE, rule: Default::default() }));
        let font = self.font(weight);
        self.surface.draw_text(Point::from_xy(x, y), font, size, line, false, TextDirection::Auto);
    }

    fn text_right(&mut self, right: f32, y: f32, line: &str, weight: Weight, size: f32, ink: (u8, u8, u8)) {
        let x = right - text::width(line, weight, size);
        self.text(x, y, line, weight, size, ink);
    }

    /// Lines from `y` (the first baseline) down; answers the y under the last one.
    fn lines(&mut self, x: f32, y: f32, lines: &[String], (weight, size): (Weight, f32), leading: f32, ink: (u8, u8, u8)) -> f32 {
        for (i, line) in lines.iter().enumerate() {
            self.text(x, y + i as f32 * leading, line, weight, size, ink);
        }
        y + lines.len() as f32 * leading
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: (u8, u8, u8)) {
        let Some(rect) = Rect::from_xywh(x, y, w.max(0.1), h.max(0.1)) else { return };
        let mut path = PathBuilder::new();
        path.push_rect(rect);
        if let Some(path) = path.finish() {
            self.surface.set_stroke(None);
            self.surface.set_fill(Some(Fill { paint: color(fill), opacity: NormalizedF32::ONE, rule: Default::default() }));
            self.surface.draw_path(&path);
        }
    }

    fn rule(&mut self, x: f32, y: f32, w: f32) {
        self.rect(x, y, w, 0.75, RULE);
    }

    /// A dot: filled, or a ring when `ring`.
    fn dot(&mut self, cx: f32, cy: f32, r: f32, ink: (u8, u8, u8), ring: bool) {
        // Four cubic arcs (k: the usual circle constant).
        let k = 0.552_284_8 * r;
        let mut path = PathBuilder::new();
        path.move_to(cx + r, cy);
        path.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
        path.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
        path.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
        path.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
        path.close();
        let Some(path) = path.finish() else { return };
        if ring {
            self.surface.set_fill(None);
            self.surface.set_stroke(Some(Stroke { paint: color(ink), width: 1.2, ..Default::default() }));
        } else {
            self.surface.set_stroke(None);
            self.surface.set_fill(Some(Fill { paint: color(ink), opacity: NormalizedF32::ONE, rule: Default::default() }));
        }
        self.surface.draw_path(&path);
        self.surface.set_stroke(None);
    }

    /// A photo fitted whole into the box, centred across and at its top (or centred
    /// both ways); a tinted gap that says so when there is no usable JPEG. Answers
    /// the y under what was drawn.
    fn image(&mut self, jpeg: Option<Vec<u8>>, x: f32, y: f32, w: f32, h: f32, top: bool) -> f32 {
        let image = jpeg.and_then(|bytes| Image::from_jpeg(Data::from(bytes), true).ok());
        let Some(image) = image else {
            self.rect(x, y, w, h, PAPER_TINT);
            let note = "Photo not available";
            let size = 9.0;
            self.text(x + (w - text::width(note, Weight::Regular, size)) / 2.0, y + h / 2.0, note, Weight::Regular, size, MUTED);
            return y + h;
        };
        let (iw, ih) = image.size();
        let (iw, ih) = (iw.max(1) as f32, ih.max(1) as f32);
        let scale = (w / iw).min(h / ih);
        let (dw, dh) = (iw * scale, ih * scale);
        let Some(size) = Size::from_wh(dw, dh) else { return y + h };
        let dy = if top { y } else { y + (h - dh) / 2.0 };
        self.surface.push_transform(&Transform::from_translate(x + (w - dw) / 2.0, dy));
        self.surface.draw_image(image, size);
        self.surface.pop();
        dy + dh
    }

    /// A page's heading (and a note under it); answers where the content below starts.
    fn heading(&mut self, title: &str, note: Option<&str>) -> f32 {
        let lines = text::clamp(text::wrap(title, Weight::Bold, 15.0, CONTENT_WIDTH), 2, Weight::Bold, 15.0, CONTENT_WIDTH);
        let mut y = self.lines(MARGIN, CONTENT_TOP + 14.0, &lines, (Weight::Bold, 15.0), 19.0, INK);
        if let Some(note) = note.map(str::trim).filter(|n| !n.is_empty()) {
            let wrapped = text::wrap(&format!("“{note}”"), Weight::Regular, 9.5, CONTENT_WIDTH);
            let lines = text::clamp(wrapped, 3, Weight::Regular, 9.5, CONTENT_WIDTH);
            y = self.lines(MARGIN, y + 2.0, &lines, (Weight::Regular, 9.5), 12.5, MUTED);
        }
        y + 8.0
    }

    fn header(&mut self, content: &ReportContent) {
        let title = text::clamp(text::wrap(&content.project.title, Weight::Bold, 8.5, 300.0), 1, Weight::Bold, 8.5, 300.0);
        self.text(MARGIN, 44.0, title.first().map_or("", String::as_str), Weight::Bold, 8.5, MUTED);
        self.text_right(PAGE_WIDTH - MARGIN, 44.0, &format!("Progress report · {}", words::period(content)), Weight::Regular, 8.5, MUTED);
        self.rule(MARGIN, 52.0, CONTENT_WIDTH);
    }

    fn footer(&mut self, content: &ReportContent, page: usize, pages: usize) {
        self.rule(MARGIN, 750.0, CONTENT_WIDTH);
        let made = format!("Sitecast · Generated {}", words::date(content.generated_at));
        self.text(MARGIN, 764.0, &made, Weight::Regular, 8.0, MUTED);
        self.text_right(PAGE_WIDTH - MARGIN, 764.0, &format!("Page {page} of {pages}"), Weight::Regular, 8.0, MUTED);
    }

    /// A photo and, under it, its date, caption and (when the report has them) comments.
    fn photo(&mut self, slot: Slot, photo: &ReportPhoto, jpeg: Option<Vec<u8>>, per_page: u8) {
        let text_height = match per_page {
            1 => 128.0,
            2 => 74.0,
            _ => 84.0,
        };
        let image_height = slot.h - text_height;
        let mut y = self.image(jpeg, slot.x, slot.y, slot.w, image_height, true) + 14.0;
        let bottom = slot.y + slot.h;
        let taken = photo.photo.taken_at.unwrap_or(photo.photo.created_at);
        let mut first = words::date(taken);
        if !photo.shapes.is_empty() {
            first.push_str(" · marked up");
        }
        self.text(slot.x, y, &first, Weight::Bold, 9.0, INK);
        y += 13.0;
        if let Some(caption) = photo.photo.caption.as_deref().filter(|c| !c.trim().is_empty()) {
            let max_lines = if per_page == 1 { 3 } else { 2 };
            let lines = text::clamp(text::wrap(caption.trim(), Weight::Regular, 9.5, slot.w), max_lines, Weight::Regular, 9.5, slot.w);
            y = self.lines(slot.x, y, &lines, (Weight::Regular, 9.5), 12.0, INK);
        }
        if photo.comments.is_empty() {
            return;
        }
        y += 3.0;
        let mut shown = 0;
        for comment in &photo.comments {
            let author = comment.author.name.clone().unwrap_or_else(|| "Someone".to_owned());
            let lines = text::wrap(&format!("{author}: {}", comment.body.trim()), Weight::Regular, 8.5, slot.w);
            let room = ((bottom - y) / 11.0).floor() as usize;
            let left = photo.comments.len() - shown;
            // Keep a line for "+ N more" unless this is the last comment.
            let budget = if left > 1 { room.saturating_sub(1) } else { room };
            if budget == 0 {
                break;
            }
            let lines = text::clamp(lines, budget.min(3), Weight::Regular, 8.5, slot.w);
            y = self.lines(slot.x, y, &lines, (Weight::Regular, 8.5), 11.0, MUTED);
            shown += 1;
        }
        if shown < photo.comments.len() && y + 11.0 <= bottom + 2.0 {
            let more = photo.comments.len() - shown;
            let label = if more == 1 { "+ 1 more comment".to_owned() } else { format!("+ {more} more comments") };
            self.text(slot.x, y, &label, Weight::Regular, 8.5, MUTED);
        }
    }

    fn pair_photo(&mut self, slot: Slot, label: &str, photo: &ReportPhoto, jpeg: Option<Vec<u8>>) {
        let image_height = slot.h - 40.0;
        let y = self.image(jpeg, slot.x, slot.y, slot.w, image_height, true) + 14.0;
        let taken = photo.photo.taken_at.unwrap_or(photo.photo.created_at);
        self.text(slot.x, y, &format!("{label} · {}", words::date(taken)), Weight::Bold, 9.0, INK);
        if let Some(caption) = photo.photo.caption.as_deref().filter(|c| !c.trim().is_empty()) {
            let lines = text::clamp(text::wrap(caption.trim(), Weight::Regular, 9.0, slot.w), 1, Weight::Regular, 9.0, slot.w);
            self.lines(slot.x, y + 13.0, &lines, (Weight::Regular, 9.0), 12.0, INK);
        }
    }
}

fn cover_page(pen: &mut Pen<'_, '_>, content: &ReportContent, cover: Option<Vec<u8>>) {
    let project = &content.project;
    pen.rect(MARGIN, 54.0, 36.0, 3.0, BRAND);
    pen.text(MARGIN, 80.0, "PROGRESS REPORT", Weight::Bold, 10.0, BRAND);
    let title = text::clamp(text::wrap(&project.title, Weight::Bold, 26.0, CONTENT_WIDTH), 2, Weight::Bold, 26.0, CONTENT_WIDTH);
    let mut y = pen.lines(MARGIN, 114.0, &title, (Weight::Bold, 26.0), 31.0, INK);
    if !project.address.trim().is_empty() {
        let address = text::clamp(text::wrap(project.address.trim(), Weight::Regular, 12.0, CONTENT_WIDTH), 2, Weight::Regular, 12.0, CONTENT_WIDTH);
        y = pen.lines(MARGIN, y + 2.0, &address, (Weight::Regular, 12.0), 16.0, MUTED);
    }
    y += 14.0;
    if cover.is_some() {
        pen.image(cover, MARGIN, y, CONTENT_WIDTH, 270.0, false);
        y += 270.0 + 26.0;
    }
    let photos = content.sections.iter().map(|s| s.photos.len()).sum::<usize>();
    let done = content.milestones.iter().filter(|m| m.state == ReportMilestoneState::Done).count();
    let mut details: Vec<(&str, String)> = vec![
        ("Homeowner", project.homeowner_name.clone()),
        ("Builder", project.builder_name.clone().unwrap_or_else(|| "Not assigned".to_owned())),
        ("Period", words::period(content)),
        ("Status", words::status(project.status).to_owned()),
        ("Complete", format!("{}%", project.progress.clamp(0, 100))),
        ("Photos", if photos == 1 { "1 photo".to_owned() } else { format!("{photos} photos") }),
    ];
    if !content.milestones.is_empty() {
        details.push(("Milestones", format!("{done} of {} done", content.milestones.len())));
    }
    let column = (CONTENT_WIDTH - 24.0) / 2.0;
    for (i, (label, value)) in details.iter().enumerate() {
        let x = MARGIN + (i % 2) as f32 * (column + 24.0);
        let row_y = y + (i / 2) as f32 * 46.0;
        pen.text(x, row_y, &label.to_uppercase(), Weight::Bold, 8.0, MUTED);
        let value = text::clamp(text::wrap(value, Weight::Bold, 12.0, column), 1, Weight::Bold, 12.0, column);
        pen.text(x, row_y + 17.0, value.first().map_or("", String::as_str), Weight::Bold, 12.0, INK);
        if *label == "Complete" {
            let bar_x = x + text::width(&value.concat(), Weight::Bold, 12.0) + 10.0;
            let bar_w = (column - (bar_x - x)).max(0.0);
            pen.rect(bar_x, row_y + 10.0, bar_w, 6.0, RULE);
            pen.rect(bar_x, row_y + 10.0, bar_w * project.progress.clamp(0, 100) as f32 / 100.0, 6.0, BRAND);
        }
    }
}

fn milestones_page(pen: &mut Pen<'_, '_>, content: &ReportContent, rows: std::ops::Range<usize>) {
    let done = content.milestones.iter().filter(|m| m.state == ReportMilestoneState::Done).count();
    let title = if rows.start == 0 { "Milestones".to_owned() } else { "Milestones (continued)".to_owned() };
    let mut y = pen.heading(&title, None);
    pen.text(MARGIN, y, &format!("{done} of {} done", content.milestones.len()), Weight::Regular, 9.5, MUTED);
    y += 16.0;
    for milestone in &content.milestones[rows] {
        pen.rule(MARGIN, y, CONTENT_WIDTH);
        let (ink, ring) = match milestone.state {
            ReportMilestoneState::Done => (DONE, false),
            _ if milestone.late => (LATE, false),
            ReportMilestoneState::Current => (CURRENT, false),
            _ => (MUTED, true),
        };
        pen.dot(MARGIN + 6.0, y + 14.0, 4.5, ink, ring);
        let state = words::milestone_state(milestone);
        let state_width = text::width(&state, Weight::Regular, 9.5);
        let name_width = CONTENT_WIDTH - 24.0 - state_width - 16.0;
        let weight = if milestone.state == ReportMilestoneState::Current { Weight::Bold } else { Weight::Regular };
        let name = text::clamp(text::wrap(&milestone.name, weight, 10.5, name_width), 1, weight, 10.5, name_width);
        pen.text(MARGIN + 20.0, y + 18.0, name.first().map_or("", String::as_str), weight, 10.5, INK);
        pen.text_right(PAGE_WIDTH - MARGIN, y + 18.0, &state, Weight::Regular, 9.5, if milestone.late { LATE } else { MUTED });
        y += 28.0;
    }
    pen.rule(MARGIN, y, CONTENT_WIDTH);
}

fn changes_page(pen: &mut Pen<'_, '_>, content: &ReportContent, range: std::ops::Range<usize>) {
    let title = if range.start == 0 { "What changed" } else { "What changed (continued)" };
    let top = pen.heading(title, None);
    let mut y = top;
    if content.changes.is_empty() {
        pen.text(MARGIN, y + 4.0, "Nothing was recorded in this period.", Weight::Regular, 10.0, MUTED);
        return;
    }
    for index in range {
        let entry = &content.changes[index];
        let lines = layout::change_lines(content, index);
        pen.text(MARGIN, y + 4.0, &words::date(entry.created_at), Weight::Regular, 8.5, MUTED);
        y = pen.lines(MARGIN + layout::DATE_COLUMN, y + 4.0, &lines, (Weight::Regular, layout::CHANGE_SIZE), layout::CHANGE_LINE, INK);
        y += layout::CHANGE_GAP;
    }
}

#[cfg(test)]
pub(crate) mod tests;
