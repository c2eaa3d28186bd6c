//! A team's next match, as the player's pages (public and "my matches")
//! show it first.

use chrono::{DateTime, Utc};

use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{Db, FixtureStatus, League, PlayerId, TeamId};

use super::super::dates::{datetime, when};
use super::super::error::Result;
use super::super::links::{Link, match_href, team_href};
/// A team's next match, as the player's pages show it first.
pub(crate) struct NextMatch {
    /// The team the player plays for.
    pub(crate) team: String,
    pub(crate) when: String,
    pub(crate) datetime: String,
    /// `at home to` or `away to`.
    pub(crate) home_or_away: &'static str,
    pub(crate) opponent: Link,
    pub(crate) venue: String,
    /// `scheduled`, or `postponed` (said in words, never hidden).
    pub(crate) state: String,
    pub(crate) href: String,
    pub(crate) fixture: crate::db::FixtureId,
    /// The player's own answer buttons, when a registered player of the
    /// team is signed in.
    pub(crate) answer: Option<AnswerBox>,
    /// On a page shared by everyone (the team's), where a registered
    /// player's answer box goes (`web::personal`): the page is the same
    /// for all, the box each player's own.
    pub(crate) slot: Option<AnswerSlot>,
}

/// What the answer slot of a shared page says, for filling it in: the
/// fixture, the page to go back to and the squad's player ids (all shown
/// on the page anyway).
pub(crate) struct AnswerSlot {
    pub(crate) fixture: i64,
    pub(crate) back: String,
    /// The squad's player ids, comma-separated.
    pub(crate) players: String,
}

/// A signed-in player's "can you play?" for their team's next match.
pub(crate) struct AnswerBox {
    pub(crate) action: String,
    /// Where the answer goes back to.
    pub(crate) back: String,
    pub(crate) current: &'static str,
    /// Each answer: key, label, chosen.
    pub(crate) choices: Vec<(&'static str, &'static str, bool)>,
}

impl NextMatch {
    /// With `player`'s answer buttons (their current answer marked).
    pub(crate) async fn with_answer(
        mut self,
        db: &Db,
        league: &League,
        player: PlayerId,
        back: &str,
    ) -> Result<NextMatch> {
        self.answer = Some(answer_box(db, league, self.fixture, player, back).await?);
        Ok(self)
    }

    /// With the answer buttons of a player whose answer is `current`.
    pub(crate) fn with_answer_of(
        mut self,
        league: &League,
        current: Option<crate::league::team_sheet::Answer>,
        back: &str,
    ) -> NextMatch {
        self.answer = Some(answer_box_of(league, self.fixture, current, back));
        self
    }
}

/// `player`'s answer buttons for `fixture` (their current answer marked),
/// going back to `back`.
pub(crate) async fn answer_box(
    db: &Db,
    league: &League,
    fixture: crate::db::FixtureId,
    player: PlayerId,
    back: &str,
) -> Result<AnswerBox> {
    let current = db.answer(league.id, fixture, player).await?;
    Ok(answer_box_of(league, fixture, current, back))
}

/// The answer buttons for `fixture` with `current` marked, going back to
/// `back`.
pub(crate) fn answer_box_of(
    league: &League,
    fixture: crate::db::FixtureId,
    current: Option<crate::league::team_sheet::Answer>,
    back: &str,
) -> AnswerBox {
    use crate::league::team_sheet::Answer;
    AnswerBox {
        action: crate::web::links::at(league)
            .match_page(fixture)
            .availability(),
        back: back.to_owned(),
        current: current.map_or("not answered yet", Answer::label),
        choices: Answer::ALL
            .into_iter()
            .map(|a| (a.key(), a.label(), current == Some(a)))
            .collect(),
    }
}

/// The next match of the player's team: the team of their latest
/// registration (the present one, after any transfer). Two queries.
pub(crate) async fn next_match_of(
    db: &Db,
    league: &League,
    player: PlayerId,
) -> Result<Option<NextMatch>> {
    let Some(r) = db
        .player_seasons(league.id, player)
        .await?
        .into_iter()
        .next()
    else {
        return Ok(None);
    };
    let scope = FixtureScope::Team {
        season: r.season_id,
        team: r.team_id,
    };
    let lines = db.fixture_lines(league.id, &scope).await?;
    Ok(next_match(
        league,
        &lines,
        r.team_id,
        league.time_zone.today(Utc::now()).0,
    ))
}

/// The next match of `team` among its fixtures `lines`: the first still to
/// play (scheduled or postponed, no result) from `from` on, by date; a
/// postponed one with no date yet comes after any with a date.
pub(crate) fn next_match(
    league: &League,
    lines: &[FixtureLine],
    team: TeamId,
    from: DateTime<Utc>,
) -> Option<NextMatch> {
    let f = lines
        .iter()
        .filter(|f| f.status.is_open() && f.result_status.is_none())
        .filter(|f| f.starts_at.is_none_or(|t| t >= from))
        .filter(|f| f.starts_at.is_some() || f.status == FixtureStatus::Postponed)
        .min_by_key(|f| (f.starts_at.is_none(), f.starts_at, f.id))?;
    let home = f.home_team_id == team;
    let (mine, (id, name)) = if home {
        (&f.home_name, (f.away_team_id, &f.away_name))
    } else {
        (&f.away_name, (f.home_team_id, &f.home_name))
    };
    let zone = league.time_zone;
    Some(NextMatch {
        team: mine.clone(),
        when: f
            .starts_at
            .map_or_else(|| "date to be arranged".to_owned(), |t| when(zone, t)),
        datetime: f.starts_at.map(|t| datetime(zone, t)).unwrap_or_default(),
        home_or_away: if home { "at home to" } else { "away to" },
        opponent: Link::new(name.clone(), team_href(league, id, name)),
        venue: f.venue_name.clone().unwrap_or_default(),
        state: f.state_words(false),
        href: match_href(league, f.id),
        fixture: f.id,
        answer: None,
        slot: None,
    })
}
