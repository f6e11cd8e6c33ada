//! `sokoban solve`: solve levels and print solutions, verified before they are printed.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use sokoban::moves::MoveFormat;
use sokoban::rules::Position;
use sokoban::solver::{
    AStarOptions, Config, DEFAULT_TIME_LIMIT, FastOptions, Heuristic, Mode, OnSolution, Proof, Pruning, Solution,
    SolveError, Status, solve,
};
use sokoban::{Level, Move};

use super::{EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection, Tally, interrupt, plural, pool};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// The default: the fast engine, answering as soon as it finds a solution, after a short
    /// push-optimal A* attempt to prove it (a quarter of the finding time, at least 0.1 s;
    /// --prove gives the proof the whole time limit); "optimal" says what was proven.
    Auto,
    /// The fast engine: feature-space search over macro moves; finds hard levels' solutions,
    /// not proven optimal.
    Fast,
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
    /// What to minimise, and how. Default: `auto` for `solve` (a solution as soon as it is
    /// found, proven push-optimal when that is quick), `pushes` for `bench` (the proven figures of
    /// BENCHMARKS.md).
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// With the default mode: after finding a solution, spend the rest of the time limit (and
    /// up to --memory-limit) proving it push-optimal or finding a better one, instead of a
    /// short attempt.
    #[arg(long)]
    pub prove: bool,
    /// Lower bound for the A* modes (pushes, moves, cost).
    #[arg(long, value_enum, default_value = "hungarian")]
    pub heuristic: HeuristicArg,
    /// Seconds per level before giving up.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIME_LIMIT.as_secs_f64(), allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Megabytes of search memory per level before giving up [default: half the physical
    /// memory of this machine, shared by the --jobs levels that run at once].
    #[arg(long, value_name = "MB", allow_negative_numbers = true)]
    pub memory_limit: Option<i64>,
    /// Expanded states per level before giving up.
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Box weights for --mode cost, in reading order of the boxes ("3 1 4").
    #[arg(long)]
    pub weights: Option<String>,
    /// Turn off PI-corral pruning in the pushes mode and the fast engine (to measure its
    /// effect; results stay optimal either way).
    #[arg(long, help_heading = RESEARCH)]
    pub no_corral_pruning: bool,
    /// Fast engine: no parking squares in the packing plan, neither for boxes that cannot get
    /// back to where boxes start nor for boxes staged behind the goals (to measure their
    /// effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_parking: bool,
    /// Fast engine: follow the packing plan as worked out backwards, without checking it
    /// forwards from the start (to measure the check's effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_plan_check: bool,
    /// Fast engine: no opener advisor (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_opener: bool,
    /// Fast engine: no explorer advisor, the move that lets the player push a box it could not
    /// push before (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_explorer: bool,
    /// Fast engine: no closing third pass with cells of their own for states whose way to the
    /// plan's next goal is blocked by boxes (it runs under time limits above 10 s, and under
    /// shorter limits on what the midpoint leaves; to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_blocked_cells: bool,
    /// Fast engine: no hotspot advisor (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_hotspots: bool,
    /// Fast engine: no backward search (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_pulls: bool,
    /// Fast engine: no exhaustive search proving states dead before they are expanded (to
    /// measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_dead_search: bool,
    /// Fast engine: push distances over the relaxed push graph (the player anywhere), as A*
    /// uses them, instead of following the player (to measure the difference).
    #[arg(long, help_heading = RESEARCH)]
    pub no_aware_distances: bool,
    /// Fast engine: no sprints (short searches with a fresh packing plan from the states
    /// that put the most boxes on goals) (to measure their effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_sprints: bool,
    /// Fast engine: under time limits above 10 s, no staging advisor (a box of a pair
    /// standing in each other's way at the start stepping aside before the first goal is
    /// filled) (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_staging: bool,
    /// Fast engine: the second pass follows the first pass's packing plan instead of one of
    /// its own worked out in layers (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_layered_plan: bool,
    /// Fast engine: the feature-space cells take turns alone, with no extra turn for the
    /// most advanced cell after each (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_lead_cell: bool,
    /// Fast engine: a state with at most two moves pays for each, with none of them free
    /// (to measure the effect of free moves through narrow places).
    #[arg(long, help_heading = RESEARCH)]
    pub no_narrow_moves: bool,
    /// Fast engine: of the moves that pack, only the one with the smallest matching bound is
    /// free, not also the one that leaves the fewest player regions and hotspots (to measure
    /// its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_open_packing: bool,
    /// Fast engine: the first pass's packing plan is peeled one box at a time, never taken
    /// from the backward search that takes boxes away where boxes start (to measure its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_bases_plan: bool,
    /// Fast engine: no staged plan (the backward search in which a box leaves only while the
    /// player reaches the start area): neither as the first pass's plan where the other
    /// backward line leaves boxes, nor as a pass after a long limit's first round (to measure
    /// its effect).
    #[arg(long, help_heading = RESEARCH)]
    pub no_staged_plan: bool,
    /// Fast engine: states that cannot follow the packing plan (a goal it has yet to fill has
    /// no box left that can reach it in its turn) share their cells with the others and get
    /// packing advice (to measure the effect of setting them apart).
    #[arg(long, help_heading = RESEARCH)]
    pub no_plan_reach: bool,
    /// Fast engine: no dives: a packing line's next state waits for its cell's turn instead of
    /// being expanded at once (to measure the effect of the dive).
    #[arg(long, help_heading = RESEARCH)]
    pub no_dive: bool,
    /// Fast engine: in the staging pass, the lines of all the root's moves share their cells
    /// instead of each move an advisor names having cells of its own (to measure the effect
    /// of the branch feature).
    #[arg(long, help_heading = RESEARCH)]
    pub no_root_branches: bool,
    /// Fast engine: no staging midpoint (when the backward searches reach no state to aim at,
    /// a solve through the position where the packing plan's boxes wait round the goal area:
    /// first the boxes to those squares, then the goals from there) (to measure its effect)
    #[arg(long, help_heading = RESEARCH)]
    pub no_staging_midpoint: bool,
    /// Fast engine: the rooms advisor, off by default: a move that cuts fewer links between
    /// the level's rooms (open areas joined by corridors) is cheaper. More levels at a fixed
    /// number of expansions, but each expansion is about a third slower (to measure it).
    #[arg(long, help_heading = RESEARCH)]
    pub rooms_advisor: bool,
    /// Fast engine: on one thread, no second lane taking turns with the passes (the staged
    /// pass and the blocked pass, a quarter of the thread under a time limit) (to measure it)
    #[arg(long, help_heading = RESEARCH)]
    pub no_turns: bool,
    /// Keep boxes frozen on goals out of the lower bound's distance tables (to measure the
    /// effect of treating them as walls; results stay optimal either way).
    #[arg(long, help_heading = RESEARCH)]
    pub no_frozen_goals: bool,
    /// In the pushes mode, skip the second pass that proves the fewest moves among the
    /// push-optimal solutions (faster; the push count stays proven, `optimal` says "pushes").
    #[arg(long, help_heading = RESEARCH)]
    pub no_moves_tiebreak: bool,
    /// Levels solved at once, each on its own thread with its own time and memory limit (so
    /// memory can reach N times --memory-limit; the default limit is divided among them); 0
    /// means one per core. Results are still reported in level order.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Threads for each level: the fast engine runs a portfolio of its searches at once, and
    /// the first solution ends them (modes auto and fast; the others use one thread). Threads
    /// times --jobs should not exceed the cores. With 1 two of its searches take turns on the
    /// one thread, and a search under --node-limit gives the same answer every run [default:
    /// solve: the cores divided by --jobs; bench: 1, so that its figures are one thread's].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// What the defaults of [`SearchArgs::config`] are for: `solve` (answers, on every core) or
