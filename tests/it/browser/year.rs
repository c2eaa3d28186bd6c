//! The secretary's year in a real browser at desktop size: from the
//! administrator's invitation to a generated season of 10 teams with 8
//! players each, then a league night (the missing results found, one
//! entered by a captain and approved, one locked for the captain and
//! entered by the secretary), counting the form submissions and page loads
//! the set-up takes.

use std::time::{Duration, Instant};

use super::{Browser, DESKTOP, Server, TempDir, run};

const ADMIN_PASSWORD: &str = "a long admin password";
const SECRETARY_PASSWORD: &str = "a long secretary password";
const CAPTAIN_PASSWORD: &str = "a long captain password";

/// Form submissions and page loads, counted as the user makes them.
#[derive(Default)]
struct Tally {
    submissions: u32,
    loads: u32,
}

/// The browser, counting what the user does.
struct User<'a> {
    b: &'a Browser,
    server: &'a Server,
    tally: Tally,
}

impl User<'_> {
    /// Types an address (or opens a bookmark).
    async fn open(&mut self, path: &str) -> Result<(), String> {
        self.tally.loads += 1;
        self.b.goto(&self.server.url(path)).await
    }

    /// Marks the page, so that its replacement can be told apart.
    async fn mark(&self) -> Result<(), String> {
        self.b
            .client
            .execute("window.__boneyard_old = true;", vec![])
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Waits for the page after a click to be the new one, loaded.
    async fn arrived(&self) -> Result<(), String> {
        let start = Instant::now();
        loop {
            let v = self
                .b
                .client
                .execute(
                    "return !window.__boneyard_old && document.readyState === 'complete';",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            if v.as_bool() == Some(true) {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err("the next page did not come".into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Presses the button named `text` in `main`: a submission and the
    /// page it leads to.
    async fn press(&mut self, text: &str) -> Result<(), String> {
        self.mark().await?;
        self.b.click_named("main", text).await?;
        self.arrived().await?;
        self.tally.submissions += 1;
        self.tally.loads += 1;
        Ok(())
    }

    /// Follows the link named `text`.
    async fn follow(&mut self, text: &str) -> Result<(), String> {
        self.mark().await?;
        self.b.click_named("main", text).await?;
        self.arrived().await?;
        self.tally.loads += 1;
        Ok(())
    }

    /// Follows the first link `css` matches.
    async fn follow_css(&mut self, css: &str) -> Result<(), String> {
        self.mark().await?;
        self.b.click(css).await?;
        self.arrived().await?;
        self.tally.loads += 1;
        Ok(())
    }

    async fn type_in(&self, css: &str, value: &str) -> Result<(), String> {
        self.b.fill(css, value).await
    }

    /// Puts a long text in a field at once, as a paste does.
    async fn paste(&self, css: &str, value: &str) -> Result<(), String> {
        let el = self
            .b
            .client
            .find(fantoccini::Locator::Css(css))
            .await
            .map_err(|e| format!("no field `{css}`: {e}"))?;
        let arg = serde_json::to_value(&el).map_err(|e| e.to_string())?;
        self.b
            .client
            .execute(
                "arguments[0].value = arguments[1];",
                vec![arg, serde_json::json!(value)],
            )
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    async fn says(&self, css: &str, want: &str) -> Result<(), String> {
        self.b.wait_text(css, want).await
    }

    async fn sign_out(&mut self) -> Result<(), String> {
        self.tally.submissions += 1;
        self.tally.loads += 1;
        self.b.sign_out().await
    }

    async fn sign_in(&mut self, user: &str, password: &str) -> Result<(), String> {
        self.tally.loads += 2;
        self.tally.submissions += 1;
        self.b.sign_in(self.server, user, password).await
    }

    /// The one-time link the saved message shows.
    async fn invitation_link(&self) -> Result<String, String> {
        let saved = self.b.text("#saved").await?;
        let at = saved
            .find("/invitations/")
            .ok_or_else(|| format!("no link in `{saved}`"))?;
        Ok(saved[at..at + "/invitations/".len() + 64].to_owned())
    }
}

/// The league's teams: two divisions of five, eight players each.
fn league_file() -> String {
    let mut csv = String::from("team,player,division,venue\n");
    for t in 0..10 {
        let division = if t < 5 { "Premier" } else { "Division One" };
        let venue = format!("The Pub {}", t / 2 + 1);
        for p in 0..8 {
            let (d, v) = if p == 0 {
                (division, venue.as_str())
            } else {
                ("", "")
            };
            csv.push_str(&format!("Team {t:02},Player {t:02}-{p},{d},{v}\n"));
        }
    }
    csv
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secretary_sets_up_a_season_and_runs_a_league_night() {
    if !super::available("a_secretary_sets_up_a_season_and_runs_a_league_night") {
        return;
    }
    let dir = TempDir::new("year");
    let address = format!("sqlite://{}", dir.0.join("year.db").display());
    let server = Server::start(&address);
    let server = &server;
    run("secretary_year", DESKTOP, |b| async move {
        let outcome = async {
            let mut u = User {
                b: &b,
                server,
                tally: Tally::default(),
            };
            // The administrator: the installation, the league, and an
            // invitation for its secretary.
            u.open("/").await?;
            u.type_in("input[name=username]", "admin").await?;
            u.type_in("input[name=password]", ADMIN_PASSWORD).await?;
            u.type_in("input[name=confirm]", ADMIN_PASSWORD).await?;
            u.press("Create the administrator").await?;
            u.open("/admin").await?;
            u.type_in("input[name=name]", "Dudley Dominoes League")
                .await?;
            u.type_in("input[name=short_name]", "dudley").await?;
            u.press("Create the league").await?;
            u.says("#saved", "with the 10 penalty kinds").await?;
            u.type_in("input[name=username]", "dudleysec").await?;
            u.press("Name the secretary").await?;
            let link = u.invitation_link().await?;
            u.sign_out().await?;
            let admin = std::mem::take(&mut u.tally);

            // The secretary, from the link: an account, then the season.
            u.open(&link).await?;
            u.says("main", "secretary of Dudley Dominoes League")
                .await?;
            u.type_in("input[name=password]", SECRETARY_PASSWORD)
                .await?;
            u.type_in("input[name=confirm]", SECRETARY_PASSWORD).await?;
            u.press("Make my account").await?;
            u.says("#saved", "Welcome, dudleysec").await?;
            u.says("header.site", "Console").await?;
            u.says("#start", "Setting up the league").await?;
            u.follow("Create the first season: its rules and match format")
                .await?;
            u.type_in("input[name=name]", "2026/27").await?;
            b.client
                .execute(
                    "document.getElementById('singles').value = '2';\
                     document.getElementById('pairs').value = '0';",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            b.select("#detail", "scores").await?;
            u.press("Create the season").await?;
            u.says("#saved", "Season 2026/27 created").await?;
            // A new league's first season leads to its set-up from a
            // spreadsheet; this secretary makes the divisions and venues
            // one at a time first.
            u.follow("Divisions of 2026/27").await?;
            for (name, order) in [("Premier", "1"), ("Division One", "2")] {
                u.type_in("input[name=name]", name).await?;
                u.paste("input[name=position]", order).await?;
                u.press("Add the division").await?;
                u.says("#saved", &format!("Division {name} added")).await?;
            }
            // Five pubs, two teams each.
            u.open("/leagues/dudley/console/venues").await?;
            for pub_ in 1..=5 {
                u.type_in("input[name=name]", &format!("The Pub {pub_}"))
                    .await?;
                u.paste("input[name=tables]", "2").await?;
                u.press("Add the venue").await?;
            }
            // Ten teams and eighty players in one file.
            u.open("/leagues/dudley/console").await?;
            u.follow("divisions and fixtures").await?;
            u.follow("Set up teams, players and captains from a spreadsheet")
                .await?;
            u.paste("#csv", &league_file()).await?;
            u.press("Check the rows").await?;
            u.says(
                "#import-summary",
                "0 new venues, 0 new divisions, 10 new teams, 10 teams entered in a division, 80 new players, 80 registrations,",
            )
            .await?;
            u.press("Save: set up these teams").await?;
            u.says("#saved", "Set up in 2026/27: 0 new venues, 0 new divisions, 10 new teams")
                .await?;
            // Each division's fixtures: twice round, Thursdays from
            // September, so the autumn's rounds are past.
            for division in ["Premier", "Division One"] {
                u.open("/leagues/dudley/console").await?;
                u.follow("divisions and fixtures").await?;
                u.follow(&format!("Generate or view the fixtures of {division}"))
                    .await?;
                b.select("#meetings", "2").await?;
                u.paste("#start", "2026-09-01").await?;
                b.select("#weekday", "Thursday").await?;
                u.paste("#kick_off", "19:30").await?;
                u.press("Preview").await?;
                u.press("Save these fixtures").await?;
                u.says("#saved", "Fixtures saved: 20 matches").await?;
            }
            let setup = std::mem::take(&mut u.tally);
            eprintln!(
                "set-up: administrator {} form submissions and {} page loads; \
                 secretary from the invitation to a generated season of 10 teams \
                 with 8 players each: {} form submissions and {} page loads",
                admin.submissions, admin.loads, setup.submissions, setup.loads
            );
            if setup.submissions > 20 {
                return Err(format!(
                    "the set-up took {} form submissions",
                    setup.submissions
                ));
            }

            // A captain, named with an invitation from the roster.
            u.open("/leagues/dudley/console/teams").await?;
            u.follow("Team 00").await?;
            u.follow("players and captains, 2026/27").await?;
            b.select("#captain", &captain_option(&b, "Player 00-0").await?)
                .await?;
            u.type_in("input[name=username]", "cap00").await?;
            u.press("Name the captain").await?;
            let captain_link = u.invitation_link().await?;
            u.sign_out().await?;
            u.open(&captain_link).await?;
            u.type_in("input[name=password]", CAPTAIN_PASSWORD).await?;
            u.type_in("input[name=confirm]", CAPTAIN_PASSWORD).await?;
            u.press("Make my account").await?;
            u.says("#saved", "captain of Team 00").await?;

            // The league night: the captain enters a missed result by its
            // final scores; the secretary finds the rest missing and
            // approves the one entered.
            u.says("main", "Needs you").await?;
            u.follow("Enter the result").await?;
            enter_final_scores(&mut u).await?;
            u.says("main", "waiting for").await?;
            u.sign_out().await?;
            u.sign_in("dudleysec", SECRETARY_PASSWORD).await?;
            u.open("/leagues/dudley/console").await?;
            let missing = b.text("#missing").await?;
            if !missing.starts_with("Results missing (") || missing.contains("(0)") {
                return Err(format!("the missing results are not found: `{missing}`"));
            }
            u.says("#approvals", "Results awaiting approval (1)")
                .await?;
            u.follow_css("#approvals-list a").await?;
            u.press("Approve version 1").await?;
            u.says("main", "approved").await?;
            u.open("/leagues/dudley/console").await?;
            u.says("#approvals", "Results awaiting approval (0)")
                .await?;

            // One locked: the season gives captains 14 days, so the
            // captain's next missing result (from the autumn) is the
            // secretary's to enter now.
            u.open("/leagues/dudley/console/seasons").await?;
            u.follow("2026/27").await?;
            u.paste("input[name=lock_days]", "14").await?;
            u.press("Save the season").await?;
            u.says("#saved", "2026/27").await?;
            u.sign_out().await?;
            u.sign_in("cap00", CAPTAIN_PASSWORD).await?;
            u.says("main", "locked: the secretary enters it").await?;
            u.follow("Locked").await?;
            u.says("#locked", "only a secretary can enter or correct it now")
                .await?;
            let locked_card = b.client.current_url().await.map_err(|e| e.to_string())?;
            u.sign_out().await?;
            u.sign_in("dudleysec", SECRETARY_PASSWORD).await?;
            u.open(locked_card.path()).await?;
            enter_final_scores(&mut u).await?;
            u.says("main", "approved (entered by a secretary)").await?;

            // The end of the season: rolled over with promotion and
            // relegation, one move overridden.
            u.open("/leagues/dudley/console/seasons").await?;
            u.follow("Promotion, relegation, roll-over of 2026/27")
                .await?;
            let kept = super::rollover::roll_over_keeping_one_team_up(&b).await?;
            u.says("#saved", "Season 2027/28 started from 2026/27")
                .await?;
            u.says("#saved", "(2 up, 1 down)").await?;
            eprintln!(
                "roll-over: 2 page loads and 1 form submission from the console's \
                 seasons; {kept} kept up by hand"
            );
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}

/// The value of the captain select's option for `name`.
async fn captain_option(b: &Browser, name: &str) -> Result<String, String> {
    let v = b
        .client
        .execute(
            "for (const o of document.querySelectorAll('#captain option')) \
             { if (o.textContent.trim() === arguments[0]) return o.value; } return null;",
            vec![serde_json::json!(name)],
        )
        .await
        .map_err(|e| e.to_string())?;
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("no option {name}"))
}

/// Fills both boards of the card with its first players and a final score
/// each, then submits it.
async fn enter_final_scores(u: &mut User<'_>) -> Result<(), String> {
    for board in 0..2 {
        for side in ["home", "away"] {
            let css = format!("[id='b{board}.{side}0']");
            let value =
                u.b.client
                    .execute(
                        "const s = document.querySelector(arguments[0]); \
                     return s.options[arguments[1] + 1].value;",
                        vec![serde_json::json!(css), serde_json::json!(board)],
                    )
                    .await
                    .map_err(|e| e.to_string())?;
            let value = value.as_str().ok_or("no player to choose")?.to_owned();
            u.b.select(&css, &value).await?;
        }
        u.type_in(&format!("[id='b{board}.g0']"), "final 61-40")
            .await?;
    }
    u.press("Submit the result").await?;
    u.says("main", "Result submitted: version 1").await
}
