//! The printed score sheet and the match card are twins: the same seat
//! letters in the same order, a legend of lines the card reads, and boxes
//! per hand for what the card asks, in its order.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::card::{CardGame, parse_game};
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::Format;

use crate::harness::client::Page;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    the_sheet_seats_players_as_the_card_does,
    every_legend_line_is_read_by_the_card,
    each_hand_has_the_boxes_the_card_asks_for,
);

/// Every piece of `body` between `open` and the next `close`.
fn between<'a>(body: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    body.split(open)
        .skip(1)
        .map(|rest| rest.split(close).next().unwrap_or(rest))
        .collect()
}

fn unescape(s: &str) -> String {
    s.replace("&#x2f;", "/")
        .replace("&#47;", "/")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

async fn sheet(app: &TestApp) -> Page {
    let path = format!(
        "/leagues/{}/print/fixture/{}",
        app.league.short, app.league.fixtures[0]
    );
    let page = app.anonymous().await.get(&path).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    page
}

/// Each board's seats as the sheet prints them: `A=Home player`, ...
fn sheet_seats(page: &Page) -> Vec<Vec<String>> {
    between(&page.body, "<section class=\"sheet-board", "</section>")
        .into_iter()
        .map(|board| {
            between(board, "<tr class=\"seat\">", "</tr>")
                .into_iter()
                .map(|row| {
                    let letter = between(row, "class=\"seat-letter\">", "<")[0];
                    let side = between(row, "class=\"seat-side\">", "<")[0];
                    format!("{letter}={side}")
                })
                .collect()
        })
        .collect()
}

async fn the_sheet_seats_players_as_the_card_does(db: Db) {
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("sheet").boards(MatchFormat::with_boards(2, 1, 1)),
    )
    .await;
    let singles = ["A=Home player", "B=Away player"];
    let pairs = [
        "A=Home player 1",
        "B=Away player 1",
        "C=Home player 2",
        "D=Away player 2",
    ];
    let seats = sheet_seats(&sheet(&app).await);
    assert_eq!(seats, [&singles[..], &singles, &pairs]);

    // The card letters the same seats the same way: its hint, and its
    // player choosers in order of play.
    let card = app
        .with_secretary()
        .await
        .get(&app.league.path("/card"))
        .await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.body);
    let hints = between(&card.body, "<p class=\"hint\">Seats: ", "</p>");
    assert_eq!(
        hints,
        [
            "A = home player, B = away player.",
            "A = home player, B = away player.",
            "A = home 1, B = away 1, C = home 2, D = away 2."
        ]
    );
    for (b, board_seats) in seats.iter().enumerate() {
        let labels: Vec<&str> = between(&card.body, &format!("<label for=\"b{b}."), "</label>")
            .into_iter()
            .filter_map(|l| l.split_once("\">").map(|(_, text)| text))
            .filter(|text| text.contains(" player"))
            .collect();
        let sides: Vec<&str> = board_seats
            .iter()
            .map(|s| s.split_once('=').unwrap().1)
            .collect();
        assert_eq!(labels, sides, "board {}", b + 1);
    }
}

