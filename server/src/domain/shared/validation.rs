//! The form rules of SPEC.md §5, enforced on the server with the same messages the
//! web app shows, and the longest value of every free-text input. Each check returns
//! every failing field, in form order.

use protocol::{FieldError, Role};

use crate::error::{Error, Result};

/// Photos per site visit (an upload batch), selected together; a visit's timeline
/// entry remembers as many.
pub const MAX_FILES: usize = 50;
pub const INVALID_EMAIL: &str = "Please enter a valid email address.";
pub const PASSWORD_MIN_6: &str = "Password must be at least 6 characters.";
pub const PASSWORD_MIN_8: &str = "Password must be at least 8 characters long.";
pub const PASSWORDS_DONT_MATCH: &str = "Passwords don't match";
pub const SELECT_ROLE: &str = "Please select a role.";
pub const FIRST_NAME_REQUIRED: &str = "First name is required";
pub const LAST_NAME_REQUIRED: &str = "Last name is required";
pub const NAME_REQUIRED: &str = "Name is required";
pub const PASSWORD_ONLY_NUMBERS: &str = "Password cannot be only numbers.";
pub const PASSWORD_REPEATED: &str = "Password cannot be a single repeated character.";
pub const PASSWORD_COMMON: &str = "Password is too common. Choose one that is harder to guess.";
pub const CREDENTIALS_REQUIRED: &str = "You must provide either an email or phone number and a password.";

/// A free-text input's rules: the most characters (Unicode scalar values, as sent) it
/// may have, and whether it may span lines. SPEC.md sets no length; ours keep what one
/// user types from costing everyone else, since stored text goes out again with every
/// snapshot and event to every viewer. docs/LIMITS.md lists them and the
/// web forms set the same `maxLength`.
///
/// No input takes control characters (docs/LIMITS.md): Postgres refuses NUL in text outright
/// (the request failed with a 500 there while SQLite stored it), and CR, LF or ESC in a
/// title or a name reach every mail subject and body, log line and terminal that shows
/// it. Inputs typed in a text area (descriptions, notes, comments, messages) keep line
/// breaks and tabs; every other input is one line; passwords are secrets (`Text`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// How the message names the field.
    pub label: &'static str,
    pub max: usize,
    pub text: Text,
}

/// What an input holds: one line (an `<input>`), several (a `<textarea>`), or a secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    OneLine,
    ManyLines,
    /// A password: hashed, never stored or shown, so any character may be in one.
    Secret,
}

pub const FIRST_NAME: Limit = Limit { label: "First name", max: 100, text: Text::OneLine };
pub const LAST_NAME: Limit = Limit { label: "Last name", max: 100, text: Text::OneLine };
/// A builder's company name, or a full name given in one piece (invites from the CLI).
pub const NAME: Limit = Limit { label: "Name", max: 200, text: Text::OneLine };
/// RFC 5321's longest address.
pub const EMAIL: Limit = Limit { label: "Email", max: 254, text: Text::OneLine };
/// Room for a formatted international number with an extension.
pub const PHONE: Limit = Limit { label: "Phone", max: 40, text: Text::OneLine };
/// argon2 accepts any length, but hashing megabytes per guess would be a cheap way to
/// burn our CPU.
pub const PASSWORD: Limit = Limit { label: "Password", max: 256, text: Text::Secret };
pub const PROJECT_TITLE: Limit = Limit { label: "Title", max: 200, text: Text::OneLine };
pub const PROJECT_ADDRESS: Limit = Limit { label: "Address", max: 300, text: Text::OneLine };
pub const PROJECT_DESCRIPTION: Limit = Limit { label: "Description", max: 5_000, text: Text::ManyLines };
pub const CAPTION: Limit = Limit { label: "Caption", max: 500, text: Text::OneLine };
/// A site visit's note to the homeowner, sent with a batch of photos.
pub const BATCH_NOTE: Limit = Limit { label: "Note", max: 1_000, text: Text::ManyLines };
/// A comment on a photo: a question or an answer about what the photo shows, not a
/// document; every subscriber of the project receives it live.
pub const COMMENT: Limit = Limit { label: "Comment", max: 2_000, text: Text::ManyLines };
/// A milestone's name (docs/FEATURES.md, "The project's story"): a step of a plan
/// ("Rough-in (plumbing, electrical, HVAC)"), shown in a list on a phone; the whole plan
/// goes out with every change.
pub const MILESTONE_NAME: Limit = Limit { label: "Name", max: 120, text: Text::OneLine };
pub const CONTACT_MESSAGE: Limit = Limit { label: "Message", max: 5_000, text: Text::ManyLines };
pub const LOG_MESSAGE: Limit = Limit { label: "Message", max: 2_000, text: Text::ManyLines };
pub const LOG_DATA: Limit = Limit { label: "Data", max: 8_000, text: Text::ManyLines };
/// What a user calls a passkey ("Work laptop"; docs/SECURITY.md, "Two-factor sign-in").
pub const PASSKEY_NAME: Limit = Limit { label: "Name", max: 60, text: Text::OneLine };
/// Not typed by the user, so cut to length rather than refused: kept with each session.
pub const USER_AGENT: Limit = Limit { label: "User agent", max: 256, text: Text::OneLine };
/// Cut to length: an uploaded file's name, kept for downloads and the default caption.
pub const FILE_NAME: Limit = Limit { label: "File name", max: 200, text: Text::OneLine };

