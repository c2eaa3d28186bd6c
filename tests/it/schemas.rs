//! The published JSON Schemas of dominoes results (issue 41): every game
//! record and match result the exports give validates against the schemas
//! the app serves, read by a validator no code of ours wrote (the
//! `jsonschema` crate; CI does it again with Python's); `boneyard score`'s
//! example inputs conform; and records that break RULES.md fail, as the
//! scoring engine refuses them.

use axum::http::{StatusCode, header};
use boneyard::addresses::{GAME_RECORD_SCHEMA, MATCH_RESULT_SCHEMA, at_short};
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::Format;
use jsonschema::{Registry, Validator};
use serde_json::{Value, json};

use crate::harness::LeagueBuilder;
use crate::harness::builder::{Built, simulated_result};
use crate::harness::client::Client;
use crate::harness::pages::ok;
use crate::support::on_both;

on_both!(every_record_and_result_the_exports_give_validates);

/// The two schemas as validators: the game record's, and the match
/// result's, whose games `$ref` the game record by its `$id`.
struct Schemas {
    game: Validator,
    result: Validator,
}

impl Schemas {
    fn new(game: &Value, result: &Value) -> Schemas {
        let id = game["$id"].as_str().expect("the game record's $id");
        let registry = Registry::new()
            .add(id, game)
            .expect("the game record registers")
            .prepare()
            .expect("the registry prepares");
        Schemas {
            game: jsonschema::draft202012::new(game).expect("the game record's schema"),
            result: jsonschema::options()
                .with_registry(&registry)
                .build(result)
                .expect("the match result's schema"),
        }
    }

    /// The schemas as the files have them.
    fn from_files() -> Schemas {
        let read = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        Schemas::new(
            &read(boneyard::web::schema::GAME_RECORD),
            &read(boneyard::web::schema::MATCH_RESULT),
        )
    }

    /// Why `record` is not a game record, if it is not.
    fn game_errors(&self, record: &Value) -> Vec<String> {
        self.game
            .iter_errors(record)
            .map(|e| e.to_string())
            .collect()
    }

    fn result_errors(&self, result: &Value) -> Vec<String> {
        self.result
            .iter_errors(result)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect()
    }

    /// `result` conforms, and so does each game record in it; the number
    /// of game records.
    fn check_result(&self, result: &Value, what: &str) -> usize {
        let errors = self.result_errors(result);
        assert!(errors.is_empty(), "{what}: {errors:#?}\n{result:#}");
        let mut records = 0;
        for board in result["boards"].as_array().unwrap() {
            for game in board["games"].as_array().unwrap() {
                if game.get("final_score").is_none() {
                    let errors = self.game_errors(game);
                    assert!(errors.is_empty(), "{what}: {errors:#?}\n{game:#}");
                    records += 1;
                }
            }
        }
        records
    }
}

/// The schemas as the app serves them, with their own media type.
async fn served(c: &mut Client) -> Schemas {
    let mut docs = Vec::new();
    for path in [GAME_RECORD_SCHEMA, MATCH_RESULT_SCHEMA] {
        let page = ok(c, path).await;
        assert_eq!(
            page.headers[header::CONTENT_TYPE],
            "application/schema+json",
            "{path}"
        );
        let doc: Value = serde_json::from_str(&page.body).unwrap();
        // This site's address, not the files' placeholder.
        let id = doc["$id"].as_str().unwrap().to_owned();
        assert_eq!(id, format!("http://127.0.0.1:3000{path}"));
        docs.push(doc);
    }
    Schemas::new(&docs[0], &docs[1])
}

/// A league of `format` with two matches played, the simulator's.
async fn league(db: &Db, short: &str, format: Format) -> Built {
    LeagueBuilder::new(short)
        .rules(format)
        .teams(&["Crown", "Anchor", "Plough", "Swan"])
        .players(4)
        .played(2)
        .fixtures(3)
        .build(db)
        .await
}

