//! Markup on photos: a layer of vector shapes over a photo, never a change to its
//! pixels (docs/FEATURES.md, "Markup on photos"). One versioned document per photo,
//! replaced whole by each save at the version its editor started from, in the project's
//! turn, and published once.
//!
//! Who may draw is the policy's: admins and the project's builder change anything;
//! the project's homeowner adds pins with a question and moves, edits or removes their
//! own pins only. Who sees markup is who sees the photo (guests included).

use std::collections::{HashMap, HashSet};

use protocol::{ErrorCode, Geometry, Markup, Point, Shape, TimelineDetail, UserSummary};

use crate::domain::shared::changes::Change;
use crate::domain::media::photos::visible_photo;
use crate::domain::shared::policy::{self, Action, Actor, Target};
use crate::domain::projects::project_ref;
use crate::domain::shared::services::Services;
use crate::domain::projects::timeline;
use crate::domain::shared::validation::{Limit, Text};
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::images::ImageRow;
use crate::store::markups::{self, MarkupRow};
use crate::store::{now_ms, users, Store};

/// Shapes on one photo: enough to mark up every defect in a room, few enough that the
/// whole document goes out in one frame to every viewer.
pub const MAX_SHAPES: usize = 100;
/// Points of one freehand stroke (the editor simplifies strokes as they are drawn).
pub const MAX_PEN_POINTS: usize = 500;
/// Freehand points on one photo, all strokes together. The web app's codec writes each
/// coordinate as a 64-bit float: a point is 23 bytes, so 1,000 leave room in the
/// 64 KiB client frame for 100 shapes and `MAX_TEXT` of labels and notes (a web test
/// encodes the largest document).
pub const MAX_POINTS: usize = 1_000;
/// Characters of all labels and notes on one photo together.
pub const MAX_TEXT: usize = 4_000;
/// A text label: a few words on the photo, at most `MAX_LABEL_LINES` lines.
pub const LABEL: Limit = Limit { label: "Label", max: 100, text: Text::ManyLines };
pub const MAX_LABEL_LINES: usize = 5;
/// A pin's note: the question or answer about that spot.
pub const NOTE: Limit = Limit { label: "Note", max: 500, text: Text::ManyLines };
/// Longest shape id a client may choose (a UUID is 36).
const MAX_ID: usize = 64;
/// Changes by one person with less than this between them are one editing session:
/// one "marked up a photo" on the timeline, not one per stroke.
pub const SESSION_GAP_MS: i64 = 10 * 60 * 1000;

pub const TOO_MANY_SHAPES: &str = "A photo can have at most 100 shapes.";
pub const TOO_MANY_PEN_POINTS: &str = "A freehand line can have at most 500 points.";
pub const TOO_MANY_POINTS: &str = "A photo's markup can have at most 1,000 points.";
pub const TOO_MUCH_TEXT: &str = "A photo's labels and notes can have at most 4,000 characters in all.";
pub const TOO_MANY_LINES: &str = "A label can have at most 5 lines.";
pub const EMPTY_LABEL: &str = "A label cannot be empty.";
pub const OFF_THE_PHOTO: &str = "Every point must lie on the photo.";
pub const SHORT_PEN: &str = "A freehand line needs at least 2 points.";
pub const BAD_SHAPE_ID: &str = "Each shape needs its own id.";
pub const MARKUP_CHANGED: &str = "Someone else changed this markup just now. Showing the latest; draw again if needed.";
pub const NOT_ALLOWED_DRAW: &str = "You can't draw on this photo.";
pub const PINS_ONLY: &str = "You can add pins and change your own pins only.";

fn shapes_error(message: &str) -> Error {
    Error::field("shapes", message)
}

