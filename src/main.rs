use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    boneyard::cli::run(boneyard::cli::Cli::parse())
}