impl Limit {
    /// "First name must be at most 100 characters."
    pub fn message(self) -> String {
        format!("{} must be at most {} characters.", self.label, self.max)
    }

    /// "Title cannot contain line breaks or control characters.", or for an input that
    /// may span lines "Comment cannot contain control characters."
    pub fn characters_message(self) -> String {
        match self.text {
            Text::ManyLines => format!("{} cannot contain control characters.", self.label),
            Text::OneLine | Text::Secret => format!("{} cannot contain line breaks or control characters.", self.label),
        }
    }

    /// The length rule alone. Counting stops past the limit, so a huge value costs no
    /// more than a fitting one.
    pub fn fits(self, value: &str) -> bool {
        value.chars().nth(self.max).is_none()
    }

    /// Whether `c` may appear in this input: no control character or noncharacter
    /// (`protocol::text`), and line breaks (with tabs, which text areas take from
    /// pasted text) only in inputs of many lines.
    fn takes(self, c: char) -> bool {
        match (self.text, c) {
            (Text::Secret, _) => true,
            (text, '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}') => text == Text::ManyLines,
            (_, c) => protocol::text::is_text_char(c),
        }
    }

    /// Why `value` is refused for this input, if it is: too long, or holding a
    /// character the input does not take. Checked as sent, before any trimming.
    pub fn problem(self, value: &str) -> Option<String> {
        if !self.fits(value) {
            Some(self.message())
        } else if !value.chars().all(|c| self.takes(c)) {
            Some(self.characters_message())
        } else {
            None
        }
    }

    /// `problem` as a field error on `field`.
    pub fn check(self, field: &str, value: &str) -> Result<()> {
        match self.problem(value) {
            Some(message) => Err(Error::field(field, &message)),
            None => Ok(()),
        }
    }

    /// For inputs that are not typed, cut rather than refused (a file's name, a user
    /// agent): the value without the characters the input does not take, cut to length.
    pub fn clean(self, value: &str) -> String {
        value.chars().filter(|c| self.takes(*c)).take(self.max).collect()
    }
}

/// Refuses the request, naming every `(field, value, limit)` whose value the input
/// does not take (`Limit::problem`).
pub fn texts(fields: &[(&str, &str, Limit)]) -> Result<()> {
    let mut errors = Vec::new();
    for (field, value, limit) in fields {
        text_rule(&mut errors, field, value, *limit);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::validation(errors))
    }
}

fn text_rule(errors: &mut Vec<FieldError>, field: &str, value: &str, limit: Limit) {
    if let Some(message) = limit.problem(value) {
        errors.push(FieldError { field: field.to_owned(), message });
    }
}

/// Whether an id, cursor or token a client sent back could name something: ours are
/// UUIDs, hex and base64, never with a control character in them. Postgres refuses NUL
/// in a text parameter outright, before it could answer "no such row", so a value
/// that names nothing is answered like an unknown id without being looked up.
pub fn could_be_id(value: &str) -> bool {
    !value.chars().any(char::is_control)
}