/// The document as sent is one the product can store and show: within the bounds,
/// every point on the photo, every label and note within its limit.
pub fn check(shapes: &[Shape]) -> Result<()> {
    if shapes.len() > MAX_SHAPES {
        return Err(shapes_error(TOO_MANY_SHAPES));
    }
    let mut ids = HashSet::new();
    let mut points = 0usize;
    let mut text_chars = 0usize;
    for shape in shapes {
        if shape.id.is_empty() || shape.id.len() > MAX_ID || shape.id.chars().any(char::is_control) || !ids.insert(shape.id.as_str()) {
            return Err(shapes_error(BAD_SHAPE_ID));
        }
        let on_photo = |p: &Point| p.x.is_finite() && p.y.is_finite() && (0.0..=1.0).contains(&p.x) && (0.0..=1.0).contains(&p.y);
        let corners = match &shape.geometry {
            Geometry::Arrow { from, to } | Geometry::Line { from, to } | Geometry::Rect { from, to } | Geometry::Ellipse { from, to } => {
                vec![*from, *to]
            }
            Geometry::Pen { points: stroke } => {
                if stroke.len() > MAX_PEN_POINTS {
                    return Err(shapes_error(TOO_MANY_PEN_POINTS));
                }
                if stroke.len() < 2 {
                    return Err(shapes_error(SHORT_PEN));
                }
                points += stroke.len();
                if points > MAX_POINTS {
                    return Err(shapes_error(TOO_MANY_POINTS));
                }
                stroke.clone()
            }
            Geometry::Text { at, text } => {
                if text.trim().is_empty() {
                    return Err(shapes_error(EMPTY_LABEL));
                }
                LABEL.check("shapes", text)?;
                text_chars += text.chars().count();
                if text.lines().count() > MAX_LABEL_LINES {
                    return Err(shapes_error(TOO_MANY_LINES));
                }
                vec![*at]
            }
            Geometry::Pin { at, note } => {
                NOTE.check("shapes", note)?;
                text_chars += note.chars().count();
                vec![*at]
            }
        };
        if !corners.iter().all(on_photo) {
            return Err(shapes_error(OFF_THE_PHOTO));
        }
        if text_chars > MAX_TEXT {
            return Err(shapes_error(TOO_MUCH_TEXT));
        }
    }
    Ok(())
}

/// The shapes as stored: each keeps the author it was stored with, whatever the
/// client says; a new one is the actor's.
pub fn stamp(before: &[Shape], after: Vec<Shape>, actor_id: &str) -> Vec<Shape> {
    let authors: HashMap<&str, &str> = before.iter().map(|s| (s.id.as_str(), s.author_id.as_str())).collect();
    after
        .into_iter()
        .map(|mut shape| {
            shape.author_id = authors.get(shape.id.as_str()).map_or_else(|| actor_id.to_owned(), |a| (*a).to_owned());
            shape
        })
        .collect()
}

/// Whether the actor may turn `before` into `after` (both stamped): anything, for those
/// who may draw; for those who may only pin, every shape but their own pins unchanged.
pub fn may_change(actor: &Actor, project: policy::ProjectRef<'_>, before: &[Shape], after: &[Shape]) -> Result<()> {
    if policy::allows(actor, Action::DrawMarkup, Target::Project(project)) {
        return Ok(());
    }
    if !policy::allows(actor, Action::PinOnPhoto, Target::Project(project)) {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_DRAW));
    }
    let own_pin = |s: &Shape| s.author_id == actor.id && matches!(s.geometry, Geometry::Pin { .. });
    let others = |shapes: &[Shape]| shapes.iter().filter(|s| s.author_id != actor.id).cloned().collect::<Vec<_>>();
    if others(before) != others(after) || !after.iter().filter(|s| s.author_id == actor.id).all(own_pin) {
        return Err(Error::new(ErrorCode::Forbidden, PINS_ONLY));
    }
    Ok(())
}

fn parse(row: &MarkupRow) -> Result<Vec<Shape>> {
    serde_json::from_str(&row.shapes).map_err(|err| {
        tracing::error!(image = %row.image_id, error = %err, "a stored markup does not read as shapes");
        Error::internal("a stored markup could not be read")
    })
}

