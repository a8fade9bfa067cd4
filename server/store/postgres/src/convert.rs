//! Between the domain's values (ids as text, times as UTC milliseconds, days as
//! `YYYY-MM-DD`) and Postgres's native ones (`uuid`, `timestamptz`, `date`).

use sitecast_store_core::{Result, StoreError};
use time::{Date, OffsetDateTime};
use uuid::Uuid;

/// An id as Postgres stores it. Text that is not a UUID becomes the nil UUID, which no
/// row has: an id a client made up finds nothing, exactly like an unknown one, instead
/// of failing the query.
pub(crate) fn id(text: &str) -> Uuid {
    Uuid::parse_str(text).unwrap_or(Uuid::nil())
}

pub(crate) fn opt_id(text: Option<&str>) -> Option<Uuid> {
    text.map(id)
}

pub(crate) fn ids(texts: &[String]) -> Vec<Uuid> {
    texts.iter().map(|t| id(t)).collect()
}

pub(crate) fn text(id: Uuid) -> String {
    id.to_string()
}

pub(crate) fn opt_text(id: Option<Uuid>) -> Option<String> {
    id.map(text)
}

/// Milliseconds since the epoch as a `timestamptz` (microsecond precision, so every
/// millisecond reads back as it was written). Out of the representable years, clamped.
pub(crate) fn at(ms: i64) -> OffsetDateTime {
    let nanos = i128::from(ms) * 1_000_000;
    OffsetDateTime::from_unix_timestamp_nanos(nanos).unwrap_or(if ms < 0 {
        Date::MIN.midnight().assume_utc()
    } else {
        Date::MAX.midnight().assume_utc()
    })
}

pub(crate) fn opt_at(ms: Option<i64>) -> Option<OffsetDateTime> {
    ms.map(at)
}

pub(crate) fn ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

pub(crate) fn opt_ms(t: Option<OffsetDateTime>) -> Option<i64> {
    t.map(ms)
}

const DAY: &[time::format_description::FormatItem<'static>] = time::macros::format_description!("[year]-[month]-[day]");

/// A calendar day, `YYYY-MM-DD` (the domain validates the text before it gets here).
pub(crate) fn date(text: &str) -> Result<Date> {
    Date::parse(text, DAY).map_err(|_| StoreError::Corrupt { column: "date", value: text.to_owned() })
}

pub(crate) fn opt_date(text: Option<&str>) -> Result<Option<Date>> {
    text.map(date).transpose()
}

pub(crate) fn day(d: Date) -> String {
    d.format(DAY).unwrap_or_else(|_| d.to_string())
}

pub(crate) fn opt_day(d: Option<Date>) -> Option<String> {
    d.map(day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_foreign_ids_name_nothing() {
        for t in [0, 1, 1_732_469_812_345, -86_400_001] {
            assert_eq!(ms(at(t)), t);
        }
        let u = Uuid::now_v7();
        assert_eq!(id(&text(u)), u);
        assert_eq!(id("not-a-uuid"), Uuid::nil());
        assert_eq!(day(date("2026-02-28").unwrap()), "2026-02-28");
        assert!(date("2026-02-30").is_err());
    }
}
