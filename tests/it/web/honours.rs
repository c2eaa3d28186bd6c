//! A season's honours, read by a visitor: each division's champions and
//! runners-up checked against the division page's order and a table
//! recounted here from the stored hands, the top players by win rate and
//! the season's feats recounted from the game records, a cup's winner once
//! its final is approved, the plain text beside the page, a season still
//! played said to be not final, names escaped, the 404s, and the address
//! no division may take.

use std::collections::{BTreeSet, HashMap, HashSet};

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::demo::{DemoOptions, fill};
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::score_record;

use super::public::{expected_table, tally};
use crate::harness::client::{Client, Page};
use crate::harness::forms::error_beside;
use crate::harness::pages::{ok, rows, slug, unescape};
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    the_honours_name_what_the_seasons_records_hold,
    a_cup_is_in_the_honours_once_its_final_is_decided,
    honours_so_far_are_said_to_be_not_final_and_names_are_escaped,
    no_honours_for_an_unknown_season_and_no_division_called_honours,
    honours_and_round_ups_kept_for_signed_in_users_show_a_new_result_at_once,
);

// ---------------------------------------------------------------------------
// Reading the plain text

const HEADINGS: [&str; 5] = [
    "DIVISIONS",
    "CUPS",
    "TOP PLAYERS BY WIN RATE",
    "TOP PLAYERS BY RATING",
    "FEATS OF THE SEASON",
];

/// The lines of the text's part under `heading`, up to the next heading,
/// blank lines left out.
fn part<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| !HEADINGS.contains(l))
        .filter(|l| !l.is_empty())
        .collect()
}

/// A part's groups: each line at the margin with the indented lines under
/// it (their indent taken off).
fn groups<'a>(lines: &[&'a str]) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for l in lines {
        match l.strip_prefix("  ") {
            Some(inner) => out
                .last_mut()
                .expect("a line at the margin first")
                .1
                .push(inner),
            None => out.push((l, Vec::new())),
        }
    }
    out
}

fn number(s: &str) -> i64 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("`{s}` is no number"))
}

/// `Champions: Crown A, 40 points from 14 matches`: the title, the team,
/// the points and the matches played.
fn place(line: &str) -> (String, String, i64, i64) {
    let (title, rest) = line.split_once(": ").unwrap();
    let (team, record) = rest.rsplit_once(", ").unwrap();
    let words: Vec<&str> = record.split_whitespace().collect();
    assert_eq!(words[2], "from", "{line}");
    (
        title.to_owned(),
        team.to_owned(),
        number(words[0]),
        number(words[3]),
    )
}

/// A ranked player as the text says it:
/// `1. Ann Smith (Crown A), won 20 of 24 games, 83%`.
type Ranked = (i64, String, i64, i64, String);

fn ranked(line: &str) -> Ranked {
    let (position, rest) = line.split_once(". ").unwrap();
    let (rest, rate) = rest.rsplit_once(", ").unwrap();
    let (who, record) = rest.rsplit_once(", ").unwrap();
    let words: Vec<&str> = record.split_whitespace().collect();
    assert_eq!((words[0], words[2]), ("won", "of"), "{line}");
    let name = who.split(" (").next().unwrap();
    (
        number(position),
        name.to_owned(),
        number(words[1]),
        number(words[3]),
        rate.to_owned(),
    )
}

// ---------------------------------------------------------------------------
// Recounts from the stored records (written here, not the app's code)