/// The markup as clients see it: its shapes, and the people who drew them.
async fn view(pool: &Store, image_id: &str, project_id: &str, row: Option<&MarkupRow>) -> Result<Markup> {
    let Some(row) = row else {
        return Ok(Markup {
            image_id: image_id.to_owned(),
            project_id: project_id.to_owned(),
            version: 0,
            shapes: Vec::new(),
            authors: Vec::new(),
            updated_at: None,
            updated_by: None,
        });
    };
    let shapes = parse(row)?;
    let mut ids: Vec<&str> = shapes.iter().map(|s| s.author_id.as_str()).collect();
    ids.extend(row.updated_by.as_deref());
    ids.sort_unstable();
    ids.dedup();
    let mut people: Vec<UserSummary> = Vec::new();
    for id in ids {
        if let Some(user) = users::find_by_id(pool, id).await? {
            people.push(views::summary(&user));
        }
    }
    let updated_by = row.updated_by.as_ref().and_then(|id| people.iter().find(|p| &p.id == id).cloned());
    let authors = people.into_iter().filter(|p| shapes.iter().any(|s| s.author_id == p.id)).collect();
    Ok(Markup {
        image_id: row.image_id.clone(),
        project_id: row.project_id.clone(),
        version: row.version,
        shapes,
        authors,
        updated_at: Some(row.updated_at),
        updated_by,
    })
}

/// A photo's markup, as one who may see the photo reads it.
pub async fn get(svc: &Services, actor: &Actor, image_id: &str) -> Result<Markup> {
    let (image, _) = visible_photo(svc, actor, image_id).await?;
    of_photo(svc, &image).await
}

/// The markup of a photo the caller has already decided its reader may see.
pub async fn of_photo(svc: &Services, image: &ImageRow) -> Result<Markup> {
    let pool = svc.store.pool();
    let row = markups::find(pool, &image.id).await?;
    view(pool, &image.id, &image.project_id, row.as_ref()).await
}

/// Markup as guests see it: the people who drew it by name only.
pub fn for_guests(mut markup: Markup) -> Markup {
    markup.authors = markup.authors.into_iter().map(views::person_for_guests).collect();
    markup.updated_by = markup.updated_by.map(views::person_for_guests);
    markup
}

/// A photo's stored shapes and their version (0 and none when never marked up), with
/// no access check: for drawing them onto a photo the caller may already see.
pub async fn shapes_of(svc: &Services, image_id: &str) -> Result<(i64, Vec<Shape>)> {
    match markups::find(svc.store.pool(), image_id).await? {
        Some(row) => Ok((row.version, parse(&row)?)),
        None => Ok((0, Vec::new())),
    }
}

/// The markup as it reads now, for an instance publishing another's change.
pub async fn current_in(store: &Store, image_id: &str) -> Result<Option<Markup>> {
    let pool = store.pool();
    let Some(row) = markups::find(pool, image_id).await? else { return Ok(None) };
    Ok(Some(view(pool, &row.image_id, &row.project_id, Some(&row)).await?))
}

/// Replaces a photo's markup (run it in the project's turn): checked, stamped with
/// authors, allowed by the policy, stored if still at `base_version`, with a timeline
/// entry when it starts an editing session.
pub async fn save(svc: &Services, actor: &Actor, image_id: &str, base_version: i64, shapes: Vec<Shape>) -> Result<(Markup, Vec<Change>)> {
    let (image, project) = visible_photo(svc, actor, image_id).await?;
    let target = project_ref(&project);
    if !policy::allows(actor, Action::DrawMarkup, Target::Project(target))
        && !policy::allows(actor, Action::PinOnPhoto, Target::Project(target))
    {
        return Err(Error::new(ErrorCode::Forbidden, NOT_ALLOWED_DRAW));
    }
    check(&shapes)?;
    let pool = svc.store.pool();
    let stored = markups::find(pool, &image.id).await?;
    let version = stored.as_ref().map_or(0, |r| r.version);
    if base_version != version {
        return Err(Error::new(ErrorCode::Conflict, MARKUP_CHANGED));
    }
    let before = match &stored {
        Some(row) => parse(row)?,
        None => Vec::new(),
    };
    let after = stamp(&before, shapes, &actor.id);
    may_change(actor, target, &before, &after)?;
    if after == before {
        return Ok((view(pool, &image.id, &project.id, stored.as_ref()).await?, Vec::new()));
    }
    let now = now_ms();
    let new_session = stored.as_ref().is_none_or(|r| r.session_by.as_deref() != Some(actor.id.as_str()) || now - r.session_at >= SESSION_GAP_MS);
    let row = MarkupRow {
        image_id: image.id.clone(),
        project_id: project.id.clone(),
        version: version + 1,
        shapes: serde_json::to_string(&after).map_err(Error::internal)?,
        updated_by: Some(actor.id.clone()),
        updated_at: now,
        session_by: Some(actor.id.clone()),
        session_at: now,
    };
    let who = timeline::who(pool, actor).await?;
    let mut tx = svc.store.begin_write().await?;
    if !markups::save(&mut tx, &row, version, after.len() as i64).await? {
        return Err(Error::new(ErrorCode::Conflict, MARKUP_CHANGED));
    }
    let entry = if new_session {
        let detail = TimelineDetail::MarkedUp { photo: timeline::photo(&image.id) };
        Some(timeline::record(&mut tx, &project.id, &who, detail, Some(&image.id), now).await?)
    } else {
        None
    };
    let markup = view(pool, &image.id, &project.id, Some(&row)).await?;
    tx.commit().await?;
    let mut changes = vec![Change::Markup {
        image_id: image.id,
        project_id: project.id,
        actor_id: actor.id.clone(),
        markup_count: after.len() as i64,
        state: Some(Box::new(markup.clone())),
    }];
    changes.extend(entry);
    Ok((markup, changes))
}

