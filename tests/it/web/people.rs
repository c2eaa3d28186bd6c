//! One person in two leagues (issue 27), as the two secretaries and a
//! visitor meet it: one league's secretary asks, the other's confirms (and
//! nobody else can), both player pages then point to each other and show
//! one rating, recomputed here from both leagues' results exports with the
//! two records taken as one player; a result in one league moves the
//! other's pages at once; and unlinking gives each record its own again.

use std::collections::HashMap;

use axum::http::StatusCode;
use boneyard::db::*;

use crate::harness::LeagueBuilder;
use crate::harness::builder::{Built, PASSWORD, simulated_result};
use crate::harness::client::{Client, Page};
use crate::harness::pages::ok;
use crate::support::on_both;
use crate::web::ratings::{export_games, recompute};

on_both!(a_person_in_two_leagues_is_linked_by_a_secretary_of_each);

async fn league(db: &Db, short: &str, teams: &[&str], start: &str) -> Built {
    LeagueBuilder::new(short)
        .teams(teams)
        .players(4)
        .fixtures(6)
        .played(4)
        .starting_at(start.parse().unwrap())
        .build(db)
        .await
}

/// Every rating of both leagues, recomputed from their exports, the
/// records in `same` counted as the one they map to.
async fn recomputed(
    c: &mut Client,
    leagues: &[&Built],
    same: &HashMap<i64, i64>,
) -> HashMap<(i64, String), crate::web::ratings::Mu> {
    let mut games = Vec::new();
    for l in leagues {
        let csv = ok(
            c,
            &format!("/leagues/{}/seasons/{}/results.csv", l.short, l.season),
        )
        .await;
        games.extend(export_games(&csv.body));
    }
    for g in &mut games {
        for side in &mut g.sides {
            for p in side.iter_mut() {
                *p = *same.get(p).unwrap_or(p);
            }
        }
    }
    recompute(games)
}

