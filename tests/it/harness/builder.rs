//! League records for a test, built in one call: a league, a season of N
//! teams with their registered players and captains (accounts too), a
//! secretary, and fixtures between the teams.

use boneyard::db::*;
use boneyard::league::match_format::{BoardKind, MatchFormat};
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, Ruleset, score_record};
use chrono::{DateTime, Duration, Utc};

/// Every account the builder makes has this password.
pub const PASSWORD: &str = "a long enough password";

/// What to build; every setting has a default.
#[derive(Debug, Clone)]
pub struct LeagueBuilder {
    short: String,
    rules: Format,
    boards: Option<MatchFormat>,
    teams: Vec<String>,
    players: usize,
    fixtures: usize,
    played: usize,
    starts_at: Option<DateTime<Utc>>,
    division: String,
    venue: Option<(String, i64)>,
    accounts: bool,
    /// The secretary's username, when not `sec-SHORT`.
    secretary: Option<String>,
    player_name: fn(team: &str, t: usize, i: usize) -> String,
    options: serde_json::Map<String, serde_json::Value>,
    rules_summary: String,
    contact: String,
    name: Option<String>,
    /// The match format as stored, when a test wants a shape of its own.
    match_format_json: Option<serde_json::Value>,
}

/// A team as built.
#[derive(Debug, Clone)]
pub struct BuiltTeam {
    pub id: TeamId,
    pub name: String,
    /// Registered this season, in order: ids and names.
    pub players: Vec<(PlayerId, String)>,
    /// The captain's username.
    pub captain: String,
}

/// What was built.
#[derive(Debug, Clone)]
pub struct Built {
    pub id: LeagueId,
    pub short: String,
    pub season: SeasonId,
    pub division: DivisionId,
    pub rules: Format,
    pub format: MatchFormat,
    pub teams: Vec<BuiltTeam>,
    /// Team 0 at home to team 1, then 2 v 3...; more wrap round.
    pub fixtures: Vec<FixtureId>,
    /// The secretary's username.
    pub secretary: String,
    pub venue: Option<VenueId>,
    /// The first fixture's kick-off.
    pub starts_at: DateTime<Utc>,
}

impl Built {
    /// The penalty kind "late-card" (one league point, "Result card late")
    /// added to the league.
    pub async fn late_card(&self, db: &Db) -> PenaltyKind {
        db.add_penalty_kind(
            self.id,
            &NewPenaltyKind {
                code: "late-card".into(),
                name: "Result card late".into(),
                effect: PenaltyEffect::LeaguePoints,
                amount: 1,
            },
        )
        .await
        .unwrap()
    }

    /// The first fixture's address, `rest` after it.
    pub fn path(&self, rest: &str) -> String {
        format!("/leagues/{}/matches/{}{rest}", self.short, self.fixtures[0])
    }

    /// An address of the league's console, `rest` after it.
    pub fn console(&self, rest: &str) -> String {
        format!("/leagues/{}/console{rest}", self.short)
    }

    /// The first fixture.
    pub fn fixture(&self) -> FixtureId {
        self.fixtures[0]
    }

    /// The first fixture's home team (team 0).
    pub fn home(&self) -> TeamId {
        self.teams[0].id
    }

    /// The first fixture's away team (team 1).
    pub fn away(&self) -> TeamId {
        self.teams[1].id
    }

    /// The home team's registered players, in order.
    pub fn home_players(&self) -> Vec<PlayerId> {
        self.teams[0].players.iter().map(|p| p.0).collect()
    }

    pub fn away_players(&self) -> Vec<PlayerId> {
        self.teams[1].players.iter().map(|p| p.0).collect()
    }

    /// The home team's players' names, in order.
    pub fn home_names(&self) -> Vec<String> {
        self.teams[0].players.iter().map(|p| p.1.clone()).collect()
    }

    pub fn away_names(&self) -> Vec<String> {
        self.teams[1].players.iter().map(|p| p.1.clone()).collect()
    }

    /// The venue every team plays at; panics for a league built without.
    pub fn venue_id(&self) -> VenueId {
        self.venue.expect("a league built with a venue")
    }

    /// Another fixture of the division, round 1 at the first fixture's
    /// kick-off and venue.
    pub async fn add_fixture(&self, db: &Db, home: TeamId, away: TeamId) -> FixtureId {
        db.create_fixture(
            self.id,
            &NewFixture {
                season_id: self.season,
                division_id: self.division,
                round: 1,
                starts_at: Some(self.starts_at),
                home_team_id: home,
                away_team_id: away,
                venue_id: self.venue,
            },
        )
        .await
        .unwrap()
        .id
    }