#[cfg(test)]
mod tests {
    use protocol::{MarkupColor, Role, StrokeWidth};

    use super::*;

    fn p(x: f32, y: f32) -> Point {
        Point { x, y }
    }

    fn shape(id: &str, author: &str, geometry: Geometry) -> Shape {
        Shape { id: id.into(), color: MarkupColor::Red, width: StrokeWidth::Medium, geometry, author_id: author.into() }
    }

    fn arrow(id: &str, author: &str) -> Shape {
        shape(id, author, Geometry::Arrow { from: p(0.1, 0.1), to: p(0.5, 0.5) })
    }

    fn pin(id: &str, author: &str, note: &str) -> Shape {
        shape(id, author, Geometry::Pin { at: p(0.3, 0.3), note: note.into() })
    }

    fn message(result: Result<()>) -> String {
        let err = result.unwrap_err();
        assert_eq!(err.code(), ErrorCode::Validation);
        assert_eq!(err.api.fields[0].field, "shapes");
        err.api.fields[0].message.clone()
    }

    #[test]
    fn documents_within_the_bounds_are_taken() {
        let text = shape("t", "", Geometry::Text { at: p(0.0, 1.0), text: "Crack here\nsee note".into() });
        let pen = shape("pen", "", Geometry::Pen { points: vec![p(0.0, 0.0); MAX_PEN_POINTS] });
        assert!(check(&[arrow("a", ""), text, pen, pin("p", "", "")]).is_ok());
        assert!(check(&(0..MAX_SHAPES).map(|i| arrow(&i.to_string(), "")).collect::<Vec<_>>()).is_ok());
    }

    #[test]
    fn documents_past_the_bounds_are_refused_with_a_field_error() {
        let many: Vec<Shape> = (0..=MAX_SHAPES).map(|i| arrow(&i.to_string(), "")).collect();
        assert_eq!(message(check(&many)), TOO_MANY_SHAPES);
        let long_pen = shape("pen", "", Geometry::Pen { points: vec![p(0.5, 0.5); MAX_PEN_POINTS + 1] });
        assert_eq!(message(check(&[long_pen])), TOO_MANY_PEN_POINTS);
        let pens: Vec<Shape> =
            (0..3).map(|i| shape(&i.to_string(), "", Geometry::Pen { points: vec![p(0.5, 0.5); 450] })).collect();
        assert_eq!(message(check(&pens)), TOO_MANY_POINTS);
        let notes: Vec<Shape> = (0..9).map(|i| pin(&i.to_string(), "", &"n".repeat(NOTE.max))).collect();
        assert_eq!(message(check(&notes)), TOO_MUCH_TEXT);
        assert!(check(&notes[..8]).is_ok());
        let dot = shape("pen", "", Geometry::Pen { points: vec![p(0.5, 0.5)] });
        assert_eq!(message(check(&[dot])), SHORT_PEN);
        for bad in [f32::NAN, f32::INFINITY, -0.01, 1.01] {
            let off = shape("a", "", Geometry::Line { from: p(bad, 0.5), to: p(0.5, 0.5) });
            assert_eq!(message(check(&[off])), OFF_THE_PHOTO, "{bad}");
        }
        let label = |t: &str| shape("t", "", Geometry::Text { at: p(0.5, 0.5), text: t.into() });
        assert_eq!(message(check(&[label("  \n ")])), EMPTY_LABEL);
        assert_eq!(message(check(&[label(&"x".repeat(LABEL.max + 1))])), LABEL.message());
        assert_eq!(message(check(&[label("a\nb\nc\nd\ne\nf")])), TOO_MANY_LINES);
        assert_eq!(message(check(&[label("bell\u{7}")])), LABEL.characters_message());
        assert_eq!(message(check(&[pin("p", "", &"x".repeat(NOTE.max + 1))])), NOTE.message());
        assert_eq!(message(check(&[arrow("same", ""), arrow("same", "")])), BAD_SHAPE_ID);
        assert_eq!(message(check(&[arrow("", "")])), BAD_SHAPE_ID);
    }

