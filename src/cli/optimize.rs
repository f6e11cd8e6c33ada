//! `sokoban optimize`: improve given solutions by a vicinity search.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{Args, ValueEnum};
use sokoban::optimize::{Limits, Metric, optimize, optimize_repeated};

use super::{EXIT_BAD_INPUT, EXIT_OK, InputArgs, LevelFile, Selection, plural};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MetricArg {
    /// Fewest pushes, then fewest moves.
    Pushes,
    /// Fewest moves, then fewest pushes.
    Moves,
}

#[derive(Args, Debug)]
pub struct OptimizeArgs {
    /// The level file.
    pub levels: PathBuf,
    /// The solutions: a .sok file, JSON lines or TSV (level number first, LURD last); `-` reads
    /// standard input.
    pub solutions: PathBuf,
    /// Optimise only the solutions of these levels.
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// What to minimise first.
    #[arg(long, value_enum, default_value = "pushes")]
    pub metric: MetricArg,
    /// Seconds per solution before keeping the best found so far (the given one, if nothing
    /// better was found).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub time_limit: f64,
    /// How many pushes away from the given solution's box configurations the search may go.
    #[arg(long, default_value_t = 1)]
    pub radius: usize,
    /// Search again around each better solution found, at radius 1 up to --radius, then with a
    /// reordering of the same pushes (whole box sessions moved earlier or later), until no step
    /// improves it (or the time limit passes).
    #[arg(long)]
    pub repeat: bool,
    /// Print one JSON object per solution.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: OptimizeArgs) -> Result<ExitCode> {
    if !(a.time_limit > 0.0 && a.time_limit <= 1e9) {
        anyhow::bail!("--time-limit must be a positive number of seconds");
    }
    if a.radius > 3 {
        anyhow::bail!("--radius must be at most 3 (the vicinity grows fast)");
    }
    let (mut read, name) = super::read_solutions(&a.solutions, &a.levels)?;
    let wanted: std::collections::HashSet<usize> = read.entries.iter().map(|e| e.level).collect();
    let file = LevelFile::load_where(&a.levels, &a.input, |n| wanted.contains(&n))?;
    if a.select.is_given() {
        let picked = a.select.pick(file.count)?;
        read.entries.retain(|e| picked.contains(&e.level));
    }
    let metric = match a.metric {
        MetricArg::Pushes => Metric::Pushes,
        MetricArg::Moves => Metric::Moves,
    };
    let (mut improved, mut bad, mut worse) = (0usize, 0usize, 0usize);
    let (mut saved_moves, mut saved_pushes) = (0i64, 0i64);
    for e in &read.entries {
        let level = match file.get(e.level) {
            Ok(level) => level,
            Err(msg) => {
                eprintln!("error: {name}:{}: {msg}", e.line);
                bad += 1;
                continue;
            }
        };
        let started = Instant::now();
        let limits = Limits {
            radius: a.radius,
            deadline: Some(started + Duration::from_secs_f64(a.time_limit)),
            ..Limits::default()
        };
        let optimized = if a.repeat {
            optimize_repeated(level, &e.lurd, metric, limits, &mut || false)
        } else {
            optimize(level, &e.lurd, metric, limits)
        };
        let out = match optimized {
            Ok(out) => out,
            Err(err) => {
                eprintln!("error: {name}:{}: level {}: {err}", e.line, e.level);
                bad += 1;
                continue;
            }
        };
        // The result is replayed once more here, whatever the library did.
        let check = sokoban::verify::verify(level, &out.lurd);
        let before = sokoban::verify::verify(level, &e.lurd);
        let key = |m: usize, p: usize| if matches!(metric, Metric::Moves) { (m, p) } else { (p, m) };
        if !check.is_valid_solution() || key(check.moves, check.pushes) > key(before.moves, before.pushes) {
            worse += 1;
            eprintln!("error: level {}: the optimiser returned a worse or invalid solution", e.level);
            continue;
        }
        if out.improved {
            improved += 1;
            saved_moves += before.moves as i64 - check.moves as i64;
            saved_pushes += before.pushes as i64 - check.pushes as i64;
        }
        let seconds = started.elapsed().as_secs_f64();
        if a.json {
            let obj = serde_json::json!({
                "level": e.level, "lurd": out.lurd, "moves": check.moves, "pushes": check.pushes,
                "before_moves": before.moves, "before_pushes": before.pushes,
                "improved": out.improved, "complete": out.complete, "seconds": seconds,
            });
            outln!("{obj}")?;
        } else {
            let what = if out.improved {
                "improved"
            } else if out.complete {
                "kept"
            } else {
                "kept (time limit)"
            };
            outln!(
                "level {}: {what}: {} moves, {} pushes (was {}, {}), {seconds:.2} s",
                e.level,
                check.moves,
                check.pushes,
                before.moves,
                before.pushes
            )?;
            outln!("{}", out.lurd)?;
        }
    }
    let n = read.entries.len();
    let avg = |total: i64| if improved == 0 { 0.0 } else { total as f64 / improved as f64 };
    eprintln!(
        "{} of {} improved (saved on average {:.1} moves, {:.1} pushes each), {worse} worse, {bad} not optimised",
        improved,
        plural(n, "solution"),
        avg(saved_moves),
        avg(saved_pushes)
    );
    Ok(ExitCode::from(if bad > 0 || worse > 0 { EXIT_BAD_INPUT } else { EXIT_OK }))
}