async fn every_record_and_result_the_exports_give_validates(db: Db) {
    let leagues = [
        league(&db, "fat", Format::FivesAndThrees).await,
        league(&db, "af", Format::AllFives).await,
        league(&db, "hw", Format::HandsWon).await,
    ];
    // One more result, of the kinds a simulated match never has: a game
    // kept by its final score alone, and a board conceded.
    let l = &leagues[0];
    let fixture = l.fixtures[2];
    let mut result = simulated_result(
        l.rules,
        &MatchFormat::default_for(l.rules),
        &l.teams[0],
        &l.teams[1],
        7,
    );
    let first = &mut result.boards[0].games[0];
    first.record.hands.clear();
    first.record.draw = None;
    first.record.first_pose = None;
    first.score_only = true;
    first.outcome = Some(GameOutcome {
        totals: [61, 40],
        winner: Some(0),
        finished: true,
        next_pose: None,
    });
    let last = result.boards.last_mut().unwrap();
    last.conceded_by = Some(Side::Away);
    last.home.clear();
    last.away.clear();
    last.games.clear();
    boneyard::app::results::write(&db, l.id, fixture, &result, None)
        .await
        .unwrap();

    let mut c = Client::new(&db).await;
    let schemas = served(&mut c).await;
    let (mut results, mut records, mut finals, mut conceded) = (0, 0, 0, 0);
    for l in &leagues {
        let at = at_short(&l.short);
        // The season's export: every match, each result a match result.
        let page = ok(&mut c, &at.results_json(l.season)).await;
        let season: Value = serde_json::from_str(&page.body).unwrap();
        assert_eq!(
            season["result_schema"],
            format!("http://127.0.0.1:3000{MATCH_RESULT_SCHEMA}")
        );
        for m in season["matches"].as_array().unwrap() {
            let Some(result) = m.get("result").filter(|r| !r.is_null()) else {
                continue;
            };
            results += 1;
            records += schemas.check_result(result, &format!("{} match {}", l.short, m["id"]));
            // Each match's own file is the same result.
            let fixture = FixtureId(m["id"].as_i64().unwrap());
            let file = ok(&mut c, &at.match_page(fixture).games_json()).await;
            let file: Value = serde_json::from_str(&file.body).unwrap();
            schemas.check_result(&file, &format!("{} games.json {fixture}", l.short));
            assert_eq!(&file["boards"], &result["boards"]);
            for board in result["boards"].as_array().unwrap() {
                conceded += usize::from(board.get("conceded_by").is_some());
                finals += board["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|g| g.get("final_score").is_some())
                    .count();
            }
        }
    }
    assert_eq!(results, 7, "two matches a league and the hand-made one");
    assert!(records >= 7 * 3, "{records} game records");
    assert_eq!((finals, conceded), (1, 1));
    // The games page's file reads back into the card, the final score too.
    let games = ok(&mut c, &at_short(&l.short).match_page(fixture).games_json()).await;
    let file: Value = serde_json::from_str(&games.body).unwrap();
    assert_eq!(
        file["boards"][0]["games"][0],
        json!({"final_score": {"home": 61, "away": 40}})
    );
    let missing = c
        .get(&at_short(&l.short).results_json(SeasonId(999_999)))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// `boneyard score`'s inputs: the example records it is documented with.
#[test]
fn the_scoring_engines_example_inputs_conform() {
    let schemas = Schemas::from_files();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") || name.ends_with(".result.json") {
            continue;
        }
        let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(schemas.game_errors(&record), Vec::<String>::new(), "{name}");
        checked += 1;
    }
    assert!(checked >= 4, "{checked} examples");
}

/// A record RULES.md allows, to break one rule at a time.
fn good() -> Value {
    json!({
        "format": "fives-and-threes",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "sides": [["Ann", "Cat"], ["Bob", "Dan"]],
        "draw": {"Ann": "6-1", "Bob": "4-3", "Cat": "2-2", "Dan": "5-0"},
        "hands": [
            {"plays": [{"by": "Ann", "points": 2}, {"by": "Bob", "points": 8},
                       {"by": "Cat", "points": 1, "out": true}],
             "end": {"out": "Cat"}},
            {"plays": [], "end": {"blocked": {"Ann": 9, "Bob": 4, "Cat": 11, "Dan": 7}}}
        ]
    })
}

/// One rule of RULES.md broken in a record.
type Breaks = fn(&mut Value);

