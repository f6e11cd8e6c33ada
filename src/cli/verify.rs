//! `sokoban verify`: replay solutions with the independent checker.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use sokoban::verify::{Verdict, verify};

use super::{EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection, plural};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The level file.
    pub levels: PathBuf,
    /// The solutions: a .sok file (levels with Solution sections), JSON lines or TSV (level
    /// number first, LURD last); LURD may be run-length encoded. `-` reads standard input.
    pub solutions: PathBuf,
    /// Check only the solutions of these levels (the others in SOLUTIONS are skipped).
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// Print one JSON object per solution.
    #[arg(long)]
    pub json: bool,
    /// Accept solutions whose letter case does not mark pushes correctly.
    #[arg(long)]
    pub any_case: bool,
}

pub fn run(a: VerifyArgs) -> Result<ExitCode> {
    let (read, name) = super::read_solutions(&a.solutions, &a.levels)?;
    for skip in &read.skipped {
        eprintln!("warning: {name}:{}: skipped, {}", skip.line, skip.reason);
    }
    let mut entries = read.entries;
    if entries.is_empty() {
        eprintln!(
            "warning: {name} holds no solution to check (expected a .sok file with Solution sections, JSON \
             lines or TSV: level number first, LURD last)"
        );
    }
    // Only the levels that have a solution to check are built.
    let wanted: std::collections::HashSet<usize> = entries.iter().map(|e| e.level).collect();
    let file = LevelFile::load_where(&a.levels, &a.input, |n| wanted.contains(&n))?;
    if a.select.is_given() {
        let picked = a.select.pick(file.count)?;
        entries.retain(|e| picked.contains(&e.level));
        if entries.is_empty() {
            anyhow::bail!("{name} has no solution for the selected levels");
        }
    }
    let (mut ok, mut bad) = (0usize, 0usize);
    let mut input_error = false;
    for e in &entries {
        let (status, detail, report) = if e.level == 0 || e.level > file.count {
            input_error = true;
            let msg = match e.level {
                0 => format!("line {}: level numbers start at 1", e.line),
                n => format!(
                    "line {}: no level {n} in {} ({})",
                    e.line,
                    file.path.display(),
                    plural(file.count, "level")
                ),
            };
            (None, msg, None)
        } else {
            match file.get(e.level) {
                Err(msg) => {
                    input_error = true;
                    (None, msg, None)
                }
                Ok(level) => {
                    let r = verify(level, &e.lurd);
                    let verdict = r.verdict(!a.any_case);
                    let detail = match verdict {
                        Verdict::Valid => String::new(),
                        Verdict::Illegal(ill) => format!("move {} (0-based) {}", ill.index, ill.reason),
                        Verdict::Unsolved => format!("move {}: the moves end without solving the level", r.moves),
                        Verdict::CaseMismatch(i) => {
                            format!("move {i} (0-based): the letter case does not match whether it pushes")
                        }
                    };
                    (Some(verdict), detail, Some(r))
                }
            }
        };
        let valid = status == Some(Verdict::Valid);
        let status = status.map_or("error", Verdict::name);
        if valid {
            ok += 1;
        } else {
            bad += 1;
        }
        let (moves, pushes) = report.as_ref().map_or((0, 0), |r| (r.moves, r.pushes));
        let at = report.as_ref().and_then(|r| {
            r.illegal
                .map(|i| i.index)
                .or((!r.solved).then_some(r.moves))
                .or(r.first_case_mismatch.filter(|_| !a.any_case))
        });
        if a.json {
            let mut obj = serde_json::json!({
                "level": e.level, "status": status, "moves": moves, "pushes": pushes,
                "at": at, "error": if detail.is_empty() { None } else { Some(&detail) },
            });
            let metrics = if valid {
                file.get(e.level).ok().and_then(|l| sokoban::metrics::measure_lurd(l, &e.lurd))
            } else {
                None
            };
            super::solve::add_metrics(&mut obj, metrics.as_ref());
            outln!("{obj}")?;
        } else if valid {
            let metrics = file.get(e.level).ok().and_then(|l| sokoban::metrics::measure_lurd(l, &e.lurd));
            let extra = metrics.map_or(String::new(), |m| {
                format!(
                    ", {} box lines, {} box changes, {} pushing sessions, {} player lines",
                    m.box_lines, m.box_changes, m.pushing_sessions, m.player_lines
                )
            });
            outln!("level {}: valid, {}, {}{extra}", e.level, plural(moves, "move"), plural(pushes, "push"))?;
        } else {
            outln!("level {}: {status}: {detail}", e.level)?;
        }
    }
    if !a.json {
        outln!("{ok} valid, {bad} invalid of {}", plural(entries.len(), "solution"))?;
    }
    Ok(ExitCode::from(if input_error {
        EXIT_BAD_INPUT
    } else if bad > 0 || entries.is_empty() {
        EXIT_NEGATIVE
    } else {
        EXIT_OK
    }))
}