    #[test]
    fn authors_are_kept_from_the_stored_shapes_and_new_ones_are_the_actors() {
        let before = vec![arrow("a", "builder")];
        let sent = vec![arrow("a", "someone-else"), pin("p", "forged", "Is this level?")];
        let stamped = stamp(&before, sent, "homeowner");
        assert_eq!(stamped[0].author_id, "builder");
        assert_eq!(stamped[1].author_id, "homeowner");
    }

    #[test]
    fn builders_and_admins_change_anything_homeowners_only_their_pins() {
        let project = policy::ProjectRef { homeowner_id: "h", company_id: Some("b"), crew: &[] };
        let admin = Actor::new("a", Role::Admin);
        let builder = Actor::member("b", "b", protocol::CompanyRole::Owner, false);
        let homeowner = Actor::new("h", Role::Homeowner);
        let before = vec![arrow("x", "b"), pin("mine", "h", "Outlet here?")];
        for actor in [&admin, &builder] {
            assert!(may_change(actor, project, &before, &[]).is_ok());
        }
        // The homeowner adds, moves and re-words their own pin, or removes it.
        let mut moved = pin("mine", "h", "Outlet lower?");
        moved.geometry = Geometry::Pin { at: p(0.9, 0.9), note: "Outlet lower?".into() };
        assert!(may_change(&homeowner, project, &before, &[arrow("x", "b"), moved, pin("new", "h", "")]).is_ok());
        assert!(may_change(&homeowner, project, &before, &[arrow("x", "b")]).is_ok());
        // But draws nothing else, and leaves the builder's shapes as they are.
        let forbidden = |after: &[Shape]| may_change(&homeowner, project, &before, after).unwrap_err().api.message;
        assert_eq!(forbidden(&[arrow("x", "b"), pin("mine", "h", ""), arrow("new", "h")]), PINS_ONLY);
        assert_eq!(forbidden(&[pin("mine", "h", "")]), PINS_ONLY);
        let mut recoloured = arrow("x", "b");
        recoloured.color = MarkupColor::Blue;
        assert_eq!(forbidden(&[recoloured, pin("mine", "h", "")]), PINS_ONLY);
        // Someone else's project: nothing.
        let other = Actor::new("h2", Role::Homeowner);
        assert_eq!(may_change(&other, project, &before, &before).unwrap_err().api.message, NOT_ALLOWED_DRAW);
        let other_builder = Actor::member("b2", "b2", protocol::CompanyRole::Owner, false);
        assert_eq!(may_change(&other_builder, project, &before, &before).unwrap_err().code(), ErrorCode::Forbidden);
    }

    #[test]
    fn guests_see_who_drew_by_name_only() {
        let person = UserSummary { id: "b".into(), email: "dana@summit.test".into(), name: Some("Dana".into()), role: Role::Builder, created_at: 0, company: None };
        let markup = Markup {
            image_id: "i".into(),
            project_id: "p".into(),
            version: 1,
            shapes: vec![arrow("a", "b")],
            authors: vec![person.clone()],
            updated_at: Some(1),
            updated_by: Some(UserSummary { name: Some("x@y.test".into()), ..person }),
        };
        let seen = for_guests(markup);
        assert_eq!(seen.authors[0].email, "");
        assert_eq!(seen.authors[0].name.as_deref(), Some("Dana"));
        assert_eq!(seen.updated_by.as_ref().map(|u| (u.email.as_str(), u.name.clone())), Some(("", None)));
    }

