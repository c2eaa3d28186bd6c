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
}

impl Built {
    /// The first fixture's address, `rest` after it.
    pub fn path(&self, rest: &str) -> String {
        format!("/leagues/{}/matches/{}{rest}", self.short, self.fixtures[0])
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
            player_name: first_names,
            options: Default::default(),
            rules_summary: String::new(),
            contact: String::new(),
            name: None,
            match_format_json: None,
        }
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
        let season = db
            .create_season(
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
        let hash = if self.accounts {
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
                db.register_player(league, season, id, p).await.unwrap();
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
        let secretary = format!("sec-{}", self.short);
        if self.accounts {
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
                db.write_result(league, id, &result, None).await.unwrap();
                db.set_result_status(league, id, ResultStatus::Approved, "", None)
                    .await
                    .unwrap();
                let fixture = db.fixture(league, id).await.unwrap();
                let change = FixtureChange {
                    status: FixtureStatus::Played,
                    ..FixtureChange::from(&fixture)
                };
                db.update_fixture(league, id, &change, None).await.unwrap();
            }
            fixtures.push(id);
        }
        Built {
            venue,
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
