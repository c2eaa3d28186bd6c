//! Record ids as distinct types, so a team's id cannot be passed where a
//! player's is expected.

/// A record id: a number the database keeps, of one kind of record.
pub trait Id: Copy {
    fn raw(self) -> i64;
}

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident),+ $(,)?) => {$(
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize, serde::Deserialize, sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(pub i64);

        impl Id for $name {
            fn raw(self) -> i64 {
                self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )+};
}

ids!(
    LeagueId,
    SeasonId,
    DivisionId,
    VenueId,
    TeamId,
    PlayerId,
    FixtureId,
    /// One version of a fixture's result (not the version number).
    ResultVersionId,
    PenaltyKindId,
    PenaltyId,
    FineId,
    UserId,
    RoleId,
    AuditId,
    /// A knockout competition of a season.
    CupId,
    CupEntrantId,
    CupTieId,
    /// One person's player records in several leagues.
    PersonId,
    /// A secretary's word that their player is another league's player.
    LinkRequestId,
);