/// The player table's top three places: league games of approved current
/// results (no void or walkover), every finished game a player sat in,
/// ranked by win rate then games won with the season's minimum of games,
/// players level on both sharing a place.
async fn expected_top(db: &Db, league: LeagueId, season: &Season) -> BTreeSet<Ranked> {
    let fixtures: HashMap<FixtureId, Fixture> = db
        .fixtures(league, season.id)
        .await
        .unwrap()
        .into_iter()
        .map(|f| (f.id, f))
        .collect();
    let mut sums: HashMap<String, (i64, i64)> = HashMap::new();
    for r in db.season_results(league, season.id, true).await.unwrap() {
        let f = &fixtures[&r.version.fixture_id];
        if f.cup_id.is_some() || matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover) {
            continue;
        }
        for game in r.result.boards.iter().flat_map(|b| &b.games) {
            let outcome = score_record(&game.record).expect("a stored record scores");
            if !outcome.finished {
                continue;
            }
            for (side, players) in game.record.sides.iter().enumerate() {
                for p in players {
                    let (won, played) = sums.entry(p.clone()).or_default();
                    *played += 1;
                    *won += i64::from(outcome.winner == Some(side));
                }
            }
        }
    }
    let min = i64::from(season.settings().unwrap().min_games);
    let ranked: Vec<(&String, i64, i64)> = sums
        .iter()
        .filter(|(_, (_, played))| *played >= min && *played > 0)
        .map(|(name, (won, played))| (name, *won, *played))
        .collect();
    let better = |(_, qw, qp): (&String, i64, i64), (_, pw, pp): (&String, i64, i64)| {
        qw * pp > pw * qp || (qw * pp == pw * qp && qw > pw)
    };
    ranked
        .iter()
        .map(|p| {
            let above = ranked.iter().filter(|q| better(**q, *p)).count() as i64;
            (above + 1, p)
        })
        .filter(|(position, _)| *position <= 3)
        .map(|(position, (name, won, played))| {
            let rate = format!("{:.0}%", *won as f64 / *played as f64 * 100.0);
            (position, (*name).clone(), *won, *played, rate)
        })
        .collect()
}

/// The most of something: how many, who did it (`Ann Smith (Crown A)`, or
/// a team), and how many more did as many without being named (the
/// honours name a few).
#[derive(Debug)]
struct Most {
    count: i64,
    who: BTreeSet<String>,
    unnamed: usize,
}

impl PartialEq for Most {
    /// The same count by as many, those named by one among the other's.
    fn eq(&self, other: &Most) -> bool {
        self.count == other.count
            && self.who.len() + self.unnamed == other.who.len() + other.unnamed
            && (self.who.is_subset(&other.who) || other.who.is_subset(&self.who))
    }
}

fn most(counts: &HashMap<String, i64>) -> Option<Most> {
    let top = counts.values().copied().max().filter(|n| *n > 0)?;
    Some(Most {
        count: top,
        who: counts
            .iter()
            .filter(|(_, n)| **n == top)
            .map(|(k, _)| k.clone())
            .collect(),
        unnamed: 0,
    })
}

/// The season's feats as the honours state them.
#[derive(Debug, Default, PartialEq)]
struct SeasonFeats {
    /// The fewest hands a fives-and-threes game was won in, and how many
    /// games were won in it.
    quickest: Option<(i64, usize)>,
    eights: i64,
    most_eights: Option<Most>,
    whitewashes: i64,
    most_whitewashes: Option<Most>,
    without_reply: i64,
    most_without_reply: Option<Most>,
    nil_sets: i64,
    most_nil_sets: Option<Most>,
}