    /// Another division of the season at `position`, with a team for each
    /// of `teams` (its name and home venue) entered in it and no fixtures.
    pub async fn add_division(
        &self,
        db: &Db,
        name: &str,
        position: i64,
        teams: &[(&str, Option<VenueId>)],
    ) -> (DivisionId, Vec<TeamId>) {
        let division = db
            .create_division(self.id, self.season, name, position)
            .await
            .unwrap()
            .id;
        let mut ids = Vec::new();
        for (team, venue) in teams {
            let team = db.create_team(self.id, team, *venue).await.unwrap().id;
            db.enter_team(self.id, self.season, division, team)
                .await
                .unwrap();
            ids.push(team);
        }
        (division, ids)
    }
}

impl LeagueBuilder {
    /// A Fives and Threes league of two teams of four, one fixture
    /// tomorrow evening, with the league's default match format.
    pub fn new(short: &str) -> LeagueBuilder {
        LeagueBuilder {
            short: short.to_owned(),
            rules: Format::FivesAndThrees,
            boards: None,
            teams: vec!["Crown".into(), "Anchor".into()],
            players: 4,
            fixtures: 1,
            played: 0,
            starts_at: None,
            division: "One".into(),
            venue: None,
            accounts: true,
            secretary: None,
            player_name: first_names,
            options: Default::default(),
            rules_summary: String::new(),
            contact: String::new(),
            name: None,
            match_format_json: None,
        }
    }

    /// The league many tests were first written against, every detail
    /// set: "SHORT league" (rules summary "Fives and threes to 61.",
    /// contact secretary@example.org, target 61), division Premier, teams
    /// "SHORT Home" and "SHORT Away" of four players named "SHORT player
    /// TI" (team T, player I), all at "The SHORT Arms" with 2 tables, one
    /// fixture at 2026-09-10T19:30Z, and no accounts.
    pub fn home_and_away(short: &str) -> LeagueBuilder {
        LeagueBuilder::new(short)
            .name(&format!("{short} league"))
            .rules_summary("Fives and threes to 61.")
            .contact("secretary@example.org")
            .options(serde_json::json!({"target": 61}))
            .division("Premier")
            .venue(&format!("The {short} Arms"), 2)
            .teams(&[&format!("{short} Home"), &format!("{short} Away")])
            .players(4)
            // The short name is the team's first word.
            .player_names(|team, t, i| {
                let short = team.rsplit_once(' ').map_or(team, |(s, _)| s);
                format!("{short} player {t}{i}")
            })
            .without_accounts()
            .starting_at("2026-09-10T19:30:00Z".parse().unwrap())
    }

    pub fn rules(mut self, format: Format) -> Self {
        self.rules = format;
        self
    }

    pub fn boards(mut self, format: MatchFormat) -> Self {
        self.boards = Some(format);
        self
    }

    pub fn teams(mut self, names: &[&str]) -> Self {
        self.teams = names.iter().map(|n| (*n).to_owned()).collect();
        self
    }

    pub fn players(mut self, per_team: usize) -> Self {
        self.players = per_team;
        self
    }

    pub fn fixtures(mut self, n: usize) -> Self {
        self.fixtures = n;
        self
    }

    pub fn division(mut self, name: &str) -> Self {
        self.division = name.to_owned();
        self
    }

    /// Every team at home at one venue with `tables` tables.
    pub fn venue(mut self, name: &str, tables: i64) -> Self {
        self.venue = Some((name.to_owned(), tables));
        self
    }

    /// No accounts: for tests of the records alone.
    pub fn without_accounts(mut self) -> Self {
        self.accounts = false;
        self
    }

    /// The secretary's username (default "sec-SHORT"); their account is
    /// made even `without_accounts`, the captains' are not.
    pub fn secretary(mut self, username: &str) -> Self {
        self.secretary = Some(username.to_owned());
        self
    }

    /// How players are named, from their team's name and index and theirs.
    pub fn player_names(mut self, name: fn(&str, usize, usize) -> String) -> Self {
        self.player_name = name;
        self
    }

    /// The season's ruleset options.
    pub fn options(mut self, options: serde_json::Value) -> Self {
        self.options = options.as_object().cloned().unwrap_or_default();
        self
    }

