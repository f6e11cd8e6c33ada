//! `sokoban analyze`: show the static analysis of a level.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use sokoban::analysis::Analysis;
use sokoban::level::Tile;
use sokoban::solver::Heuristic;
use sokoban::solver::bound::LowerBound;
use sokoban::solver::frozen::TableId;
use sokoban::solver::state::BoxAt;

use super::solve::{memory_per_level, time_limit_of};
use super::{
    EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection, interrupt, level_error, plural,
    title_suffix,
};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The level file.
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the AI-course taboo map instead: walls `#`, taboo squares `X`, everything else a
    /// space (boxes, goals and the player removed). A square is taboo if it is an inside corner
    /// that is not a goal, or lies on a walled run between two taboo corners with no goal on it.
    #[arg(long)]
    pub taboo: bool,
    /// Also print the fast engine's packing plan: the board with each goal marked by its place
    /// in the filling order (1-9, then a-z, then A-Z; `+` past 61) and each parking square by
    /// `p`, then the order as a list of (row, column) squares, counted from 1; and the second
    /// pass's plan, worked out in layers, when it differs.
    #[arg(long)]
    pub plan: bool,
    /// Seconds per level for the analysis and the start's lower bound (a level with thousands
    /// of boxes and goals takes seconds); a level that passes it is reported and skipped.
    #[arg(long, value_name = "SECS", default_value_t = 60.0, allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Megabytes per level for the analysis's tables; a level that needs more is reported and
    /// skipped [default: half the physical memory of this machine].
    #[arg(long, value_name = "MB", allow_negative_numbers = true)]
    pub memory_limit: Option<i64>,
}

/// Why a level's analysis was cut short.
enum Cut {
    /// The time limit passed.
    Time,
    /// Ctrl-C.
    Interrupted,
}

pub fn run(a: AnalyzeArgs) -> Result<ExitCode> {
    let limit = time_limit_of(a.time_limit)?;
    let memory = memory_per_level(a.memory_limit, 1)?;
    // Ctrl-C ends the analysis of the level at hand (checked between steps of bounded work).
    let cancel = interrupt::flag();
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let mut code = EXIT_OK;
    for n in a.select.pick(file.count)? {
        let level = match file.get(n) {
            Ok(l) => l,
            Err(msg) => {
                level_error(&msg);
                code = EXIT_BAD_INPUT;
                continue;
            }
        };
        if a.taboo {
            print_taboo(level)?;
            continue;
        }
        let title = title_suffix(n, level.title());
        // The analysis and the bound's copy of its distance table.
        let needs = Analysis::bytes_for(level).saturating_mul(2);
        if needs > memory {
            let mb = needs.div_ceil(1 << 20);
            outln!("Level {n}{title}: not analysed, its tables need {mb} MB (over --memory-limit {})", memory >> 20)?;
            outln!()?;
            code = EXIT_NEGATIVE;
            continue;
        }
        let started = Instant::now();
        let mut cut = None;
        let mut stop = || {
            if cancel.load(Ordering::Relaxed) {
                cut = Some(Cut::Interrupted);
            } else if started.elapsed() >= limit {
                cut = Some(Cut::Time);
            }
            cut.is_some()
        };
        let analysed = Analysis::new_within(level, &mut stop);
        let bound = analysed.as_ref().and_then(|an| start_bound(level, an, &mut stop));
        match cut {
            Some(Cut::Interrupted) => return Ok(interrupted()),
            Some(Cut::Time) if analysed.is_none() => {
                outln!("Level {n}{title}: not analysed, the time limit ({} s) passed", a.time_limit)?;
                outln!()?;
                code = EXIT_NEGATIVE;
                continue;
            }
            _ => {}
        }
        let Some(an) = analysed else { continue };
        let squares = plural(an.squares(), "square");
        outln!("Level {n}{title}: {squares}, {} live, {} dead", an.live(), an.squares() - an.live())?;
        outln!("Dead squares are marked x (a box there can never reach a goal).")?;
        let raw = level.to_raw();
        for r in 0..level.height() {
            let row: String = (0..level.width())
                .map(|c| {
                    let cell = raw.rows[r][c];
                    match (level.tile(r, c), level.square_at(r, c)) {
                        (Tile::Wall, _) => '#',
                        (_, Some(s)) if an.is_dead(s) && !cell.box_ && !cell.player => 'x',
                        (Tile::Outside, _) => ' ',
                        _ => sokoban::format::xsb::cell_char(cell),
                    }
                })
                .collect();
            outln!("{}", row.trim_end())?;
        }
        match bound {
            Some(Some(b)) => outln!("Lower bound (push matching) of the start: {}", plural(b as usize, "push")),
            Some(None) => outln!("Lower bound of the start: none, no box-to-goal matching exists (deadlocked)"),
            None => {
                code = EXIT_NEGATIVE;
                outln!("Lower bound of the start: not computed, the time limit ({} s) passed", a.time_limit)
            }
        }?;
        if a.plan {
            let config = sokoban::solver::Config {
                time_limit: Some(limit.saturating_sub(started.elapsed())),
                cancel: Some(cancel.clone()),
                ..Default::default()
            };
            let plans = match sokoban::solver::fast::packing_plan(level, &an, &config) {
                Ok(first) => {
                    let left = Some(limit.saturating_sub(started.elapsed()));
                    let config = sokoban::solver::Config { time_limit: left, ..config };
                    sokoban::solver::fast::layered_packing_plan(level, &an, &config).map(|layered| (first, layered))
                }
                Err(e) => Err(e),
            };
            match plans {
                Ok((first, layered)) => {
                    print_plan(level, &first, "Packing plan")?;
                    if layered != first {
                        print_plan(level, &layered, "The second pass's plan (in layers)")?;
                    }
                }
                Err(sokoban::solver::SolveError::Cancelled(_)) => return Ok(interrupted()),
                Err(_) => {
                    code = EXIT_NEGATIVE;
                    outln!("Packing plan: not worked out, the time limit ({} s) passed", a.time_limit)?;
                }
            }
        }
        outln!()?;
    }
    Ok(ExitCode::from(code))
}

