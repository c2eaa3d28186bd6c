//! The main journeys on the real demo (its printed accounts), as people
//! would take them: the first visit to a new installation, a player on a
//! phone finding the table and their own record, and a secretary's league
//! night at a desk, approving results.

use std::process::Command;

use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};

/// An account the demo printed.
#[derive(Clone)]
pub(super) struct Account {
    pub(super) role: String,
    pub(super) username: String,
    pub(super) password: String,
}

/// Fills `database` with a one-league demo and reads the accounts it
/// printed.
fn demo(database: &str) -> Vec<Account> {
    demo_of(database, 1, 1)
}

/// Fills `database` with a demo of `leagues` leagues (formats in turn) and
/// `seasons` seasons, and reads the accounts it printed.
pub(super) fn demo_of(database: &str, leagues: u32, seasons: u32) -> Vec<Account> {
    let out = Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args([
            "demo",
            "--leagues",
            &leagues.to_string(),
            "--seasons",
            &seasons.to_string(),
            "--database",
            database,
        ])
        .output()
        .expect("boneyard demo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip_while(|l| !l.starts_with("league "))
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect();
            (cols.len() == 5).then(|| Account {
                role: cols[1].to_owned(),
                username: cols[3].to_owned(),
                password: cols[4].to_owned(),
            })
        })
        .collect()
}

/// The approvals list's buttons, one a result.
const APPROVE: &str = "main button[aria-label^='Approve']";

fn account<'a>(accounts: &'a [Account], role: &str) -> &'a Account {
    accounts
        .iter()
        .find(|a| a.role == role)
        .unwrap_or_else(|| panic!("the demo printed no {role}"))
}

async fn no_sideways(b: &Browser, what: &str) -> Result<(), String> {
    if b.scrolls_sideways().await? {
        return Err(format!("{what} scrolls sideways"));
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_finds_the_table_and_their_record_on_a_phone() {
    if !super::available("a_player_finds_the_table_and_their_record_on_a_phone") {
        return;
    }
    let dir = TempDir::new("player");
    let address = format!("sqlite://{}", dir.0.join("demo.db").display());
    let accounts = demo(&address);
    let player = account(&accounts, "player");
    let server = Server::start(&address);
    let (server, player) = (&server, player);
    run("player_journey", PHONE, |b| async move {
        let outcome = async {
            b.sign_in(server, &player.username, &player.password)
                .await?;
            // Home: their record is offered first.
            b.goto(&server.url("/")).await?;
            no_sideways(&b, "the home page").await?;
            b.click("a[href*='/players/']").await?;
            // player-LEAGUE-first-last: their own name heads the page.
            let name = player
                .username
                .splitn(3, '-')
                .nth(2)
                .unwrap_or("")
                .replace('-', " ");
            let heading = b.text("h1").await?.to_lowercase();
            if !heading.contains(&name) {
                return Err(format!(
                    "the record page is headed `{heading}`, not {name}'s"
                ));
            }
            let record = b.text("main").await?;
            if !record.contains("Games") && !record.contains("games") {
                return Err(format!("the record page shows no games: {record}"));
            }
            // Then the league and its table.
            b.goto(&server.url("/")).await?;
            b.click("ul.cards a[href^='/leagues/']").await?;
            b.click_named("main", "Table").await?;
            b.wait_text("h1", "table").await?;
            b.wait_text("caption", "The table as it stands").await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secretary_approves_the_nights_results_at_a_desk() {
    if !super::available("a_secretary_approves_the_nights_results_at_a_desk") {
        return;
    }
    let dir = TempDir::new("secretary");
    let address = format!("sqlite://{}", dir.0.join("demo.db").display());
    let accounts = demo(&address);
    let secretary = account(&accounts, "secretary");
    let server = Server::start(&address);
    let (server, secretary) = (&server, secretary);
    run("secretary_journey", DESKTOP, |b| async move {
        let outcome = async {
            b.sign_in(server, &secretary.username, &secretary.password)
                .await?;
            let short = secretary.username.trim_start_matches("sec-");
            b.goto(&server.url(&format!("/leagues/{short}/console")))
                .await?;
            b.wait_text("h1", "console").await?;
            b.goto(&server.url(&format!("/leagues/{short}/console/approvals")))
                .await?;
            b.wait_text("h1", "Results awaiting approval").await?;
            let before = b
                .client
                .find_all(fantoccini::Locator::Css(
                    "main button[aria-label^='Approve']",
                ))
                .await
                .map_err(|e| e.to_string())?
                .len();
            if before == 0 {
                return Err("the demo left no result awaiting approval".into());
            }
            b.click(APPROVE).await?;
            // One click: the list is shorter by one and says what was saved.
            let start = std::time::Instant::now();
            loop {
                let after = b
                    .client
                    .find_all(fantoccini::Locator::Css(
                        "main button[aria-label^='Approve']",
                    ))
                    .await
                    .map_err(|e| e.to_string())?
                    .len();
                if after == before - 1 {
                    break;
                }
                if start.elapsed() > std::time::Duration::from_secs(10) {
                    return Err(format!("{before} awaiting approval before, {after} after"));
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            b.wait_text("main", "pproved").await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_visit_sets_up_an_administrator_a_league_and_its_secretary() {
    if !super::available("the_first_visit_sets_up_an_administrator_a_league_and_its_secretary") {
        return;
    }
    let dir = TempDir::new("first");
    let address = format!("sqlite://{}", dir.0.join("new.db").display());
    let server = Server::start(&address);
    let server = &server;
    run("first_visit", DESKTOP, |b| async move {
        let outcome = async {
            b.goto(&server.url("/")).await?;
            b.wait_text("main", "administrator").await?;
            b.fill("input[name=username]", "admin").await?;
            b.fill("input[name=password]", "a long admin password")
                .await?;
            b.fill("input[name=confirm]", "a long admin password")
                .await?;
            b.click("main form button[type=submit]").await?;
            b.wait_text("header.site", "Sign out").await?;
            b.goto(&server.url("/admin")).await?;
            b.fill("input[name=name]", "Dudley Dominoes League").await?;
            b.fill("input[name=short_name]", "dudley").await?;
            b.click_named("main", "Create the league").await?;
            b.wait_text("main", "Dudley Dominoes League").await?;
            b.goto(&server.url("/admin/leagues/dudley/secretaries"))
                .await?;
            b.fill("input[name=username]", "dudleysec").await?;
            b.click_named("main", "Name the secretary").await?;
            // No account yet: a one-time link, shown once, for the
            // secretary to set their own password.
            b.wait_text("#saved", "one-time link").await?;
            let saved = b.text("#saved").await?;
            let at = saved.find("/invitations/").ok_or("no invitation link")?;
            let link = saved[at..at + "/invitations/".len() + 64].to_owned();
            b.sign_out().await?;
            b.goto(&server.url(&link)).await?;
            b.fill("input[name=password]", "a long secretary password")
                .await?;
            b.fill("input[name=confirm]", "a long secretary password")
                .await?;
            b.click_named("main", "Make my account").await?;
            b.wait_text("h1", "Dudley Dominoes League: console").await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
