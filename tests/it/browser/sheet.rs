//! The printed score sheet as a browser prints it: a nine-board Fives and
//! Threes match, with each board's pad QR code, on three A4 pages; and on
//! a phone the same page does not scroll sideways.

use boneyard::db::Db;
use chrono::{Duration, Utc};
use fantoccini::wd::{PrintConfigurationBuilder, PrintMargins, PrintSize};

use super::{DESKTOP, PHONE, Server, TempDir, run};
use crate::harness::{LeagueBuilder, PASSWORD};

/// Pages of a PDF: its page objects (`/Type /Page`, not `/Pages`).
pub(super) fn pages(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.match_indices("/Type")
        .filter(|(at, _)| {
            let rest = text[at + 5..].trim_start();
            rest.starts_with("/Page") && !rest.starts_with("/Pages")
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nine_board_sheet_prints_on_three_a4_pages() {
    if !super::available("a_nine_board_sheet_prints_on_three_a4_pages") {
        return;
    }
    let dir = TempDir::new("sheet");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.unwrap();
    // The default match: 6 singles and 3 pairs boards, one game each.
    let built = LeagueBuilder::new("sheet").build(&db).await;
    assert_eq!(built.format.boards.len(), 9);
    let fixture = built.fixtures[0];
    for board in 1..=9 {
        db.create_pad_link(
            built.id,
            fixture,
            board,
            &format!("{board:0>32}"),
            Utc::now() + Duration::days(2),
            None,
        )
        .await
        .unwrap();
    }
    db.close().await;
    let server = Server::start(&address);
    let sheet = server.url(&format!("/leagues/{}/print/fixture/{fixture}", built.short));
    let (server, sheet, secretary) = (&server, &sheet, &built.secretary);
    run("sheet_print", DESKTOP, |b| async move {
        let outcome = async {
            b.sign_in(server, secretary, PASSWORD).await?;
            b.goto(sheet).await?;
            let codes = b.count(".sheet-qr svg").await?;
            if codes != 9 {
                return Err(format!("{codes} pad QR codes, not one a board"));
            }
            let a4 = PrintConfigurationBuilder::default()
                .size(PrintSize::A4)
                .margins(PrintMargins {
                    top: 0.8,
                    bottom: 0.8,
                    left: 0.9,
                    right: 0.9,
                })
                .build()
                .map_err(|e| e.to_string())?;
            let pdf = b.client.print(a4).await.map_err(|e| e.to_string())?;
            match pages(&pdf) {
                2 | 3 => Ok(()),
                n => Err(format!("the sheet prints on {n} A4 pages, not 2 or 3")),
            }
        }
        .await;
        (b, outcome)
    })
    .await;
    run("sheet_phone", PHONE, |b| async move {
        let outcome = async {
            b.goto(sheet).await?;
            if b.scrolls_sideways().await? {
                return Err("the sheet scrolls sideways on a phone".into());
            }
            Ok(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
