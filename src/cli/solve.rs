//! `sokoban solve`: solve levels and print solutions, verified before they are printed.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use sokoban::moves::MoveFormat;
use sokoban::rules::Position;
use sokoban::solver::{Config, Heuristic, Mode, Solution, SolveError, solve};
use sokoban::{Level, Move};

use super::{EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection, interrupt, pool};

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
    /// The fast engine: feature-space search over macro moves; finds hard levels' solutions,
    /// not proven optimal.
    Fast,
    /// Push-optimal A* for a quarter of the limits, then the fast engine; optimal only when
    /// the A* part proved it.
    Auto,
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
    /// Turn off PI-corral pruning in the pushes mode (to measure its effect; results stay
    /// optimal either way).
    #[arg(long)]
    pub no_corral_pruning: bool,
    /// Keep boxes frozen on goals out of the lower bound's distance tables (to measure the
    /// effect of treating them as walls; results stay optimal either way).
    #[arg(long)]
    pub no_frozen_goals: bool,
    /// Levels solved at once, each on its own thread with its own time and memory limit (so
    /// memory can reach N times --memory-limit); 0 means one per core. Results are still
    /// reported in level order.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
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
                ModeArg::Fast => Mode::Fast,
                ModeArg::Auto => Mode::Auto,
            },
            heuristic: match self.heuristic {
                HeuristicArg::Zero => Heuristic::Zero,
                HeuristicArg::Boxes => Heuristic::Boxes,
                HeuristicArg::Hungarian => Heuristic::Hungarian,
            },
            time_limit: Some(Duration::from_secs_f64(self.time_limit)),
            memory_limit: Some(self.memory_limit.saturating_mul(1 << 20)),
            node_limit: self.node_limit,
            // Ctrl-C cancels the running searches so the command can report what it finished.
            cancel: Some(interrupt::flag()),
            progress: None,
            weights,
            corral_pruning: !self.no_corral_pruning,
            frozen_goals: !self.no_frozen_goals,
        })
    }
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The level file (XSB/SOK, integer grid, JSON grid or warehouse; see --format).
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// One JSON object per level and line.
    #[arg(long)]
    pub json: bool,
    /// How to spell the solution: LURD letters (lowercase walk, uppercase push), a JSON array
    /// of "up"/"right"/"down"/"left", or words ("Left, Down, Right, Up"). With --json the `lurd`
    /// field stays LURD and a `solution` field holds the other spelling.
    #[arg(long, value_enum, default_value = "lurd")]
    pub move_format: MoveFormatArg,
    /// After solving, print the board after every move so the solution can be watched (redrawn
    /// in place on a terminal).
    #[arg(long, conflicts_with = "json")]
    pub animate: bool,
    /// Seconds between frames of --animate [default: 0.15 on a terminal, 0 otherwise].
    #[arg(long, value_name = "SECS", requires = "animate")]
    pub delay: Option<f64>,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MoveFormatArg {
    /// LURD letters: l u r d walk, L U R D push.
    Lurd,
    /// A JSON array: ["left","down","right","up"].
    Json,
    /// Words: Left, Down, Right, Up.
    Words,
}

impl MoveFormatArg {
    pub fn format(self) -> MoveFormat {
        match self {
            MoveFormatArg::Lurd => MoveFormat::Lurd,
            MoveFormatArg::Json => MoveFormat::Json,
            MoveFormatArg::Words => MoveFormat::Words,
        }
    }
}

/// The outcome of one level, verified.
pub struct Outcome {
    /// The level file, when a run covers several.
    pub file: Option<String>,
    /// The run minimised cost (so the `cost` field is reported).
    pub cost_mode: bool,
    pub level: usize,
    pub title: Option<String>,
    pub result: Result<Solution, SolveError>,
    /// Set when the verifier rejected what the solver returned (a bug, reported loudly).
    pub verify_error: Option<String>,
}

