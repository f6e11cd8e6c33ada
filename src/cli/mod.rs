//! Command-line definitions and the shared plumbing of the subcommands: loading level files,
//! selecting levels, reporting parse errors with file, line and column.

mod analyze;
mod bench;
mod show;
mod solve;
mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use sokoban::{Level, ParseError};

pub const EXIT_OK: u8 = 0;
pub const EXIT_NEGATIVE: u8 = 1;
pub const EXIT_BAD_INPUT: u8 = 2;

/// Sokoban levels in, solutions out.
///
/// Reads XSB/SOK level files (many levels per file, titles, comments, run-length encoded rows).
/// Select levels with --level N or --levels A-B (1-based). Exit status: 0 success, 1 a negative
/// result (an invalid solution, an unsolved level), 2 bad input or usage.
#[derive(Parser, Debug)]
#[command(name = "sokoban", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve levels; print each solution (verified before it is printed).
    ///
    /// The default mode proves the fewest pushes with A* and a matching lower bound. Exit status
    /// 0 when every selected level was solved or proven unsolvable.
    ///
    /// Example: sokoban solve data/microban.xsb --levels 1-10 --time-limit 10
    Solve(solve::SolveArgs),
    /// Solve a level set under a per-level time limit and print solved counts, times, nodes and
    /// memory as a table (or JSON with --json). Every solution is verified.
    ///
    /// Example: sokoban bench data/microban.xsb --time-limit 10
    Bench(bench::BenchArgs),
    /// Show the static analysis: dead squares and the start's lower bound.
    ///
    /// Example: sokoban analyze data/xsokoban90.xsb --level 1
    Analyze(analyze::AnalyzeArgs),
    /// Replay solutions against their levels and report which are valid.
    ///
    /// SOLUTIONS is JSON lines ({"level": 3, "lurd": "..."}) or a TSV whose first column is the
    /// 1-based level number and whose last column is the LURD string (a header line is allowed).
    /// Exits 0 only if every given solution is legal, solves its level and marks pushes in
    /// uppercase.
    ///
    /// Example: sokoban verify data/xsokoban90.xsb data/xsokoban90-reference-solutions.tsv
    Verify(verify::VerifyArgs),
    /// Print levels with their titles.
    ///
    /// Example: sokoban show data/microban.xsb --level 3
    Show(show::ShowArgs),
}

/// Which levels of a file to use.
#[derive(Args, Debug, Clone, Default)]
pub struct Selection {
    /// Only this level (1-based).
    #[arg(long, conflicts_with = "range")]
    pub level: Option<usize>,
    /// A range of levels, e.g. 3-10 (1-based, inclusive).
    #[arg(long = "levels", value_name = "A-B")]
    pub range: Option<String>,
}

impl Selection {
    /// The selected 1-based level numbers out of `count`.
    pub fn pick(&self, count: usize) -> Result<Vec<usize>> {
        let (a, b) = match (&self.level, &self.range) {
            (Some(n), _) => (*n, *n),
            (None, Some(range)) => {
                let (a, b) = range.split_once('-').unwrap_or((range, range));
                let a: usize = a.trim().parse().with_context(|| format!("bad level range {range:?}"))?;
                let b: usize = b.trim().parse().with_context(|| format!("bad level range {range:?}"))?;
                (a, b)
            }
            (None, None) => (1, count),
        };
        if a == 0 || a > b || b > count {
            bail!("level selection {a}-{b} is outside 1-{count} (the file has {count} levels)");
        }
        Ok((a..=b).collect())
    }
}

/// A level file read level by level.
pub struct LevelFile {
    pub path: PathBuf,
    pub levels: Vec<Result<Level, ParseError>>,
}

impl LevelFile {
    pub fn load(path: &Path) -> Result<LevelFile> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let levels = sokoban::format::parse_each(&text, path)
            .map_err(|e| anyhow::anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.kind))?;
        Ok(LevelFile { path: path.to_path_buf(), levels })
    }

    /// Level `n` (1-based), or its parse error with the file name.
    pub fn get(&self, n: usize) -> Result<&Level, String> {
        match &self.levels[n - 1] {
            Ok(level) => Ok(level),
            Err(e) => Err(format!("{}:{}:{}: {}", self.path.display(), e.line, e.column, e.kind)),
        }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Show(a) => show::run(a),
    }
}
