//! Finding any photo (docs/FEATURES.md, "Tags and search"): one search over project
//! titles and addresses, milestone names, captions, visit notes, tags and comments, and
//! people's names for admins. Every word of the query must match the start of a word
//! ("kitch" finds "Kitchen"). The policy decides the scope before the database is asked,
//! so nothing the searcher may not see is returned or counted; each database ranks with
//! its own full-text index.

use std::collections::HashMap;

use protocol::{CommentHit, PhotoHit, ProjectHit, Search, SearchResults};

use crate::domain::sharing::guests::{self, GuestView};
use crate::domain::shared::policy::{self, Action, Actor, Guest, Target};
use crate::domain::projects::visible;
use crate::domain::shared::services::Services;
use crate::domain::shared::validation::{Limit, Text};
use crate::domain::shared::views::{self, media_url};
use crate::error::Result;
use crate::store::projects::{ProjectRow, ProjectScope};
use crate::store::search::{SearchKind, SearchScope};
use crate::store::{comments, images, milestones, projects, search, users};

pub const QUERY: Limit = Limit { label: "Search", max: 200, text: Text::OneLine };
/// Words of a query that count: more narrow nothing a person would type.
const MAX_WORDS: usize = 8;
/// Characters of one word that count.
const MAX_WORD: usize = 40;
const PROJECTS: i64 = 5;
const PHOTOS: i64 = 12;
const COMMENTS: i64 = 6;
const PEOPLE: usize = 5;

/// The query's words: letters and digits, lower-cased, each once, at most `MAX_WORDS`.
pub fn words(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in query.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        let word: String = word.to_lowercase().chars().take(MAX_WORD).collect();
        if !out.contains(&word) {
            out.push(word);
        }
        if out.len() == MAX_WORDS {
            break;
        }
    }
    out
}

/// Whether every word starts a word of `text` (how the indexes match, for deciding
/// in memory what matched: a project's title or one of its milestones, a person).
pub fn matches_all(words: &[String], text: &str) -> bool {
    let text_words = self::words_of(text);
    words.iter().all(|w| text_words.iter().any(|t| t.starts_with(w.as_str())))
}

fn matches_any(words: &[String], text: &str) -> bool {
    let text_words = words_of(text);
    words.iter().any(|w| text_words.iter().any(|t| t.starts_with(w.as_str())))
}

fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

fn empty(query: &str, project_id: Option<String>) -> SearchResults {
    SearchResults {
        query: query.to_owned(),
        project_id,
        projects: Vec::new(),
        photos: Vec::new(),
        comments: Vec::new(),
        people: Vec::new(),
        more_photos: false,
    }
}

/// A signed-in person's search: their projects (admins: all), narrowed to one project
/// when asked.
pub async fn search(svc: &Services, actor: &Actor, input: &Search) -> Result<SearchResults> {
    QUERY.check("query", &input.query)?;
    let narrowed = match input.project_id.as_deref() {
        Some(id) => Some(visible(svc, actor, id).await?),
        None => None,
    };
    let project_id = narrowed.as_ref().map(|p| p.id.clone());
    let words = words(&input.query);
    if words.is_empty() {
        return Ok(empty(&input.query, project_id));
    }
    let projects_seen = policy::project_scope(actor);
    let scope = SearchScope { projects: &projects_seen, project_id: project_id.as_deref(), favourites_of: None };
    let pool = svc.store.pool();
    let mut titles = Titles::default();

    let mut results = empty(&input.query, project_id.clone());
    if narrowed.is_none() {
        for id in search::find(pool, SearchKind::Project, &words, &scope, PROJECTS).await? {
            let Some(row) = titles.project(svc, &id).await? else { continue };
            let milestone = if matches_all(&words, &format!("{} {}", row.title, row.address)) {
                None
            } else {
                milestones::list(pool, &row.id).await?.into_iter().map(|m| m.name).find(|name| matches_any(&words, name))
            };
            let thumb_url = row.thumbnail_image_id.as_deref().map(|image| media_url(image, "thumb"));
            results.projects.push(ProjectHit { project: views::project(&row), thumb_url, milestone });
        }
    }
    let (photos, more) = photo_hits(svc, &words, &scope, &mut titles, |_| true).await?;
    results.photos = photos;
    results.more_photos = more;

    for id in search::find(pool, SearchKind::Comment, &words, &scope, COMMENTS).await? {
        let Some(row) = comments::find(pool, &id).await? else { continue };
        let Some(project_title) = titles.title(svc, &row.project_id).await? else { continue };
        results.comments.push(CommentHit {
            thumb_url: media_url(&row.image_id, "thumb"),
            comment: views::comment(&row),
            project_title,
        });
    }

    if narrowed.is_none() && policy::allows(actor, Action::SearchPeople, Target::Nothing) {
        results.people = users::list_all(pool)
            .await?
            .iter()
            .filter(|u| {
                let name = format!("{} {} {}", u.first_name.as_deref().unwrap_or(""), u.last_name.as_deref().unwrap_or(""), u.name.as_deref().unwrap_or(""));
                matches_all(&words, &format!("{name} {}", u.email))
            })
            .take(PEOPLE)
            .map(views::profile)
            .collect();
    }
    Ok(results)
}

