//! The form rules of SPEC.md §5, enforced on the server with the same messages the
//! web app shows. Each check returns every failing field, in form order.

use protocol::{FieldError, Role};

pub const INVALID_EMAIL: &str = "Please enter a valid email address.";
pub const PASSWORD_MIN_6: &str = "Password must be at least 6 characters.";
pub const PASSWORD_MIN_8: &str = "Password must be at least 8 characters long.";
pub const PASSWORDS_DONT_MATCH: &str = "Passwords don't match";
pub const SELECT_ROLE: &str = "Please select a role.";
pub const FIRST_NAME_REQUIRED: &str = "First name is required";
pub const LAST_NAME_REQUIRED: &str = "Last name is required";
pub const NAME_REQUIRED: &str = "Name is required";
pub const CREDENTIALS_REQUIRED: &str = "You must provide either an email or phone number and a password.";
/// Not in SPEC.md: argon2 accepts any length, but hashing megabytes per guess would be
/// a cheap way to burn our CPU.
pub const PASSWORD_TOO_LONG: &str = "Password must be at most 256 characters.";
const MAX_PASSWORD: usize = 256;

/// A pragmatic address check: one `@`, a non-empty local part, a dotted domain of
/// letters, digits and hyphens, no spaces, at most 254 characters.
pub fn is_valid_email(email: &str) -> bool {
    if email.len() > 254 || email.chars().any(char::is_whitespace) {
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
    if !is_valid_email(email.trim()) {
        errors.push(err("email", INVALID_EMAIL));
    }
}

fn password_rule(errors: &mut Vec<FieldError>, field: &str, password: &str, min: usize, message: &str) {
    if password.chars().count() < min {
        errors.push(err(field, message));
    } else if password.chars().count() > MAX_PASSWORD {
        errors.push(err(field, PASSWORD_TOO_LONG));
    }
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
    password_rule(&mut errors, "password", password, 6, PASSWORD_MIN_6);
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
            }
            if input.last_name.trim().is_empty() {
                errors.push(err("lastName", LAST_NAME_REQUIRED));
            }
        }
        Some(Role::Builder) if input.name.trim().is_empty() => errors.push(err("name", NAME_REQUIRED)),
        _ => {}
    }
    email_rule(&mut errors, input.email);
    password_rule(&mut errors, "password", input.password, 8, PASSWORD_MIN_8);
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
        assert_eq!(messages(&login("a@b.co", &"x".repeat(257))), vec![("password", PASSWORD_TOO_LONG)]);
    }

    #[test]
    fn reset_rules() {
        assert_eq!(messages(&reset("12345", "12345")), vec![("password", PASSWORD_MIN_6)]);
        assert_eq!(messages(&reset("123456", "123457")), vec![("confirmPassword", PASSWORDS_DONT_MATCH)]);
        assert!(reset("123456", "123456").is_empty());
        assert_eq!(messages(&forgot("x@y")), vec![("email", INVALID_EMAIL)]);
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
    fn normalises() {
        assert_eq!(normalize_email("  Ana@Example.COM "), "ana@example.com");
        assert_eq!(non_blank("  "), None);
        assert_eq!(non_blank(" x "), Some("x".to_owned()));
    }
}