/// Says that Ctrl-C ended the run (the levels before were analysed), and the exit status that
/// says so.
fn interrupted() -> ExitCode {
    eprintln!("interrupted: the levels above were analysed, the rest were not");
    ExitCode::from(interrupt::EXIT_INTERRUPTED)
}

/// The mark of the `i`-th step of a plan (from 0) on the board.
fn rank_mark(i: usize) -> char {
    const MARKS: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    MARKS.get(i).map_or('+', |&m| char::from(m))
}

/// Prints the packing plan `steps` of `level` (see [`AnalyzeArgs::plan`]) under `name`.
fn print_plan(level: &sokoban::Level, steps: &[sokoban::solver::fast::PlanStep], name: &str) -> Result<()> {
    use sokoban::solver::fast::PlanStep;
    if steps.is_empty() {
        return outln!("{name}: none (the fast engine hands levels of this rule to A*)");
    }
    let mut marks = vec![None; level.width() * level.height()];
    let mut fills = 0;
    let mut listed = Vec::with_capacity(steps.len());
    let at = |s: sokoban::level::Square| {
        let (r, c) = level.coords(s);
        format!("({},{})", r + 1, c + 1)
    };
    for step in steps {
        match *step {
            PlanStep::Fill { goal } => {
                let (r, c) = level.coords(goal);
                marks[r * level.width() + c] = Some(rank_mark(fills));
                fills += 1;
                listed.push(at(goal));
            }
            PlanStep::Park { at: park, goal } => {
                let (r, c) = level.coords(park);
                marks[r * level.width() + c] = Some('p');
                listed.push(format!("park {} for {}", at(park), at(goal)));
            }
        }
    }
    let parks = steps.len() - fills;
    outln!("{name}: the goals in filling order{}:", if parks > 0 { ", p a parking square" } else { "" })?;
    for r in 0..level.height() {
        let row: String = (0..level.width())
            .map(|c| match (marks[r * level.width() + c], level.tile(r, c)) {
                (Some(m), _) => m,
                (None, Tile::Wall) => '#',
                _ => ' ',
            })
            .collect();
        outln!("{}", row.trim_end())?;
    }
    outln!("Order: {}", listed.join(" "))
}

/// The push lower bound of the start (as `solver::bound::start_bound`), calling `stop` between
/// steps of bounded work: `None` when it stopped, `Some(None)` when no matching exists.
fn start_bound(level: &sokoban::Level, a: &Analysis, stop: &mut impl FnMut() -> bool) -> Option<Option<u64>> {
    let boxes: Vec<BoxAt> = level.boxes().iter().map(|&b| BoxAt { sq: a.sq(b), class: 0 }).collect();
    let cover_goals = boxes.len() > a.goals();
    let mut bound = LowerBound::new_within(a, Heuristic::Hungarian, cover_goals, vec![1], false, stop)?;
    bound.of_within(a, TableId::STATIC, &boxes, stop).ok()
}

fn print_taboo(level: &sokoban::Level) -> Result<()> {
    let taboo = sokoban::analysis::taboo(level);
    for r in 0..level.height() {
        let row: String = (0..level.width())
            .map(|c| match (level.tile(r, c), level.square_at(r, c)) {
                (Tile::Wall, _) => '#',
                (_, Some(s)) if taboo[s.index()] => 'X',
                _ => ' ',
            })
            .collect();
        outln!("{row}")?;
    }
    Ok(())
}
