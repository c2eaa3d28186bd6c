//! How fast the engine scores complete games: the figure behind every table
//! page. Games come from the simulator, so they have real games' shape.
//!
//! `cargo bench --bench scoring`; throughput is reported in hands.

use std::hint::black_box;

use boneyard::rules::simulate::{Opening, Rng, Style, simulate_game};
use boneyard::rules::{Format, Game, Ruleset, parse_record, score};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// 200 games of each format, singles and pairs where the format has both.
fn games() -> Vec<Game> {
    let mut rng = Rng::new(2026);
    let mut games = Vec::new();
    for format in Format::ALL {
        for four in [false, true] {
            if format == Format::HandsWon && !four {
                continue;
            }
            let players: Vec<String> = ["Ann", "Bob", "Cat", "Dan"][..if four { 4 } else { 2 }]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let sides: Vec<Vec<String>> = (0..2)
                .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
                .collect();
            for _ in 0..200 {
                let record = simulate_game(
                    &Ruleset::new(format),
                    &players,
                    &sides,
                    Opening::Draw,
                    &mut rng,
                    &Style::default(),
                );
                games.push(Game::from_record(&record).expect("simulated games are valid"));
            }
        }
    }
    games
}

fn bench(c: &mut Criterion) {
    let games = games();
    let hands: usize = games.iter().map(|g| g.hands.len()).sum();
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(hands as u64));
    group.bench_function(
        format!("score {} games ({hands} hands)", games.len()),
        |b| {
            b.iter(|| {
                for game in &games {
                    black_box(score(black_box(game)).expect("valid"));
                }
            })
        },
    );
    // The whole path of `boneyard score` and of an import: JSON in, checks,
    // scoring.
    let texts: Vec<String> = games
        .iter()
        .map(|g| serde_json::to_string(&g.to_record()).unwrap())
        .collect();
    group.bench_function("parse, validate and score from JSON", |b| {
        b.iter(|| {
            for text in &texts {
                let record = parse_record(black_box(text)).unwrap();
                black_box(score(&Game::from_record(&record).unwrap()).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