/// The feats of the text's last part.
fn shown_feats(text: &str) -> SeasonFeats {
    let all = groups(&part(text, "FEATS OF THE SEASON"));
    let find = |start: &str| all.iter().find(|(title, _)| title.starts_with(start));
    let in_all = |start: &str| {
        find(start).map_or(0, |(_, lines)| {
            number(lines[0].strip_suffix(" in all").expect("`N in all` first"))
        })
    };
    let most = |start: &str, by: &str| -> Option<Most> {
        let (_, lines) = find(start)?;
        let mut out: Option<Most> = None;
        for l in &lines[1..] {
            if let Some(more) = l.strip_prefix("and ") {
                let n = more.split_whitespace().next().unwrap();
                out.as_mut().expect("named ones first").unnamed = number(n) as usize;
                continue;
            }
            let rest = l
                .strip_prefix(by)
                .unwrap_or_else(|| panic!("`{by}` in {l}"));
            let (name, n) = rest.rsplit_once(", ").unwrap();
            let m = out.get_or_insert(Most {
                count: number(n),
                who: BTreeSet::new(),
                unnamed: 0,
            });
            assert_eq!(m.count, number(n), "{l}");
            m.who.insert(name.to_owned());
        }
        out
    };
    let player = "Most by a player: ";
    SeasonFeats {
        quickest: find("Quickest to ").map(|(title, lines)| {
            let hands = title.rsplit(": ").next().unwrap();
            let hands = number(hands.strip_suffix(" hands").unwrap());
            // `N games won in H hands`, then a few of them, then how many
            // more.
            let words: Vec<&str> = lines[0].split_whitespace().collect();
            assert_eq!(words[2..4], ["won", "in"], "{}", lines[0]);
            assert_eq!(number(words[4]), hands);
            let n = number(words[0]) as usize;
            let named = lines[1..].iter().filter(|l| l.contains(" won ")).count();
            assert_eq!(named, n.min(4), "{lines:?}");
            if n > 4 {
                assert_eq!(lines.last().unwrap(), &format!("and {} more games", n - 4));
            }
            (hands, n)
        }),
        eights: in_all("8-point plays"),
        most_eights: most("8-point plays", player),
        whitewashes: in_all("Whitewashes"),
        most_whitewashes: most("Whitewashes", "Most by a team: "),
        without_reply: in_all("Games won without reply"),
        most_without_reply: most("Games won without reply", player),
        nil_sets: in_all("Sets won to nil"),
        most_nil_sets: most("Sets won to nil", player),
    }
}

/// The feats of every match of the season (league and cups) with an
/// approved current result, the fixture neither void nor a walkover, from
/// the stored records scored by the engine: a player counted for the team
/// they played for.
async fn expected_feats(db: &Db, league: LeagueId, season: &Season) -> SeasonFeats {
    let season_format = MatchFormat::parse(season.format, &season.match_format)
        .unwrap_or_else(|_| MatchFormat::default_for(season.format));
    let names: HashMap<PlayerId, String> = db
        .players(league)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let teams: HashMap<TeamId, String> = db
        .teams(league)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let cups: HashMap<CupId, Cup> = db
        .cups(league, season.id)
        .await
        .unwrap()
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    let fixtures: HashMap<FixtureId, Fixture> = db
        .fixtures(league, season.id)
        .await
        .unwrap()
        .into_iter()
        .map(|f| (f.id, f))
        .collect();
    let mut out = SeasonFeats::default();
    let mut quickest: Vec<i64> = Vec::new();
    let (mut eights, mut whitewashes, mut to_nil, mut nil_sets) = (
        HashMap::new(),
        HashMap::new(),
        HashMap::new(),
        HashMap::new(),
    );
    for r in db.season_results(league, season.id, true).await.unwrap() {
        let f = &fixtures[&r.version.fixture_id];
        if matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover) {
            continue;
        }
        let format = f
            .cup_id
            .and_then(|c| cups[&c].match_format.clone())
            .unwrap_or_else(|| season_format.clone());
        let team = |home: bool| teams[&if home { f.home_team_id } else { f.away_team_id }].clone();
        let t = tally(&r.result, &format, &names);
        let boards = format.boards.len() as i64;
        for side in 0..2 {
            if boards > 1 && t.boards[side] == boards && t.boards[1 - side] == 0 {
                out.whitewashes += 1;
                *whitewashes.entry(team(side == 0)).or_default() += 1;
            }
        }
        for board in &r.result.boards {
            let home: HashSet<&str> = board.home.iter().map(|id| names[id].as_str()).collect();
            for game in board.games.iter().filter(|g| !g.score_only) {
                let record = &game.record;
                let is_home = |name: &str| home.contains(name);
                let who = |name: &str| format!("{name} ({})", team(is_home(name)));
                let outcome = score_record(record).expect("a stored record scores");
                let fat = record.format == "fives-and-threes";
                if fat {
                    for play in record.hands.iter().flat_map(|h| &h.plays) {
                        if play.points == 8 {
                            out.eights += 1;
                            *eights.entry(who(&play.by)).or_default() += 1;
                        }
                    }
                }
                let (true, Some(w)) = (outcome.finished, outcome.winner) else {
                    continue;
                };
                if outcome.totals[1 - w] == 0 {
                    let (total, by) = if record.format == "hands-won" {
                        (&mut out.nil_sets, &mut nil_sets)
                    } else {
                        (&mut out.without_reply, &mut to_nil)
                    };
                    *total += 1;
                    for name in &record.sides[w] {
                        *by.entry(who(name)).or_default() += 1;
                    }
                }
                if fat {
                    // A record holds no hand after the one the game was won in.
                    quickest.push(record.hands.len() as i64);
                }
            }
        }
    }
    if let Some(min) = quickest.iter().min() {
        out.quickest = Some((*min, quickest.iter().filter(|h| *h == min).count()));
    }
    out.most_eights = most(&eights);
    out.most_whitewashes = most(&whitewashes);
    out.most_without_reply = most(&to_nil);
    out.most_nil_sets = most(&nil_sets);
    out
}

