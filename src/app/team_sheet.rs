//! The team sheet's use cases (issue 42), each one transaction: a player
//! answers for a fixture (the captains told, once, when that leaves the
//! team short), a captain sets the line-up (drawn pairings drawn with it
//! when the season says so), the pairings are drawn (never twice), the
//! squad is asked by email and the non-answerers reminded (once), and the
//! page's data read in one place for the HTML page and any other reader.

use chrono::{DateTime, Utc};

use crate::addresses::at_short;
use crate::app::answer_links;
use crate::app::mail::{MailConfig, Message};
use crate::db::cups::cup_format_in;
use crate::db::fixtures::lock_fixture;
use crate::db::mail::{FixtureFacts, NewMail, fixture_people, queue};
use crate::db::seasons::season_in;
use crate::db::sql::{self, Tx};
use crate::db::team_sheet::{
    self as records, SquadMember, StoredLineUp, insert_draw, line_ups_in, mark_reminded,
    save_line_up as store_line_up, set_answer, squad_in,
};
use crate::db::{
    Db, DbError, Fixture, FixtureId, FixtureStatus, League, LeagueId, PlayerId, Result, Side,
    TeamId, UserId,
};
use crate::league::draw::{Drawn, draw as draw_from_seed, seed_from};
use crate::league::match_format::Pairings;
use crate::league::notices::Topic;
use crate::league::refusal::Refusal;
use crate::league::season::SeasonRules;
use crate::league::team_sheet::{Answer, DrawAt, LineUp, short};

/// Answers are taken while the fixture is still to be played and has not
/// started: "until the night".
fn answers_open(f: &Fixture, now: DateTime<Utc>) -> std::result::Result<(), Refusal> {
    if !matches!(
        f.status,
        FixtureStatus::Scheduled | FixtureStatus::Postponed
    ) {
        return Err(Refusal::NotNow(format!(
            "This match is {}: answers are closed.",
            f.status
        )));
    }
    if f.starts_at.is_some_and(|s| s <= now) {
        return Err(Refusal::NotNow(
            "This match has started: answers are closed. Tell your captain.".into(),
        ));
    }
    Ok(())
}

/// The team `player` plays for in `fixture`: registered this season to
/// one of its two teams, else refused.
async fn players_side(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    player: PlayerId,
) -> Result<Side> {
    let team: Option<TeamId> = sql::query_scalar(
        "SELECT team_id FROM registrations WHERE league_id = $1 AND season_id = $2 AND player_id = $3",
    )
    .bind(league)
    .bind(f.season_id)
    .bind(player)
    .fetch_optional(&mut *tx)
    .await?;
    match team {
        Some(t) if t == f.home_team_id => Ok(Side::Home),
        Some(t) if t == f.away_team_id => Ok(Side::Away),
        _ => Err(Refusal::PlayerNotRegistered.into()),
    }
}

fn team_of(f: &Fixture, side: Side) -> TeamId {
    match side {
        Side::Home => f.home_team_id,
        Side::Away => f.away_team_id,
    }
}

/// The rules the fixture is played under: a cup tie's own match format,
/// if its cup has one, else the season's.
async fn rules_in(tx: &mut Tx, league: LeagueId, f: &Fixture) -> Result<SeasonRules> {
    let rules = season_in(tx, league, f.season_id).await?.rules()?;
    let own = match f.cup_id {
        Some(cup) => cup_format_in(tx, league, cup).await?,
        None => None,
    };
    Ok(rules.for_fixture(own))
}

/// A player answers for a fixture (from their home page, the team page or
/// a signed link). When a "can't" leaves the team short, its captains are
/// told once.
pub async fn answer(
    db: &Db,
    league: &League,
    fixture: FixtureId,
    player: PlayerId,
    answer: Answer,
    config: &MailConfig,
) -> Result<Side> {
    let mut tx = db.write(league.id).await?;
    let f = lock_fixture(&mut tx, league.id, fixture).await?;
    answers_open(&f, Utc::now())?;
    let side = players_side(&mut tx, league.id, &f, player).await?;
    set_answer(&mut tx, league.id, fixture, player, answer).await?;
    if answer == Answer::No {
        let rules = rules_in(&mut tx, league.id, &f).await?;
        let team = team_of(&f, side);
        let squad = squad_in(&mut tx, league.id, f.season_id, team, fixture).await?;
        let cannot = squad
            .iter()
            .filter(|m| m.answer == Some(Answer::No))
            .count();
        if short(&rules.format, squad.len(), cannot) {
            tell_captains_short(&mut tx, league, &f, team, &squad, config).await?;
        }
    }
    tx.commit().await?;
    Ok(side)
}

