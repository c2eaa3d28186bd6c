//! The command line: `boneyard score`, and the commands to come.

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::rules::{Game, Report, parse_record, score};

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
    }
}

/// The result JSON for a record file, or the one message saying why not.
pub fn score_file(file: &str) -> Result<String, String> {
    let text = read_input(file)?;
    let record = parse_record(&text).map_err(|e| format!("{file}: {e}"))?;
    let game = Game::from_record(&record).map_err(|e| format!("{file}: {e}"))?;
    let outcome = score(&game).map_err(|e| format!("{file}: {e}"))?;
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