    pub fn rules_summary(mut self, text: &str) -> Self {
        self.rules_summary = text.to_owned();
        self
    }

    /// The league's name (default: "SHORT League").
    pub fn name(mut self, name: &str) -> Self {
        self.name = Some(name.to_owned());
        self
    }

    pub fn contact(mut self, text: &str) -> Self {
        self.contact = text.to_owned();
        self
    }

    /// The season's match format stored as this JSON (its short form, say).
    pub fn match_format_json(mut self, json: serde_json::Value) -> Self {
        self.match_format_json = Some(json);
        self
    }

    /// The first `n` fixtures played (by the simulator, seeded by their
    /// number) and their results approved.
    pub fn played(mut self, n: usize) -> Self {
        self.played = n;
        self.fixtures = self.fixtures.max(n);
        self
    }

    pub fn starting_at(mut self, at: DateTime<Utc>) -> Self {
        self.starts_at = Some(at);
        self
    }

    pub async fn build(&self, db: &Db) -> Built {
        let format = self
            .boards
            .clone()
            .unwrap_or_else(|| MatchFormat::default_for(self.rules));
        let league = db
            .create_league(&NewLeague {
                name: self
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{} League", self.short)),
                short_name: self.short.clone(),
                rules_summary: self.rules_summary.clone(),
                contact: self.contact.clone(),
            })
            .await
            .unwrap()
            .id;
        let season = boneyard::app::seasons::create_season(
            db,
            league,
            &NewSeason {
                name: "2026/27".into(),
                format: self.rules,
                options: self.options.clone(),
                match_format: self
                    .match_format_json
                    .clone()
                    .unwrap_or_else(|| format.to_value()),
            },
        )
        .await
        .unwrap()
        .id;
        let division = db
            .create_division(league, season, &self.division, 0)
            .await
            .unwrap()
            .id;
        let hash = if self.accounts || self.secretary.is_some() {
            boneyard::web::auth::hash_password(PASSWORD.into())
                .await
                .unwrap()
        } else {
            String::new()
        };
        let venue = match &self.venue {
            Some((name, tables)) => Some(
                db.create_venue(
                    league,
                    &NewVenue {
                        name: name.clone(),
                        address: "1 High Street".into(),
                        tables: *tables,
                    },
                )
                .await
                .unwrap()
                .id,
            ),
            None => None,
        };
        let mut teams = Vec::new();
        for (t, name) in self.teams.iter().enumerate() {
            let id = db.create_team(league, name, venue).await.unwrap().id;
            db.enter_team(league, season, division, id).await.unwrap();
            let mut players = Vec::new();
            for i in 0..self.players {
                let pname = (self.player_name)(name, t, i);
                let p = db.create_player(league, &pname).await.unwrap().id;
                boneyard::app::registrations::register_player(db, league, season, id, p)
                    .await
                    .unwrap();
                players.push((p, pname));
            }
            let captain = format!("cap{t}-{}", self.short);
            if self.accounts {
                let user = db.create_user(&captain, &hash).await.unwrap().id;
                db.grant_role(&NewRole::captain(user, league, season, id), None)
                    .await
                    .unwrap();
            }
            teams.push(BuiltTeam {
                id,
                name: name.clone(),
                players,
                captain,
            });
        }
        let secretary = self
            .secretary
            .clone()
            .unwrap_or_else(|| format!("sec-{}", self.short));
        if self.accounts || self.secretary.is_some() {
            let user = db.create_user(&secretary, &hash).await.unwrap().id;
            db.grant_role(&NewRole::secretary(user, league), None)
                .await
                .unwrap();
        }
        let starts_at = self.starts_at.unwrap_or_else(|| now() + Duration::days(1));
        let mut fixtures = Vec::new();
        for f in 0..self.fixtures {
            let (home, away) = ((2 * f) % teams.len(), (2 * f + 1) % teams.len());
            let id = db
                .create_fixture(
                    league,
                    &NewFixture {
                        season_id: season,
                        division_id: division,
                        round: f as i64 + 1,
                        starts_at: Some(starts_at + Duration::days(7 * f as i64)),
                        home_team_id: teams[home].id,
                        away_team_id: teams[away].id,
                        venue_id: venue,
                    },
                )
                .await
                .unwrap()
                .id;
            if f < self.played {
                let result =
                    simulated_result(self.rules, &format, &teams[home], &teams[away], f as u64);
                boneyard::app::results::write(db, league, id, &result, None)
                    .await
                    .unwrap();
                boneyard::app::results::set_status(
                    db,
                    league,
                    id,
                    ResultStatus::Approved,
                    "",
                    None,
                )
                .await
                .unwrap();
                let fixture = db.fixture(league, id).await.unwrap();
                let change = FixtureChange {
                    status: FixtureStatus::Played,
                    ..FixtureChange::from(&fixture)
                };
                boneyard::app::fixtures::change(db, league, id, &change, None)
                    .await
                    .unwrap();
            }
            fixtures.push(id);
        }
        Built {
            venue,
            starts_at,
            id: league,
            short: self.short.clone(),
            season,
            division,
            rules: self.rules,
            format,
            teams,
            fixtures,
            secretary,
        }
    }
}

