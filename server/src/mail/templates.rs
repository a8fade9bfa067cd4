//! The text of every mail we send, in plain text and HTML. User-supplied values are
//! escaped in the HTML part.

use html_escape::encode_text as esc;

use super::{Attachment, Mail};

/// The end of a mail a user may turn off
/// (docs/FEATURES.md, "Comments, notifications and mail"): why they get it, a link to
/// their mail preferences and a one-click unsubscribe that works without signing in.
#[derive(Debug, Clone, PartialEq)]
pub struct Footer {
    /// Profile & Settings, where "Email me about" is.
    pub preferences: String,
    /// The web page that unsubscribes (from the mail body).
    pub unsubscribe_page: String,
    /// The URL a mail client POSTs to (RFC 8058 `List-Unsubscribe`).
    pub one_click: String,
}

impl Footer {
    fn text(&self) -> String {
        format!(
            "\n--\nChoose what Sitecast emails you: {}\nUnsubscribe from these emails: {}\n",
            self.preferences, self.unsubscribe_page
        )
    }

    fn html(&self) -> String {
        format!(
            "<tr><td style=\"font-size:12px;line-height:1.6;color:#94a3b8;padding-top:20px;border-top:1px solid #e2e8f0\">\
<a href=\"{}\" style=\"color:#64748b\">Email preferences</a> &middot; <a href=\"{}\" style=\"color:#64748b\">Unsubscribe</a></td></tr>",
            html_escape::encode_double_quoted_attribute(&self.preferences),
            html_escape::encode_double_quoted_attribute(&self.unsubscribe_page),
        )
    }
}

fn html_page(title: &str, intro: &str, button_label: &str, link: &str, footnote: &str) -> String {
    html_page_with(title, intro, button_label, link, footnote, None)
}

fn html_page_with(title: &str, intro: &str, button_label: &str, link: &str, footnote: &str, footer: Option<&Footer>) -> String {
    format!(
        "<!doctype html><html><body style=\"margin:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a\">\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\"><tr><td align=\"center\" style=\"padding:32px 16px\">\
<table role=\"presentation\" width=\"100%\" style=\"max-width:520px;background:#ffffff;border-radius:12px;padding:32px\" cellpadding=\"0\" cellspacing=\"0\">\
<tr><td style=\"font-size:20px;font-weight:700;color:#d97706;padding-bottom:16px\">Sitecast</td></tr>\
<tr><td style=\"font-size:18px;font-weight:600;padding-bottom:12px\">{title}</td></tr>\
<tr><td style=\"font-size:15px;line-height:1.6;padding-bottom:24px\">{intro}</td></tr>\
<tr><td style=\"padding-bottom:24px\"><a href=\"{link}\" style=\"display:inline-block;background:#d97706;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px\">{button_label}</a></td></tr>\
<tr><td style=\"font-size:13px;line-height:1.6;color:#64748b;padding-bottom:8px\">{footnote}<br>If the button does not work, paste this link into your browser:<br><span style=\"word-break:break-all\">{link}</span></td></tr>\
{footer}</table></td></tr></table></body></html>",
        title = esc(title),
        intro = intro,
        button_label = esc(button_label),
        link = html_escape::encode_double_quoted_attribute(link),
        footnote = esc(footnote),
        footer = footer.map(Footer::html).unwrap_or_default(),
    )
}

pub fn confirm_email(to: &str, name: &str, link: &str) -> Mail {
    let greeting = format!("Hi {name},");
    Mail {
        to: to.to_owned(),
        subject: "Confirm your Sitecast account".to_owned(),
        text: format!(
            "{greeting}\n\nWelcome to Sitecast. Confirm your email address to finish creating your account:\n\n{link}\n\n\
             This link expires in 24 hours. If you did not sign up, you can ignore this mail.\n"
        ),
        html: html_page(
            "Confirm your email address",
            &format!("{}<br>Welcome to Sitecast. Confirm your email address to finish creating your account.", esc(&greeting)),
            "Confirm email",
            link,
            "This link expires in 24 hours. If you did not sign up, you can ignore this mail.",
        ),
        unsubscribe: None,
        attachment: None,
    }
}