// ---------------------------------------------------------------------------
// The tests

async fn the_honours_name_what_the_seasons_records_hold(db: Db) {
    // Fives and threes (two divisions) and all-fives, a finished season
    // and one half played.
    let options = DemoOptions {
        leagues: 2,
        teams: 4,
        seasons: 2,
        divisions: None,
        seed: 13,
    };
    fill(&db, &options).await.expect("the demo fills");
    let mut c = Client::new(&db).await;
    let mut seen = SeasonFeats::default();
    let mut places = 0;
    let mut players = 0;
    for league in db.leagues().await.unwrap() {
        let base = format!("/leagues/{}", league.short_name);
        let seasons = db.seasons(league.id).await.unwrap();
        let team_ids: HashMap<String, TeamId> = db
            .teams(league.id)
            .await
            .unwrap()
            .into_iter()
            .map(|t| (t.name, t.id))
            .collect();
        // The league's home links the honours of every season.
        let home = ok(&mut c, &base).await;
        for s in &seasons {
            let href = format!("href=\"{base}/{}/honours\"", slug(&s.name));
            assert!(home.has(&href), "{href}: {}", home.body);
        }
        for season in &seasons {
            let at = format!("{base}/{}", slug(&season.name));
            let about = ok(&mut c, &at).await;
            assert!(
                about.has(&format!("href=\"{at}/honours\"")),
                "{}",
                about.body
            );
            let page = ok(&mut c, &format!("{at}/honours")).await;
            let html = unescape(&page.body);
            assert!(!page.has("<script"));
            let text = ok(&mut c, &format!("{at}/honours.txt")).await;
            assert_eq!(
                text.headers["content-type"], "text/plain; charset=utf-8",
                "plain text"
            );
            let text = text.body;
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], league.name);
            if season.is_closed() {
                assert_eq!(lines[1], format!("Honours, season {}", season.name));
                assert!(page.has("id=\"final\"") && !page.has("id=\"not-final\""));
            } else {
                assert_eq!(lines[1], format!("Honours so far, season {}", season.name));
                assert!(lines[2].contains("not the final honours"), "{text}");
                assert!(page.has("id=\"not-final\""), "{}", page.body);
            }
            assert!(html.contains(&format!("<h1>{}</h1>", lines[1])));

            // Each division's first two: the division page's, with the
            // points and matches recounted here.
            let divisions = db.divisions(league.id, season.id).await.unwrap();
            let shown = groups(&part(&text, "DIVISIONS"));
            assert_eq!(shown.len(), divisions.len(), "{text}");
            let titles = if season.is_closed() {
                ["Champions", "Runners-up"]
            } else {
                ["Leading", "Second"]
            };
            for (d, (name, lines)) in divisions.iter().zip(&shown) {
                assert_eq!(*name, d.name);
                let expected = expected_table(&db, league.id, season, d.id, None).await;
                let table = ok(&mut c, &format!("{at}/{}", slug(&d.name))).await;
                let order: Vec<String> = rows(&table, "<table class=\"standings\"")
                    .into_iter()
                    .map(|r| r[1].clone())
                    .collect();
                // The table's first two, a team yet to play left out.
                let want: Vec<(String, String, i64, i64)> = order
                    .iter()
                    .zip(titles)
                    .map(|(team, title)| {
                        let line = expected[team];
                        (title.to_owned(), team.clone(), line[11], line[0])
                    })
                    .filter(|(.., played)| *played > 0)
                    .collect();
                let got: Vec<_> = lines.iter().map(|l| place(l)).collect();
                assert_eq!(got, want, "{}: {text}", d.name);
                assert!(!got.is_empty(), "the demo's divisions have results");
                for (title, team, ..) in &got {
                    let href = format!("{base}/teams/{}-{}", team_ids[team], slug(team));
                    assert!(
                        html.contains(&format!(
                            "<dt>{title}</dt><dd><a href=\"{href}\">{team}</a>"
                        )),
                        "{title} {team}: {}",
                        page.body
                    );
                    places += 1;
                }
                // Nobody has more points than the first.
                let top = expected.values().map(|l| l[11]).max().unwrap();
                assert_eq!(got[0].2, top, "{}", d.name);
            }

            // The top players by win rate: the player table's, recounted.
            let top: BTreeSet<Ranked> = part(&text, "TOP PLAYERS BY WIN RATE")
                .iter()
                .filter_map(|l| l.strip_prefix("  "))
                .map(ranked)
                .collect();
            let penalties = db
                .game_penalty_lines(league.id, season.id, Counted::League)
                .await
                .unwrap();
            assert!(penalties.is_empty(), "no individual penalties to recount");
            assert_eq!(
                top,
                expected_top(&db, league.id, season).await,
                "{}: {text}",
                season.name
            );
            let table = rows(
                &page,
                "<table class=\"honours-players\" id=\"top-win-rate\"",
            );
            // The page's table says the same (players sharing a place in
            // the player table's order).
            assert_eq!(table.len(), top.len());
            for row in &table {
                let said = |(position, name, won, played, rate): &Ranked| {
                    row[0] == position.to_string()
                        && row[1].starts_with(name.as_str())
                        && row[2] == format!("won {won} of {played} games")
                        && row[3] == *rate
                };
                assert!(top.iter().any(said), "{row:?} in {top:?}");
            }
            let positions: Vec<&String> = table.iter().map(|r| &r[0]).collect();
            assert!(positions.is_sorted_by_key(|p| p.parse::<i64>().unwrap()));
            players += top.len();

            // The season's feats, recounted from the hands.
            let shown = shown_feats(&text);
            let expected = expected_feats(&db, league.id, season).await;
            assert_eq!(shown, expected, "{base}, {}:\n{text}", season.name);
            let feats = groups(&part(&text, "FEATS OF THE SEASON"));
            for (title, _) in feats.iter().filter(|(_, lines)| !lines.is_empty()) {
                assert!(html.contains(&format!("\">{title}</h3>")), "{title}");
            }
            seen.eights += shown.eights;
            seen.whitewashes += shown.whitewashes;
            seen.without_reply += shown.without_reply;
            seen.quickest = seen.quickest.or(shown.quickest);
        }
    }
    // The demo's seasons hold something of each, so the comparisons above
    // compared something.
    assert!(
        places >= 8 && players >= 4,
        "{places} places, {players} players"
    );
    assert!(
        seen.eights > 0 && seen.quickest.is_some() && seen.whitewashes > 0,
        "{seen:?}"
    );
}

