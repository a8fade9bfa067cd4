//! The report's words: dates as the web app writes them ("Mar 4, 2026", en-US, UTC),
//! statuses, milestone states and timeline entries in the timeline's own sentences
//! (web/src/lib/timeline.ts).

use protocol::{
    ProjectStatus, ReportContent, ReportMilestone, ReportMilestoneState, TimelineDetail, TimelineEntry,
};
use time::{Date, Month, OffsetDateTime};

fn month(m: Month) -> &'static str {
    match m {
        Month::January => "Jan",
        Month::February => "Feb",
        Month::March => "Mar",
        Month::April => "Apr",
        Month::May => "May",
        Month::June => "Jun",
        Month::July => "Jul",
        Month::August => "Aug",
        Month::September => "Sep",
        Month::October => "Oct",
        Month::November => "Nov",
        Month::December => "Dec",
    }
}

fn format_date(d: Date) -> String {
    format!("{} {}, {}", month(d.month()), d.day(), d.year())
}

/// A moment's day, "Mar 4, 2026" (UTC).
pub fn date(ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format_date(at.date())
}

/// A `YYYY-MM-DD` day as "Mar 4, 2026"; text that is not one is shown as it is.
pub fn day(text: &str) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text, format).map(format_date).unwrap_or_else(|_| text.to_owned())
}

/// "Mar 1, 2026 – Nov 24, 2026", "From Mar 1, 2026", "Up to …", "All dates".
pub fn period(content: &ReportContent) -> String {
    match (content.from.as_deref(), content.to.as_deref()) {
        (Some(from), Some(to)) => format!("{} – {}", day(from), day(to)),
        (Some(from), None) => format!("From {}", day(from)),
        (None, Some(to)) => format!("Up to {}", day(to)),
        (None, None) => "All dates".to_owned(),
    }
}

pub fn status(s: ProjectStatus) -> &'static str {
    match s {
        ProjectStatus::Planning => "Planning",
        ProjectStatus::InProgress => "In progress",
        ProjectStatus::OnHold => "On hold",
        ProjectStatus::Completed => "Completed",
    }
}

/// What a milestone row says after its name.
pub fn milestone_state(m: &ReportMilestone) -> String {
    let target = m.target_date.as_deref().map(day);
    match (m.state, target) {
        (ReportMilestoneState::Done, _) => match &m.done_date {
            Some(done) => format!("Done {}", day(done)),
            None => "Done".to_owned(),
        },
        (_, Some(target)) if m.late => format!("Late · was due {target}"),
        (ReportMilestoneState::Current, Some(target)) => format!("In progress · due {target}"),
        (ReportMilestoneState::Current, None) => "In progress".to_owned(),
        (_, Some(target)) => format!("Due {target}"),
        (_, None) => "No target date".to_owned(),
    }
}

/// A timeline entry as a sentence: "Dana Ortiz completed Framing".
pub fn change(entry: &TimelineEntry) -> String {
    let actor = entry.actor_name.as_deref().filter(|n| !n.is_empty());
    let with = |did: String, happened: &str| match actor {
        Some(a) => format!("{a} {did}"),
        None => happened.to_owned(),
    };
    match &entry.detail {
        TimelineDetail::ProjectCreated => with("created the project".into(), "The project was created"),
        TimelineDetail::StatusChanged { from, to } => {
            with(format!("changed the status from {} to {}", status(*from), status(*to)), "The status changed")
        }
        TimelineDetail::ProgressChanged { from, to } => {
            with(format!("changed the progress from {from}% to {to}%"), "The progress changed")
        }
        TimelineDetail::MilestoneCompleted { name, .. } => match actor {
            Some(a) => format!("{a} completed {name}"),
            None => format!("{name} was completed"),
        },
        TimelineDetail::MilestoneReopened { name, .. } => match actor {
            Some(a) => format!("{a} reopened {name}"),
            None => format!("{name} was reopened"),
        },
        TimelineDetail::PhotosAdded { count, note, .. } => {
            let photos = if *count == 1 { "photo" } else { "photos" };
            match note.as_deref().filter(|n| !n.trim().is_empty()) {
                Some(note) => format!("{count} new {photos} from a site visit: “{}”", note.trim()),
                None => format!("{count} new {photos} from a site visit"),
            }
        }
        TimelineDetail::Comment { excerpt, .. } => match actor {
            Some(a) => format!("{a} commented on a photo: “{excerpt}”"),
            None => format!("A comment on a photo: “{excerpt}”"),
        },
        TimelineDetail::MarkedUp { .. } => with("marked up a photo".into(), "A photo was marked up"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_like_the_web_app() {
        assert_eq!(date(1_772_582_400_000), "Mar 4, 2026");
        assert_eq!(day("2026-11-24"), "Nov 24, 2026");
        assert_eq!(day("not a day"), "not a day");
    }

    #[test]
    fn milestone_rows_say_where_each_stands() {
        let m = |state, late, target: Option<&str>, done: Option<&str>| ReportMilestone {
            name: "Framing".into(),
            state,
            late,
            target_date: target.map(Into::into),
            done_date: done.map(Into::into),
        };
        assert_eq!(milestone_state(&m(ReportMilestoneState::Done, false, Some("2026-03-01"), Some("2026-03-04"))), "Done Mar 4, 2026");
        assert_eq!(milestone_state(&m(ReportMilestoneState::Current, true, Some("2026-03-01"), None)), "Late · was due Mar 1, 2026");
        assert_eq!(milestone_state(&m(ReportMilestoneState::Current, false, Some("2026-12-01"), None)), "In progress · due Dec 1, 2026");
        assert_eq!(milestone_state(&m(ReportMilestoneState::Upcoming, false, None, None)), "No target date");
    }
}
