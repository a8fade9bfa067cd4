//! Log entries the web client sends (SPEC.md §3 logs).

use serde_json::Value;
use sitecast_store_core::Result;
use sqlx::PgConnection;

use crate::convert::{at, id as uid};

/// `data` is free-form text (protocol's `LogEntry`: "typically JSON text") kept in a
/// jsonb column.
pub async fn insert(
    c: &mut PgConnection,
    id: &str,
    user_id: &str,
    level: &str,
    message: &str,
    data: Option<&str>,
    now: i64,
) -> Result<()> {
    let data = data.map(json_text);
    sqlx::query!(
        "INSERT INTO logs (id, user_id, level, message, data, created_at) VALUES ($1, $2, $3, $4, $5::text::jsonb, $6)",
        uid(id),
        uid(user_id),
        level,
        message,
        data,
        at(now),
    )
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The JSON text to store for a client's `data`: the text itself when it is JSON that
/// jsonb accepts, else a JSON string holding the text, so that no entry is refused and
/// none is altered (migration 0009 converted older rows by the same rule). The text is
/// only checked here, not re-serialised: Postgres parses the original, so numbers keep
/// every digit. jsonb refuses the `\u0000` escape, which serde_json accepts.
fn json_text(data: &str) -> String {
    if !data.contains("\\u0000") && serde_json::from_str::<Value>(data).is_ok() {
        data.to_owned()
    } else {
        Value::String(data.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::json_text;

    #[test]
    fn json_is_kept_and_anything_else_becomes_a_json_string() {
        assert_eq!(json_text(r#"{"a": 1.10}"#), r#"{"a": 1.10}"#);
        assert_eq!(json_text("not json {"), r#""not json {""#);
        assert_eq!(json_text(""), r#""""#);
        assert_eq!(json_text(r#"{"a":"\u0000"}"#), r#""{\"a\":\"\\u0000\"}""#);
    }
}