pub fn reset_password(to: &str, link: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "Reset your Sitecast password".to_owned(),
        text: format!(
            "Someone asked to reset the password of your Sitecast account.\n\nSet a new password here:\n\n{link}\n\n\
             This link expires in 1 hour and works once. If it was not you, ignore this mail: your password stays as it is.\n"
        ),
        html: html_page(
            "Reset your password",
            "Someone asked to reset the password of your Sitecast account. Choose a new one with the button below.",
            "Set a new password",
            link,
            "This link expires in 1 hour and works once. If it was not you, ignore this mail: your password stays as it is.",
        ),
        unsubscribe: None,
        attachment: None,
    }
}

/// A sign-in from a device this account had not used before
/// (docs/SECURITY.md, "Two-factor sign-in").
pub fn new_sign_in(to: &str, name: &str, device: &str, place: Option<&str>, when: &str, link: &str) -> Mail {
    let from = place.map(|p| format!(" ({p})")).unwrap_or_default();
    let body = format!(
        "Hi {name}, your Sitecast account was just signed in to from {device}{from} at {when}."
    );
    let advice = "If this was you, there is nothing to do. If not, sign that session out from Security in \
                  Profile & Settings and change your password.";
    Mail {
        to: to.to_owned(),
        subject: "New sign-in to your Sitecast account".to_owned(),
        text: format!("{body}\n\nYour signed-in devices:\n\n{link}\n\n{advice}\n"),
        html: html_page("New sign-in", &body, "Review your devices", link, advice),
        unsubscribe: None,
        attachment: None,
    }
}

/// Someone else removed this account's second factors; `by` says who ("Alex
/// Morgan, an administrator,").
pub fn factors_reset(to: &str, name: &str, by: &str, link: &str) -> Mail {
    let body = format!(
        "Hi {name}, {by} removed the authenticator app, recovery codes and passkeys of \
         your Sitecast account. You now sign in with your password alone."
    );
    let advice = "Set up a second factor again from Security in Profile & Settings. If you did not ask for this, \
                  tell your administrator.";
    Mail {
        to: to.to_owned(),
        subject: "Your Sitecast sign-in factors were reset".to_owned(),
        text: format!("{body}\n\n{link}\n\n{advice}\n"),
        html: html_page("Sign-in factors reset", &body, "Open Security settings", link, advice),
        unsubscribe: None,
        attachment: None,
    }
}

pub fn invite(to: &str, name: &str, role: &str, link: &str) -> Mail {
    invite_to(to, name, role, None, link)
}

/// An invitation to join a builder company: `company` is its name and the
/// role the member gets in it.
pub fn invite_to(to: &str, name: &str, role: &str, company: Option<(&str, &str)>, link: &str) -> Mail {
    let greeting = format!("Hi {name},");
    let joined;
    let what = match (role, company) {
        ("builder", Some((company, place))) => {
            joined = format!("to join {company} as {place} and document its building projects");
            joined.as_str()
        }
        ("admin", _) => "as an administrator",
        ("builder", None) => "to document your building projects",
        _ => "to follow the building of your home",
    };
    Mail {
        to: to.to_owned(),
        subject: "You're invited to Sitecast".to_owned(),
        text: format!(
            "{greeting}\n\nYou have been invited to Sitecast {what}. Set your password to get started:\n\n{link}\n\n\
             This invitation expires in 7 days.\n"
        ),
        html: html_page(
            "You're invited to Sitecast",
            &format!("{}<br>You have been invited to Sitecast {}. Set your password to get started.", esc(&greeting), esc(what)),
            "Set your password",
            link,
            "This invitation expires in 7 days.",
        ),
        unsubscribe: None,
        attachment: None,
    }
}

/// One mail per upload batch to the project's homeowner.
pub fn new_photos(to: &str, name: &str, count: usize, project: &str, link: &str, note: Option<&str>, footer: &Footer) -> Mail {
    let greeting = format!("Hi {name},");
    let what = if count == 1 { "1 new photo".to_owned() } else { format!("{count} new photos") };
    let subject = format!("{what} in {project}");
    // The builder's note on the site visit, quoted as written.
    let note = note.map(str::trim).filter(|n| !n.is_empty());
    let text_note = note.map(|n| format!("Note from the site visit:\n\"{n}\"\n\n")).unwrap_or_default();
    let html_note = note
        .map(|n| format!("<br><br>Note from the site visit:<br><em>&ldquo;{}&rdquo;</em>", esc(n)))
        .unwrap_or_default();
    Mail {
        to: to.to_owned(),
        subject: subject.clone(),
        text: format!(
            "{greeting}\n\n{what} of {project} just arrived on Sitecast.\n\n{text_note}See them here:\n\n{link}\n{}",
            footer.text()
        ),
        html: html_page_with(
            &subject,
            &format!("{}<br>{} of {} just arrived on Sitecast.{html_note}", esc(&greeting), esc(&what), esc(project)),
            "See the photos",
            link,
            "You get this mail when new photos of your project are published.",
            Some(footer),
        ),
        unsubscribe: Some(footer.one_click.clone()),
        attachment: None,
    }
}

