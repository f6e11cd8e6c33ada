//! `sokoban bench`: solve a level set under a per-level time limit and report a table (or JSON).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::solve::{Outcome, SearchArgs, solve_verified};
use super::{EXIT_BAD_INPUT, EXIT_OK, LevelFile, Selection};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The level file (XSB/SOK).
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print the per-level results and the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also print one line per level.
    #[arg(long)]
    pub verbose: bool,
    /// Also write one JSON line per level (as `solve --json` prints) to this file, so that
    /// `sokoban verify LEVELS FILE` can re-check every solution independently.
    #[arg(long, value_name = "FILE")]
    pub solutions: Option<PathBuf>,
}

/// Peak resident memory of this process in bytes, from /proc (Linux), if available.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn run(a: BenchArgs) -> Result<ExitCode> {
    let file = LevelFile::load(&a.levels)?;
    let config = a.search.config()?;
    let picked = a.select.pick(file.levels.len())?;
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(picked.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} levels, {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut code = EXIT_OK;
    let mut solved = 0;
    for &n in &picked {
        match file.get(n) {
            Ok(level) => {
                let out = solve_verified(n, level, &config);
                if let Some(e) = &out.verify_error {
                    bar.suspend(|| eprintln!("level {n}: internal error: {e}"));
                }
                solved += usize::from(out.status() == "solved");
                if a.verbose && !a.json {
                    bar.suspend(|| {
                        let st = match &out.result {
                            Ok(s) => &s.stats,
                            Err(e) => e.stats(),
                        };
                        let pushes = out.result.as_ref().map(|s| s.pushes.to_string()).unwrap_or("-".into());
                        println!(
                            "level {n:>4}  {:<12} pushes {pushes:>5}  nodes {:>10}  {:>8.3} s",
                            out.status(),
                            st.expanded,
                            st.seconds
                        )
                    });
                }
                outcomes.push(out);
            }
            Err(msg) => {
                bar.suspend(|| eprintln!("{msg}"));
                code = EXIT_BAD_INPUT;
            }
        }
        bar.set_message(format!("{solved} solved"));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(path) = &a.solutions {
        let mut text = String::new();
        for o in &outcomes {
            text.push_str(&o.json().to_string());
            text.push('\n');
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }

    let stats = |o: &Outcome| match &o.result {
        Ok(s) => s.stats.clone(),
        Err(e) => e.stats().clone(),
    };
    let solved: Vec<&Outcome> = outcomes.iter().filter(|o| o.status() == "solved").collect();
    let mut times: Vec<f64> = solved.iter().map(|o| stats(o).seconds).collect();
    times.sort_by(f64::total_cmp);
    let total_time: f64 = times.iter().sum();
    let median = if times.is_empty() { 0.0 } else { times[times.len() / 2] };
    let all_time: f64 = outcomes.iter().map(|o| stats(o).seconds).sum();
    let all_nodes: u64 = outcomes.iter().map(|o| stats(o).expanded).sum();
    let peak_states = outcomes.iter().map(|o| stats(o).stored_states).max().unwrap_or(0);
    let peak_bytes = outcomes.iter().map(|o| stats(o).peak_bytes).max().unwrap_or(0);
    let bps: Vec<f64> = outcomes.iter().map(|o| stats(o).bytes_per_state).filter(|b| *b > 0.0).collect();
    let bytes_per_state = if bps.is_empty() { 0.0 } else { bps.iter().sum::<f64>() / bps.len() as f64 };
    let count = |s: &str| outcomes.iter().filter(|o| o.status() == s).count();
    let invalid = count("invalid");
    let optimal = solved.iter().filter(|o| o.result.as_ref().is_ok_and(|s| s.optimal.is_some())).count();
    let nodes_per_second = if all_time > 0.0 { all_nodes as f64 / all_time } else { 0.0 };
    let rss = peak_rss();
    if a.json {
        let summary = serde_json::json!({
            "file": file.path.display().to_string(),
            "levels": outcomes.len(), "solved": solved.len(), "optimal": optimal,
            "unsolvable": count("unsolvable"), "timeout": count("timeout"),
            "memory_limit": count("memory-limit"), "invalid": invalid,
            "time_limit_seconds": a.search.time_limit,
            "solved_seconds_total": total_time, "solved_seconds_median": median,
            "nodes_per_second": nodes_per_second, "peak_stored_states": peak_states,
            "peak_search_bytes": peak_bytes, "bytes_per_state": bytes_per_state,
            "process_peak_rss_bytes": rss,
            "results": outcomes.iter().map(Outcome::json).collect::<Vec<_>>(),
        });
        println!("{summary}");
    } else {
        let mb = |b: u64| b as f64 / (1 << 20) as f64;
        println!("| file | {} |", file.path.display());
        println!("|---|---|");
        println!("| solved | {} / {} ({} proven optimal) |", solved.len(), outcomes.len(), optimal);
        println!(
            "| unsolvable / timeout / memory-limit | {} / {} / {} |",
            count("unsolvable"),
            count("timeout"),
            count("memory-limit")
        );
        println!("| invalid solutions (verifier) | {invalid} |");
        println!("| time limit per level | {} s |", a.search.time_limit);
        println!("| total time of solved | {total_time:.2} s |");
        println!("| median time of solved | {median:.3} s |");
        println!("| nodes per second | {nodes_per_second:.0} |");
        println!("| peak stored states | {peak_states} |");
        println!("| peak search memory | {:.1} MiB |", mb(peak_bytes));
        println!("| bytes per state | {bytes_per_state:.1} |");
        if let Some(r) = rss {
            println!("| process peak RSS | {:.1} MiB |", mb(r));
        }
        let unsolved: Vec<String> =
            outcomes.iter().filter(|o| o.status() != "solved").map(|o| o.level.to_string()).collect();
        if !unsolved.is_empty() {
            println!("| not solved | {} |", unsolved.join(" "));
        }
    }
    Ok(ExitCode::from(if invalid > 0 { super::EXIT_NEGATIVE } else { code }))
}