/// The rating and games a player's public page shows for Fives and Threes.
async fn shown(c: &mut Client, short: &str, player: PlayerId) -> (f64, u32, Page) {
    let moved = c.get(&format!("/leagues/{short}/players/{player}")).await;
    let page = ok(c, moved.location.as_deref().expect("redirected")).await;
    let body = &page.body;
    let at = body.find("<strong class=\"big\">").expect("a rating") + 20;
    let rating: f64 = body[at..at + body[at..].find('<').unwrap()]
        .parse()
        .unwrap();
    let after = &body[at..];
    let games_at = after.find(" · ").unwrap() + " · ".len();
    let games: u32 = after[games_at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (rating, games, page)
}

fn close(shown: f64, mu: f64) -> bool {
    (shown - mu).abs() <= 0.05 + 1e-9
}

async fn a_person_in_two_leagues_is_linked_by_a_secretary_of_each(db: Db) {
    let north = league(
        &db,
        "north",
        &["Crown", "Anchor", "Bell", "Swan"],
        "2026-09-01T19:00:00Z",
    )
    .await;
    let south = league(
        &db,
        "south",
        &["Plough", "Star", "Oak", "Rose"],
        "2026-09-02T19:00:00Z",
    )
    .await;
    // Each team's first player plays its first singles board every match.
    let (ann, ann_name) = north.teams[0].players[0].clone();
    let (bea, bea_name) = south.teams[0].players[0].clone();
    let f = "fives-and-threes".to_owned();
    let mut visitor = Client::new(&db).await;
    let apart = recomputed(&mut visitor, &[&north, &south], &HashMap::new()).await;
    let (before, games, _) = shown(&mut visitor, "north", ann).await;
    assert!(close(before, apart[&(ann.0, f.clone())].mu));
    assert_eq!(games, apart[&(ann.0, f.clone())].games);

    let mut n = Client::new(&db).await;
    n.sign_in(&north.secretary, PASSWORD).await;
    let mut s = Client::new(&db).await;
    s.sign_in(&south.secretary, PASSWORD).await;

    // North's secretary picks the league, then its player.
    let link = format!("/leagues/north/console/players/{ann}/link");
    let form = ok(&mut n, &format!("{link}?league=south")).await;
    assert!(form.has(&bea_name), "south's players to pick from");
    let own = n
        .submit(
            &format!("{link}?league=south"),
            &link,
            &[
                ("league", "north"),
                ("other", &north.teams[1].players[0].0.to_string()),
            ],
        )
        .await;
    assert_eq!(
        own.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a player of the same league"
    );
    assert!(own.has("another league"), "{}", own.body);
    let asked = n
        .submit(
            &format!("{link}?league=south"),
            &link,
            &[("league", "south"), ("other", &bea.to_string())],
        )
        .await;
    assert_eq!(asked.status, StatusCode::SEE_OTHER, "{}", asked.body);
    let page = ok(&mut n, asked.location.as_deref().unwrap()).await;
    assert!(
        page.has("Asked south League"),
        "the page says what was saved: {}",
        page.body
    );
    let request = db.link_requests(north.id).await.unwrap();
    assert_eq!(request.len(), 1);
    let request = request[0].id;

    // Nothing is linked until the other league confirms, and only it can.
    let (_, _, public) = shown(&mut visitor, "north", ann).await;
    assert!(!public.has("Also plays in another league"));
    let mine = n
        .submit(
            "/leagues/north/console/players",
            &format!("/leagues/north/console/links/{request}/confirm"),
            &[],
        )
        .await;
    let said = ok(&mut n, mine.location.as_deref().unwrap()).await;
    assert!(
        said.has("Not linked"),
        "the asking league cannot confirm: {}",
        said.body
    );
    let theirs = n
        .submit(
            "/leagues/north/console/players",
            &format!("/leagues/south/console/links/{request}/confirm"),
            &[],
        )
        .await;
    assert_eq!(
        theirs.status,
        StatusCode::FORBIDDEN,
        "north's secretary in south's console"
    );
    assert!(db.linked_players(ann).await.unwrap().is_empty());

    // South's secretary finds it on the players page and confirms.
    let list = ok(&mut s, "/leagues/south/console/players").await;
    assert!(
        list.has("Links to confirm") && list.has(&ann_name),
        "{}",
        list.body
    );
    let confirmed = s
        .submit(
            "/leagues/south/console/players",
            &format!("/leagues/south/console/links/{request}/confirm"),
            &[],
        )
        .await;
    let said = ok(&mut s, confirmed.location.as_deref().unwrap()).await;
    assert!(said.has("Linked:"), "{}", said.body);
    // Each league's log says what its secretary did.
    let actions = |league: LeagueId| {
        let db = db.clone();
        async move {
            db.audit_entries(league, "person_link", request.0)
                .await
                .unwrap()
                .into_iter()
                .map(|e| (e.action, e.user_id.is_some()))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(actions(north.id).await, [("propose".to_owned(), true)]);
    assert_eq!(actions(south.id).await, [("confirm".to_owned(), true)]);

    // One rating for the person, from both leagues' games, on both pages.
    let one = HashMap::from([(bea.0, ann.0)]);
    let together = recomputed(&mut visitor, &[&north, &south], &one).await;
    let person = together[&(ann.0, f.clone())];
    assert_eq!(
        person.games,
        apart[&(ann.0, f.clone())].games + apart[&(bea.0, f.clone())].games
    );
    let (in_north, games, north_page) = shown(&mut visitor, "north", ann).await;
    let (in_south, south_games, south_page) = shown(&mut visitor, "south", bea).await;
    assert!(close(in_north, person.mu), "{in_north} {}", person.mu);
    assert!(close(in_south, person.mu), "{in_south} {}", person.mu);
    assert_eq!((games, south_games), (person.games, person.games));
    assert!(
        north_page.has(&format!("/leagues/south/players/{bea}-")),
        "north's page points south"
    );
    assert!(
        south_page.has(&format!("/leagues/north/players/{ann}-")),
        "and south's north"
    );
    // Their opponents' ratings moved with the person's too.
    for ((id, format), m) in &together {
        if format == &f && *id != ann.0 {
            let league = if north
                .teams
                .iter()
                .any(|t| t.players.iter().any(|p| p.0.0 == *id))
            {
                "north"
            } else {
                "south"
            };
            let (r, g, _) = shown(&mut visitor, league, PlayerId(*id)).await;
            assert!(close(r, m.mu) && g == m.games, "player {id}: {r} {g} {m:?}");
        }
    }
    // The installation's list names the person once.
    let all = ok(&mut visitor, "/ratings/fives-and-threes").await;
    let mentions = all.body.matches(&format!("/players/{ann}-")).count()
        + all.body.matches(&format!("/players/{bea}-")).count();
    assert_eq!(mentions, 1, "{}", all.body);

    // A result in south moves north's page (kept since it was shown
    // above) at once.
    let mut extra = None;
    for fixture in &south.fixtures[4..] {
        let fx = db.fixture(south.id, *fixture).await.unwrap();
        if [fx.home_team_id, fx.away_team_id].contains(&south.teams[0].id) {
            extra = Some(fx);
            break;
        }
    }
    let fx = extra.expect("an unplayed south fixture of Bea's team");
    let team = |id: TeamId| south.teams.iter().find(|t| t.id == id).unwrap();
    let result = simulated_result(
        south.rules,
        &south.format,
        team(fx.home_team_id),
        team(fx.away_team_id),
        99,
    );
    boneyard::app::results::write(&db, south.id, fx.id, &result, None)
        .await
        .unwrap();
    boneyard::app::results::set_status(&db, south.id, fx.id, ResultStatus::Approved, "", None)
        .await
        .unwrap();
    let later = recomputed(&mut visitor, &[&north, &south], &one).await;
    let person = later[&(ann.0, f.clone())];
    let (now, games, _) = shown(&mut visitor, "north", ann).await;
    assert!(games > south_games, "the south game counts in north");
    assert!(
        close(now, person.mu) && games == person.games,
        "{now} {games} {person:?}"
    );

    // South's secretary undoes it: each record rated on its own again.
    let unlinked = s
        .submit(
            &format!("/leagues/south/console/players/{bea}"),
            &format!("/leagues/south/console/players/{bea}/unlink"),
            &[],
        )
        .await;
    let said = ok(&mut s, unlinked.location.as_deref().unwrap()).await;
    assert!(said.has("Unlinked"), "{}", said.body);
    let apart = recomputed(&mut visitor, &[&north, &south], &HashMap::new()).await;
    let (r, g, page) = shown(&mut visitor, "north", ann).await;
    assert!(!page.has("Also plays in another league"));
    assert!(close(r, apart[&(ann.0, f.clone())].mu) && g == apart[&(ann.0, f.clone())].games);
    assert!(db.linked_players(bea).await.unwrap().is_empty());
}
