//! `sokoban bench`: solve a level set under a per-level time limit and report a table (or JSON).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use std::sync::atomic::{AtomicUsize, Ordering};

use sokoban::solver::{SolveError, Status, Summary};

use super::solve::{Outcome, SearchArgs, solve_verified, solve_watched};
use super::{EXIT_BAD_INPUT, EXIT_OK, InputArgs, LevelFile, Selection, pool};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Level files or directories of level files (every .xsb, .sok, .txt, .lisp, .lsp and .json
    /// file in them, in name order).
    #[arg(required = true)]
    pub levels: Vec<PathBuf>,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
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

/// The level files named by `paths`: files as given, directories expanded to their level files
/// in name order.
fn level_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    const EXTENSIONS: [&str; 6] = ["xsb", "sok", "txt", "lisp", "lsp", "json"];
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read directory {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file() && p.extension().is_some_and(|e| EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x)))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                bail!("{} holds no level files (.{})", path.display(), EXTENSIONS.join(", ."));
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The `--solutions` file: one JSON line per level, each written whole or not at all.
struct SolutionsFile {
    file: std::fs::File,
    path: PathBuf,
    /// Bytes of complete lines written so far.
    good: u64,
    regular: bool,
}

impl SolutionsFile {
    /// Creates the file; refuses a directory or one of the level files being read.
    fn create(path: &Path, inputs: &[PathBuf]) -> Result<SolutionsFile> {
        if let Some(input) = inputs.iter().find(|i| super::same_file(path, i)) {
            bail!(
                "--solutions {} is the level file {} being read; write the solutions elsewhere",
                path.display(),
                input.display()
            );
        }
        if path.is_dir() {
            bail!("--solutions {} is a directory, not a file to write", path.display());
        }
        let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        Ok(SolutionsFile { file, path: path.to_path_buf(), good: 0, regular })
    }

    /// Appends one line; if the write fails part way, a regular file is cut back to its last
    /// complete line.
    fn write_line(&mut self, line: &str) -> Result<()> {
        let text = format!("{line}\n");
        match self.file.write_all(text.as_bytes()).and_then(|()| self.file.flush()) {
            Ok(()) => {
                self.good += text.len() as u64;
                Ok(())
            }
            Err(e) => {
                if self.regular {
                    let _ = self.file.set_len(self.good);
                }
                Err(anyhow::Error::new(e).context(format!("cannot write {}", self.path.display())))
            }
        }
    }
}

