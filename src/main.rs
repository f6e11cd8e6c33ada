//! The `sokoban` command-line program: a thin layer over the library.
//!
//! Exit codes: 0 when everything asked for succeeded; 1 when the input was fine but a result was
//! negative (an invalid solution, a level not solved in time); 2 for bad input or usage.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(cli::EXIT_BAD_INPUT)
        }
    }
}