/// The text's groups under CUPS, by cup.
fn cups_shown(text: &str) -> HashMap<String, Vec<String>> {
    groups(&part(text, "CUPS"))
        .into_iter()
        .map(|(cup, lines)| {
            let name = cup.rsplit_once(" (").unwrap().0.to_owned();
            (name, lines.into_iter().map(str::to_owned).collect())
        })
        .collect()
}

async fn a_cup_is_in_the_honours_once_its_final_is_decided(db: Db) {
    // Four teams: the team cup's final is played, its result entered and
    // not yet approved; the singles knockout is still in its first round.
    let options = DemoOptions {
        leagues: 1,
        teams: 4,
        seasons: 1,
        divisions: Some(1),
        seed: 21,
    };
    fill(&db, &options).await.expect("the demo fills");
    let league = db.leagues().await.unwrap().remove(0);
    let season = db.seasons(league.id).await.unwrap().remove(0);
    let at = format!(
        "/leagues/{}/{}/honours",
        league.short_name,
        slug(&season.name)
    );
    let mut c = Client::new(&db).await;
    let text = ok(&mut c, &format!("{at}.txt")).await;
    let cups = cups_shown(&text.body);
    assert_eq!(cups.len(), 2, "{}", text.body);
    assert_eq!(
        cups["League Cup"],
        ["Not decided: the final is still to be played."]
    );
    assert_eq!(
        cups["Singles Knockout"],
        ["Not decided: the final is not drawn yet."]
    );
    let page = ok(&mut c, &at).await;
    assert!(!page.has("<dt>Winner</dt>"), "{}", page.body);

    // The final approved: its winner is the side with more boards (then
    // games, then points), recounted here from its hands.
    let cup = db
        .cups(league.id, season.id)
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.name == "League Cup")
        .unwrap();
    let fixtures = db.fixtures(league.id, season.id).await.unwrap();
    let last = fixtures
        .iter()
        .filter(|f| f.cup_id == Some(cup.id))
        .map(|f| f.round)
        .max()
        .unwrap();
    let finals: Vec<&Fixture> = fixtures
        .iter()
        .filter(|f| f.cup_id == Some(cup.id) && f.round == last)
        .collect();
    assert_eq!(finals.len(), 1, "one final");
    let final_match = finals[0];
    let stored = db
        .result(league.id, final_match.id)
        .await
        .unwrap()
        .expect("the final's result");
    assert_eq!(stored.version.status, ResultStatus::Entered);
    boneyard::app::results::set_status(
        &db,
        league.id,
        final_match.id,
        ResultStatus::Approved,
        "",
        None,
    )
    .await
    .unwrap();
    let names: HashMap<PlayerId, String> = db
        .players(league.id)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let format = MatchFormat::parse(season.format, &season.match_format).unwrap();
    let t = tally(&stored.result, &format, &names);
    let home_won = [t.boards, t.games, t.pegs]
        .iter()
        .find(|[h, a]| h != a)
        .map(|[h, a]| h > a)
        .expect("a decided final");
    let teams: HashMap<TeamId, String> = db
        .teams(league.id)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let (home, away) = (
        teams[&final_match.home_team_id].clone(),
        teams[&final_match.away_team_id].clone(),
    );
    let (winner, runner_up) = if home_won { (home, away) } else { (away, home) };
    let text = ok(&mut c, &format!("{at}.txt")).await;
    let cups = cups_shown(&text.body);
    assert_eq!(
        cups["League Cup"],
        [
            format!("Winner: {winner}"),
            format!("Runner-up: {runner_up}")
        ],
        "{}",
        text.body
    );
    let html = unescape(&ok(&mut c, &at).await.body);
    assert!(
        html.contains(&format!(
            "<dt>Winner</dt><dd>{winner}</dd></div>\n  <div><dt>Runner-up</dt><dd>{runner_up}</dd>"
        )),
        "{html}"
    );
    // The cup's own page names the same winner.
    let bracket = ok(
        &mut c,
        &format!("/leagues/{}/cups/{}-league-cup", league.short_name, cup.id),
    )
    .await;
    assert!(
        unescape(&bracket.body).contains(&format!("Won by {winner}.")),
        "{}",
        bracket.body
    );
}

