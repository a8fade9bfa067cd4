//! Full-text search with FTS5: `search_index` indexes `search_documents`,
//! which triggers keep in step with projects, photos, comments and milestones.
//!
//! Two things keep a search's cost that of its best few results, not of every match
//! in a million photos. Its scope is part of the full-text query: each document's
//! `facets` column holds its project as a word, so a homeowner's search intersects the
//! index's lists for "kitch" and for their projects. And its ranking walks the index in
//! rowid order, which FTS5 stops at the limit: documents of each kind have their own
//! rowid range (the kind's code in the high bits, then a count), so "newest first" is
//! "highest rowid first", and the best results are the newest whose title or tags hold
//! every word, then the newest holding them anywhere.

use sitecast_store_core::{ProjectScope, Result, SearchKind, SearchScope};
use sqlx::SqliteConnection;

use crate::projects;

/// The rowids of `kind`'s documents: its code (migrations/sqlite/0011) times 2⁴⁰, up
/// to the next code's.
fn rowids(kind: SearchKind) -> (i64, i64) {
    let code = match kind {
        SearchKind::Project => 1,
        SearchKind::Photo => 2,
        SearchKind::Comment => 3,
    };
    (code << 40, (code + 1) << 40)
}

/// A project's word among the facets: `p` and its id's hex digits, one word to the
/// unicode61 tokenizer, as migrations/sqlite/0011 writes it.
fn project_token(id: &str) -> String {
    let hex: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    format!("p{}", hex.to_ascii_lowercase())
}

/// An FTS5 query: every word, each matched as a word's start, in `columns`, and one of
/// `projects` (any when `None`) among the facets. Each word is quoted, so nothing in
/// it is read as FTS5 syntax.
fn match_expression(columns: &str, projects: Option<&[String]>, words: &[String]) -> String {
    let text = words.iter().map(|w| format!("\"{}\"*", w.replace('"', "\"\""))).collect::<Vec<_>>().join(" AND ");
    let text = format!("{{{columns}}}: ({text})");
    match projects {
        None => text,
        Some(projects) => {
            let any = projects.iter().map(|p| project_token(p)).collect::<Vec<_>>().join(" OR ");
            format!("{{facets}}: ({any}) AND {text}")
        }
    }
}

/// The ids of the best `limit` documents of `kind` that hold every word (as a word's
/// start) and that `scope` sees: those whose title or tags hold every word first, then
/// the others; newest first within each.
pub async fn find(c: &mut SqliteConnection, kind: SearchKind, words: &[String], scope: &SearchScope<'_>, limit: i64) -> Result<Vec<String>> {
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let projects = if *scope.projects == ProjectScope::All {
        scope.project_id.map(|id| vec![id.to_owned()])
    } else {
        let mine = projects::ids_in_scope(&mut *c, scope.projects).await?;
        Some(scope.narrow(mine))
    };
    if projects.as_ref().is_some_and(Vec::is_empty) {
        return Ok(Vec::new());
    }
    let heading = match_expression("title tags", projects.as_deref(), words);
    let anywhere = match_expression("title body tags", projects.as_deref(), words);
    let (from, to) = rowids(kind);
    // The newest `limit` of each tier; twice as many anywhere, since up to `limit` of
    // those are in the first tier too.
    Ok(sqlx::query_scalar!(
        r#"SELECT d.ref_id AS "ref_id!"
           FROM (SELECT id, MIN(tier) AS tier FROM (
                   SELECT * FROM (SELECT rowid AS id, 0 AS tier FROM search_index
                                  WHERE search_index MATCH $1 AND rowid >= $3 AND rowid < $4
                                    AND ($5 IS NULL OR EXISTS (SELECT 1 FROM search_documents s JOIN user_favourites f ON f.image_id = s.ref_id
                                                               WHERE s.id = search_index.rowid AND f.user_id = $5))
                                  ORDER BY rowid DESC LIMIT $6)
                   UNION ALL
                   SELECT * FROM (SELECT rowid AS id, 1 AS tier FROM search_index
                                  WHERE search_index MATCH $2 AND rowid >= $3 AND rowid < $4
                                    AND ($5 IS NULL OR EXISTS (SELECT 1 FROM search_documents s JOIN user_favourites f ON f.image_id = s.ref_id
                                                               WHERE s.id = search_index.rowid AND f.user_id = $5))
                                  ORDER BY rowid DESC LIMIT $6 * 2)
                 ) GROUP BY id) m
           JOIN search_documents d ON d.id = m.id
           ORDER BY m.tier, m.id DESC
           LIMIT $6"#,
        heading,
        anywhere,
        from,
        to,
        scope.favourites_of,
        limit,
    )
    .fetch_all(&mut *c)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_prefixes_in_the_columns() {
        let words = ["kitch".to_owned(), "o\"neil".to_owned()];
        assert_eq!(match_expression("title tags", None, &words), "{title tags}: (\"kitch\"* AND \"o\"\"neil\"*)");
    }

    #[test]
    fn a_scope_is_its_projects_tokens() {
        let projects = ["0A1B2C3D-0000-4000-8000-00000000000F".to_owned(), "11111111-2222-4333-8444-555555555555".to_owned()];
        assert_eq!(
            match_expression("title body tags", Some(&projects), &["tile".to_owned()]),
            "{facets}: (p0a1b2c3d00004000800000000000000f OR p11111111222243338444555555555555) AND {title body tags}: (\"tile\"*)"
        );
    }

    #[test]
    fn kinds_have_their_own_rowids() {
        assert_eq!(rowids(SearchKind::Project), (1 << 40, 2 << 40));
        assert_eq!(rowids(SearchKind::Photo).0, rowids(SearchKind::Project).1);
        assert_eq!(rowids(SearchKind::Comment), (3 << 40, 4 << 40));
    }
}
