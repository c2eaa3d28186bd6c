//! The match card as a secretary or captain types a night up: every board
//! accounted for, boards not played, games known by their final score only,
//! and mistakes shown all at once in the card's own words.

use axum::http::StatusCode;
use boneyard::db::pages::FixtureScope;
use boneyard::db::*;
use boneyard::league::match_score::scores_from_boards;
use boneyard::league::settings::SeasonSettings;

use super::results::{client, setup, simulated_card, submit_card};
use crate::support::on_both;

on_both!(
    an_incomplete_card_is_refused_with_its_missing_boards,
    a_board_not_played_goes_to_the_side_that_did_not_concede,
    a_game_known_by_its_final_score_only,
    a_paper_card_is_typed_by_final_scores_chosen_on_the_card,
    every_mistake_of_a_game_shows_at_once_in_plain_words,
    the_card_explains_this_seasons_lines_only,
    a_nine_board_night_typed_from_its_sheet,
);

/// The fields of board `b` (0-based) only.
fn board_fields(fields: &[(String, String)], b: usize) -> Vec<(String, String)> {
    let prefix = format!("b{b}.");
    fields
        .iter()
        .filter(|(k, _)| k.starts_with(&prefix))
        .cloned()
        .collect()
}

async fn an_incomplete_card_is_refused_with_its_missing_boards(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let (fields, _) = simulated_card(&m, 3);
    let first = board_fields(&fields, 0);
    let page = submit_card(&mut home, &m, &first, "submit").await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(page.has("Boards 2 and 3 are missing"), "{}", page.body);
    assert!(page.has("Nothing was saved"));
    // What was typed comes back, to be completed.
    assert!(
        page.has(
            fields
                .iter()
                .find(|(k, _)| k == "b0.g0")
                .unwrap()
                .1
                .lines()
                .nth(1)
                .unwrap()
        )
    );
    assert!(
        db.result_versions(LeagueId(1), m.fixture)
            .await
            .unwrap()
            .is_empty(),
        "an incomplete card stores nothing"
    );
    // Checking a part-typed card is fine: only the submit needs every board.
    let checked = submit_card(&mut home, &m, &first, "check").await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
    let whole = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(whole.status, StatusCode::SEE_OTHER, "{}", whole.body);
}

