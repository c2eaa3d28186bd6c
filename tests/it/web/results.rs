//! Entering a match hand by hand through the card, the captains' workflow,
//! corrections and restores, and results in and out.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::card::game_text;
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, GameRecord, Ruleset, score_record};

use crate::harness::client::Client;
use crate::harness::{LeagueBuilder, PASSWORD};
use crate::support::on_both;

on_both!(
    a_whole_match_entered_through_the_card_scores_as_boneyard_score,
    an_impossible_play_is_refused_and_the_rest_kept,
    a_match_file_loads_into_the_card_pasted_or_chosen,
    submit_dispute_correct_confirm_approve_and_restore,
    confirmation_approves_when_the_season_says_so,
    the_secretary_approves_from_the_list_awaiting_approval,
    a_captains_home_page_says_what_needs_them,
    captains_of_other_teams_are_refused,
    a_secretary_records_walkovers_and_void_fixtures,
    season_csv_neutralises_formulas,
);

pub(crate) struct Match {
    pub short: String,
    pub fixture: FixtureId,
    pub home: Vec<(PlayerId, String)>,
    pub away: Vec<(PlayerId, String)>,
    pub format: MatchFormat,
}

impl Match {
    pub fn path(&self, rest: &str) -> String {
        format!("/leagues/{}/matches/{}{rest}", self.short, self.fixture)
    }
}

/// A league with a fixture between two teams of four (a name needing
/// escaping among them), and a third team; accounts for the secretary and
/// each team's captain (see [`client`]).
pub(crate) async fn setup(db: &Db) -> Match {
    let format = MatchFormat::with_boards(2, 1, 1);
    let built = LeagueBuilder::new("card")
        .name("Card League")
        .boards(format.clone())
        .teams(&["Crown", "Anchor", "Bell"])
        .players(4)
        .player_names(|team, t, i| {
            let odd = if t == 0 && i == 0 { " <b>" } else { "" };
            format!("{team} Player {i}{odd}")
        })
        .starting_at("2026-09-10T19:30:00Z".parse().unwrap())
        .build(db)
        .await;
    Match {
        short: built.short.clone(),
        fixture: built.fixtures[0],
        home: built.teams[0].players.clone(),
        away: built.teams[1].players.clone(),
        format,
    }
}

/// Signed in as `sec` (the secretary), `home`, `away` (the fixture's
/// captains) or `other` (the third team's captain).
pub(crate) async fn client(db: &Db, user: &str) -> Client {
    let username = match user {
        "sec" => "sec-card",
        "home" => "cap0-card",
        "away" => "cap1-card",
        "other" => "cap2-card",
        other => other,
    };
    let mut c = Client::new(db).await;
    c.sign_in(username, PASSWORD).await;
    c
}

/// Fields of a card whose games were played by the simulator: players on
/// each board, and each game typed in the card notation.
pub(crate) fn simulated_card(
    m: &Match,
    seed: u64,
) -> (Vec<(String, String)>, Vec<Vec<GameRecord>>) {
    let mut rng = Rng::new(seed);
    let ruleset = Ruleset::new(Format::FivesAndThrees);
    let mut fields = Vec::new();
    let mut boards = Vec::new();
    let mut next = 0;
    for (i, spec) in m.format.boards.iter().enumerate() {
        let n = spec.kind.players_a_side();
        let home: Vec<&(PlayerId, String)> = (0..n).map(|j| &m.home[(next + j) % 4]).collect();
        let away: Vec<&(PlayerId, String)> = (0..n).map(|j| &m.away[(next + j) % 4]).collect();
        next += n;
        for j in 0..n {
            fields.push((format!("b{i}.home{j}"), home[j].0.0.to_string()));
            fields.push((format!("b{i}.away{j}"), away[j].0.0.to_string()));
        }
        let players: Vec<String> = (0..n)
            .flat_map(|j| [home[j].1.clone(), away[j].1.clone()])
            .collect();
        let sides: Vec<Vec<String>> = (0..2)
            .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
            .collect();
        let games = simulate_board(
            &ruleset,
            &players,
            &sides,
            spec.best_of,
            &mut rng,
            &Style::clean(),
        );
        for (g, record) in games.iter().enumerate() {
            fields.push((format!("b{i}.g{g}"), game_text(record, g == 0)));
        }
        boards.push(games);
    }
    (fields, boards)
}