async fn every_legend_line_is_read_by_the_card(db: Db) {
    for (short, format, boards) in [
        (
            "ft",
            Format::FivesAndThrees,
            MatchFormat::default_for(Format::FivesAndThrees),
        ),
        (
            "af",
            Format::AllFives,
            MatchFormat::default_for(Format::AllFives),
        ),
        ("afp", Format::AllFives, MatchFormat::with_boards(1, 1, 3)),
        (
            "hw",
            Format::HandsWon,
            MatchFormat::default_for(Format::HandsWon),
        ),
    ] {
        let app = TestApp::new(&db, LeagueBuilder::new(short).rules(format).boards(boards)).await;
        let page = sheet(&app).await;
        let lines: Vec<(usize, String)> = between(
            &page.body,
            "<code class=\"card-line\" data-seats=\"",
            "</code>",
        )
        .into_iter()
        .map(|l| {
            let (seats, line) = l.split_once("\">").unwrap();
            (seats.parse().unwrap(), unescape(line))
        })
        .collect();
        assert!(lines.len() >= 4, "{short}: {lines:?}");
        let options = serde_json::Map::new();
        for (seats, line) in &lines {
            let players: Vec<String> = ["Ann", "Bob", "Cat", "Dan"][..*seats]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let draw = line.starts_with("draw");
            let game = CardGame {
                format,
                options: &options,
                players: &players,
                carried_pose: (!draw).then_some("Ann"),
            };
            parse_game(line, &game)
                .unwrap_or_else(|e| panic!("{short}: `{line}` is not read by the card: {e:?}"));
        }
        // One line per kind the format has, and none it has not.
        let any = |f: &dyn Fn(&str) -> bool| lines.iter().any(|(_, l)| f(l));
        assert!(any(&|l| l.starts_with("draw ")), "{short}");
        assert!(any(&|l| l.contains("/ blocked")), "{short}");
        match format {
            Format::FivesAndThrees => {
                assert!(any(&|l| l.contains("x / out ")), "{short}: the chip-out");
                assert!(!any(&|l| l.starts_with("penalty")), "{short}");
                assert!(
                    unescape(&page.body).contains(
                        "x marks the chip-out play: write the play's own points (C0x when the \
                         last tile scored nothing); the x adds the chip-out point."
                    ),
                    "{short}"
                );
            }
            Format::AllFives => {
                assert!(any(&|l| l.contains("m / out A left ")), "{short}: muggins");
                assert!(any(&|l| l.starts_with("penalty B ")), "{short}");
            }
            Format::HandsWon => {
                assert!(any(&|l| l == "/ abandoned"), "{short}");
                assert!(any(&|l| l.contains(" late ")), "{short}");
            }
        }
    }
}

async fn each_hand_has_the_boxes_the_card_asks_for(db: Db) {
    for (short, format, boxes, boards, games) in [
        (
            "ft",
            Format::FivesAndThrees,
            &["Hand", "Scoring plays", "/ How it ended", "Home", "Away"][..],
            9,
            1,
        ),
        (
            "af",
            Format::AllFives,
            &[
                "Hand",
                "Penalty first",
                "Scoring plays",
                "/ How it ended",
                "Home",
                "Away",
            ],
            4,
            3,
        ),
        (
            "hw",
            Format::HandsWon,
            &[
                "Hand",
                "Penalty first",
                "/ How it ended",
                "Home games",
                "Away games",
            ],
            3,
            1,
        ),
    ] {
        let app = TestApp::new(&db, LeagueBuilder::new(short).rules(format)).await;
        let page = sheet(&app).await;
        let tables = between(&page.body, "<table class=\"sheet-hands", "</table>");
        assert_eq!(tables.len(), boards * games, "{short}");
        let rows = boneyard::league::sheet::hand_boxes(format).rows;
        assert!(rows >= 12, "{short}: {rows} hand rows");
        for table in tables {
            let heads: Vec<&str> = between(table, "<th scope=\"col\"", "</th>")
                .into_iter()
                .map(|h| h.split_once('>').unwrap().1)
                .collect();
            let heads: Vec<String> = heads.iter().map(|h| unescape(h)).collect();
            assert_eq!(heads, boxes, "{short}");
            let hands = between(table, "<tr class=\"hand\">", "</tr>");
            assert_eq!(hands.len(), rows, "{short}");
            for hand in hands {
                // The hand's number, then one empty box per heading after it.
                assert_eq!(hand.matches("<td").count(), boxes.len(), "{short}");
            }
        }
        assert_eq!(
            page.body
                .matches("More hands: continue on the back, one line per hand.")
                .count(),
            boards,
            "{short}"
        );
        // Each seat has a box for the tile drawn, copied to the card's
        // `draw` line in seat order.
        let seats: usize = sheet_seats(&page).iter().map(Vec::len).sum();
        assert_eq!(page.body.matches("class=\"draw-box\"").count(), seats);
        // The pad's QR codes are for the fixture's captains only.
        assert!(!page.has("class=\"sheet-qr\""));
    }
}