/// `bench` (measurements of the proven mode, on one thread per level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Solve,
    Bench,
}

/// The threads per level for `--threads` (`given`) and `--jobs` (`jobs` levels at once): as
/// given, or by default the cores shared among the levels (`solve`) or one (`bench`).
pub(crate) fn threads_per_level(given: Option<usize>, jobs: usize, purpose: Purpose) -> Result<usize> {
    let cores = pool::worker_count(0);
    match (given, purpose) {
        (Some(0), _) => anyhow::bail!("--threads must be at least 1"),
        (Some(n), _) => {
            if n.saturating_mul(jobs) > cores {
                eprintln!(
                    "note: --threads {n} times --jobs {jobs} asks for {} threads on {cores} cores; they will share them",
                    n.saturating_mul(jobs)
                );
            }
            Ok(n)
        }
        (None, Purpose::Bench) => Ok(1),
        (None, Purpose::Solve) => Ok((cores / jobs.max(1)).max(1)),
    }
}

/// The heading of the switches that turn a technique off to measure its effect.
const RESEARCH: &str = "Research (switch a technique off to measure its effect)";

/// The largest --time-limit and --delay accepted, in seconds: 1e9 (about 31 years). Larger
/// values would overflow the clock arithmetic.
pub(crate) const MAX_SECONDS: f64 = 1e9;