/// One comment (or reply, or mention) in a digest.
#[derive(Debug, Clone, PartialEq)]
pub struct DigestItem {
    pub title: String,
    pub body: String,
    pub link: String,
}

/// What arrived in the last few minutes on the user's projects' photos, in one mail.
pub fn comment_digest(to: &str, name: &str, items: &[DigestItem], inbox: &str, footer: &Footer) -> Mail {
    let greeting = format!("Hi {name},");
    let subject = match items {
        [one] => one.title.clone(),
        _ => format!("{} new comments on Sitecast", items.len()),
    };
    let mut text = format!("{greeting}\n\n");
    let mut list = String::new();
    for item in items {
        text.push_str(&format!("{}\n\"{}\"\n{}\n\n", item.title, item.body, item.link));
        list.push_str(&format!(
            "<p style=\"margin:0 0 16px\"><strong>{}</strong><br><span style=\"color:#475569\">&ldquo;{}&rdquo;</span><br>\
<a href=\"{}\" style=\"color:#d97706\">Open the photo</a></p>",
            esc(&item.title),
            esc(&item.body),
            html_escape::encode_double_quoted_attribute(&item.link),
        ));
    }
    text.push_str(&footer.text());
    Mail {
        to: to.to_owned(),
        subject: subject.clone(),
        text,
        html: html_page_with(
            &subject,
            &format!("{}<br><br>{list}", esc(&greeting)),
            "Open Sitecast",
            inbox,
            "You get this mail when someone comments on a photo of your project, replies to you or mentions you.",
            Some(footer),
        ),
        unsubscribe: Some(footer.one_click.clone()),
        attachment: None,
    }
}

/// A project's status changed.
pub fn status_changed(to: &str, name: &str, project: &str, status: &str, link: &str, footer: &Footer) -> Mail {
    let greeting = format!("Hi {name},");
    let subject = format!("{project} is now {status}");
    Mail {
        to: to.to_owned(),
        subject: subject.clone(),
        text: format!("{greeting}\n\nThe status of {project} is now {status}. See the project here:\n\n{link}\n{}", footer.text()),
        html: html_page_with(
            &subject,
            &format!("{}<br>The status of {} is now <strong>{}</strong>.", esc(&greeting), esc(project), esc(status)),
            "See the project",
            link,
            "You get this mail when the status of your project changes.",
            Some(footer),
        ),
        unsubscribe: Some(footer.one_click.clone()),
        attachment: None,
    }
}

/// A progress report, from its maker to the project's homeowner: the PDF
/// attached (`attachment`, when it is small enough to mail) and a link to it in the app.
pub struct ReportMail<'a> {
    pub to: &'a str,
    pub name: &'a str,
    pub sender: &'a str,
    pub project: &'a str,
    pub period: &'a str,
    pub pages: i32,
    pub link: &'a str,
    pub attachment: Option<Attachment>,
}

pub fn report(m: ReportMail<'_>) -> Mail {
    let greeting = format!("Hi {},", m.name);
    let subject = format!("Progress report: {}", m.project);
    let pages = if m.pages == 1 { "1 page".to_owned() } else { format!("{} pages", m.pages) };
    let (where_text, footnote) = match &m.attachment {
        Some(file) => (
            format!("The report ({pages}) is attached as {}.", file.name),
            "The PDF is attached to this mail; you can also download it from Sitecast.",
        ),
        None => (
            format!("The report ({pages}) is too large to attach; download it from Sitecast."),
            "Sign in to Sitecast to download the report.",
        ),
    };
    Mail {
        to: m.to.to_owned(),
        subject: subject.clone(),
        text: format!(
            "{greeting}\n\n{} sent you a progress report of {} covering {}. {where_text}\n\nSee it in Sitecast:\n\n{}\n",
            m.sender, m.project, m.period, m.link
        ),
        html: html_page(
            &subject,
            &format!(
                "{}<br>{} sent you a progress report of <strong>{}</strong> covering {}. {}",
                esc(&greeting),
                esc(m.sender),
                esc(m.project),
                esc(m.period),
                esc(&where_text)
            ),
            "See the report",
            m.link,
            footnote,
        ),
        unsubscribe: None,
        attachment: m.attachment,
    }
}