async fn honours_so_far_are_said_to_be_not_final_and_names_are_escaped(db: Db) {
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("hon")
            .teams(&["<b>Crown</b>", "Anchor & \"Co\""])
            .played(1),
    )
    .await;
    let season = db.season(app.league.id, app.league.season).await.unwrap();
    let at = format!("/leagues/hon/{}/honours", slug(&season.name));
    let mut anyone = app.anonymous().await;
    let page = ok(&mut anyone, &at).await;
    assert!(page.has("<h1>Honours so far, season "), "{}", page.body);
    assert!(page.has("id=\"not-final\""));
    assert!(!page.has("<b>"), "{}", page.body);
    // Escaped, so only its unescaped reading has the name.
    assert!(
        unescape(&page.body).contains(">Crown</b></a>"),
        "{}",
        page.body
    );
    // One page heading, and a heading for each part.
    assert_eq!(page.body.matches("<h1>").count(), 1);
    for id in ["honours-divisions", "honours-win-rate", "honours-feats"] {
        assert!(page.has(&format!("<h2 id=\"{id}\">")), "{id}");
    }
    // The plain text says the same, unescaped.
    let text = ok(&mut anyone, &format!("{at}.txt")).await.body;
    assert!(text.contains("not the final honours"), "{text}");
    let places = groups(&part(&text, "DIVISIONS"));
    assert_eq!(places[0].0, "One");
    let shown: Vec<String> = places[0].1.iter().map(|l| place(l).1).collect();
    let mut teams = vec!["<b>Crown</b>".to_owned(), "Anchor & \"Co\"".to_owned()];
    teams.sort();
    let mut sorted = shown.clone();
    sorted.sort();
    assert_eq!(sorted, teams, "{text}");
    assert!(places[0].1[0].starts_with("Leading: "), "{text}");
}