/// "Crown Ann", "Crown Bea"...: the team's name and a first name.
fn first_names(team: &str, _t: usize, i: usize) -> String {
    const FIRSTS: [&str; 10] = [
        "Ann", "Bea", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo",
    ];
    match FIRSTS.get(i) {
        Some(first) => format!("{team} {first}"),
        None => format!("{team} Player {i}"),
    }
}

/// A match between two built teams as the simulator plays it: the k-th
/// singles board the teams' k-th players, the j-th pairs board players 2j
/// and 2j + 1.
pub fn simulated_result(
    rules: Format,
    format: &MatchFormat,
    home: &BuiltTeam,
    away: &BuiltTeam,
    seed: u64,
) -> MatchResult {
    let ruleset = Ruleset::new(rules);
    let mut rng = Rng::new(seed);
    let (mut singles, mut pairs) = (0, 0);
    let mut boards = Vec::new();
    for spec in &format.boards {
        let picks: Vec<usize> = match spec.kind {
            BoardKind::Singles => {
                singles += 1;
                vec![singles - 1]
            }
            BoardKind::Pairs => {
                pairs += 1;
                vec![2 * (pairs - 1), 2 * pairs - 1]
            }
        };
        let pick = |team: &BuiltTeam| -> Vec<(PlayerId, String)> {
            picks
                .iter()
                .map(|&i| team.players[i % team.players.len()].clone())
                .collect()
        };
        let (h, a) = (pick(home), pick(away));
        let players: Vec<String> = h
            .iter()
            .zip(&a)
            .flat_map(|(x, y)| [x.1.clone(), y.1.clone()])
            .collect();
        let sides = vec![
            h.iter().map(|p| p.1.clone()).collect(),
            a.iter().map(|p| p.1.clone()).collect(),
        ];
        let games = simulate_board(
            &ruleset,
            &players,
            &sides,
            spec.best_of,
            &mut rng,
            &Style::clean(),
        )
        .into_iter()
        .map(|record| {
            let outcome = score_record(&record).unwrap();
            GameResult {
                outcome: Some(GameOutcome::of(&record, &outcome)),
                record,
                score_only: false,
            }
        })
        .collect();
        boards.push(BoardResult {
            kind: spec.kind,
            home: h.iter().map(|p| p.0).collect(),
            away: a.iter().map(|p| p.0).collect(),
            games,
            conceded_by: None,
        });
    }
    MatchResult { boards }
}

/// "League Cup", a knockout of `teams` in `season`, with its first round
/// drawn at random by `seed` to be played now.
pub async fn drawn_team_cup(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    teams: &[TeamId],
    seed: u64,
) -> CupId {
    use boneyard::app::cup_commands::{add_cup_entrant, draw_cup_round};
    let cup = db
        .create_cup(
            league,
            &NewCup {
                season_id: season,
                name: "League Cup".into(),
                entrants: boneyard::league::cup::EntrantKind::Teams,
                match_format: None,
            },
            None,
        )
        .await
        .unwrap()
        .id;
    for team in teams {
        let entrant = NewEntrant {
            team_id: *team,
            players: Vec::new(),
            seed: None,
        };
        add_cup_entrant(db, league, cup, &entrant, None)
            .await
            .unwrap();
    }
    let draw = DrawRequest {
        round: 1,
        starts_at: now(),
        play_by: false,
        venue_id: None,
        how: How::Random { seed },
    };
    draw_cup_round(db, league, cup, &draw, None).await.unwrap();
    cup
}