#[test]
fn a_record_that_breaks_rules_md_fails_validation() {
    let schemas = Schemas::from_files();
    assert_eq!(schemas.game_errors(&good()), Vec::<String>::new());
    boneyard::rules::score_record(&serde_json::from_value(good()).unwrap())
        .expect("RULES.md's own");
    let broken: Vec<(&str, Breaks)> = vec![
        ("an unknown format", |r| r["format"] = json!("dominoes")),
        ("three players", |r| {
            r["players"] = json!(["Ann", "Bob", "Cat"]);
        }),
        ("a player twice", |r| r["players"][3] = json!("Ann")),
        ("a name with spaces at its end", |r| {
            r["players"][0] = json!("Ann ")
        }),
        ("a tile no set has", |r| r["draw"]["Ann"] = json!("7-1")),
        ("both a draw and a first poser", |r| {
            r["first_pose"] = json!("Ann");
        }),
        ("nobody to pose", |r| {
            r.as_object_mut().unwrap().remove("draw");
        }),
        ("a fives-and-threes play of 7", |r| {
            r["hands"][0]["plays"][0]["points"] = json!(7);
        }),
        ("a play of no points that is not chipping out", |r| {
            r["hands"][0]["plays"][0]["points"] = json!(0);
        }),
        ("muggins in fives-and-threes", |r| {
            r["hands"][0]["plays"][0]["muggins"] = json!(true);
        }),
        ("a hand ended two ways", |r| {
            r["hands"][0]["end"]["blocked"] = json!({});
        }),
        ("an abandoned fives-and-threes hand", |r| {
            r["hands"][1]["end"] = json!({"abandoned": true});
        }),
        ("a penalty in fives-and-threes", |r| {
            r["penalties"] = json!([{"player": "Bob", "kind": "talking", "before_hand": 1}]);
        }),
        ("a field RULES.md does not have", |r| {
            r["winner"] = json!("Ann")
        }),
        ("an option of another format", |r| {
            r["options"] = json!({"set_to": 6});
        }),
        ("pips below nothing", |r| {
            r["hands"][1]["end"]["blocked"]["Ann"] = json!(-1);
        }),
        ("an all-fives play of 12", |r| {
            r["format"] = json!("all-fives");
            r["hands"] = json!([{"plays": [{"by": "Ann", "points": 12}], "end": {"blocked": {}}}]);
        }),
        ("a hands-won hand with plays", |r| {
            r["format"] = json!("hands-won");
            r["hands"] = json!([{"plays": [{"by": "Ann", "points": 1}], "end": {"out": "Ann"}}]);
        }),
        ("a late arrival without minutes", |r| {
            r["format"] = json!("hands-won");
            r["hands"] = json!([{"plays": [], "end": {"out": "Ann"}}]);
            r["penalties"] = json!([{"player": "Bob", "kind": "late", "before_hand": 1}]);
        }),
    ];
    for (what, breaks) in broken {
        let mut record = good();
        breaks(&mut record);
        assert!(
            !schemas.game_errors(&record).is_empty(),
            "{what} passed the schema: {record:#}"
        );
        // The engine refuses it too: the schema says no more than RULES.md.
        let engine = serde_json::from_value::<boneyard::rules::GameRecord>(record.clone())
            .map_err(|e| e.to_string())
            .and_then(|r| boneyard::rules::score_record(&r).map_err(|e| e.to_string()));
        assert!(engine.is_err(), "{what}: the engine took {record:#}");
    }
    // A match result breaks with any record in it, and with a board of
    // the wrong shape.
    let result = |games: Value, home: Value| {
        json!({"home": "Crown", "away": "Anchor", "boards": [
            {"kind": "pairs", "home": home, "away": ["Bob", "Dan"], "games": games}
        ]})
    };
    let mut bad = good();
    bad["hands"][0]["plays"][0]["points"] = json!(7);
    let names = json!(["Ann", "Cat"]);
    assert!(
        schemas
            .result_errors(&result(json!([good()]), names.clone()))
            .is_empty()
    );
    assert!(
        !schemas
            .result_errors(&result(json!([bad]), names.clone()))
            .is_empty()
    );
    assert!(
        !schemas
            .result_errors(&result(json!([good()]), json!(["Ann"])))
            .is_empty()
    );
    assert!(
        !schemas
            .result_errors(&result(
                json!([{"final_score": {"home": -1, "away": 3}}]),
                names
            ))
            .is_empty()
    );
}
