//! The projects a user sees, a page at a time (docs/FEATURES.md, "Big projects"): the
//! hello carries the first page and the client reads the rest in the background, so an
//! admin of a thousand projects is greeted in one small frame.
//!
//! The order is newest update first with the id breaking ties, and a
//! cursor is the last project's place in it: a project updated between two pages moves
//! to the front, where its event has already brought it, and no other is skipped.

use protocol::{ErrorCode, Project, PHOTO_PAGE_BYTES, PROJECT_PAGE};

use crate::domain::shared::policy::{self, Actor};
use crate::domain::shared::services::Services;
use crate::domain::shared::views;
use crate::error::{Error, Result};
use crate::store::projects::{self, ProjectRow};

pub const INVALID_PROJECT_CURSOR: &str = "Invalid project cursor.";

/// One page of projects, the cursor of the next and how many the user sees in all.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectPage {
    pub projects: Vec<Project>,
    pub next: Option<String>,
    pub count: u32,
}

/// Up to `most` projects (at most `PROJECT_PAGE`) after the cursor `after`, within
/// `PHOTO_PAGE_BYTES` on the wire.
pub async fn page(svc: &Services, actor: &Actor, after: Option<&str>, most: usize) -> Result<ProjectPage> {
    let start = after.map(parse_cursor).transpose()?;
    let rows = projects::list(svc.store.pool(), &policy::project_scope(actor)).await?;
    Ok(page_of(&rows, start.as_ref(), most))
}

/// The page of `rows` that follows `start`.
pub fn page_of(rows: &[ProjectRow], start: Option<&(i64, String)>, most: usize) -> ProjectPage {
    let most = most.clamp(1, PROJECT_PAGE);
    // Sorted here rather than trusted from the store: Postgres orders text by the
    // database's collation, and a cursor compares ids byte by byte.
    let mut order: Vec<&ProjectRow> = rows.iter().collect();
    order.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then_with(|| a.id.cmp(&b.id)));
    let from = start.map_or(0, |(updated, id)| order.partition_point(|r| r.updated_at > *updated || (r.updated_at == *updated && r.id <= *id)));
    let (mut projects, mut bytes, mut next) = (Vec::new(), 0, None);
    for row in &order[from..] {
        let project = views::project(row);
        bytes += protocol::encode(&project).map_or(0, |b| b.len());
        if let Some(last) = projects.last().filter(|_| projects.len() == most || bytes > PHOTO_PAGE_BYTES) {
            next = Some(cursor_after(last));
            break;
        }
        projects.push(project);
    }
    ProjectPage { projects, next, count: u32::try_from(rows.len()).unwrap_or(u32::MAX) }
}

/// `<updated>.<id>` of the last project of a page.
fn cursor_after(project: &Project) -> String {
    format!("{}.{}", project.updated_at, project.id)
}

/// A cursor `cursor_after` made; anything else is refused.
fn parse_cursor(raw: &str) -> Result<(i64, String)> {
    let bad = || Error::new(ErrorCode::BadRequest, INVALID_PROJECT_CURSOR);
    let (updated, id) = raw.split_once('.').ok_or_else(bad)?;
    let updated: i64 = updated.parse().map_err(|_| bad())?;
    let id_ok = !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if updated < 0 || !id_ok {
        return Err(bad());
    }
    Ok((updated, id.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, updated_at: i64, description_len: usize) -> ProjectRow {
        ProjectRow { description: "d".repeat(description_len), updated_at, ..ProjectRow::example(id, "h", None) }
    }

    /// Newest update first, the id breaking ties: the store's order.
    fn rows(n: usize) -> Vec<ProjectRow> {
        (0..n).map(|i| row(&format!("p{:04}", i), 1_000 - (i as i64 / 3), 10)).collect()
    }

    fn ids(page: &ProjectPage) -> Vec<String> {
        page.projects.iter().map(|p| p.id.clone()).collect()
    }

    #[test]
    fn pages_follow_one_another_without_gaps_or_repeats() {
        let all = rows(250);
        let mut seen = Vec::new();
        let mut start = None;
        loop {
            let page = page_of(&all, start.as_ref(), 40);
            assert!(page.projects.len() <= 40);
            assert_eq!(page.count, 250);
            seen.extend(ids(&page));
            match page.next {
                Some(next) => start = Some(parse_cursor(&next).unwrap()),
                None => break,
            }
        }
        let expected: Vec<String> = all.iter().map(|r| r.id.clone()).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_project_updated_between_pages_skips_no_other() {
        let mut all = rows(10);
        let first = page_of(&all, None, 4);
        let start = parse_cursor(first.next.as_deref().unwrap()).unwrap();
        // p0006 is updated: it moves to the front, ahead of the cursor.
        let mut moved = all.remove(6);
        moved.updated_at = 5_000;
        all.insert(0, moved);
        let rest = page_of(&all, Some(&start), 100);
        assert_eq!(ids(&rest), ["p0004", "p0005", "p0007", "p0008", "p0009"]);
    }

    #[test]
    fn a_page_stays_under_the_byte_bound() {
        // Each project weighs about 10 KB: far fewer than a full page fit.
        let all: Vec<ProjectRow> = (0..50).map(|i| row(&format!("p{i:04}"), 100 - i, 10_000)).collect();
        let page = page_of(&all, None, PROJECT_PAGE);
        let bytes: usize = page.projects.iter().map(|p| protocol::encode(p).unwrap().len()).sum();
        assert!(page.projects.len() < 10 && !page.projects.is_empty());
        assert!(bytes <= PHOTO_PAGE_BYTES, "{bytes} bytes");
        assert!(page.next.is_some());
    }

    #[test]
    fn a_bad_cursor_is_refused() {
        for raw in ["", "12", "x.p1", "-1.p1", "12.", "12.a b", &format!("1.{}", "a".repeat(65))] {
            assert_eq!(parse_cursor(raw).unwrap_err().code(), ErrorCode::BadRequest, "{raw}");
        }
    }
}