/// A pragmatic address check: one `@`, a non-empty local part, a dotted domain of
/// letters, digits and hyphens, no spaces or control characters, at most 254 characters.
pub fn is_valid_email(email: &str) -> bool {
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some((local, domain)) = email.rsplit_once('@') else { return false };
    if local.is_empty() || local.contains('@') || local.len() > 64 {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || !c.is_ascii())
        })
        && labels.last().is_some_and(|tld| tld.len() >= 2 && !tld.chars().all(|c| c.is_ascii_digit()))
}

/// Email as stored: trimmed and lowercased, so lookups ignore case.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Trimmed text, or `None` when blank.
pub fn non_blank(value: &str) -> Option<String> {
    let v = value.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

fn err(field: &str, message: &str) -> FieldError {
    FieldError { field: field.to_owned(), message: message.to_owned() }
}

fn email_rule(errors: &mut Vec<FieldError>, email: &str) {
    if let Some(message) = EMAIL.problem(email) {
        errors.push(FieldError { field: "email".to_owned(), message });
    } else if !is_valid_email(email.trim()) {
        errors.push(err("email", INVALID_EMAIL));
    }
}

fn password_rule(errors: &mut Vec<FieldError>, field: &str, password: &str, min: usize, message: &str) {
    if !PASSWORD.fits(password) {
        errors.push(FieldError { field: field.to_owned(), message: PASSWORD.message() });
    } else if password.chars().count() < min {
        errors.push(err(field, message));
    }
}

/// The passwords guessed first in every credential-stuffing list (lowercase); the web
/// app's list (web/src/lib/passwordRules.ts) is the same.
const COMMON_PASSWORDS: &[&str] = &[
    "123456", "1234567", "12345678", "123456789", "1234567890", "111111", "000000", "654321", "987654321",
    "password", "password1", "password12", "password123", "passw0rd", "p@ssw0rd", "qwerty", "qwerty12", "qwerty123",
    "qwertyuiop", "abc123", "abcdef", "abcd1234", "abcdefgh", "letmein", "letmein1", "welcome", "welcome1",
    "welcome123", "iloveyou", "admin", "admin123", "administrator", "monkey", "dragon", "football", "baseball",
    "sunshine", "princess", "trustno1", "asdfgh", "asdfghjk", "zxcvbnm", "1q2w3e4r", "changeme", "secret",
    "master", "superman", "starwars", "sitecast", "sitecast1", "sitecast123",
];

/// Why a new password is weak (SPEC.md §5: "weak passwords are reported with a list of
/// reasons"), every reason in order; empty when it is fine. `min` is SPEC.md §9's
/// minimum: 8 on sign-up, 6 on reset and change. The web app shows the same rules as
/// the user types; protocol/fixtures/password-rules.json holds the cases both pass.
pub fn password_problems(password: &str, min: usize) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if password.chars().count() < min {
        problems.push(if min >= 8 { PASSWORD_MIN_8 } else { PASSWORD_MIN_6 });
    }
    if !password.is_empty() && password.chars().all(|c| c.is_ascii_digit()) {
        problems.push(PASSWORD_ONLY_NUMBERS);
    }
    if password.chars().next().is_some_and(|first| password.chars().all(|c| c == first)) {
        problems.push(PASSWORD_REPEATED);
    }
    if COMMON_PASSWORDS.contains(&password.to_lowercase().as_str()) {
        problems.push(PASSWORD_COMMON);
    }
    problems
}

/// A new password's field errors: one per reason it is weak.
pub fn new_password_rule(errors: &mut Vec<FieldError>, field: &str, password: &str, min: usize) {
    if !PASSWORD.fits(password) {
        errors.push(FieldError { field: field.to_owned(), message: PASSWORD.message() });
        return;
    }
    errors.extend(password_problems(password, min).into_iter().map(|message| err(field, message)));
}

pub fn login(email: &str, password: &str) -> Vec<FieldError> {
    if email.trim().is_empty() && password.is_empty() {
        return vec![err("email", CREDENTIALS_REQUIRED)];
    }
    let mut errors = Vec::new();
    email_rule(&mut errors, email);
    password_rule(&mut errors, "password", password, 6, PASSWORD_MIN_6);
    errors
}

pub fn forgot(email: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    email_rule(&mut errors, email);
    errors
}