async fn tell_captains_short(
    tx: &mut Tx,
    league: &League,
    f: &Fixture,
    team: TeamId,
    squad: &[SquadMember],
    config: &MailConfig,
) -> Result<()> {
    let (Some(facts), people) = fixture_people(tx, league.id, f.id.0).await? else {
        return Ok(());
    };
    let side = if team == f.home_team_id {
        Side::Home
    } else {
        Side::Away
    };
    let out: Vec<&str> = squad
        .iter()
        .filter(|m| m.answer == Some(Answer::No))
        .map(|m| m.name.as_str())
        .collect();
    let message = Message {
        subject: format!("Short for {} v {}", facts.home, facts.away),
        paragraphs: vec![format!(
            "Your team is short for {} v {} ({}): {} of {} registered players can't play ({}).",
            facts.home,
            facts.away,
            when(league, &facts),
            out.len(),
            squad.len(),
            out.join(", ")
        )],
        preformatted: None,
        action: Some((
            "Open the team sheet".into(),
            config.url(
                &at_short(&league.short_name)
                    .match_page(f.id)
                    .team_sheet(side)
                    .to_string(),
            ),
        )),
        why: format!(
            "You get this because you captain a team in {} and a player's answer left it short.",
            league.name
        ),
        stop: "To stop these, untick it on your account page:".into(),
        stop_url: Some(config.url("/account")),
    };
    for p in people
        .iter()
        .filter(|p| p.captain_of == Some(team))
        .filter(|p| !p.opted_out.iter().any(|t| t == Topic::Availability.key()))
    {
        let mail = message.to(
            Some(league.id),
            Topic::Availability.key(),
            &p.username,
            &p.email,
            Some(format!("availability:short:{}:{}:{}", f.id, team, p.user)),
        );
        queue(tx, &mail).await?;
    }
    Ok(())
}

fn when(league: &League, facts: &FixtureFacts) -> String {
    facts.starts_at.map_or_else(
        || "date to be fixed".to_owned(),
        |t| {
            league
                .time_zone
                .local(t)
                .format("%a %-d %b %Y, %H:%M")
                .to_string()
        },
    )
}

/// A captain (or a secretary) sets `side`'s line-up for `fixture`: checked
/// against the match format's line-up rule and the registrations, audited
/// with the one it replaces. Refused once the pairings are drawn (the draw
/// was made from it; a change on the night is made on the pads). When the
/// format draws the pairings as soon as both line-ups are in, this draws
/// them: the draw is returned.
pub async fn save_line_up(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    side: Side,
    line_up: &LineUp,
    by: Option<UserId>,
) -> Result<Option<Drawn>> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    if !matches!(
        f.status,
        FixtureStatus::Scheduled | FixtureStatus::Postponed
    ) {
        return Err(Refusal::NotNow(format!(
            "This match is {}: its line-ups are closed.",
            f.status
        ))
        .into());
    }
    let rules = rules_in(&mut tx, league, &f).await?;
    if let Some(d) = records::draw_in(&mut tx, league, fixture).await? {
        return Err(Refusal::NotNow(format!(
            "The pairings were drawn (seed {}) from the line-ups as they were: the line-up stands. A change on the night is made on the board's pad, where it is kept.",
            d.seed
        ))
        .into());
    }
    let team = team_of(&f, side);
    let squad = squad_in(&mut tx, league, f.season_id, team, fixture).await?;
    let registered: Vec<i64> = squad.iter().map(|m| m.player_id.0).collect();
    if let Err(fault) = line_up.check(&rules.format, &registered) {
        // An unregistered player is named by the league's own record.
        let names: Vec<(i64, String)> =
            sql::query_as::<(i64, String)>("SELECT id, name FROM players WHERE league_id = $1")
                .bind(league)
                .fetch_all(&mut tx)
                .await?;
        let name = |id: i64| {
            names
                .iter()
                .find(|(p, _)| *p == id)
                .map_or_else(|| format!("Player {id}"), |(_, n)| n.clone())
        };
        return Err(Refusal::LineUp(fault.words(&name)).into());
    }
    store_line_up(&mut tx, league, fixture, team, line_up, by).await?;
    let mut drawn = None;
    if rules.format.pairings == Pairings::Drawn && rules.settings.draw_at == DrawAt::LineUps {
        let both = line_ups_in(&mut tx, league, fixture).await?.len() == 2;
        if both {
            drawn = Some(make_draw(&mut tx, league, &f, &rules, None, by).await?);
        }
    }
    tx.commit().await?;
    Ok(drawn)
}