    /// Any document, as sent or as stored: whatever `check` takes draws (the SVG it
    /// makes parses and renders), and so does any stored text, with characters XML
    /// cannot hold (U+FFFE, U+FFFF, controls) among it — those are only left out.
    mod property {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        use protocol::{MarkupColor, StrokeWidth};

        use super::super::check;
        use protocol::{Geometry, Point, Shape};

        fn character() -> impl Strategy<Value = char> {
            let odd = prop::sample::select(vec![
                '\u{0}', '\u{7}', '\t', '\n', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{200d}', '\u{202e}', '\u{2028}', '\u{fdd0}',
                '\u{fffe}', '\u{ffff}', '\u{1fffe}', '\u{10ffff}', '\u{1f468}', '\u{1f3fd}', '<', '>', '&', '"', '\'', ']', '\u{feff}',
            ]);
            prop_oneof![3 => any::<char>(), 3 => odd, 4 => prop::char::range('a', 'z')]
        }

        fn text() -> impl Strategy<Value = String> {
            prop::collection::vec(character(), 0..120).prop_map(|cs| cs.into_iter().collect())
        }

        fn point() -> impl Strategy<Value = Point> {
            let coordinate = prop_oneof![8 => 0.0f32..=1.0, 1 => Just(f32::NAN), 1 => -2.0f32..3.0];
            (coordinate.clone(), coordinate).prop_map(|(x, y)| Point { x, y })
        }

        fn geometry() -> impl Strategy<Value = Geometry> {
            prop_oneof![
                (point(), point()).prop_map(|(from, to)| Geometry::Arrow { from, to }),
                (point(), point()).prop_map(|(from, to)| Geometry::Ellipse { from, to }),
                prop::collection::vec(point(), 0..40).prop_map(|points| Geometry::Pen { points }),
                (point(), text()).prop_map(|(at, text)| Geometry::Text { at, text }),
                (point(), text()).prop_map(|(at, note)| Geometry::Pin { at, note }),
            ]
        }

        fn document() -> impl Strategy<Value = Vec<Shape>> {
            let id = prop::collection::vec(prop::sample::select(vec!['a', 'b', '3']), 1..4).prop_map(|cs| cs.into_iter().collect::<String>());
            let shape = (id, geometry(), prop::sample::select(vec![MarkupColor::Red, MarkupColor::Yellow, MarkupColor::Blue]))
                .prop_map(|(id, geometry, color)| Shape { id, color, width: StrokeWidth::Medium, geometry, author_id: String::new() });
            prop::collection::vec(shape, 0..6)
        }

        #[test]
        fn what_is_taken_draws_and_stored_text_always_draws() {
            let photo = crate::media::renditions::encode_jpeg(&image::RgbImage::from_pixel(64, 48, image::Rgb([120, 120, 120])), 90).unwrap();
            let config = Config { cases: 96, failure_persistence: None, ..Config::default() };
            let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[41; 32]);
            let mut runner = TestRunner::new_with_rng(config, rng);
            runner
                .run(&document(), |shapes| {
                    if check(&shapes).is_ok() {
                        prop_assert!(crate::media::markup::flatten(&photo, &shapes).is_ok(), "taken but not drawn: {shapes:?}");
                    }
                    // Stored text, as an older rule may have let it in: on the photo, drawn.
                    let stored: Vec<Shape> = shapes
                        .into_iter()
                        .filter(|s| matches!(s.geometry, Geometry::Text { .. } | Geometry::Pin { .. }))
                        .map(|mut s| {
                            if let Geometry::Text { at, .. } | Geometry::Pin { at, .. } = &mut s.geometry {
                                *at = Point { x: 0.5, y: 0.5 };
                            }
                            s
                        })
                        .collect();
                    prop_assert!(crate::media::markup::flatten(&photo, &stored).is_ok(), "stored text did not draw: {stored:?}");
                    Ok(())
                })
                .unwrap();
        }
    }
}
