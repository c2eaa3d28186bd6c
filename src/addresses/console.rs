//! The secretary's console addresses, under `/leagues/{league}/console`.
//! Templates and handlers both build them here, and a test checks each
//! against the route table.

use std::borrow::Borrow;

use super::Address;

use crate::db::{
    CupEntrantId, CupId, DivisionId, FixtureId, LinkRequestId, PenaltyKindId, PlayerId, RoleId,
    SeasonId, TeamId, VenueId,
};

/// The console's home.
pub enum Console {}

impl Address<Console> {
    pub fn league(&self) -> String {
        self.under("league")
    }
    pub fn approvals(&self) -> String {
        self.under("approvals")
    }
    /// Where the week's bulk actions are confirmed and done.
    pub fn week(&self) -> String {
        self.under("week")
    }
    pub fn mail(&self) -> String {
        self.under("mail")
    }
    /// "Put this on your website": the league's widgets and their snippets.
    pub fn website(&self) -> String {
        self.under("website")
    }
    pub fn seasons(&self) -> String {
        self.under("seasons")
    }
    pub fn new_season(&self) -> String {
        self.under("seasons/new")
    }
    pub fn season(&self, id: impl Borrow<SeasonId>) -> Address<ConsoleSeason> {
        let id = *id.borrow();
        Address::new(self.under(format_args!("seasons/{id}")))
    }
    pub fn teams(&self) -> String {
        self.under("teams")
    }
    pub fn team(&self, id: impl Borrow<TeamId>) -> Address<ConsoleTeam> {
        let id = *id.borrow();
        Address::new(self.under(format_args!("teams/{id}")))
    }
    pub fn players(&self) -> String {
        self.under("players")
    }
    pub fn player(&self, id: impl Borrow<PlayerId>) -> Address<ConsolePlayer> {
        let id = *id.borrow();
        Address::new(self.under(format_args!("players/{id}")))
    }
    pub fn venues(&self) -> String {
        self.under("venues")
    }
    pub fn venue(&self, id: impl Borrow<VenueId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("venues/{id}"))
    }
    pub fn cup(&self, id: impl Borrow<CupId>) -> Address<ConsoleCup> {
        let id = *id.borrow();
        Address::new(self.under(format_args!("cups/{id}")))
    }
    pub fn penalty_kinds(&self) -> String {
        self.under("penalty-kinds")
    }
    pub fn penalty_kind(&self, id: impl Borrow<PenaltyKindId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("penalty-kinds/{id}"))
    }
    /// Where the default kinds are added.
    pub fn default_penalty_kinds(&self) -> String {
        self.under("penalty-kinds/defaults")
    }
    /// Where the late-result rule is set.
    pub fn late_result_rule(&self) -> String {
        self.under("penalty-kinds/late-results")
    }
    /// The late-result penalty applied to one fixture.
    pub fn apply_late_penalty(&self, fixture: impl Borrow<FixtureId>) -> String {
        let fixture = *fixture.borrow();
        self.under(format_args!("late-results/{fixture}/apply"))
    }
    pub fn users(&self) -> String {
        self.under("users")
    }
    pub fn revoke_role(&self, id: impl Borrow<RoleId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("users/roles/{id}/revoke"))
    }
    /// A waiting invitation: its link, resent or revoked.
    pub fn invitation(&self, id: impl Borrow<i64>) -> Address<ConsoleInvitation> {
        let id = *id.borrow();
        Address::new(self.under(format_args!("invitations/{id}")))
    }
    /// A request from another league to link one of our players.
    pub fn confirm_link(&self, id: impl Borrow<LinkRequestId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("links/{id}/confirm"))
    }
    pub fn drop_link(&self, id: impl Borrow<LinkRequestId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("links/{id}/drop"))
    }
}

/// A season in the console.
pub enum ConsoleSeason {}

impl Address<ConsoleSeason> {
    pub fn divisions(&self) -> String {
        self.under("divisions")
    }
    pub fn division(&self, id: impl Borrow<DivisionId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("divisions/{id}"))
    }
    pub fn cups(&self) -> String {
        self.under("cups")
    }
    pub fn transfers(&self) -> String {
        self.under("transfers")
    }
    pub fn import(&self) -> String {
        self.under("import")
    }
    pub fn end(&self) -> String {
        self.under("end")
    }
    pub fn playoffs(&self) -> String {
        self.under("playoffs")
    }
}

/// A team in the console.
pub enum ConsoleTeam {}

impl Address<ConsoleTeam> {
    /// Where the team is entered in a season's divisions.
    pub fn entries(&self) -> String {
        self.under("entries")
    }
    /// The team's squad and captains in one season.
    pub fn season(&self, id: impl Borrow<SeasonId>) -> Address<TeamSeason> {
        let id = *id.borrow();
        Address::new(self.under(format_args!("seasons/{id}")))
    }
}

/// A team's squad and captains in one season.
pub enum TeamSeason {}

impl Address<TeamSeason> {
    /// The whole squad pasted at once.
    pub fn roster(&self) -> String {
        self.under("roster")
    }
    /// One player registered.
    pub fn players(&self) -> String {
        self.under("players")
    }
    pub fn captains(&self) -> String {
        self.under("captains")
    }
    pub fn remove_captain(&self, player: impl Borrow<PlayerId>) -> String {
        let player = *player.borrow();
        self.under(format_args!("captains/{player}/remove"))
    }
}

/// A waiting invitation in the console.
pub enum ConsoleInvitation {}

impl Address<ConsoleInvitation> {
    pub fn resend(&self) -> String {
        self.under("resend")
    }
    pub fn revoke(&self) -> String {
        self.under("revoke")
    }
}

/// A player in the console.
pub enum ConsolePlayer {}

impl Address<ConsolePlayer> {
    /// Where the player is linked to another league's player.
    pub fn link(&self) -> String {
        self.under("link")
    }
    pub fn unlink(&self) -> String {
        self.under("unlink")
    }
}

/// A cup in the console.
pub enum ConsoleCup {}

impl Address<ConsoleCup> {
    pub fn edit(&self) -> String {
        self.under("edit")
    }
    pub fn delete(&self) -> String {
        self.under("delete")
    }
    pub fn draw(&self) -> String {
        self.under("draw")
    }
    pub fn draw_by_hand(&self) -> String {
        self.under("draw-by-hand")
    }
    pub fn entrants(&self) -> String {
        self.under("entrants")
    }
    pub fn withdraw(&self, entrant: impl Borrow<CupEntrantId>) -> String {
        let entrant = *entrant.borrow();
        self.under(format_args!("entrants/{entrant}/withdraw"))
    }
}