async fn make_draw(
    tx: &mut Tx,
    league: LeagueId,
    f: &Fixture,
    rules: &SeasonRules,
    seed: Option<String>,
    by: Option<UserId>,
) -> Result<Drawn> {
    let count = |kind| {
        rules
            .format
            .boards
            .iter()
            .filter(|b| b.kind == kind)
            .count()
    };
    use crate::league::match_format::BoardKind;
    let seed = seed.unwrap_or_else(|| {
        use argon2::password_hash::rand_core::{OsRng, RngCore};
        seed_from(OsRng.next_u64())
    });
    let drawn = draw_from_seed(&seed, count(BoardKind::Singles), count(BoardKind::Pairs));
    if !insert_draw(tx, league, f.id, &drawn, by).await? {
        return Err(drawn_already(tx, league, f.id).await);
    }
    Ok(drawn)
}

async fn drawn_already(tx: &mut Tx, league: LeagueId, fixture: FixtureId) -> DbError {
    let seed = records::draw_in(&mut *tx, league, fixture)
        .await
        .ok()
        .flatten()
        .map(|d| d.seed)
        .unwrap_or_default();
    Refusal::NotNow(format!(
        "The pairings were drawn already, with seed {seed}: a draw is never made twice."
    ))
    .into()
}

/// Draws the fixture's pairings from the two line-ups: with `seed` when
/// given (a test, or a seed the captains agreed), else one nobody chose.
/// Refused when the format does not draw them, before both line-ups are
/// in, before the night when the season draws then, and after a draw.
pub async fn draw(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    seed: Option<String>,
    by: Option<UserId>,
) -> Result<Drawn> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    let rules = rules_in(&mut tx, league, &f).await?;
    if rules.format.pairings != Pairings::Drawn {
        return Err(Refusal::NotNow(
            "This season's pairings are not drawn: the captains or the secretary set them.".into(),
        )
        .into());
    }
    if records::draw_in(&mut tx, league, fixture).await?.is_some() {
        return Err(drawn_already(&mut tx, league, fixture).await);
    }
    if line_ups_in(&mut tx, league, fixture).await?.len() < 2 {
        return Err(Refusal::NotNow(
            "The pairings are drawn from both line-ups: both captains set theirs first.".into(),
        )
        .into());
    }
    if rules.settings.draw_at == DrawAt::Start && f.starts_at.is_some_and(|s| Utc::now() < s) {
        return Err(Refusal::NotNow(
            "This season draws the pairings when the night starts.".into(),
        )
        .into());
    }
    let drawn = make_draw(&mut tx, league, &f, &rules, seed, by).await?;
    tx.commit().await?;
    Ok(drawn)
}

/// The message asking a player (or reminding them) whether they can play.
fn ask_message(league: &League, facts: &FixtureFacts, link: String, reminder: bool) -> Message {
    let name = format!("{} v {}", facts.home, facts.away);
    Message {
        subject: if reminder {
            format!("Reminder: can you play in {name}?")
        } else {
            format!("Can you play in {name}?")
        },
        paragraphs: vec![
            format!(
                "{name}, {}{}. Can you play? One tap on the link answers: no need to sign in.",
                when(league, facts),
                facts
                    .venue
                    .as_ref()
                    .map(|v| format!(" at {v}"))
                    .unwrap_or_default()
            ),
            "You can change your answer until the night.".into(),
        ],
        preformatted: None,
        action: Some(("Answer: can you play?".into(), link)),
        why: format!(
            "You get this because you are registered to play for a team in {} and your captain asked.",
            league.name
        ),
        stop: "To stop these, untick it on your account page:".into(),
        stop_url: None,
    }
}