pub fn run(a: BenchArgs) -> Result<ExitCode> {
    // Options first: nothing is read or solved when one is wrong.
    let config = a.search.config(super::solve::Purpose::Bench)?;
    let paths = level_files(&a.levels)?;
    let files: Vec<LevelFile> =
        paths.iter().map(|p| LevelFile::load_selected(p, &a.input, &a.select)).collect::<Result<_>>()?;
    let several = files.len() > 1;
    if several && a.select.level.is_some() | a.select.range.is_some() {
        anyhow::bail!("--level and --levels select within one file; bench was given {} files", files.len());
    }
    let mut picked: Vec<(&LevelFile, usize)> = Vec::new();
    for file in &files {
        picked.extend(a.select.pick(file.count)?.into_iter().map(|n| (file, n)));
    }
    let named =
        picked.iter().filter_map(|&(file, n)| Some((format!("{} level {n}", file.path.display()), file.get(n).ok()?)));
    super::solve::check_weights(&config, named)?;
    // Solutions are written as levels finish (in level order), so an interrupted run keeps them.
    let mut solutions = match &a.solutions {
        Some(path) => Some(SolutionsFile::create(path, &paths)?),
        None => None,
    };
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(picked.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} levels, {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut code = EXIT_OK;
    let solved = AtomicUsize::new(0);
    let jobs = pool::worker_count(a.search.jobs);
    let work = |i: usize| -> Result<Outcome, String> {
        let (file, n) = picked[i];
        let level = file.get(n)?;
        let mut out = if jobs == 1 {
            solve_watched(n, level, &config, |nodes| {
                let solved = solved.load(Ordering::Relaxed);
                bar.set_message(format!("{solved} solved, level {n}: {nodes} states expanded"));
            })
        } else {
            solve_verified(n, level, &config)
        };
        if several {
            out.file = Some(file.path.display().to_string());
        }
        // Counted here, as each level ends, so the bar moves even while an earlier level runs.
        let is_solved = usize::from(out.status() == Status::Solved);
        let now = solved.fetch_add(is_solved, Ordering::Relaxed) + is_solved;
        bar.set_message(format!("{now} solved"));
        bar.inc(1);
        Ok(out)
    };
    let mut write_error: Option<anyhow::Error> = None;
    pool::in_order(picked.len(), jobs, work, |i, result| match result {
        Ok(out) => {
            if let Some(file) = &mut solutions
                && write_error.is_none()
                && out.status() != Status::Cancelled
                && let Err(e) = file.write_line(&out.json().to_string())
            {
                // Stop at once: the levels still to come could not be recorded.
                super::interrupt::stop_for_error();
                write_error = Some(e);
            }
            let n = picked[i].1;
            if let Err(e @ SolveError::Unverified(_)) = &out.result {
                bar.suspend(|| eprintln!("level {n}: {e}"));
            }
            if a.verbose && !a.json && write_error.is_none() {
                let printed = bar.suspend(|| outln!("{}", verbose_line(&out, n)));
                if let Err(e) = printed {
                    super::interrupt::stop_for_error();
                    write_error = Some(e);
                }
            }
            outcomes.push(out);
        }
        Err(msg) => {
            bar.suspend(|| super::level_error(&msg));
            code = EXIT_BAD_INPUT;
        }
    });
    bar.finish_and_clear();
    let interrupted = super::interrupt::interrupted();
    let report = Report {
        label: &match &files[..] {
            [one] => one.path.display().to_string(),
            many => format!("{} files", many.len()),
        },
        summary: Summary::of(outcomes.iter().map(|o| &o.result)),
        outcomes: &outcomes,
        time_limit: a.search.time_limit,
        jobs,
        threads: sokoban::solver::threads_used(&config),
        interrupted,
    };
    match a.json {
        true => outln!("{}", report.json())?,
        false => report.table()?,
    }
    let invalid = report.summary.count(Status::Invalid);
    if let Some(e) = write_error {
        // The summary above covers the levels finished before the write failed.
        return Err(e);
    }
    if interrupted {
        return Ok(ExitCode::from(super::interrupt::EXIT_INTERRUPTED));
    }
    Ok(ExitCode::from(if invalid > 0 { super::EXIT_NEGATIVE } else { code }))
}

/// The line `--verbose` prints for level `n`'s outcome.
fn verbose_line(out: &Outcome, n: usize) -> String {
    let st = match &out.result {
        Ok(s) => &s.stats,
        Err(e) => e.stats(),
    };
    let pushes = out.result.as_ref().map(|s| s.pushes.to_string()).unwrap_or("-".into());
    let prefix = out.file.as_ref().map(|f| format!("{f}  ")).unwrap_or_default();
    let status = out.status().name();
    format!("{prefix}level {n:>4}  {status:<12} pushes {pushes:>5}  nodes {:>10}  {:>8.3} s", st.expanded, st.seconds)
}

/// What `bench` reports once the levels are done: the summary of their outcomes, as a table
/// or a JSON object.
struct Report<'r> {
    /// The level file, or how many files.
    label: &'r str,
    summary: Summary,
    outcomes: &'r [Outcome],
    time_limit: f64,
    jobs: usize,
    threads: usize,
    /// Whether Ctrl-C stopped the run.
    interrupted: bool,
}

