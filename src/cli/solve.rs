//! `sokoban solve`: solve levels and print solutions, verified before they are printed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};
use sokoban::Level;
use sokoban::solver::{Config, Heuristic, Mode, Solution, SolveError, solve};

use super::{EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, LevelFile, Selection};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// Fewest pushes (proven).
    Pushes,
    /// Fewest moves, ties broken by fewest pushes (proven).
    Moves,
    /// Least total cost: 1 per move plus the pushed box's weight per push (proven).
    Cost,
    /// Plain breadth-first search over moves: the textbook baseline (fewest moves, proven).
    Bfs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum HeuristicArg {
    /// No lower bound (uniform-cost search).
    Zero,
    /// Number of boxes off goals.
    Boxes,
    /// Minimum-cost matching of boxes to goals over push distances.
    Hungarian,
}

/// Search options shared by `solve` and `bench`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// What to minimise.
    #[arg(long, value_enum, default_value = "pushes")]
    pub mode: ModeArg,
    /// Lower bound for the A* modes (pushes, moves, cost).
    #[arg(long, value_enum, default_value = "hungarian")]
    pub heuristic: HeuristicArg,
    /// Seconds per level before giving up.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub time_limit: f64,
    /// Megabytes of search memory per level before giving up.
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    pub memory_limit: usize,
    /// Expanded states per level before giving up.
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Box weights for --mode cost, in reading order of the boxes ("3 1 4").
    #[arg(long)]
    pub weights: Option<String>,
}

impl SearchArgs {
    pub fn config(&self) -> Result<Config> {
        let weights = match &self.weights {
            None => None,
            Some(text) => Some(
                text.split_whitespace()
                    .map(|w| w.parse::<u32>().map_err(|_| anyhow::anyhow!("bad weight {w:?} in --weights")))
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        if !(self.time_limit > 0.0 && self.time_limit.is_finite()) {
            anyhow::bail!("--time-limit must be a positive number of seconds");
        }
        Ok(Config {
            mode: match self.mode {
                ModeArg::Pushes => Mode::Pushes,
                ModeArg::Moves => Mode::Moves,
                ModeArg::Cost => Mode::Cost,
                ModeArg::Bfs => Mode::Bfs,
            },
            heuristic: match self.heuristic {
                HeuristicArg::Zero => Heuristic::Zero,
                HeuristicArg::Boxes => Heuristic::Boxes,
                HeuristicArg::Hungarian => Heuristic::Hungarian,
            },
            time_limit: Some(Duration::from_secs_f64(self.time_limit)),
            memory_limit: Some(self.memory_limit.saturating_mul(1 << 20)),
            node_limit: self.node_limit,
            cancel: None,
            weights,
        })
    }
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The level file (XSB/SOK).
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub search: SearchArgs,
    /// One JSON object per level and line.
    #[arg(long)]
    pub json: bool,
}

/// The outcome of one level, verified.
pub struct Outcome {
    pub level: usize,
    pub title: Option<String>,
    pub result: Result<Solution, SolveError>,
    /// Set when the verifier rejected what the solver returned (a bug, reported loudly).
    pub verify_error: Option<String>,
}

impl Outcome {
    pub fn status(&self) -> &'static str {
        match (&self.result, &self.verify_error) {
            (_, Some(_)) => "invalid",
            (Ok(_), None) => "solved",
            (Err(e), None) => e.status(),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        let (lurd, moves, pushes, optimal, cost) = match &self.result {
            Ok(s) => {
                (Some(s.lurd.clone()), Some(s.moves.len()), Some(s.pushes), s.optimal.map(|o| o.name()), Some(s.cost))
            }
            Err(_) => (None, None, None, None, None),
        };
        let stats = match &self.result {
            Ok(s) => &s.stats,
            Err(e) => e.stats(),
        };
        serde_json::json!({
            "level": self.level, "title": self.title, "status": self.status(), "lurd": lurd,
            "moves": moves, "pushes": pushes, "cost": cost, "optimal": optimal,
            "nodes": stats.expanded, "seconds": stats.seconds,
        })
    }
}

/// Solves one level and checks the answer with the independent verifier.
pub fn solve_verified(number: usize, level: &Level, config: &Config) -> Outcome {
    let result = solve(level, config);
    let verify_error = match &result {
        Ok(s) => {
            let report = sokoban::verify::verify(level, &s.lurd);
            (!report.is_valid_solution()).then(|| format!("the verifier rejected the solution: {report:?}"))
        }
        Err(_) => None,
    };
    Outcome { level: number, title: level.title().map(str::to_string), result, verify_error }
}

pub fn run(a: SolveArgs) -> Result<ExitCode> {
    let file = LevelFile::load(&a.levels)?;
    let config = a.search.config()?;
    let mut code = EXIT_OK;
    for n in a.select.pick(file.levels.len())? {
        let level = match file.get(n) {
            Ok(level) => level,
            Err(msg) => {
                eprintln!("{msg}");
                code = EXIT_BAD_INPUT;
                continue;
            }
        };
        let out = solve_verified(n, level, &config);
        if let Some(e) = &out.verify_error {
            eprintln!("level {n}: internal error: {e}");
        }
        if !matches!(out.status(), "solved" | "unsolvable") && code == EXIT_OK {
            code = EXIT_NEGATIVE;
        }
        if a.json {
            println!("{}", out.json());
            continue;
        }
        let title = out.title.as_deref().map(|t| format!(" ({t})")).unwrap_or_default();
        match &out.result {
            Ok(s) => {
                let optimal = s.optimal.map(|o| format!(", optimal in {}", o.name())).unwrap_or_default();
                println!(
                    "level {n}{title}: {}, {} moves, {} pushes{optimal}, {} nodes, {:.3} s",
                    out.status(),
                    s.moves.len(),
                    s.pushes,
                    s.stats.expanded,
                    s.stats.seconds
                );
                println!("{}", s.lurd);
            }
            Err(e) => {
                let st = e.stats();
                println!("level {n}{title}: {}, {} nodes, {:.3} s", out.status(), st.expanded, st.seconds);
            }
        }
    }
    Ok(ExitCode::from(code))
}