/// Emails each of `side`'s players with an address their own answer link:
/// everyone once when `reminder` is false (the ask), the non-answerers
/// once when true (the reminder). The number queued.
async fn email_squad(
    tx: &mut Tx,
    league: &League,
    f: &Fixture,
    side: Side,
    reminder: bool,
    config: &MailConfig,
    key: &str,
) -> Result<usize> {
    let Some(facts) = crate::db::mail::fixture_facts(tx, league.id, f.id).await? else {
        return Ok(0);
    };
    let team = team_of(f, side);
    let squad = squad_in(&mut *tx, league.id, f.season_id, team, f.id).await?;
    let expires = f.starts_at.unwrap_or_else(Utc::now) + answer_links::AFTER_START;
    let mut queued = 0;
    for m in squad {
        let Some(address) = &m.email else { continue };
        if reminder && m.answer.is_some() {
            continue;
        }
        let token = answer_links::sign(key, league.id, f.id, m.player_id, expires);
        let link = config.url(&at_short(&league.short_name).answer_link(&token));
        let mut message = ask_message(league, &facts, link, reminder);
        message.stop_url = Some(config.url("/account"));
        let mail: NewMail = message.to(
            Some(league.id),
            Topic::Availability.key(),
            &m.name,
            address,
            Some(format!(
                "availability:{}:{}:{}",
                if reminder { "reminder" } else { "ask" },
                f.id,
                m.player_id
            )),
        );
        queued += queue(tx, &mail).await? as usize;
    }
    Ok(queued)
}

/// A captain asks the squad by email whether they can play: each player
/// with an address gets their own one-tap link, once per fixture.
pub async fn ask_squad(
    db: &Db,
    league: &League,
    fixture: FixtureId,
    side: Side,
    config: &MailConfig,
) -> Result<usize> {
    let key = db.link_key().await?;
    let mut tx = db.write(league.id).await?;
    let f = lock_fixture(&mut tx, league.id, fixture).await?;
    answers_open(&f, Utc::now())?;
    let n = email_squad(&mut tx, league, &f, side, false, config, &key).await?;
    tx.commit().await?;
    Ok(n)
}

/// The one reminder to `side`'s players who have not answered: now (the
/// captain's tap) or at the captain's time (the mail worker). Refused when
/// sent already.
pub async fn remind(
    db: &Db,
    league: &League,
    fixture: FixtureId,
    side: Side,
    config: &MailConfig,
) -> Result<usize> {
    let key = db.link_key().await?;
    let mut tx = db.write(league.id).await?;
    let f = lock_fixture(&mut tx, league.id, fixture).await?;
    answers_open(&f, Utc::now())?;
    if !mark_reminded(&mut tx, league.id, fixture, team_of(&f, side)).await? {
        return Err(Refusal::NotNow(
            "The reminder was sent already: those who have not answered get one reminder.".into(),
        )
        .into());
    }
    let n = email_squad(&mut tx, league, &f, side, true, config, &key).await?;
    tx.commit().await?;
    Ok(n)
}

/// When `side`'s non-answerers are reminded: a time before the fixture.
pub async fn set_reminder(
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    side: Side,
    at: DateTime<Utc>,
) -> Result<()> {
    let mut tx = db.write(league).await?;
    let f = lock_fixture(&mut tx, league, fixture).await?;
    answers_open(&f, Utc::now())?;
    if f.starts_at.is_some_and(|s| at >= s) {
        return Err(Refusal::NotNow(
            "A reminder goes before the match: choose an earlier time.".into(),
        )
        .into());
    }
    records::set_reminder(&mut tx, league, fixture, team_of(&f, side), at).await?;
    tx.commit().await?;
    Ok(())
}