async fn no_honours_for_an_unknown_season_and_no_division_called_honours(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("hon404")).await;
    let season = db.season(app.league.id, app.league.season).await.unwrap();
    let season = slug(&season.name);
    let mut anyone = app.anonymous().await;
    for path in [
        "/leagues/hon404/1999-00/honours".to_owned(),
        "/leagues/hon404/1999-00/honours.txt".to_owned(),
        format!("/leagues/nobody/{season}/honours"),
        format!("/leagues/nobody/{season}/honours.txt"),
    ] {
        let page: Page = anyone.get(&path).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}: {}", page.body);
        assert!(page.has("was not found"), "{path}: {}", page.body);
    }
    // A season with no results yet has honours to come.
    let page = ok(&mut anyone, &format!("/leagues/hon404/{season}/honours")).await;
    assert!(page.has("No results yet."), "{}", page.body);

    // The season's honours take the address `…/honours`: no division may.
    let mut sec = app.with_secretary().await;
    let list = format!(
        "/leagues/hon404/console/seasons/{}/divisions",
        app.league.season
    );
    let refused = sec
        .submit(&list, &list, &[("name", "Honours"), ("position", "2")])
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert!(error_beside(&refused, "name").contains("…/honours"));
    assert_eq!(
        db.divisions(app.league.id, app.league.season)
            .await
            .unwrap()
            .len(),
        1
    );
    // A name that only starts with it keeps a table of its own.
    let made = sec
        .submit(
            &list,
            &list,
            &[("name", "Honours Board"), ("position", "2")],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let board = ok(
        &mut anyone,
        &format!("/leagues/hon404/{season}/honours-board"),
    )
    .await;
    assert!(board.has("Honours Board"), "{}", board.body);
    let honours = ok(&mut anyone, &format!("/leagues/hon404/{season}/honours")).await;
    assert!(honours.has("<h1>Honours so far"), "{}", honours.body);
}