async fn a_board_not_played_goes_to_the_side_that_did_not_concede(db: Db) {
    let m = setup(&db).await;
    let mut sec = client(&db, "sec").await;
    let (fields, simulated) = simulated_card(&m, 5);
    let mut typed = board_fields(&fields, 0);
    // Marked conceded but with players chosen: a contradiction, refused.
    let mut muddled = typed.clone();
    muddled.push(("b1.status".into(), "home".into()));
    muddled.extend(
        board_fields(&fields, 1)
            .into_iter()
            .filter(|(k, _)| !k.contains(".g")),
    );
    muddled.push(("b2.status".into(), "away".into()));
    let page = submit_card(&mut sec, &m, &muddled, "submit").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.has("marked not played (conceded by home)"),
        "{}",
        page.body
    );

    typed.push(("b1.status".into(), "home".into()));
    typed.push(("b2.status".into(), "away".into()));
    let saved = submit_card(&mut sec, &m, &typed, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let stored = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    let conceded: Vec<Option<Side>> = stored.result.boards.iter().map(|b| b.conceded_by).collect();
    assert_eq!(conceded, [None, Some(Side::Home), Some(Side::Away)]);
    assert!(stored.result.boards[1].games.is_empty() && stored.result.boards[1].home.is_empty());

    // The score: board 1 as played, board 2 to the away side, board 3 home.
    let lines = db
        .board_lines(LeagueId(1), &FixtureScope::One(m.fixture), true)
        .await
        .unwrap();
    // The sums kept on the boards as written read as those summed from the
    // games, the conceded boards with them.
    let summed = db
        .board_lines_from_games(LeagueId(1), &FixtureScope::One(m.fixture), true)
        .await
        .unwrap();
    assert_eq!(lines, summed);
    assert_eq!(lines.iter().filter(|b| b.conceded_by.is_some()).count(), 2);
    let score = scores_from_boards(&lines, &m.format)[&m.fixture];
    let first = boneyard::rules::score_record(&simulated[0][0]).unwrap();
    let w = first.winner.unwrap();
    let mut want = [1, 1];
    want[w] += 1;
    assert_eq!(score.boards, want);
    let pegs = [i64::from(first.totals[0]), i64::from(first.totals[1])];
    assert_eq!(
        score.pegs.map(i64::from),
        pegs,
        "boards not played have no pegs"
    );

    // The match page and the card say so.
    let public = sec.get(&m.path("")).await;
    assert!(
        public.has("Not played: Crown conceded the board, so it goes to Anchor."),
        "{}",
        public.body
    );
    assert!(public.has("Not played: Anchor conceded the board, so it goes to Crown."));
    // The page the result is confirmed and approved from counts as the
    // table does: each conceded board's games are those that win it.
    let history = sec.get(&m.path("/history")).await;
    assert!(
        history.has(&format!("Boards {}-{} (home first)", want[0], want[1])),
        "{}",
        history.body
    );
    let need =
        |i: usize| boneyard::league::match_format::MatchFormat::games_to_win(&m.format.boards[i]);
    for games in [format!("0-{}", need(1)), format!("{}-0", need(2))] {
        assert!(
            history.has(&format!(r#"<span class="num">{games}</span>"#)),
            "no board reads {games}: {}",
            history.body
        );
    }
    let card = sec.get(&m.path("/card")).await;
    assert!(
        card.has("Not played: Anchor take the board"),
        "{}",
        card.body
    );
    assert!(
        card.has(r#"<option value="home" selected>"#),
        "{}",
        card.body
    );
}

async fn a_game_known_by_its_final_score_only(db: Db) {
    let m = setup(&db).await;
    let mut sec = client(&db, "sec").await;
    let (fields, _) = simulated_card(&m, 9);
    let mut typed: Vec<(String, String)> = fields
        .iter()
        .map(|(k, v)| match k.as_str() {
            "b0.g0" => (k.clone(), "final 61-47\n".to_owned()),
            _ => (k.clone(), v.clone()),
        })
        .collect();
    // A captain: not until the season allows it.
    let mut home = client(&db, "home").await;
    let page = submit_card(&mut home, &m, &typed, "submit").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.has("a final score alone is not allowed"),
        "{}",
        page.body
    );
    let fixture = db.fixture(LeagueId(1), m.fixture).await.unwrap();

    // A secretary typing a paper card may, whatever the season's setting
    // (issue 39). An impossible final score is refused beside its game.
    let at = typed.iter().position(|(k, _)| k == "b0.g0").unwrap();
    typed[at].1 = "final 60-47".into();
    let page = submit_card(&mut sec, &m, &typed, "submit").await;
    assert!(
        page.has("the winner finishes on exactly 61"),
        "{}",
        page.body
    );
    typed[at].1 = "final 61-47".into();
    let saved = submit_card(&mut sec, &m, &typed, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);

    let stored = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    assert_eq!(stored.version.status, ResultStatus::Approved);
    let game = &stored.result.boards[0].games[0];
    assert!(game.score_only && game.record.hands.is_empty());
    assert_eq!(game.outcome.as_ref().unwrap().totals, [61, 47]);

    // Counted in boards and pegs, home won the board.
    let lines = db
        .board_lines(LeagueId(1), &FixtureScope::One(m.fixture), true)
        .await
        .unwrap();
    assert_eq!((lines[0].home_games, lines[0].away_games), (1, 0));
    assert_eq!((lines[0].home_pegs, lines[0].away_pegs), (61, 47));

    // The player table counts it as a game without hand detail.
    let stats = db
        .player_stat_lines(LeagueId(1), fixture.season_id, Counted::League)
        .await
        .unwrap();
    let of = |id: PlayerId| stats.iter().find(|s| s.player_id == id).unwrap();
    let (ann, bob) = (of(m.home[0].0), of(m.away[0].0));
    assert_eq!(
        (ann.score_only, ann.played, ann.won, ann.pegs),
        (1, 1, 1, 61)
    );
    assert_eq!(
        (bob.score_only, bob.played, bob.won, bob.pegs),
        (1, 1, 0, 47)
    );
    assert_eq!((ann.eights, ann.chip_outs), (0, 0));
    assert!(stats.iter().filter(|s| s.score_only == 0).count() >= 4);
    let table = sec
        .get(&format!(
            "/leagues/card/players-table/{}",
            fixture.season_id
        ))
        .await;
    assert!(table.has("Games without hand detail"), "{}", table.body);

    // Marked as such on the match page, and back on the card as typed.
    let public = sec.get(&m.path("")).await;
    assert!(public.has("final score only"), "{}", public.body);
    assert!(
        public.has("Crown won 61–47 (final score only)."),
        "{}",
        public.body
    );
    let card = sec.get(&m.path("/card")).await;
    assert!(card.has(r#"name="b0.g0.home" value="61""#), "{}", card.body);
    assert!(card.has(r#"name="b0.g0.away" value="47""#), "{}", card.body);
    assert!(card.has("entered by its final score only (no hand detail)"));
}

/// Issue 39: a secretary with a pile of paper cards chooses, on the card,
/// to give the games by their final scores (two numbers each), without
/// touching the season's setting; a captain of that season may not, by
/// any way in, until the season allows it.
async fn a_paper_card_is_typed_by_final_scores_chosen_on_the_card(db: Db) {
    let m = setup(&db).await;
    let mut sec = client(&db, "sec").await;
    let card = sec.get(&m.path("/card")).await;
    assert!(
        card.has(r#"value="by-scores""#),
        "the choice is on the card"
    );
    assert!(!card.has(r#"name="b0.g0.home""#), "hands first");
    // One press: every game is offered as two numbers; nothing typed is lost.
    let (fields, _) = simulated_card(&m, 21);
    let players: Vec<(String, String)> = fields
        .iter()
        .filter(|(k, _)| !k.contains(".g"))
        .cloned()
        .collect();
    let switched = submit_card(&mut sec, &m, &players, "by-scores").await;
    assert_eq!(switched.status, StatusCode::OK, "{}", switched.body);
    for field in ["b0.g0.home", "b0.g0.away", "b1.g0.home", "b2.g0.away"] {
        assert!(
            switched.has(&format!(r#"id="{field}" name="{field}" value="""#)),
            "{field}: {}",
            switched.body
        );
    }
    assert!(!switched.has(r#"<textarea id="b0.g0""#));
    assert!(switched.has(r#"<input type="hidden" name="by" value="scores">"#));
    for (k, v) in &players {
        assert!(
            switched.has(&format!(r#"<option value="{v}" selected>"#)),
            "{k} kept"
        );
    }
    // The numbers, home first; one not a number is said beside its game.
    let mut typed = players.clone();
    typed.push(("by".into(), "scores".into()));
    for (b, (h, a)) in [(0, ("61", "40")), (1, ("52", "61")), (2, ("61", "59"))] {
        typed.push((format!("b{b}.g0.home"), h.into()));
        typed.push((format!("b{b}.g0.away"), a.into()));
    }
    let mut wrong = typed.clone();
    wrong.retain(|(k, _)| k != "b1.g0.away");
    wrong.push(("b1.g0.away".into(), "sixty".into()));
    let page = submit_card(&mut sec, &m, &wrong, "submit").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.has("give the final score as two whole numbers"),
        "{}",
        page.body
    );
    assert!(page.has(r#"value="sixty""#), "what was typed comes back");
    let saved = submit_card(&mut sec, &m, &typed, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let stored = db.result(LeagueId(1), m.fixture).await.unwrap().unwrap();
    let totals: Vec<[i64; 2]> = stored
        .result
        .boards
        .iter()
        .map(|b| {
            assert!(b.games[0].score_only);
            b.games[0].outcome.as_ref().unwrap().totals
        })
        .collect();
    assert_eq!(totals, [[61, 40], [52, 61], [61, 59]]);

    // A captain of a season that keeps hands: no choice offered, and a
    // result with a final score alone refused whichever way it comes.
    let mut home = client(&db, "home").await;
    let card = home.get(&m.path("/card")).await;
    assert!(!card.has(r#"value="by-scores""#), "{}", card.body);
    let page = submit_card(&mut home, &m, &typed, "submit").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.has("a final score alone is not allowed"));
    let home_user = db.user_by_username("cap0-card").await.unwrap().id;
    let refused = boneyard::app::results::submit(
        &db,
        LeagueId(1),
        m.fixture,
        &stored.result,
        boneyard::league::workflow::Actor::captain(home_user, Side::Home),
    )
    .await;
    assert!(
        matches!(
            refused,
            Err(DbError::Refused(
                boneyard::league::refusal::Refusal::HandsRequired
            ))
        ),
        "{refused:?}"
    );
    // Once the season allows it, the captain has the choice too.
    let fixture = db.fixture(LeagueId(1), m.fixture).await.unwrap();
    boneyard::app::seasons::set_season_settings(
        &db,
        LeagueId(1),
        fixture.season_id,
        &SeasonSettings {
            final_scores: true,
            ..SeasonSettings::default()
        },
        None,
    )
    .await
    .unwrap();
    let card = home.get(&m.path("/card")).await;
    assert!(card.has(r#"value="by-scores""#));
}

async fn every_mistake_of_a_game_shows_at_once_in_plain_words(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let (fields, _) = simulated_card(&m, 11);
    let with = |text: &str| -> Vec<(String, String)> {
        fields
            .iter()
            .map(|(k, v)| {
                let v = if k == "b0.g0" {
                    text.to_owned()
                } else {
                    v.clone()
                };
                (k.clone(), v)
            })
            .collect()
    };
    let page = submit_card(
        &mut home,
        &m,
        &with("draw 6-1 4-3\nA2 Z8\nB3 / out B\nA2 / sideways\n"),
        "check",
    )
    .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.has("line 2: `Z8`"), "{}", page.body);
    assert!(page.has("line 4: `sideways`"), "{}", page.body);
    assert!(page.has("2 problems on this card"), "{}", page.body);
    // The engine's refusal, in the card's terms: the x, not JSON.
    let page = submit_card(
        &mut home,
        &m,
        &with("draw 6-1 4-3\nA2 B3 / out B\n"),
        "check",
    )
    .await;
    assert!(page.has("with an x, like `C1x`"), "{}", page.body);
    assert!(!page.has("&quot;out&quot;") && !page.has("\"out\": true"));
    // A hand typed after the win is blamed on its own line.
    let page = submit_card(
        &mut home,
        &m,
        &with("draw 6-1 4-3\nA8 A8 A8 A8 A8 A8 / blocked\nA8 A4 A1\nB2 / blocked\n"),
        "check",
    )
    .await;
    assert!(
        page.has("line 4: the game was already won"),
        "{}",
        page.body
    );
    assert!(!page.has("line 3:"), "{}", page.body);
}

async fn the_card_explains_this_seasons_lines_only(db: Db) {
    let m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let page = home.get(&m.path("/card")).await;
    assert!(page.has("<code>A2 B8 C1x / out C</code>"), "{}", page.body);
    assert!(page.has("adds the chip-out point itself"));
    // Fives and Threes: no muggins, no opponents' pips, no abandoned hands.
    for other in ["B5m", "left 12 3", "abandoned", "final 61-47"] {
        assert!(!page.has(other), "`{other}` is not this season's");
    }
    let title = page
        .body
        .split("<title>")
        .nth(1)
        .unwrap()
        .split("</title>")
        .next()
        .unwrap();
    assert!(
        title.starts_with("Card: ") && !title.contains('<'),
        "{title}"
    );
}

/// A filled-in sheet of a whole 9-board Fives and Threes night (6 singles
/// and 3 pairs), typed in line by line as the sheet lays it out: seat A
/// home, B away (C home 2, D away 2), the draw in seat order, then a line a
/// hand. Not one refusal, and all nine boards stored.
async fn a_nine_board_night_typed_from_its_sheet(db: Db) {
    use boneyard::league::card::game_text;
    use boneyard::league::match_format::MatchFormat;
    use boneyard::rules::simulate::{Rng, Style, simulate_board};
    use boneyard::rules::{Format, Ruleset};

    let format = MatchFormat::default_for(Format::FivesAndThrees);
    let built = crate::harness::LeagueBuilder::new("nine")
        .boards(format.clone())
        .teams(&["Crown", "Anchor"])
        .players(12)
        .starting_at("2026-09-10T19:30:00Z".parse().unwrap())
        .build(&db)
        .await;
    let fixture = built.fixtures[0];
    let mut sec = crate::harness::client::Client::new(&db).await;
    sec.sign_in("sec-nine", crate::harness::PASSWORD).await;
    let sheet = sec
        .get(&format!("/leagues/nine/print/fixture/{fixture}"))
        .await;
    assert_eq!(sheet.status, StatusCode::OK);
    let (home, away) = (&built.teams[0].players, &built.teams[1].players);
    let mut rng = Rng::new(99);
    let ruleset = Ruleset::new(Format::FivesAndThrees);
    let mut fields = Vec::new();
    let mut next = 0;
    for (i, spec) in format.boards.iter().enumerate() {
        let n = spec.kind.players_a_side();
        // Seats as the sheet and the card letter them: home, away, ...
        let mut names = Vec::new();
        for j in 0..n {
            let (h, a) = (&home[next + j], &away[next + j]);
            fields.push((format!("b{i}.home{j}"), h.0.0.to_string()));
            fields.push((format!("b{i}.away{j}"), a.0.0.to_string()));
            names.extend([h.1.clone(), a.1.clone()]);
        }
        next = (next + n) % 12;
        let sides: Vec<Vec<String>> = (0..2)
            .map(|s| names.iter().skip(s).step_by(2).cloned().collect())
            .collect();
        let games = simulate_board(&ruleset, &names, &sides, 1, &mut rng, &Style::clean());
        fields.push((format!("b{i}.g0"), game_text(&games[0], true)));
    }
    let mut c = sec;
    let page = c
        .get(&format!("/leagues/nine/matches/{fixture}/card"))
        .await;
    let token = page.csrf();
    let mut all: Vec<(&str, &str)> = vec![("csrf", token.as_str()), ("action", "submit")];
    all.extend(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let saved = c
        .post(&format!("/leagues/nine/matches/{fixture}/card"), &all)
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let stored = db.result(built.id, fixture).await.unwrap().unwrap();
    assert_eq!(stored.result.boards.len(), 9);
    assert!(stored.result.boards.iter().all(|b| b.games.len() == 1));
}