/// The mail worker's part: each reminder whose time has come, sent once.
pub async fn send_due_reminders(db: &Db, config: &MailConfig) -> Result<usize> {
    let mut sent = 0;
    for due in db.due_availability_reminders(Utc::now()).await? {
        let league = db.league(due.league_id).await?;
        let f = db.fixture(league.id, due.fixture_id).await?;
        let side = if due.team_id == f.home_team_id {
            Side::Home
        } else {
            Side::Away
        };
        match remind(db, &league, f.id, side, config).await {
            Ok(n) => sent += n,
            // Sent meanwhile, or the night came: nothing more to send.
            Err(DbError::Refused(_)) => {
                let mut tx = db.write(league.id).await?;
                mark_reminded(&mut tx, league.id, f.id, due.team_id).await?;
                tx.commit().await?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(sent)
}

/// A team sheet's data: the fixture, the rules, the squad with answers,
/// both line-ups as stored, the draw, the reminders. Read by the captain's
/// page and the printable sheet alike.
pub struct SheetData {
    pub fixture: Fixture,
    pub rules: SeasonRules,
    pub side: Side,
    pub squad: Vec<SquadMember>,
    pub line_ups: Vec<StoredLineUp>,
    pub drawn: Option<Drawn>,
    pub reminder: Option<crate::db::team_sheet::Reminder>,
}

impl SheetData {
    pub fn team(&self) -> TeamId {
        team_of(&self.fixture, self.side)
    }

    pub fn own(&self) -> Option<&LineUp> {
        let team = self.team();
        self.line_ups
            .iter()
            .find(|l| l.team_id == team)
            .map(|l| &l.line_up)
    }

    pub fn other(&self) -> Option<&StoredLineUp> {
        let team = self.team();
        self.line_ups.iter().find(|l| l.team_id != team)
    }
}

pub async fn sheet(
    db: &Db,
    league: LeagueId,
    fixture: &Fixture,
    rules: SeasonRules,
    side: Side,
) -> Result<SheetData> {
    let team = team_of(fixture, side);
    let squad = db
        .squad(league, fixture.season_id, team, fixture.id)
        .await?;
    let line_ups = db.line_ups(league, fixture.id).await?;
    let drawn = db.pairing_draw(league, fixture.id).await?;
    let reminder = db
        .availability_reminders(league, fixture.id)
        .await?
        .into_iter()
        .find(|r| r.team_id == team);
    Ok(SheetData {
        fixture: fixture.clone(),
        rules,
        side,
        squad,
        line_ups,
        drawn,
        reminder,
    })
}

/// Who plays board `board` (1-based) as the two line-ups (and the draw)
/// say, for a pad opened with nothing tapped: the pad starts from it, and
/// the players can still be changed there (the pad keeps every tap).
pub async fn board_from_line_ups(
    db: &Db,
    league: LeagueId,
    fixture: &Fixture,
    format: &crate::league::match_format::MatchFormat,
    board: i64,
) -> Result<Option<(Vec<i64>, Vec<i64>)>> {
    let board = usize::try_from(board).unwrap_or(0);
    Ok(boards_from_line_ups(db, league, fixture, format)
        .await?
        .into_iter()
        .nth(board.wrapping_sub(1))
        .flatten())
}

/// Who plays each board of `format` (in the pads' order) as the two
/// line-ups and the draw say: `None` for a board they do not fill, and
/// every board `None` until both line-ups are in (and drawn, if the format
/// draws). The paper card starts from it as the pads do.
pub async fn boards_from_line_ups(
    db: &Db,
    league: LeagueId,
    fixture: &Fixture,
    format: &crate::league::match_format::MatchFormat,
) -> Result<Vec<Option<(Vec<i64>, Vec<i64>)>>> {
    let line_ups = db.line_ups(league, fixture.id).await?;
    if line_ups.len() < 2 {
        return Ok(vec![None; format.boards.len()]);
    }
    let of = |team: TeamId| {
        line_ups
            .iter()
            .find(|l| l.team_id == team)
            .map(|l| &l.line_up)
    };
    let drawn = match format.pairings {
        Pairings::Drawn => db.pairing_draw(league, fixture.id).await?,
        _ => None,
    };
    Ok((1..=format.boards.len())
        .map(|board| {
            crate::league::team_sheet::board_players(
                format,
                of(fixture.home_team_id),
                of(fixture.away_team_id),
                drawn.as_ref(),
                board,
            )
        })
        .collect())
}