/// The version a history page's forms act on.
pub(crate) fn shown(page: &crate::harness::client::Page) -> String {
    let marker = "name=\"version\" value=\"";
    let start = page
        .body
        .find(marker)
        .expect("a form with the version shown")
        + marker.len();
    page.body[start..].split('"').next().unwrap().to_owned()
}

pub(crate) async fn submit_card(
    c: &mut Client,
    m: &Match,
    fields: &[(String, String)],
    action: &str,
) -> crate::harness::client::Page {
    let page = c.get(&m.path("/card")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let token = page.csrf();
    let mut all: Vec<(&str, &str)> = vec![("csrf", token.as_str()), ("action", action)];
    all.extend(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    c.post(&m.path("/card"), &all).await
}

async fn a_whole_match_entered_through_the_card_scores_as_boneyard_score(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let (fields, simulated) = simulated_card(&m, 7);
    let checked = submit_card(&mut home, &m, &fields, "check").await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
    assert!(checked.has("The card reads correctly"));
    assert!(checked.has("Crown Player 0 &#60;b&#62;") || checked.has("Crown Player 0 &lt;b&gt;"));
    let saved = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    // Exported records score, through the engine, as the stored outcomes and
    // as the games that were played.
    let export = home.get(&m.path("/games.json")).await;
    assert_eq!(export.status, StatusCode::OK);
    let file: serde_json::Value = serde_json::from_str(&export.body).unwrap();
    let stored = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    assert_eq!(stored.version.status, ResultStatus::Entered);
    for (b, board) in file["boards"].as_array().unwrap().iter().enumerate() {
        for (g, game) in board["games"].as_array().unwrap().iter().enumerate() {
            let record: GameRecord = serde_json::from_value(game.clone()).unwrap();
            let o = score_record(&record).unwrap();
            let played = score_record(&simulated[b][g]).unwrap();
            assert_eq!(o.totals, played.totals, "board {b} game {g}");
            let kept = stored.result.boards[b].games[g].outcome.clone().unwrap();
            assert_eq!(
                kept.totals,
                [i64::from(o.totals[0]), i64::from(o.totals[1])]
            );
            // And `boneyard score` on the exported record says the same.
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_boneyard"))
                .args(["score", "-"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    use std::io::Write;
                    child
                        .stdin
                        .take()
                        .unwrap()
                        .write_all(game.to_string().as_bytes())?;
                    child.wait_with_output()
                })
                .unwrap();
            let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(cli["totals"], serde_json::json!(o.totals));
        }
    }
    // The card shows the stored result for correction.
    let again = home.get(&m.path("/card")).await;
    assert!(again.has("version 1, entered"));
    let fixture = db.fixture(LeagueId(1), m.fixture).await.unwrap();
    assert_eq!(fixture.status, FixtureStatus::Played);
}

async fn a_match_file_loads_into_the_card_pasted_or_chosen(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let (fields, _) = simulated_card(&m, 12);
    submit_card(&mut home, &m, &fields, "submit").await;
    let file = home.get(&m.path("/games.json")).await.body;
    let first_game = &fields.iter().find(|(k, _)| k == "b0.g0").unwrap().1;
    let a_line = first_game.lines().nth(1).unwrap();
    let import = m.path("/import");
    let token = home.get(&m.path("/card")).await.csrf();
    let pasted = home
        .post(&import, &[("csrf", &token), ("json", &file)])
        .await;
    let chosen = home
        .post_multipart(
            &import,
            &[
                ("csrf", None, token.as_bytes()),
                ("file", Some("games.json"), file.as_bytes()),
                ("json", None, b""),
            ],
        )
        .await;
    for page in [&pasted, &chosen] {
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        assert!(page.has("Imported. Check the card"), "{}", page.body);
        assert!(page.has(a_line), "{}", page.body);
    }
    // Loading stores nothing: still the one version submitted.
    let versions = db.result_versions(LeagueId(1), m.fixture).await.unwrap();
    assert_eq!(versions.len(), 1);
    // A file that is not text, or not a match file, is refused plainly.
    let binary = home
        .post_multipart(
            &import,
            &[
                ("csrf", None, token.as_bytes()),
                ("file", Some("photo.jpg"), &[0xff, 0xd8, 0xff, 0x00]),
            ],
        )
        .await;
    assert_eq!(binary.status, StatusCode::BAD_REQUEST);
    assert!(binary.has("photo.jpg"), "{}", binary.body);
    let wrong = home
        .post_multipart(
            &import,
            &[
                ("csrf", None, token.as_bytes()),
                ("file", Some("notes.json"), b"{\"boards\": 3}"),
            ],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert!(wrong.has("not a match file"), "{}", wrong.body);
    // And without the form's token, nothing is read.
    let forged = home
        .post_multipart(&import, &[("file", Some("games.json"), file.as_bytes())])
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN, "{}", forged.body);
}

async fn an_impossible_play_is_refused_and_the_rest_kept(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let (mut fields, _) = simulated_card(&m, 11);
    let target = fields.iter().position(|(k, _)| k == "b1.g0").unwrap();
    // An impossible score slipped into the first hand.
    let mut lines: Vec<String> = fields[target].1.lines().map(str::to_owned).collect();
    lines[1] = format!("A7 {}", lines[1]);
    fields[target].1 = lines.join("\n");
    let page = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.has("Nothing was saved"));
    assert!(page.has("not 7"), "{}", page.body);
    // Everything typed comes back: the other boards' games are intact.
    let other = &fields.iter().find(|(k, _)| k == "b0.g0").unwrap().1;
    let first_line = other.lines().nth(1).unwrap();
    assert!(page.has(first_line));
    assert!(db.result(LeagueId(1), m.fixture).await.unwrap().is_none());
}

async fn confirmation_approves_when_the_season_says_so(db: Db) {
    let m = setup(&db).await;
    let league = LeagueId(1);
    let season = db.seasons(league).await.unwrap()[0].id;
    let scope = boneyard::db::pages::FixtureScope::One(m.fixture);
    let mut home = client(&db, "home").await;
    let mut away = client(&db, "away").await;
    // The home captain enters a card, the away captain confirms it.
    let mut enter_and_confirm = async |seed| {
        let (fields, _) = simulated_card(&m, seed);
        submit_card(&mut home, &m, &fields, "submit").await;
        let page = away.get(&m.path("/history")).await;
        let confirmed = away
            .post(
                &m.path("/confirm"),
                &[("csrf", &page.csrf()), ("version", &shown(&page))],
            )
            .await;
        assert_eq!(
            confirmed.status,
            StatusCode::SEE_OTHER,
            "{}",
            confirmed.body
        );
        db.result(league, m.fixture).await.unwrap().unwrap().version
    };
    // By default a confirmed result still waits for a secretary...
    let v = enter_and_confirm(5).await;
    assert_eq!(v.status, ResultStatus::Confirmed);
    assert!(
        db.board_lines(league, &scope, true)
            .await
            .unwrap()
            .is_empty()
    );
    // ...and with the setting on, the other captain's confirmation approves
    // a correction, which then counts.
    let settings = boneyard::league::settings::SeasonSettings {
        approve_on_confirmation: true,
        ..Default::default()
    };
    boneyard::app::seasons::set_season_settings(&db, league, season, &settings, None)
        .await
        .unwrap();
    let v = enter_and_confirm(6).await;
    assert_eq!(
        (v.version, v.status, v.status_note.as_str()),
        (2, ResultStatus::Approved, "approved on confirmation")
    );
    assert_eq!(db.board_lines(league, &scope, true).await.unwrap().len(), 3);
}

async fn the_secretary_approves_from_the_list_awaiting_approval(db: Db) {
    let m = setup(&db).await;
    let league = LeagueId(1);
    let list = "/leagues/card/console/approvals";
    let mut home = client(&db, "home").await;
    let mut sec = client(&db, "sec").await;
    let page = sec.get(list).await;
    assert!(
        page.has("No result is waiting for approval."),
        "{}",
        page.body
    );
    let (fields, _) = simulated_card(&m, 8);
    submit_card(&mut home, &m, &fields, "submit").await;
    let page = sec.get(list).await;
    assert!(page.has("1 result awaiting approval"), "{}", page.body);
    assert!(page.has(">Crown v Anchor</a>"), "{}", page.body);
    assert!(page.has("entered, not yet confirmed"), "{}", page.body);
    assert!(page.has("by cap0-card"), "{}", page.body);
    assert!(
        sec.get("/leagues/card/console")
            .await
            .has("Results awaiting approval (1)")
    );
    let token = page.csrf();

    // A correction entered after the list was read is not approved unseen.
    let (fields, _) = simulated_card(&m, 9);
    submit_card(&mut home, &m, &fields, "submit").await;
    let approve = m.path("/approve");
    let stale = sec
        .post(
            &approve,
            &[("csrf", &token), ("version", "1"), ("back", "approvals")],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    assert!(
        stale.has("version 2 of this result was entered after"),
        "{}",
        stale.body
    );
    let v = db.result(league, m.fixture).await.unwrap().unwrap().version;
    assert_eq!((v.version, v.status), (2, ResultStatus::Entered));

    // The version shown is approved, and the secretary is back at the list.
    let page = sec.get(list).await;
    assert!(page.has("name=\"version\" value=\"2\""), "{}", page.body);
    let done = sec
        .post(
            &approve,
            &[
                ("csrf", &page.csrf()),
                ("version", "2"),
                ("back", "approvals"),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert!(
        done.location
            .as_deref()
            .unwrap()
            .starts_with(&format!("{list}?approved=")),
        "{:?}",
        done.location
    );
    let v = db.result(league, m.fixture).await.unwrap().unwrap().version;
    assert_eq!((v.version, v.status), (2, ResultStatus::Approved));
    assert!(
        sec.get(list)
            .await
            .has("No result is waiting for approval.")
    );
    // Captains have no such list.
    assert_eq!(home.get(list).await.status, StatusCode::FORBIDDEN);
}

async fn a_captains_home_page_says_what_needs_them(db: Db) {
    let m = setup(&db).await;
    let league = LeagueId(1);
    let season = db.seasons(league).await.unwrap()[0].id;
    let division = db.divisions(league, season).await.unwrap()[0].id;
    let teams = db.teams(league).await.unwrap();
    let team = |name: &str| teams.iter().find(|t| t.name == name).unwrap().id;
    let coming = db
        .create_fixture(
            league,
            &NewFixture {
                season_id: season,
                division_id: division,
                round: 2,
                starts_at: Some("2099-09-17T18:30:00Z".parse().unwrap()),
                home_team_id: team("Bell"),
                away_team_id: team("Crown"),
                venue_id: None,
            },
        )
        .await
        .unwrap()
        .id;
    let mut home = client(&db, "home").await;
    let mut away = client(&db, "away").await;
    let mut other = client(&db, "other").await;
    let card = format!("href=\"{}\">Enter the result", m.path("/card"));

    // The match was played in September and has no result: both captains
    // are asked for it; Crown also sees its coming fixture.
    let page = home.get("/").await;
    assert!(page.has("<h1>Your matches</h1>"), "{}", page.body);
    assert!(page.has("Crown <span class=\"muted\">· Card League</span>"));
    assert!(page.has("<strong>Crown v Anchor</strong>"), "{}", page.body);
    assert!(page.has(&card), "{}", page.body);
    assert!(page.has("<strong>Bell v Crown</strong>"), "{}", page.body);
    assert!(page.has(&format!(
        "/leagues/card/print/fixture/{coming}\">Score sheet"
    )));
    let page = other.get("/").await;
    assert!(!page.has("Crown v Anchor"), "{}", page.body);
    assert!(page.has("Bell v Crown"), "{}", page.body);

    // Entered by Crown: Crown waits, Anchor is asked to confirm.
    let (fields, _) = simulated_card(&m, 10);
    submit_card(&mut home, &m, &fields, "submit").await;
    let page = home.get("/").await;
    assert!(
        page.has("entered: waiting for the other captain (Anchor) to confirm"),
        "{}",
        page.body
    );
    assert!(!page.has(&card), "{}", page.body);
    let page = away.get("/").await;
    let confirm = format!("href=\"{}\">Confirm or dispute", m.path("/history"));
    assert!(page.has(&confirm), "{}", page.body);

    // Disputed: Crown is asked to correct it.
    let history = away.get(&m.path("/history")).await;
    away.post(
        &m.path("/dispute"),
        &[
            ("csrf", &history.csrf()),
            ("version", &shown(&history)),
            ("note", "Board 1 was ours"),
        ],
    )
    .await;
    let page = home.get("/").await;
    assert!(page.has("Correct the result"), "{}", page.body);

    // A user who is one of the league's players is linked to their record.
    let away_user = db.user_by_username("cap1-card").await.unwrap().id;
    let (player, name) = &m.away[1];
    db.grant_role(&NewRole::player(away_user, league, *player), None)
        .await
        .unwrap();
    let page = away.get("/").await;
    let record =
        format!("/leagues/card/players/{player}-anchor-player-1\">Your record: {name}</a>");
    assert!(page.has(&record), "{}", page.body);

    // Someone without a team sees the leagues only.
    let page = Client::new(&db).await.get("/").await;
    assert!(!page.has("Your matches") && page.has("<h1>Leagues</h1>"));
}

async fn submit_dispute_correct_confirm_approve_and_restore(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let mut away = client(&db, "away").await;
    let mut sec = client(&db, "sec").await;
    let (fields, _) = simulated_card(&m, 3);
    assert_eq!(
        submit_card(&mut home, &m, &fields, "submit").await.status,
        StatusCode::SEE_OTHER
    );
    let history = home.get(&m.path("/history")).await;
    // The captain who entered is not offered to confirm their own result,
    // and cannot.
    assert!(
        !history.has(&format!("action=\"{}\"", m.path("/confirm"))),
        "{}",
        history.body
    );
    let own = home
        .post(
            &m.path("/confirm"),
            &[("csrf", &history.csrf()), ("version", "1")],
        )
        .await;
    assert_eq!(own.status, StatusCode::FORBIDDEN);
    let page = away.get(&m.path("/history")).await;
    let empty = away
        .post(
            &m.path("/dispute"),
            &[("csrf", &page.csrf()), ("version", "1"), ("note", " ")],
        )
        .await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    let disputed = away
        .post(
            &m.path("/dispute"),
            &[
                ("csrf", &page.csrf()),
                ("version", &shown(&page)),
                ("note", "Board 2 was 61-40"),
            ],
        )
        .await;
    assert_eq!(disputed.status, StatusCode::SEE_OTHER);
    let v = db
        .result(LeagueId(1), m.fixture)
        .await
        .unwrap()
        .unwrap()
        .version;
    assert_eq!(
        (v.status, v.status_note.as_str()),
        (ResultStatus::Disputed, "Board 2 was 61-40")
    );
    // Provisional results count in no table.
    let lines = db
        .board_lines(
            LeagueId(1),
            &boneyard::db::pages::FixtureScope::One(m.fixture),
            true,
        )
        .await
        .unwrap();
    assert!(lines.is_empty());
    // A correction is a new version.
    let (fields2, _) = simulated_card(&m, 4);
    assert_eq!(
        submit_card(&mut home, &m, &fields2, "submit").await.status,
        StatusCode::SEE_OTHER
    );
    let page = away.get(&m.path("/history")).await;
    assert!(page.has("Board 2 was 61-40"));
    assert_eq!(
        away.post(
            &m.path("/confirm"),
            &[("csrf", &page.csrf()), ("version", &shown(&page))]
        )
        .await
        .status,
        StatusCode::SEE_OTHER
    );
    let page = sec.get(&m.path("/history")).await;
    assert_eq!(
        sec.post(
            &m.path("/approve"),
            &[("csrf", &page.csrf()), ("version", "2"), ("note", "")]
        )
        .await
        .status,
        StatusCode::SEE_OTHER
    );
    let stored = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    assert_eq!(
        (stored.version.version, stored.version.status),
        (2, ResultStatus::Approved)
    );
    let approved = db
        .board_lines(
            LeagueId(1),
            &boneyard::db::pages::FixtureScope::One(m.fixture),
            true,
        )
        .await
        .unwrap();
    assert_eq!(approved.len(), 3);
    // Only a secretary restores; version 1 comes back as version 3.
    let page = home.get(&m.path("/history")).await;
    assert!(!page.has("Restore version"));
    assert_eq!(
        home.post(
            &m.path("/restore"),
            &[("csrf", &page.csrf()), ("version", "1")]
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
    let page = sec.get(&m.path("/history")).await;
    assert!(page.has("Restore version 1"));
    let restored = sec
        .post(
            &m.path("/restore"),
            &[("csrf", &page.csrf()), ("version", "1"), ("current", "2")],
        )
        .await;
    assert_eq!(restored.status, StatusCode::SEE_OTHER);
    let v3 = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    let v1 = db.result_version(LeagueId(1), m.fixture, 1).await.unwrap();
    assert_eq!((v3.version.version, v3.version.restored_from), (3, Some(1)));
    assert_eq!(v3.result, v1.result);
    let page = sec.get(&m.path("/history")).await;
    assert!(page.has("restored from version 1"));
}

async fn captains_of_other_teams_are_refused(db: Db) {
    let m = setup(&db).await;
    let (fields, _) = simulated_card(&m, 5);
    let mut other = client(&db, "other").await;
    assert_eq!(
        other.get(&m.path("/card")).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        other.get(&m.path("/history")).await.status,
        StatusCode::FORBIDDEN
    );
    // Even with a valid token of its own session, the post is refused.
    let home_page = other.get("/").await;
    let csrf = home_page.csrf();
    let mut all: Vec<(&str, &str)> = vec![("csrf", csrf.as_str()), ("action", "submit")];
    all.extend(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    assert_eq!(
        other.post(&m.path("/card"), &all).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        other
            .post(&m.path("/confirm"), &[("csrf", &csrf)])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert!(db.result(LeagueId(1), m.fixture).await.unwrap().is_none());
    // Signed out: sent to sign in.
    let mut anon = other.stranger();
    let page = anon.get(&m.path("/card")).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert!(page.location.unwrap().starts_with("/sign-in"));
    // Another league's fixture number is not found, not shown.
    let mut sec = client(&db, "sec").await;
    assert_eq!(
        sec.get("/leagues/card/matches/999/card").await.status,
        StatusCode::NOT_FOUND
    );
}

async fn a_secretary_records_walkovers_and_void_fixtures(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let page = home.get("/").await;
    assert_eq!(
        home.post(
            &m.path("/walkover"),
            &[("csrf", &page.csrf()), ("conceded_by", "away")]
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
    let mut sec = client(&db, "sec").await;
    let page = sec.get(&m.path("/history")).await;
    let bad = sec
        .post(
            &m.path("/walkover"),
            &[("csrf", &page.csrf()), ("conceded_by", "nobody")],
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let ok = sec
        .post(
            &m.path("/walkover"),
            &[("csrf", &page.csrf()), ("conceded_by", "away")],
        )
        .await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER);
    let f = db.fixture(LeagueId(1), m.fixture).await.unwrap();
    assert_eq!(
        (f.status, f.conceded_by),
        (FixtureStatus::Walkover, Some(Side::Away))
    );
    let void = sec.post(&m.path("/void"), &[("csrf", &page.csrf())]).await;
    assert_eq!(void.status, StatusCode::SEE_OTHER);
    assert_eq!(
        db.fixture(LeagueId(1), m.fixture).await.unwrap().status,
        FixtureStatus::Void
    );
    // Both changes are in the audit log.
    let audit = db
        .audit_entries(LeagueId(1), "fixture", m.fixture.0)
        .await
        .unwrap();
    assert_eq!(audit.len(), 2);
}

async fn season_csv_neutralises_formulas(db: Db) {
    let m = setup(&db).await;
    db.create_team(LeagueId(1), "=HYPERLINK(\"x\")", None)
        .await
        .unwrap();
    let mut sec = client(&db, "sec").await;
    let (fields, _) = simulated_card(&m, 9);
    assert_eq!(
        submit_card(&mut sec, &m, &fields, "submit").await.status,
        StatusCode::SEE_OTHER
    );
    // Teams not in fixtures do not appear; rename a fixture team to test.
    let home = db
        .fixture(LeagueId(1), m.fixture)
        .await
        .unwrap()
        .home_team_id;
    db.update_team(LeagueId(1), home, "=1+1", None)
        .await
        .unwrap();
    let csv = sec.get("/leagues/card/seasons/1/results.csv").await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    assert!(csv.has("'=1+1"), "{}", csv.body);
    assert!(!csv.body.contains(",=1+1"));
    assert!(csv.has("fixture,"));
    assert!(
        csv.has(",approved,"),
        "entered by a secretary: approved at once"
    );
}
