//! The league's plain types, below both the league logic and the database:
//! record ids, and the statuses of fixtures and results. No I/O here; `db`
//! re-exports them, so `crate::db::FixtureId` and the like still name them.

pub mod email;
pub mod ids;
mod status;

pub use ids::*;
pub use status::{FixtureStatus, ResultStatus, Side};

/// A stored or typed word that names no value of the enum it was read as.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{text}`")]
pub struct UnknownText {
    pub what: &'static str,
    pub text: String,
}

/// Text forms for an enum kept as text: `as_str`, `Display`, `FromStr` and
/// `TryFrom<String>` (for `#[sqlx(try_from = "String")]`).
macro_rules! text_enum {
    ($name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        impl $name {
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::domain::UnknownText;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err($crate::domain::UnknownText {
                        what: stringify!($name),
                        text: s.to_owned(),
                    }),
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = $crate::domain::UnknownText;

            fn try_from(s: String) -> Result<Self, Self::Error> {
                s.parse()
            }
        }
    };
}

pub(crate) use text_enum;