impl Outcome {
    /// The level number, or the file name (and number, if not 1) when a run covers several files.
    pub fn label(&self) -> String {
        match (&self.file, self.level) {
            (None, n) => n.to_string(),
            (Some(f), n) => {
                let name = std::path::Path::new(f).file_name().map_or(f.clone(), |s| s.to_string_lossy().into_owned());
                if n == 1 { name } else { format!("{name}#{n}") }
            }
        }
    }

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
        let mut json = serde_json::json!({
            "level": self.level, "title": self.title, "status": self.status(), "lurd": lurd,
            "moves": moves, "pushes": pushes, "cost": cost, "optimal": optimal,
            "nodes": stats.expanded, "seconds": stats.seconds,
        });
        if let Some(file) = &self.file {
            json["file"] = serde_json::Value::String(file.clone());
        }
        // `cost` means something only when weights were counted; otherwise the fields are the
        // documented set exactly.
        if !self.cost_mode
            && let Some(map) = json.as_object_mut()
        {
            map.remove("cost");
        }
        json
    }
}

/// Solves one level and checks the answer with the independent verifier.
/// A level whose turn comes after a cancellation is not started: it reports `cancelled`.
pub fn solve_verified(number: usize, level: &Level, config: &Config) -> Outcome {
    let cancelled = config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    let result = if cancelled { Err(SolveError::Cancelled(Default::default())) } else { solve(level, config) };
    let verify_error = match &result {
        Ok(s) => {
            let report = sokoban::verify::verify(level, &s.lurd);
            (!report.is_valid_solution()).then(|| format!("the verifier rejected the solution: {report:?}"))
        }
        Err(_) => None,
    };
    Outcome {
        file: None,
        cost_mode: config.mode == Mode::Cost,
        level: number,
        title: level.title().map(str::to_string),
        result,
        verify_error,
    }
}