impl Report<'_> {
    /// The summary and every level's result as one JSON object (`--json`).
    fn json(&self) -> serde_json::Value {
        let s = &self.summary;
        let count = |status: Status| s.count(status);
        let found_by: serde_json::Map<_, _> = s.found_by.iter().map(|(by, n)| (by.clone(), (*n).into())).collect();
        // + 0.0 turns the -0.0 of an empty float sum into 0.0.
        serde_json::json!({
            "file": self.label,
            "levels": s.levels, "solved": s.solved, "optimal": s.optimal,
            "unsolvable": count(Status::Unsolvable), "timeout": count(Status::Timeout),
            "memory_limit": count(Status::MemoryLimit), "node_limit": count(Status::NodeLimit),
            "cancelled": count(Status::Cancelled), "invalid": count(Status::Invalid),
            "time_limit_seconds": self.time_limit, "jobs": self.jobs, "threads_per_level": self.threads,
            "solved_seconds_total": s.solved_seconds_total + 0.0,
            "solved_seconds_median": s.solved_seconds_median + 0.0,
            "nodes_per_second": s.nodes_per_second, "peak_stored_states": s.peak_stored_states,
            "peak_search_bytes": s.peak_search_bytes, "bytes_per_state": s.bytes_per_state,
            "process_peak_rss_bytes": peak_rss(),
            "found_by": found_by,
            "results": self.outcomes.iter().map(Outcome::json).collect::<Vec<_>>(),
        })
    }

    /// The summary as a Markdown table, one row per figure (the default output).
    fn table(&self) -> Result<()> {
        let s = &self.summary;
        let count = |status: Status| s.count(status);
        let mb = |b: u64| b as f64 / (1 << 20) as f64;
        outln!("| file | {} |", self.label)?;
        outln!("|---|---|")?;
        outln!("| solved | {} / {} ({} proven optimal) |", s.solved, s.levels, s.optimal)?;
        outln!(
            "| unsolvable / timeout / memory-limit | {} / {} / {} |",
            count(Status::Unsolvable),
            count(Status::Timeout),
            count(Status::MemoryLimit)
        )?;
        outln!("| invalid solutions (verifier) | {} |", count(Status::Invalid))?;
        outln!("| time limit per level | {} s |", self.time_limit)?;
        if self.jobs > 1 {
            outln!("| levels at once (--jobs) | {} |", self.jobs)?;
        }
        outln!("| threads per level (--threads) | {} |", self.threads)?;
        outln!("| total time of solved | {:.2} s |", s.solved_seconds_total + 0.0)?;
        outln!("| median time of solved | {:.3} s |", s.solved_seconds_median + 0.0)?;
        if !s.found_by.is_empty() {
            let found: Vec<String> = s.found_by.iter().map(|(by, n)| format!("{by} {n}")).collect();
            outln!("| solved levels found by | {} |", found.join(", "))?;
        }
        outln!("| nodes per second | {:.0} |", s.nodes_per_second)?;
        outln!("| peak stored states | {} |", s.peak_stored_states)?;
        outln!("| peak search memory | {:.1} MiB |", mb(s.peak_search_bytes))?;
        outln!("| bytes per state | {:.1} |", s.bytes_per_state)?;
        if let Some(r) = peak_rss() {
            outln!("| process peak RSS | {:.1} MiB |", mb(r))?;
        }
        let unsolved: Vec<String> = self
            .outcomes
            .iter()
            .filter(|o| !matches!(o.status(), Status::Solved | Status::Cancelled))
            .map(Outcome::label)
            .collect();
        if !unsolved.is_empty() {
            outln!("| not solved | {} |", unsolved.join(" "))?;
        }
        if self.interrupted {
            let cancelled = super::plural(count(Status::Cancelled), "level");
            outln!("| interrupted (Ctrl-C) | {cancelled} cancelled or not run |")?;
        }
        Ok(())
    }
}