/// A guest's search (docs/FEATURES.md, "Tags and search"): photos of their link's project
/// that the link shows, as guests see them.
pub async fn search_guest(svc: &Services, guest: &Guest, query: &str) -> Result<SearchResults> {
    QUERY.check("query", query)?;
    let project = guests::linked_project(svc, guest, Action::ViewPhoto).await?;
    let words = words(query);
    if words.is_empty() {
        return Ok(empty(query, Some(project.id)));
    }
    let favourites_of = match guest.photos {
        protocol::GuestPhotos::All => None,
        protocol::GuestPhotos::Favourites => Some(guest.maker.id.as_str()),
    };
    let scope = SearchScope { projects: &ProjectScope::All, project_id: Some(&project.id), favourites_of };
    let shown = guests::shown_set(svc, guest).await?;
    let view = GuestView::new(guest, shown.as_ref());
    let mut titles = Titles::default();
    let (photos, more_photos) = photo_hits(svc, &words, &scope, &mut titles, |id| view.sees(id)).await?;
    let photos = photos.into_iter().map(|hit| PhotoHit { photo: views::for_guests(hit.photo), ..hit }).collect();
    Ok(SearchResults { photos, more_photos, ..empty(query, Some(project.id)) })
}

/// The best photos for the words in the scope (one more is asked for, to say whether
/// there are more), those `shows` keeps, with their project's title and milestone.
async fn photo_hits(
    svc: &Services,
    words: &[String],
    scope: &SearchScope<'_>,
    titles: &mut Titles,
    shows: impl Fn(&str) -> bool,
) -> Result<(Vec<PhotoHit>, bool)> {
    let pool = svc.store.pool();
    let mut ids = search::find(pool, SearchKind::Photo, words, scope, PHOTOS + 1).await?;
    let more = ids.len() as i64 > PHOTOS;
    ids.truncate(PHOTOS as usize);
    let mut rows: HashMap<String, images::ImageRow> = images::find_many(pool, &ids).await?.into_iter().map(|r| (r.id.clone(), r)).collect();
    let mut hits = Vec::new();
    for id in ids.iter().filter(|id| shows(id)) {
        let Some(row) = rows.remove(id) else { continue };
        let Some(project_title) = titles.title(svc, &row.project_id).await? else { continue };
        let milestone = match row.milestone_id.as_deref() {
            Some(m) => titles.milestone(svc, &row.project_id, m).await?,
            None => None,
        };
        hits.push(PhotoHit { photo: views::image(&row), project_title, milestone });
    }
    Ok((hits, more))
}

/// Projects and milestone names read once per search.
#[derive(Default)]
struct Titles {
    projects: HashMap<String, Option<ProjectRow>>,
    milestones: HashMap<String, HashMap<String, String>>,
}

impl Titles {
    async fn project(&mut self, svc: &Services, id: &str) -> Result<Option<ProjectRow>> {
        if !self.projects.contains_key(id) {
            let row = projects::find(svc.store.pool(), id).await?;
            self.projects.insert(id.to_owned(), row);
        }
        Ok(self.projects.get(id).cloned().flatten())
    }

    async fn title(&mut self, svc: &Services, project_id: &str) -> Result<Option<String>> {
        Ok(self.project(svc, project_id).await?.map(|p| p.title))
    }

    async fn milestone(&mut self, svc: &Services, project_id: &str, id: &str) -> Result<Option<String>> {
        if !self.milestones.contains_key(project_id) {
            let names = milestones::list(svc.store.pool(), project_id).await?.into_iter().map(|m| (m.id, m.name)).collect();
            self.milestones.insert(project_id.to_owned(), names);
        }
        Ok(self.milestones.get(project_id).and_then(|m| m.get(id)).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_unique_and_bounded() {
        assert_eq!(words("  Kitch, ELECTRICAL rough-in kitch "), vec!["kitch", "electrical", "rough", "in"]);
        assert_eq!(words("\"quoted\" OR * NEAR("), vec!["quoted", "or", "near"]);
        assert_eq!(words("Baño 2x4"), vec!["baño", "2x4"]);
        assert!(words(" ,.;!? ").is_empty());
        assert_eq!(words("a b c d e f g h i j").len(), MAX_WORDS);
        assert_eq!(words(&"x".repeat(100))[0].len(), MAX_WORD);
    }

    #[test]
    fn matching_is_by_word_start() {
        let w = words("kitch elec");
        assert!(matches_all(&w, "Kitchen — Electrical rough-in"));
        assert!(!matches_all(&w, "Kitchen only"));
        assert!(!matches_all(&words("itchen"), "Kitchen"));
        assert!(matches_any(&w, "Electrical"));
    }
}