/// The honours and a week's round-up are worked out once per generation
/// of the league's records and kept for everyone, signed-in users too
/// (whom the kept pages never answer): a result approved after they were
/// worked out is in the next page and plain text, and the round-up's
/// address moves to its week.
async fn honours_and_round_ups_kept_for_signed_in_users_show_a_new_result_at_once(db: Db) {
    // Played three and two weeks ago.
    let first = boneyard::db::now() - chrono::Duration::days(21);
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("honkept")
            .fixtures(2)
            .played(1)
            .starting_at(first),
    )
    .await;
    let l = &app.league;
    let season = db.season(l.id, l.season).await.unwrap();
    let at = format!("/leagues/honkept/{}/honours", slug(&season.name));
    let mut secretary = app.with_secretary().await;
    let leader = |text: &str| {
        let places = groups(&part(text, "DIVISIONS"));
        place(places[0].1[0])
    };
    let before = ok(&mut secretary, &format!("{at}.txt")).await.body;
    let (_, _, _, played) = leader(&before);
    assert_eq!(played, 1, "{before}");
    // Asked again with nothing written: the same honours.
    assert_eq!(ok(&mut secretary, &format!("{at}.txt")).await.body, before);
    let page = ok(&mut secretary, &at).await;
    assert!(page.has("from 1 match<"), "{}", page.body);
    // The round-up opens on the week of the one result.
    let zone = db
        .leagues()
        .await
        .unwrap()
        .into_iter()
        .find(|x| x.id == app.league.id)
        .unwrap()
        .time_zone;
    let week_of = |t| zone.week(zone.local(t).date()).0;
    let latest = secretary.get("/leagues/honkept/round-up").await;
    assert_eq!(
        latest.location,
        Some(format!("/leagues/honkept/round-up/{}", week_of(first)))
    );

    // The second week's round-up, its match played and not entered.
    let second_week = format!(
        "/leagues/honkept/round-up/{}.txt",
        week_of(first + chrono::Duration::days(7))
    );
    let round_up = ok(&mut secretary, &second_week).await.body;
    assert!(round_up.contains("(no result yet)"), "{round_up}");

    // The second match between the two teams, approved.
    let result =
        crate::harness::builder::simulated_result(l.rules, &l.format, &l.teams[0], &l.teams[1], 99);
    let fixture = l.fixtures[1];
    boneyard::app::results::write(&db, l.id, fixture, &result, None)
        .await
        .unwrap();
    boneyard::app::results::set_status(&db, l.id, fixture, ResultStatus::Approved, "", None)
        .await
        .unwrap();
    let record = db.fixture(l.id, fixture).await.unwrap();
    let played = FixtureChange {
        status: FixtureStatus::Played,
        ..FixtureChange::from(&record)
    };
    boneyard::app::fixtures::change(&db, l.id, fixture, &played, None)
        .await
        .unwrap();

    let after = ok(&mut secretary, &format!("{at}.txt")).await.body;
    let (_, _, _, played) = leader(&after);
    assert_eq!(played, 2, "{after}");
    let page = ok(&mut secretary, &at).await;
    assert!(page.has("from 2 matches<"), "{}", page.body);
    // The round-up's address follows: the new result's week.
    let latest = secretary.get("/leagues/honkept/round-up").await;
    assert_eq!(
        latest.location,
        Some(format!(
            "/leagues/honkept/round-up/{}",
            week_of(first + chrono::Duration::days(7))
        ))
    );
    // And its week's round-up has its result, no longer waited for.
    let round_up = ok(&mut secretary, &second_week).await.body;
    assert!(!round_up.contains("(no result yet)"), "{round_up}");
    assert!(
        round_up.contains("Crown") && round_up.contains("Anchor"),
        "{round_up}"
    );
    // A visitor, from the kept pages, sees the same.
    let mut anyone = app.anonymous().await;
    assert_eq!(ok(&mut anyone, &format!("{at}.txt")).await.body, after);
}
