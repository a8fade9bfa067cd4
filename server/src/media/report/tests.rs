//! The report writer on its own: pages, photos passed through, gaps for missing ones.

use protocol::{
    Comment, ImageCategory, ProgressMode, Project, ProjectImage, ProjectStatus, ReportContent, ReportMilestone,
    ReportMilestoneState, ReportPairView, ReportPhoto, ReportSection, Role, TimelineDetail, TimelineEntry, UserSummary,
};

use super::{layout, render, PhotoSource};

pub(crate) fn project() -> Project {
    Project {
        id: "p1".into(),
        title: "Maple Street Residence".into(),
        description: String::new(),
        address: "14 Maple Street, Springfield".into(),
        homeowner_id: "h1".into(),
        homeowner_name: "Jamie Carter".into(),
        homeowner_first_name: None,
        homeowner_last_name: None,
        builder_id: Some("b1".into()),
        builder_name: Some("Summit Homes".into()),
        crew: vec![],
        status: ProjectStatus::InProgress,
        progress: 45,
        progress_mode: ProgressMode::Manual,
        thumbnail_url: None,
        thumbnail_pinned: false,
        created_at: 0,
        updated_at: 0,
        version: 1,
    }
}

pub(crate) fn image(id: &str) -> ProjectImage {
    ProjectImage {
        id: id.into(),
        project_id: "p1".into(),
        category: ImageCategory::Other,
        caption: Some(format!("Caption of {id}")),
        original_name: format!("{id}.jpg"),
        width: 64,
        height: 48,
        taken_at: Some(1_772_582_400_000),
        created_at: 1_772_582_400_000,
        thumb_url: String::new(),
        display_url: String::new(),
        download_url: String::new(),
        version: 1,
        comment_count: 0,
        visit_note: None,
        batch_id: None,
        milestone_id: None,
        markup_count: 0,
        tags: vec![],
        location: None,
        uploaded_by: None,
    }
}

pub(crate) fn entry() -> TimelineEntry {
    TimelineEntry {
        id: "t".into(),
        project_id: "p1".into(),
        actor_name: Some("Dana Ortiz".into()),
        actor_role: Some(Role::Builder),
        created_at: 1_772_582_400_000,
        detail: TimelineDetail::MilestoneCompleted { milestone_id: "m".into(), name: "Framing".into() },
    }
}

fn jpeg(seed: u8) -> Vec<u8> {
    let img = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([seed, (x * 4) as u8, (y * 5) as u8]));
    crate::media::renditions::encode_jpeg(&img, 80).unwrap()
}

/// Photos by id from a list; records the order they were asked for and the progress.
struct Source {
    photos: Vec<(String, Vec<u8>)>,
    asked: Vec<String>,
    placed: Vec<usize>,
}

impl PhotoSource for Source {
    fn jpeg(&mut self, photo_id: &str) -> Option<Vec<u8>> {
        self.asked.push(photo_id.to_owned());
        self.photos.iter().find(|(id, _)| id == photo_id).map(|(_, b)| b.clone())
    }
    fn placed(&mut self, done: usize) {
        self.placed.push(done);
    }
}

fn photo(id: &str, comments: usize) -> ReportPhoto {
    let author = UserSummary { id: "h1".into(), email: "h@x".into(), name: Some("Jamie Carter".into()), role: Role::Homeowner, created_at: 0, company: None };
    ReportPhoto {
        photo: image(id),
        comments: (0..comments)
            .map(|i| Comment {
                id: format!("c{i}"),
                image_id: id.into(),
                project_id: "p1".into(),
                author: author.clone(),
                body: format!("Comment number {i} on this photo, long enough to wrap onto a second line at four per page"),
                created_at: 0,
                updated_at: 0,
            })
            .collect(),
        shapes: vec![],
    }
}

fn content() -> ReportContent {
    ReportContent {
        project: project(),
        from: Some("2026-03-01".into()),
        to: Some("2026-11-24".into()),
        generated_at: 1_779_667_200_000,
        per_page: 2,
        milestones: vec![
            ReportMilestone { name: "Foundation".into(), state: ReportMilestoneState::Done, late: false, target_date: None, done_date: Some("2026-03-04".into()) },
            ReportMilestone { name: "Framing".into(), state: ReportMilestoneState::Current, late: true, target_date: Some("2026-04-01".into()), done_date: None },
        ],
        sections: vec![
            ReportSection { milestone: None, date: Some(0), note: Some("Slab poured".into()), photos: vec![photo("a", 0), photo("b", 9), photo("c", 1)] },
            ReportSection { milestone: None, date: Some(0), note: None, photos: vec![photo("d", 0)] },
        ],
        pairs: vec![ReportPairView { before: photo("a", 0), after: photo("d", 0) }],
        changes: vec![entry(); 3],
    }
}

#[test]
fn a_report_holds_its_pages_and_each_photo_as_the_jpeg_it_was_given() {
    let content = content();
    let photos: Vec<(String, Vec<u8>)> = ["a", "b", "d", "cover"].iter().zip(1u8..).map(|(id, s)| (id.to_string(), jpeg(s * 40))).collect();
    let mut source = Source { photos: photos.clone(), asked: vec![], placed: vec![] };
    let rendered = render(&content, Some("cover"), &mut source).unwrap();

    assert!(rendered.bytes.starts_with(b"%PDF-"));
    // Cover, milestones, two pages for the first visit, one for the second, pairs, changes.
    assert_eq!(rendered.pages, layout::paginate(&content).len());
    assert_eq!(rendered.pages, 7);
    // Every photo asked for once per place, in page order, the cover first.
    assert_eq!(source.asked, ["cover", "a", "b", "c", "d", "a", "d"]);
    assert_eq!(source.placed, (1..=6).collect::<Vec<_>>());
    assert_eq!(layout::photo_count(&content), 6);
    // Passed through, not re-encoded: the JPEG's own bytes are in the file.
    let has = |needle: &[u8]| rendered.bytes.windows(needle.len()).any(|w| w == needle);
    for (id, bytes) in &photos {
        assert!(has(&bytes[bytes.len() / 2..bytes.len() / 2 + 64]), "{id} is embedded as given");
    }
}

#[test]
fn an_empty_report_still_has_a_cover_and_says_nothing_changed() {
    let mut content = content();
    content.sections.clear();
    content.pairs.clear();
    content.milestones.clear();
    content.changes.clear();
    let mut source = Source { photos: vec![], asked: vec![], placed: vec![] };
    let rendered = render(&content, None, &mut source).unwrap();
    assert_eq!(rendered.pages, 2);
    assert!(source.asked.is_empty());
}
