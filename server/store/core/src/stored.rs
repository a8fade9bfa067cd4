//! Enums as the database stores them: by their wire name, read back strictly.

use protocol::{CompanyRole, GuestPhotos, ImageCategory, NotificationKind, ProgressMode, ProjectStatus, ReportStatus, Role};

use crate::{OutboxKind, Result, StoreError};

/// An enum kept in a text column under its wire name.
pub trait Stored: Sized + Copy {
    fn stored(self) -> &'static str;
    fn from_stored(value: &str) -> Option<Self>;
}

macro_rules! stored_by_wire_name {
    ($($ty:ty),*) => {$(
        impl Stored for $ty {
            fn stored(self) -> &'static str {
                self.as_str()
            }
            fn from_stored(value: &str) -> Option<Self> {
                <$ty>::parse(value)
            }
        }
    )*};
}

stored_by_wire_name!(Role, CompanyRole, ProjectStatus, ImageCategory, NotificationKind, ProgressMode, GuestPhotos, TokenKind, ReportStatus, OutboxKind);

/// Reads a stored enum; a value this build does not know is logged and refused, so a
/// row is never served with a guessed role or status.
pub fn decode<T: Stored>(column: &'static str, value: &str) -> Result<T> {
    T::from_stored(value).ok_or_else(|| {
        tracing::error!(column, value, "unknown value in the database");
        StoreError::Corrupt { column, value: value.to_owned() }
    })
}

pub fn decode_opt<T: Stored>(column: &'static str, value: Option<&str>) -> Result<Option<T>> {
    value.map(|v| decode(column, v)).transpose()
}

/// What a one-time token is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Invite,
    Reset,
    ConfirmEmail,
}

impl TokenKind {
    pub const ALL: [TokenKind; 3] = [TokenKind::Invite, TokenKind::Reset, TokenKind::ConfirmEmail];

    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Invite => "invite",
            TokenKind::Reset => "reset",
            TokenKind::ConfirmEmail => "confirm_email",
        }
    }

    pub fn parse(s: &str) -> Option<TokenKind> {
        TokenKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_reads_back_and_unknown_values_are_errors() {
        for role in Role::ALL {
            assert_eq!(decode::<Role>("users.role", role.stored()).ok(), Some(role));
        }
        for kind in TokenKind::ALL {
            assert_eq!(decode::<TokenKind>("auth_tokens.kind", kind.stored()).ok(), Some(kind));
        }
        for kind in OutboxKind::ALL {
            assert_eq!(decode::<OutboxKind>("outbox.kind", kind.stored()).ok(), Some(kind));
        }
        assert!(matches!(
            decode::<ProjectStatus>("projects.status", "paused"),
            Err(StoreError::Corrupt { column: "projects.status", .. })
        ));
        assert!(decode::<Role>("users.role", "Admin").is_err(), "names are case-sensitive");
    }
}