/// Checks that --weights gives one weight per box of every level to solve, before any work.
pub fn check_weights<'a>(config: &Config, levels: impl IntoIterator<Item = (String, &'a Level)>) -> Result<()> {
    let Some(weights) = &config.weights else { return Ok(()) };
    for (name, level) in levels {
        let boxes = level.boxes().len();
        if weights.len() != boxes {
            let given = plural(weights.len(), "number");
            anyhow::bail!(
                "--weights gives {given} but {name} has {boxes} boxes (one weight per box, in reading order)"
            );
        }
    }
    Ok(())
}

/// Half the physical memory in megabytes (the library's default limit).
pub(crate) fn default_memory_mb() -> usize {
    sokoban::system::default_memory_limit() >> 20
}

/// `--time-limit SECS`, checked: positive and at most [`MAX_SECONDS`].
pub(crate) fn time_limit_of(secs: f64) -> Result<Duration> {
    if !(secs > 0.0 && secs <= MAX_SECONDS) {
        anyhow::bail!("--time-limit must be a positive number of seconds, at most {MAX_SECONDS:e} (31 years)");
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The memory limit in bytes of each of `jobs` levels solved at once: `given` megabytes, or
/// [`default_memory_mb`] shared by them, so together they stay under half the physical memory.
pub(crate) fn memory_per_level(given: Option<i64>, jobs: usize) -> Result<usize> {
    match given {
        None => Ok((default_memory_mb() / jobs.max(1)).max(1) << 20),
        Some(mb) if mb > 0 => Ok(usize::try_from(mb).unwrap_or(usize::MAX).saturating_mul(1 << 20)),
        Some(_) => anyhow::bail!("--memory-limit must be a positive number of megabytes"),
    }
}

impl SearchArgs {
    /// The solver configuration, with the mode and threads `purpose` has by default when none
    /// were given.
    pub fn config(&self, purpose: Purpose) -> Result<Config> {
        let default = match purpose {
            Purpose::Solve => ModeArg::Auto,
            Purpose::Bench => ModeArg::Pushes,
        };
        let mode = self.mode.unwrap_or(default);
        let jobs = pool::worker_count(self.jobs);
        if self.prove && !matches!(mode, ModeArg::Auto) {
            anyhow::bail!("--prove applies to the default mode, auto (the other modes prove their optimum or nothing)");
        }
        let weights = match &self.weights {
            None => None,
            Some(text) => Some(
                text.split_whitespace()
                    .map(|w| w.parse::<u32>().map_err(|_| anyhow::anyhow!("bad weight {w:?} in --weights")))
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        Ok(Config {
            mode: match mode {
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
            time_limit: Some(time_limit_of(self.time_limit)?),
            memory_limit: Some(memory_per_level(self.memory_limit, jobs)?),
            node_limit: self.node_limit,
            // Ctrl-C cancels the running searches so the command can report what it finished.
            cancel: Some(interrupt::flag()),
            progress: None,
            threads: threads_per_level(self.threads, jobs, purpose)?,
            weights,
            proof: if self.prove { Proof::Full } else { Proof::Cheap },
            // Set by `solve --improve`, which prints each solution as it comes.
            on_solution: None,
            pruning: Pruning { corrals: !self.no_corral_pruning, frozen_goals: !self.no_frozen_goals },
            astar: AStarOptions { moves_tiebreak: !self.no_moves_tiebreak },
            fast: FastOptions {
                parking: !self.no_parking,
                plan_check: !self.no_plan_check,
                opener: !self.no_opener,
                explorer: !self.no_explorer,
                blocked: !self.no_blocked_cells,
                hotspots: !self.no_hotspots,
                dead_search: !self.no_dead_search,
                pulls: !self.no_pulls,
                aware: !self.no_aware_distances,
                sprints: !self.no_sprints,
                staging: !self.no_staging,
                layers: !self.no_layered_plan,
                lead: !self.no_lead_cell,
                dive: !self.no_dive,
                narrow: !self.no_narrow_moves,
                open_packing: !self.no_open_packing,
                bases: !self.no_bases_plan,
                staged: !self.no_staged_plan,
                plan_reach: !self.no_plan_reach,
                root_branches: !self.no_root_branches,
                staging_midpoint: !self.no_staging_midpoint,
                rooms: self.rooms_advisor,
                turns: !self.no_turns,
            },
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
    /// With the default mode: like --prove, and print each better solution as it is found
    /// (a line `improved`, in JSON `"status":"improved"`), then the level's final answer; Ctrl-C
    /// prints the best so far. With --jobs above 1, lines of different levels can interleave.
    #[arg(long)]
    pub improve: bool,
    /// One JSON object per level and line.
    #[arg(long)]
    pub json: bool,
    /// How to spell the solution: LURD letters (lowercase walk, uppercase push), a JSON array
    /// of "up"/"right"/"down"/"left", or words ("Left, Down, Right, Up"). With --json the `lurd`
    /// field stays LURD and a `solution` field holds the other spelling.
    #[arg(long, value_enum, default_value = "lurd")]
    pub move_format: MoveFormatArg,
    /// Write LURD run-length encoded: a count before a repeated letter (`3l2U` for `lllUU`),
    /// in the printed solution and the JSON `lurd` field (every reader of this program takes it).
    #[arg(long)]
    pub rle: bool,
    /// Also write the levels with their solutions to FILE as a .sok file (opens in YASC, JSoko
    /// and other Sokoban programs; `sokoban verify FILE FILE` checks it).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
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

    pub fn status(&self) -> Status {
        Status::of(&self.result)
    }

    pub fn json(&self) -> serde_json::Value {
        let mut json =
            sokoban::solver::report::outcome_json(self.level, self.title.as_deref(), &self.result, self.cost_mode);
        if let Some(file) = &self.file {
            json["file"] = serde_json::Value::String(file.clone());
        }
        json
    }
}

/// Solves one level (the library verifies every solution it returns).
/// A level whose turn comes after a cancellation is not started: it reports `cancelled`.
pub fn solve_verified(number: usize, level: &Level, config: &Config) -> Outcome {
    let cancelled = config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    let result = if cancelled { Err(SolveError::Cancelled(Default::default())) } else { solve(level, config) };
    Outcome {
        file: None,
        cost_mode: config.mode == Mode::Cost,
        level: number,
        title: level.title().map(str::to_string),
        result,
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

/// The search settings `solve`'s options ask for (an error for a combination that makes no
/// sense).
fn solve_config(a: &SolveArgs) -> Result<Config> {
    let config = a.search.config(Purpose::Solve)?;
    if a.improve && config.mode != Mode::Auto {
        anyhow::bail!("--improve applies to the default mode, auto (the other modes find one answer)");
    }
    Ok(Config { proof: if a.improve { Proof::Full } else { config.proof }, ..config })
}

/// The spinner on standard error while levels run (hidden when it is not a terminal; stdout
/// stays clean): with several jobs it counts the levels done, else each level shows its own.
fn spinner(tty: bool, jobs: usize, levels: usize) -> ProgressBar {
    let spinner = if tty { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {prefix}: {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    if jobs > 1 {
        spinner.set_prefix(format!("{jobs} at once"));
        spinner.set_message(format!("0 of {levels} levels done"));
        spinner.enable_steady_tick(Duration::from_millis(100));
    }
    spinner
}

/// Writes the `--out` file: each level of `found` (by number) with its solution, if solved.
fn write_solutions(path: &std::path::Path, file: &LevelFile, found: &[(usize, Option<String>)]) -> Result<()> {
    let blocks: Vec<sokoban::sok::Block> = found
        .iter()
        .filter_map(|(n, lurd)| {
            let level = file.get(*n).ok()?;
            Some(sokoban::sok::Block { number: *n, level, solutions: lurd.iter().cloned().collect() })
        })
        .collect();
    super::write_output(path, &sokoban::sok::write(&blocks))
}

pub fn run(a: SolveArgs) -> Result<ExitCode> {
    // Options first: nothing is read or solved when one is wrong.
    let config = solve_config(&a)?;
    let delay = animation_delay(a.delay)?;
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let mut code = EXIT_OK;
    let picked = a.select.pick(file.count)?;
    check_weights(&config, picked.iter().filter_map(|&n| Some((format!("level {n}"), file.get(n).ok()?))))?;
    let jobs = pool::worker_count(a.search.jobs);
    let tty = std::io::stderr().is_terminal();
    let spinner = spinner(tty, jobs, picked.len());
    if let Some(out) = &a.out
        && super::same_file(out, &a.levels)
    {
        anyhow::bail!("--out {} would write over the level file", out.display());
    }
    let finished = AtomicU64::new(0);
    let mut tally = Tally::start();
    // The solutions for --out, by level number (None: not solved).
    let mut found: Vec<(usize, Option<String>)> = Vec::new();
    let printer = Printer::of(&a, &config);
    let work = |i: usize| -> Result<Outcome, String> {
        let n = picked[i];
        let level = file.get(n)?;
        let improving;
        let config = match a.improve {
            true => {
                improving = printing_improvements(&config, printer, level, n, &spinner);
                &improving
            }
            false => &config,
        };
        let out = if jobs == 1 && tty {
            spinner.set_prefix(format!("level {n}"));
            spinner.reset_elapsed();
            solve_watched(n, level, config, |nodes| {
                spinner.set_message(format!("{nodes} states expanded"));
                spinner.tick();
            })
        } else {
            solve_verified(n, level, config)
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
                spinner.suspend(|| super::level_error(&msg));
                tally.add(None);
                code = EXIT_BAD_INPUT;
                return Ok(());
            }
        };
        if interrupt::interrupted() && out.status() == Status::Cancelled {
            return Ok(()); // reported once, below
        }
        tally.add(Some(out.status()));
        found.push((n, out.result.as_ref().ok().map(|s| s.lurd.clone())));
        let level = file.get(n).expect("solved levels parsed");
        spinner.suspend(|| print_outcome(&a, printer, delay, level, out, &mut code))
    };
    let mut failure = None;
    pool::in_order(picked.len(), jobs, work, |i, result| {
        if failure.is_none()
            && let Err(e) = report(i, result)
        {
            // Output failed: stop at once instead of solving levels nobody will see.
            interrupt::stop_for_error();
            failure = Some(e);
        }
    });
    spinner.finish_and_clear();
    if let Some(path) = &a.out {
        write_solutions(path, &file, &found)?;
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if picked.len() > 1 {
        eprintln!("{}", tally.line());
    }
    if interrupt::interrupted() {
        eprintln!("interrupted: the levels above were finished, the rest were not run");
        return Ok(ExitCode::from(interrupt::EXIT_INTERRUPTED));
    }
    Ok(ExitCode::from(code))
}

/// How `solve` writes a level's outcome: the settings of its output options.
#[derive(Debug, Clone, Copy)]
struct Printer {
    json: bool,
    rle: bool,
    format: MoveFormat,
    cost_mode: bool,
}

impl Printer {
    fn of(a: &SolveArgs, config: &Config) -> Printer {
        Printer { json: a.json, rle: a.rle, format: a.move_format.format(), cost_mode: config.mode == Mode::Cost }
    }

    fn lurd_text(&self, moves: &[Move]) -> String {
        let lurd = sokoban::lurd::encode(moves);
        if self.rle { sokoban::lurd::compress(&lurd) } else { lurd }
    }

    /// The lines for `out`, a level's outcome, under the status name `status` (the outcome's
    /// own, or `improved` for a solution on the way to it), without the last line end.
    fn lines(&self, level: &Level, out: &Outcome, status: &str) -> String {
        if self.json {
            return self.json_line(level, out, status);
        }
        let n = out.level;
        let title = super::title_suffix(n, out.title.as_deref());
        match &out.result {
            Ok(s) => {
                let optimal = s.optimal.map(|o| format!(", optimal in {}", o.name())).unwrap_or_default();
                let cost = if self.cost_mode { format!(", cost {}", s.cost) } else { String::new() };
                let moves = match self.format {
                    MoveFormat::Lurd => self.lurd_text(&s.moves),
                    format => sokoban::moves::write(&s.moves, format),
                };
                format!(
                    "level {n}{title}: {status}, {}, {}{cost}{optimal}, {}, {:.3} s\n{moves}",
                    plural(s.moves.len(), "move"),
                    plural(s.pushes, "push"),
                    plural(s.stats.expanded as usize, "node"),
                    s.stats.seconds
                )
            }
            Err(e) => {
                let st = e.stats();
                let nodes = plural(st.expanded as usize, "node");
                format!("level {n}{title}: {status}, {nodes}, {:.3} s", st.seconds)
            }
        }
    }

    fn json_line(&self, level: &Level, out: &Outcome, status: &str) -> String {
        let mut json = out.json();
        json["status"] = status.into();
        let metrics =
            out.result.as_ref().ok().and_then(|s| sokoban::metrics::measure(level, s.moves.iter().map(|m| m.dir)).ok());
        add_metrics(&mut json, metrics.as_ref());
        if let (Ok(s), true) = (&out.result, self.rle) {
            json["lurd"] = serde_json::Value::String(self.lurd_text(&s.moves));
        }
        if let (Ok(s), false) = (&out.result, self.format == MoveFormat::Lurd) {
            let text = sokoban::moves::write(&s.moves, self.format);
            // A JSON spelling is embedded as an array, words as a string.
            json["solution"] = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
        }
        json.to_string()
    }
}

/// `config` for level `n` under `solve --improve`: each solution found on the way is printed
/// as it comes (through `spinner`, so the two do not mix on a terminal).
fn printing_improvements(config: &Config, printer: Printer, level: &Level, n: usize, spinner: &ProgressBar) -> Config {
    let (level, spinner) = (level.clone(), spinner.clone());
    let print = move |solution: &Solution| {
        let out = Outcome {
            file: None,
            cost_mode: printer.cost_mode,
            level: n,
            title: level.title().map(str::to_string),
            result: Ok(solution.clone()),
        };
        // A failed write shows again, and ends the run, when the level's answer is printed.
        spinner.suspend(|| outln!("{}", printer.lines(&level, &out, "improved")).ok());
    };
    Config { on_solution: Some(OnSolution(Arc::new(print))), ..config.clone() }
}

/// Prints one level's outcome (and its animation), updating the exit code.
fn print_outcome(
    a: &SolveArgs,
    printer: Printer,
    delay: f64,
    level: &Level,
    out: Outcome,
    code: &mut u8,
) -> Result<()> {
    if let Err(e @ SolveError::Unverified(_)) = &out.result {
        eprintln!("level {}: {e}", out.level);
    }
    if !out.status().is_verdict() && *code == EXIT_OK {
        *code = EXIT_NEGATIVE;
    }
    outln!("{}", printer.lines(level, &out, out.status().name()))?;
    if let (Ok(s), true) = (&out.result, a.animate) {
        animate(level, &s.moves, delay)?;
    }
    Ok(())
}

/// Adds the secondary solution metrics (null when there is no solution) to a level's JSON.
pub fn add_metrics(json: &mut serde_json::Value, metrics: Option<&sokoban::metrics::Metrics>) {
    sokoban::solver::report::add_metrics_json(json, metrics);
}

/// The seconds between frames of --animate: as given (checked), else 0.15 on a terminal and 0
/// otherwise.
fn animation_delay(delay: Option<f64>) -> Result<f64> {
    let tty = std::io::stdout().is_terminal();
    let delay = delay.unwrap_or(if tty { 0.15 } else { 0.0 });
    if !(0.0..=MAX_SECONDS).contains(&delay) {
        anyhow::bail!("--delay must be a non-negative number of seconds, at most {MAX_SECONDS:e}");
    }
    Ok(delay)
}

/// Prints the board after every move; on a terminal each frame overwrites the previous one.
fn animate(level: &Level, moves: &[Move], delay: f64) -> Result<()> {
    use std::io::Write;
    let tty = std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let mut position = Position::start(level);
    let mut frame = |position: &Position, i: usize, first: bool| -> std::io::Result<()> {
        let rows = sokoban::format::xsb::raw_rows(level, &position.to_raw(level));
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
    frame(&position, 0, true).context("cannot write to standard output")?;
    for (i, m) in moves.iter().enumerate() {
        std::thread::sleep(Duration::from_secs_f64(delay));
        position = position.step(level, m.dir).map_err(|e| anyhow::anyhow!("move {i}: {e:?}"))?.0;
        frame(&position, i + 1, false).context("cannot write to standard output")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_memory_limit_is_shared_by_the_levels_that_run_at_once() {
        let one = memory_per_level(None, 1).unwrap();
        let four = memory_per_level(None, 4).unwrap();
        assert_eq!(one, default_memory_mb() << 20);
        assert!(four * 4 <= one && four > 0);
        assert_eq!(memory_per_level(Some(300), 4).unwrap(), 300 << 20, "a given limit is per level");
        assert!(memory_per_level(Some(0), 1).is_err());
    }
}