/// Like [`solve_verified`], but while the search runs, `show` is called about ten times a second
/// with the number of states expanded so far (for a spinner or a progress bar message).
pub fn solve_watched(number: usize, level: &Level, config: &Config, show: impl Fn(u64)) -> Outcome {
    let counter = Arc::new(AtomicU64::new(0));
    let config = Config { progress: Some(counter.clone()), ..config.clone() };
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        let search = scope.spawn(move || {
            let out = solve_verified(number, level, &config);
            let _ = done.send(());
            out
        });
        // Wakes as soon as the search ends, so quick levels cost no waiting.
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(Duration::from_millis(100)) {
            show(counter.load(Ordering::Relaxed));
        }
        search.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

pub fn run(a: SolveArgs) -> Result<ExitCode> {
    let file = LevelFile::load(&a.levels, &a.input)?;
    let config = a.search.config()?;
    let mut code = EXIT_OK;
    let picked = a.select.pick(file.levels.len())?;
    let jobs = pool::worker_count(a.search.jobs);
    let tty = std::io::stderr().is_terminal();
    // A spinner on standard error while levels run; stdout stays clean.
    let spinner = if tty { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {prefix}: {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    if jobs > 1 {
        spinner.set_prefix(format!("{jobs} at once"));
        spinner.set_message(format!("0 of {} levels done", picked.len()));
        spinner.enable_steady_tick(Duration::from_millis(100));
    }
    let finished = AtomicU64::new(0);
    let work = |i: usize| -> Result<Outcome, String> {
        let n = picked[i];
        let level = file.get(n)?;
        let out = if jobs == 1 && tty {
            spinner.set_prefix(format!("level {n}"));
            spinner.reset_elapsed();
            solve_watched(n, level, &config, |nodes| {
                spinner.set_message(format!("{nodes} states expanded"));
                spinner.tick();
            })
        } else {
            solve_verified(n, level, &config)
        };
        let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if jobs > 1 {
            spinner.set_message(format!("{done} of {} levels done", picked.len()));
        }
        Ok(out)
    };
    let mut report = |i: usize, result: Result<Outcome, String>| -> Result<()> {
        let n = picked[i];
        let out = match result {
            Ok(out) => out,
            Err(msg) => {
                spinner.suspend(|| eprintln!("{msg}"));
                code = EXIT_BAD_INPUT;
                return Ok(());
            }
        };
        if interrupt::interrupted() && out.status() == "cancelled" {
            return Ok(()); // reported once, below
        }
        let level = file.get(n).expect("solved levels parsed");
        spinner.suspend(|| print_outcome(&a, &config, level, n, out, &mut code))
    };
    let mut failure = None;
    pool::in_order(picked.len(), jobs, work, |i, result| {
        if failure.is_none()
            && let Err(e) = report(i, result)
        {
            failure = Some(e);
        }
    });
    spinner.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    if interrupt::interrupted() {
        eprintln!("interrupted: the levels above were finished, the rest were not run");
        return Ok(ExitCode::from(interrupt::EXIT_INTERRUPTED));
    }
    Ok(ExitCode::from(code))
}

/// Prints one level's outcome (and its animation), updating the exit code.
fn print_outcome(a: &SolveArgs, config: &Config, level: &Level, n: usize, out: Outcome, code: &mut u8) -> Result<()> {
    if let Some(e) = &out.verify_error {
        eprintln!("level {n}: internal error: {e}");
    }
    if !matches!(out.status(), "solved" | "unsolvable") && *code == EXIT_OK {
        *code = EXIT_NEGATIVE;
    }
    let format = a.move_format.format();
    if a.json {
        let mut json = out.json();
        if let (Ok(s), false) = (&out.result, format == MoveFormat::Lurd) {
            let text = sokoban::moves::write(&s.moves, format);
            // A JSON spelling is embedded as an array, words as a string.
            json["solution"] = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
        }
        println!("{json}");
        return Ok(());
    }
    let title = out.title.as_deref().map(|t| format!(" ({t})")).unwrap_or_default();
    match &out.result {
        Ok(s) => {
            let optimal = s.optimal.map(|o| format!(", optimal in {}", o.name())).unwrap_or_default();
            let cost = if config.mode == Mode::Cost { format!(", cost {}", s.cost) } else { String::new() };
            println!(
                "level {n}{title}: {}, {} moves, {} pushes{cost}{optimal}, {} nodes, {:.3} s",
                out.status(),
                s.moves.len(),
                s.pushes,
                s.stats.expanded,
                s.stats.seconds
            );
            println!("{}", sokoban::moves::write(&s.moves, format));
            if a.animate && out.verify_error.is_none() {
                animate(level, &s.moves, a.delay)?;
            }
        }
        Err(e) => {
            let st = e.stats();
            println!("level {n}{title}: {}, {} nodes, {:.3} s", out.status(), st.expanded, st.seconds);
        }
    }
    Ok(())
}

/// Prints the board after every move; on a terminal each frame overwrites the previous one.
fn animate(level: &Level, moves: &[Move], delay: Option<f64>) -> Result<()> {
    use std::io::Write;
    let tty = std::io::stdout().is_terminal();
    let delay = delay.unwrap_or(if tty { 0.15 } else { 0.0 });
    if !(delay >= 0.0 && delay.is_finite()) {
        anyhow::bail!("--delay must be a non-negative number of seconds");
    }
    let mut out = std::io::stdout().lock();
    let mut position = Position::start(level);
    let mut frame = |position: &Position, i: usize, first: bool| -> std::io::Result<()> {
        let rows = sokoban::format::xsb::position_rows(level, position);
        if tty && !first {
            // Move the cursor back to the top of the previous frame (rows + caption line).
            write!(out, "\x1b[{}A", rows.len() + 1)?;
        }
        let clear = if tty { "\x1b[K" } else { "" }; // erase what is left of a longer old line
        writeln!(out, "move {i}/{}{clear}", moves.len())?;
        for row in rows {
            writeln!(out, "{row}{clear}")?;
        }
        if !tty {
            writeln!(out)?;
        }
        out.flush()
    };
    frame(&position, 0, true)?;
    for (i, m) in moves.iter().enumerate() {
        std::thread::sleep(Duration::from_secs_f64(delay));
        position = position.step(level, m.dir).map_err(|e| anyhow::anyhow!("move {i}: {e:?}"))?.0;
        frame(&position, i + 1, false)?;
    }
    Ok(())
}
