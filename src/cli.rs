//! The command line: `boneyard score`, and the commands to come.

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::rules::simulate::{Opening, Rng, Style, simulate_game};
use crate::rules::{Format, Game, Report, Ruleset, parse_record, score};

#[derive(Debug, Parser)]
#[command(
    name = "boneyard",
    version,
    about = "A league manager for dominoes pub leagues"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Score a game record (RULES.md) and print the result as JSON.
    Score {
        /// The record's file, or `-` for standard input.
        file: String,
    },
    /// Play a game with dealt tiles and print its record (for trying the
    /// engine, examples and tests).
    Simulate {
        /// fives-and-threes, all-fives or hands-won.
        #[arg(long, default_value = "fives-and-threes")]
        format: String,
        /// Four players in two pairs instead of two in singles.
        #[arg(long)]
        pairs: bool,
        /// The same seed always plays the same game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// No penalties and no muggins.
        #[arg(long)]
        clean: bool,
    },
}

/// Runs the command line; the exit code is 0 on success and 2 for a bad
/// record or unreadable input, like clap's own usage errors.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Score { file } => match score_file(&file) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("boneyard score: {message}");
                ExitCode::from(2)
            }
        },
        Command::Simulate {
            format,
            pairs,
            seed,
            clean,
        } => match simulate(&format, pairs, seed, clean) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("boneyard simulate: {message}");
                ExitCode::from(2)
            }
        },
    }
}

/// A simulated game's record as JSON.
pub fn simulate(format: &str, pairs: bool, seed: u64, clean: bool) -> Result<String, String> {
    let format: Format = format.parse()?;
    let pairs = pairs || format == Format::HandsWon;
    let players: Vec<String> = ["Ann", "Bob", "Cat", "Dan"][..if pairs { 4 } else { 2 }]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sides: Vec<Vec<String>> = (0..2)
        .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
        .collect();
    let style = if clean {
        Style::clean()
    } else {
        Style::default()
    };
    let record = simulate_game(
        &Ruleset::new(format),
        &players,
        &sides,
        Opening::Draw,
        &mut Rng::new(seed),
        &style,
    );
    serde_json::to_string_pretty(&record).map_err(|e| format!("could not write the record: {e}"))
}

/// The result JSON for a record file, or the one message saying why not.
pub fn score_file(file: &str) -> Result<String, String> {
    let text = read_input(file)?;
    let name = if file == "-" { "standard input" } else { file };
    let record = parse_record(&text).map_err(|e| format!("{name}: {e}"))?;
    let game = Game::from_record(&record).map_err(|e| format!("{name}: {e}"))?;
    let outcome = score(&game).map_err(|e| format!("{name}: {e}"))?;
    serde_json::to_string_pretty(&Report::new(&game, &outcome))
        .map_err(|e| format!("could not write the result: {e}"))
}

/// A record of more than this is no game anyone played.
const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

fn read_input(file: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if file == "-" {
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    let name = if file == "-" { "standard input" } else { file };
    read.map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{name} is larger than 16 MiB; it is not a game record"
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8 text"))
}