/// A contact-form message, to the team; replying answers the sender.
pub fn contact_message(to: &str, name: &str, email: &str, phone: Option<&str>, message: &str) -> Mail {
    let phone_line = phone.map(|p| format!("Phone: {p}\n")).unwrap_or_default();
    let body = format!("From: {name} <{email}>\n{phone_line}\n{message}\n");
    Mail {
        to: to.to_owned(),
        subject: format!("Contact form: {name}"),
        html: format!(
            "<!doctype html><html><body style=\"font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a\">\
             <p><strong>From:</strong> {} &lt;{}&gt;{}</p><p style=\"white-space:pre-wrap\">{}</p></body></html>",
            esc(name),
            esc(email),
            phone.map(|p| format!("<br><strong>Phone:</strong> {}", esc(p))).unwrap_or_default(),
            esc(message)
        ),
        text: body,
        unsubscribe: None,
        attachment: None,
    }
}

/// Every http(s) link in a text, for logging what the outbox folder received.
pub fn links(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_user_values() {
        let m = confirm_email("a@b.co", "<script>x</script>", "http://x/confirm?token=1&a=2");
        assert!(!m.html.contains("<script>"));
        assert!(m.html.contains("&lt;script&gt;"));
        assert!(m.html.contains("token=1&amp;a=2"));
        assert!(m.text.contains("http://x/confirm?token=1&a=2"));
    }

    #[test]
    fn new_photos_counts_and_escapes() {
        let m = new_photos("h@b.co", "Ana", 3, "Oak <Street>", "http://x/projects/1", None, &footer());
        assert_eq!(m.subject, "3 new photos in Oak <Street>");
        assert!(m.html.contains("Oak &lt;Street&gt;"));
        assert_eq!(links(&m.text), vec!["http://x/projects/1", "http://x/profile-settings", "http://x/unsubscribe?token=t"]);
        assert_eq!(m.unsubscribe.as_deref(), Some("http://x/api/mail/unsubscribe?token=t"));
        assert_eq!(new_photos("h@b.co", "Ana", 1, "Oak", "http://x", None, &footer()).subject, "1 new photo in Oak");
    }

    fn footer() -> Footer {
        Footer {
            preferences: "http://x/profile-settings".into(),
            unsubscribe_page: "http://x/unsubscribe?token=t".into(),
            one_click: "http://x/api/mail/unsubscribe?token=t".into(),
        }
    }

    #[test]
    fn digests_list_every_comment_escaped() {
        let item = |t: &str| DigestItem { title: t.into(), body: "<b>crack</b>".into(), link: "http://x/projects/1?photo=2".into() };
        let m = comment_digest("h@b.co", "Ana", &[item("A commented"), item("B replied")], "http://x/dashboard", &footer());
        assert_eq!(m.subject, "2 new comments on Sitecast");
        assert!(m.text.contains("A commented") && m.text.contains("B replied"));
        assert!(m.html.contains("&lt;b&gt;crack&lt;/b&gt;") && !m.html.contains("<b>crack"));
        assert_eq!(comment_digest("h@b.co", "Ana", &[item("A commented")], "http://x", &footer()).subject, "A commented");
    }

    #[test]
    fn finds_links() {
        let m = reset_password("a@b.co", "http://localhost:8080/reset-password?token=abc");
        assert_eq!(links(&m.text), vec!["http://localhost:8080/reset-password?token=abc"]);
    }

    #[test]
    fn the_site_visit_note_is_quoted_in_both_parts() {
        let m = new_photos("h@b.co", "Ana", 2, "Oak", "http://x", Some("Framing inspected; <windows> Tuesday"), &footer());
        assert!(m.text.contains("\"Framing inspected; <windows> Tuesday\""), "{}", m.text);
        assert!(m.html.contains("Framing inspected; &lt;windows&gt; Tuesday"), "{}", m.html);
        let blank = new_photos("h@b.co", "Ana", 2, "Oak", "http://x", Some("  "), &footer());
        assert!(!blank.text.contains("Note from"));
    }
}
