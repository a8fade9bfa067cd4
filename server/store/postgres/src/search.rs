//! Full-text search with a `tsvector` and a GIN index: `search_documents`,
//! which triggers keep in step with projects, photos, comments and milestones. Ranking
//! is the same as SQLite's: title or tags holding every word first, newest first
//! within; and as there, a search costs what its best few results do, not every match
//! in a million photos (see `find`).

use sitecast_store_core::{ProjectScope, Result, SearchKind, SearchScope};
use sqlx::{Connection, PgConnection};

use crate::convert::{ids, opt_id, text};
use crate::projects;

/// A `to_tsquery` text for the words: each matched as a word's start with one of
/// `weights` (A: title and tags, B: the rest). The domain's words hold letters and
/// digits only, so nothing in them is read as query syntax; anything else is dropped
/// here all the same.
fn tsquery(words: &[String], weights: &str) -> String {
    words
        .iter()
        .map(|w| w.chars().filter(|c| c.is_alphanumeric()).collect::<String>())
        .filter(|w| !w.is_empty())
        .map(|w| format!("{w}:*{weights}"))
        .collect::<Vec<_>>()
        .join(" & ")
}

/// Up to this many projects, a search reads their documents and tests each (a project
/// holds a few thousand): cheaper than the GIN index's look-up of a common prefix over
/// every project. Beyond it, the indexes find the matches.
const READ_PROJECTS: usize = 10;

/// The ids of the best `limit` documents of `kind` that hold every word (as a word's
/// start) and that `scope` sees: those whose title or tags hold every word first, then
/// the others; newest first within each.
///
/// Each tier is the newest `limit` matches (twice that anywhere, since up to `limit` of
/// those are in the first tier too). Over many projects Postgres finds them one of two
/// ways: walking `search_documents_newest` down and testing each document, which stops
/// early when the words are common, or reading the GIN index's matches when they are
/// rare. Which is cheaper depends on the words, so the statement is planned for each
/// search's own (`plan_cache_mode`), never once for all.
pub async fn find(c: &mut PgConnection, kind: SearchKind, words: &[String], scope: &SearchScope<'_>, limit: i64) -> Result<Vec<String>> {
    if tsquery(words, "AB").is_empty() {
        return Ok(Vec::new());
    }
    let projects = if *scope.projects == ProjectScope::All {
        scope.project_id.map(|id| vec![id.to_owned()])
    } else {
        let mine = projects::ids_in_scope(&mut *c, scope.projects).await?;
        Some(scope.narrow(mine))
    };
    let projects = projects.as_deref().map(ids);
    if projects.as_ref().is_some_and(Vec::is_empty) {
        return Ok(Vec::new());
    }
    let (heading, anywhere, favourites_of) = (tsquery(words, "A"), tsquery(words, "AB"), opt_id(scope.favourites_of));
    let recs = match projects {
        Some(projects) if projects.len() <= READ_PROJECTS => {
            sqlx::query_scalar!(
                r#"WITH scope AS MATERIALIZED (
                       SELECT d.ref_id, d.created_at, d.document FROM search_documents d
                       WHERE d.project_id = ANY($2) AND d.kind = $1
                         AND ($5::uuid IS NULL OR EXISTS (SELECT 1 FROM user_favourites f WHERE f.image_id = d.ref_id AND f.user_id = $5))
                   )
                   SELECT ref_id AS "ref_id!" FROM (
                       SELECT DISTINCT ON (ref_id) ref_id, tier, created_at FROM (
                           (SELECT ref_id, 0 AS tier, created_at FROM scope WHERE document @@ to_tsquery('simple', $3)
                            ORDER BY created_at DESC, ref_id LIMIT $6)
                           UNION ALL
                           (SELECT ref_id, 1 AS tier, created_at FROM scope WHERE document @@ to_tsquery('simple', $4)
                            ORDER BY created_at DESC, ref_id LIMIT $6 * 2)
                       ) tiers ORDER BY ref_id, tier
                   ) best ORDER BY tier, created_at DESC, ref_id LIMIT $6"#,
                kind.as_str(),
                &projects,
                heading,
                anywhere,
                favourites_of,
                limit,
            )
            .fetch_all(&mut *c)
            .await?
        }
        projects => {
            let mut tx = c.begin().await?;
            sqlx::query_scalar!(r#"SELECT set_config('plan_cache_mode', 'force_custom_plan', true) AS "set!""#).fetch_one(&mut *tx).await?;
            let recs = sqlx::query_scalar!(
                r#"SELECT ref_id AS "ref_id!" FROM (
                       SELECT DISTINCT ON (ref_id) ref_id, tier, created_at FROM (
                           (SELECT d.ref_id, 0 AS tier, d.created_at FROM search_documents d
                            WHERE d.kind = $1 AND d.document @@ to_tsquery('simple', $3)
                              AND ($2::uuid[] IS NULL OR d.project_id = ANY($2))
                              AND ($5::uuid IS NULL OR EXISTS (SELECT 1 FROM user_favourites f WHERE f.image_id = d.ref_id AND f.user_id = $5))
                            ORDER BY d.created_at DESC, d.ref_id LIMIT $6)
                           UNION ALL
                           (SELECT d.ref_id, 1 AS tier, d.created_at FROM search_documents d
                            WHERE d.kind = $1 AND d.document @@ to_tsquery('simple', $4)
                              AND ($2::uuid[] IS NULL OR d.project_id = ANY($2))
                              AND ($5::uuid IS NULL OR EXISTS (SELECT 1 FROM user_favourites f WHERE f.image_id = d.ref_id AND f.user_id = $5))
                            ORDER BY d.created_at DESC, d.ref_id LIMIT $6 * 2)
                       ) tiers ORDER BY ref_id, tier
                   ) best ORDER BY tier, created_at DESC, ref_id LIMIT $6"#,
                kind.as_str(),
                projects.as_deref(),
                heading,
                anywhere,
                favourites_of,
                limit,
            )
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            recs
        }
    };
    Ok(recs.into_iter().map(text).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_prefix_terms_of_the_text() {
        let words = ["kitch".to_owned(), "élec".to_owned(), "a&b".to_owned(), "!".to_owned()];
        assert_eq!(tsquery(&words, "AB"), "kitch:*AB & élec:*AB & ab:*AB");
        assert_eq!(tsquery(&words[..1], "A"), "kitch:*A");
        assert_eq!(tsquery(&["!".to_owned()], "AB"), "");
    }
}