pub fn reset(password: &str, confirm_password: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    new_password_rule(&mut errors, "password", password, 6);
    if password != confirm_password {
        errors.push(err("confirmPassword", PASSWORDS_DONT_MATCH));
    }
    errors
}

/// The sign-up form (SPEC.md §2): homeowners give first and last name, builders one name.
pub struct SignUp<'a> {
    pub role: &'a str,
    pub email: &'a str,
    pub password: &'a str,
    pub confirm_password: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub name: &'a str,
    /// Optional everywhere.
    pub phone: &'a str,
}

/// Sign-up is open to homeowners and builders only (SPEC.md §6).
pub fn sign_up(input: &SignUp<'_>) -> (Option<Role>, Vec<FieldError>) {
    let mut errors = Vec::new();
    let role = match Role::parse(input.role) {
        Some(r @ (Role::Homeowner | Role::Builder)) => Some(r),
        _ => {
            errors.push(err("role", SELECT_ROLE));
            None
        }
    };
    match role {
        Some(Role::Homeowner) => {
            if input.first_name.trim().is_empty() {
                errors.push(err("firstName", FIRST_NAME_REQUIRED));
            } else {
                text_rule(&mut errors, "firstName", input.first_name, FIRST_NAME);
            }
            if input.last_name.trim().is_empty() {
                errors.push(err("lastName", LAST_NAME_REQUIRED));
            } else {
                text_rule(&mut errors, "lastName", input.last_name, LAST_NAME);
            }
        }
        Some(Role::Builder) if input.name.trim().is_empty() => errors.push(err("name", NAME_REQUIRED)),
        Some(Role::Builder) => text_rule(&mut errors, "name", input.name, NAME),
        _ => {}
    }
    email_rule(&mut errors, input.email);
    text_rule(&mut errors, "phone", input.phone, PHONE);
    new_password_rule(&mut errors, "password", input.password, 8);
    if input.password != input.confirm_password {
        errors.push(err("confirmPassword", PASSWORDS_DONT_MATCH));
    }
    (role, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(errors: &[FieldError]) -> Vec<(&str, &str)> {
        errors.iter().map(|e| (e.field.as_str(), e.message.as_str())).collect()
    }

    #[test]
    fn emails() {
        for ok in ["a@b.co", "first.last+tag@example.com", "x@sub.domain.org", "ADMIN@SITECAST.DEMO"] {
            assert!(is_valid_email(ok), "{ok} should be valid");
        }
        for bad in ["", "a", "a@", "@b.co", "a@b", "a b@c.de", "a@b..co", "a@-b.co", "a@b.c", "a@1.23"] {
            assert!(!is_valid_email(bad), "{bad} should be invalid");
        }
    }

    #[test]
    fn login_rules() {
        assert_eq!(messages(&login("", "")), vec![("email", CREDENTIALS_REQUIRED)]);
        assert_eq!(messages(&login("nope", "12345")), vec![("email", INVALID_EMAIL), ("password", PASSWORD_MIN_6)]);
        assert!(login("a@b.co", "123456").is_empty());
        let too_long = "Password must be at most 256 characters.";
        assert_eq!(messages(&login("a@b.co", &"x".repeat(257))), vec![("password", too_long)]);
        assert!(login("a@b.co", &"é".repeat(256)).is_empty(), "characters are counted, not bytes");
        let email = format!("{}@example.com", "a".repeat(250));
        assert_eq!(messages(&login(&email, "123456")), vec![("email", "Email must be at most 254 characters.")]);
    }

    #[test]
    fn reset_rules() {
        assert_eq!(messages(&reset("abcde", "abcde")), vec![("password", PASSWORD_MIN_6)]);
        assert_eq!(messages(&reset("brand-new", "brand-new!")), vec![("confirmPassword", PASSWORDS_DONT_MATCH)]);
        assert!(reset("brand-new", "brand-new").is_empty());
        // A weak password gets every reason, as SPEC.md §5's list.
        assert_eq!(
            messages(&reset("12345", "12345")),
            vec![("password", PASSWORD_MIN_6), ("password", PASSWORD_ONLY_NUMBERS)]
        );
        assert_eq!(messages(&forgot("x@y")), vec![("email", INVALID_EMAIL)]);
    }

    /// The cases the web app's rules pass too (web/src/lib/passwordRules.test.ts).
    #[test]
    fn password_rules_match_the_shared_cases() {
        #[derive(serde::Deserialize)]
        struct Case {
            password: String,
            min: usize,
            problems: Vec<String>,
        }
        #[derive(serde::Deserialize)]
        struct Cases {
            cases: Vec<Case>,
        }
        let shared: Cases = serde_json::from_str(include_str!("../../../../protocol/fixtures/password-rules.json")).unwrap();
        assert!(shared.cases.len() > 10);
        for case in shared.cases {
            assert_eq!(password_problems(&case.password, case.min), case.problems, "{:?} (min {})", case.password, case.min);
        }
        // Logging in checks only the length: old passwords still open the door.
        assert!(login("a@b.co", "123456").is_empty());
    }

    #[test]
    fn sign_up_rules() {
        let base = SignUp {
            role: "homeowner",
            email: "new@home.com",
            password: "longenough",
            confirm_password: "longenough",
            first_name: "Ana",
            last_name: "Lee",
            name: "",
            phone: "",
        };
        assert_eq!(sign_up(&base), (Some(Role::Homeowner), vec![]));
        let (_, e) = sign_up(&SignUp { role: "", ..base });
        assert_eq!(messages(&e), vec![("role", SELECT_ROLE)]);
        let (_, e) = sign_up(&SignUp { role: "admin", ..base });
        assert_eq!(messages(&e), vec![("role", SELECT_ROLE)], "admins cannot sign themselves up");
        let (_, e) = sign_up(&SignUp { first_name: " ", last_name: "", ..base });
        assert_eq!(messages(&e), vec![("firstName", FIRST_NAME_REQUIRED), ("lastName", LAST_NAME_REQUIRED)]);
        let (role, e) = sign_up(&SignUp { role: "builder", name: "  ", ..base });
        assert_eq!((role, messages(&e)), (Some(Role::Builder), vec![("name", NAME_REQUIRED)]));
        let (_, e) = sign_up(&SignUp { password: "short", confirm_password: "shorter", email: "bad", ..base });
        assert_eq!(
            messages(&e),
            vec![("email", INVALID_EMAIL), ("password", PASSWORD_MIN_8), ("confirmPassword", PASSWORDS_DONT_MATCH)]
        );
    }

    #[test]
    fn sign_up_lengths() {
        let long = "x".repeat(30_000);
        let base = SignUp {
            role: "homeowner",
            email: "new@home.com",
            password: "longenough",
            confirm_password: "longenough",
            first_name: &long,
            last_name: "Lee",
            name: "",
            phone: "",
        };
        let (_, e) = sign_up(&base);
        assert_eq!(messages(&e), vec![("firstName", "First name must be at most 100 characters.")]);
        let (_, e) = sign_up(&SignUp { first_name: "Ana", last_name: &long, phone: &long, ..base });
        assert_eq!(
            messages(&e),
            vec![("lastName", "Last name must be at most 100 characters."), ("phone", "Phone must be at most 40 characters.")]
        );
        let (_, e) = sign_up(&SignUp { role: "builder", name: &long, ..base });
        assert_eq!(messages(&e), vec![("name", "Name must be at most 200 characters.")], "a builder's first name is not used");
        let fits = "ñ".repeat(100);
        assert_eq!(sign_up(&SignUp { first_name: &fits, ..base }).1, vec![]);
    }

    #[test]
    fn limits_count_characters_and_clip_on_boundaries() {
        assert!(FIRST_NAME.fits(&"ü".repeat(100)));
        assert!(!FIRST_NAME.fits(&"ü".repeat(101)));
        assert_eq!(USER_AGENT.clean(&"é".repeat(300)), "é".repeat(256));
        assert_eq!(USER_AGENT.clean("curl/8"), "curl/8");
        let refused = texts(&[("title", &"t".repeat(201), PROJECT_TITLE), ("address", "ok", PROJECT_ADDRESS)]);
        let fields = refused.map_err(|e| e.api.fields).err().unwrap_or_default();
        assert_eq!(messages(&fields), vec![("title", "Title must be at most 200 characters.")]);
        assert!(texts(&[("title", "Maple Street", PROJECT_TITLE)]).is_ok());
    }

    /// No input takes control characters (NUL failed on Postgres; CR, LF and ESC reached
    /// mail and logs raw); text areas keep line breaks and tabs (docs/LIMITS.md).
    #[test]
    fn inputs_refuse_control_characters() {
        let one_line = "Title cannot contain line breaks or control characters.";
        for bad in ["a\u{0}b", "\u{1b}[31mred", "Maple\r\nBcc: x@evil.example", "tab\there", "del\u{7f}", "nel\u{85}", "a\u{2028}b", "\n"] {
            assert_eq!(PROJECT_TITLE.problem(bad).as_deref(), Some(one_line), "{bad:?}");
        }
        for ok in ["line one\nline two", "crlf\r\nline", "col\tcol", "para\u{2029}graph"] {
            assert_eq!(COMMENT.problem(ok), None, "{ok:?}");
        }
        for bad in ["a\u{0}b", "\u{1b}[2J", "bell\u{7}", "csi\u{9b}"] {
            assert_eq!(COMMENT.problem(bad).as_deref(), Some("Comment cannot contain control characters."), "{bad:?}");
        }
        // Unusual but printable text is text.
        for ok in ["Ünïcödé 🏗️", "שלום עולם", "zero\u{200b}width", "日本語", "\u{fffd}\u{10fffd}"] {
            assert_eq!(PROJECT_TITLE.problem(ok), None, "{ok:?}");
        }
        // Noncharacters are not (XML, and so a marked-up photo's SVG, cannot hold them).
        for bad in ["a\u{ffff}", "\u{fffe}", "\u{fdd0}", "\u{10ffff}"] {
            assert_eq!(PROJECT_TITLE.problem(bad).as_deref(), Some(one_line), "{bad:?}");
            assert_eq!(COMMENT.problem(bad).as_deref(), Some("Comment cannot contain control characters."), "{bad:?}");
        }
        // One message per field: the length first.
        assert_eq!(CAPTION.problem(&format!("{}\u{0}", "x".repeat(600))), Some(CAPTION.message()));
        let refused = texts(&[("firstName", "Ana\u{0}", FIRST_NAME), ("lastName", "Lee", LAST_NAME), ("phone", "1\n2", PHONE)]);
        assert_eq!(
            messages(&refused.map_err(|e| e.api.fields).err().unwrap_or_default()),
            vec![
                ("firstName", "First name cannot contain line breaks or control characters."),
                ("phone", "Phone cannot contain line breaks or control characters.")
            ]
        );
        // Sign-up, login and every other form say so on the field.
        let base = SignUp {
            role: "homeowner",
            email: "new@home.com",
            password: "longenough",
            confirm_password: "longenough",
            first_name: "Ana\u{1b}[0m",
            last_name: "Lee",
            name: "",
            phone: "",
        };
        assert_eq!(sign_up(&base).1, vec![err("firstName", "First name cannot contain line breaks or control characters.")]);
        let email = "Email cannot contain line breaks or control characters.";
        assert_eq!(messages(&login("a\u{0}@b.co", "123456")), vec![("email", email)]);
        assert_eq!(messages(&forgot("a@b.co\r\n")), vec![("email", email)]);
        assert!(!is_valid_email("a\u{0}b@example.com"));
        // Passwords are secrets, hashed and never shown: any character may be in one.
        assert!(login("a@b.co", "pass\u{0}word\n").is_empty());
        assert!(reset("tab\tbed\u{1b}", "tab\tbed\u{1b}").is_empty());
        // Inputs cut rather than refused lose what they cannot hold.
        assert_eq!(FILE_NAME.clean("a\u{0}b\nc\u{1b}.jpg"), "abc.jpg");
        assert_eq!(USER_AGENT.clean("curl\t/8"), "curl/8");
        // Ids, cursors and tokens with a control character name nothing.
        assert!(could_be_id("0190a0b4-7d2e-7abc-8def-0123456789ab"));
        assert!(could_be_id("not-an-id"));
        assert!(!could_be_id("0190a0b4\u{0}"));
        assert!(!could_be_id("x\n"));
    }

    #[test]
    fn normalises() {
        assert_eq!(normalize_email("  Ana@Example.COM "), "ana@example.com");
        assert_eq!(non_blank("  "), None);
        assert_eq!(non_blank(" x "), Some("x".to_owned()));
    }
}
