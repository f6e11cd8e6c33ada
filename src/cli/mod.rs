//! Command-line definitions and the shared plumbing of the subcommands: loading level files,
//! selecting levels, reporting parse errors with file, line and column, and writing to standard
//! output so that a failed write is an error, not a panic.

/// `println!` for the subcommands: a failed write (a full disk, `/dev/full`) is returned as an
/// error to pass on with `?`, where `println!` would panic.
macro_rules! outln {
    () => {
        $crate::cli::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` with the error handling of [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))
    };
}

mod analyze;
mod apply;
mod bench;
mod convert;
mod interrupt;
mod next;
mod optimize;
mod pool;
mod serve;
mod show;
mod solve;
mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use sokoban::level::SourceFormat;
use sokoban::{Level, ParseError, SolvedRule};

/// Writes to standard output (whole, then flushed at the line end as `println!` does); the error
/// names standard output.
pub fn write_stdout(args: std::fmt::Arguments) -> Result<()> {
    use std::io::Write;
    std::io::stdout().lock().write_fmt(args).context("cannot write to standard output")
}

/// Whether two paths name the same existing file (after following symlinks).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// Writes a whole output file without ever leaving half of it: a regular file (new or old) is
/// written to a temporary file beside it and renamed into place, so a failed run leaves the old
/// contents; a symlink is followed (its target is replaced, the link stays); a FIFO or a device
/// (`/dev/stdout`) is written through; a directory is refused.
pub fn write_output(path: &Path, text: &str) -> Result<()> {
    use std::io::Write;
    let meta = std::fs::metadata(path);
    let write_through = || -> Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", path.display()))
    };
    let target = match &meta {
        Ok(m) if m.is_dir() => bail!("{} is a directory, not a file to write", path.display()),
        Ok(m) if !m.is_file() => return write_through(),
        Ok(_) => std::fs::canonicalize(path).with_context(|| format!("cannot resolve {}", path.display()))?,
        // A dangling symlink: create its target.
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => return write_through(),
        Err(_) => path.to_path_buf(),
    };
    let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = target.file_name().context("output path has no file name")?.to_string_lossy();
    let tmp = dir.join(format!(".{name}.sokoban-tmp"));
    let written = std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", target.display()));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Ok(m) = &meta {
        let _ = std::fs::set_permissions(&tmp, m.permissions());
    }
    std::fs::rename(&tmp, &target).with_context(|| format!("cannot rename {} to {}", tmp.display(), target.display()))
}

pub const EXIT_OK: u8 = 0;
pub const EXIT_NEGATIVE: u8 = 1;
pub const EXIT_BAD_INPUT: u8 = 2;

/// Sokoban levels in, solutions out.
///
/// Reads XSB/SOK level files (many levels per file, titles, comments, run-length encoded rows),
/// integer grids (.lisp, `(setq p1 '((1 1 1) …))`), JSON object grids (.json) and weighted
/// warehouse files (.txt); the format is detected from the extension and content, or forced with
/// --format. A file named - is read from standard input. Select levels with --level N or
/// --levels A-B (1-based).
///
/// Exit status: 0 success, 1 a negative result (an invalid solution, an unsolved level, an
/// impossible move), 2 bad input or usage, 130 interrupted by Ctrl-C (solve and bench first
/// report the levels they finished).
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
    /// The default mode, `auto`, runs the fast engine and prints its solution as soon as it is
    /// found, after a short attempt to prove it push-optimal (a quarter of the finding time, at
    /// least 0.1 s; "optimal" in the output says what was proven). --prove spends the rest of
    /// the time limit on the proof, --improve also prints each better solution as it comes.
    /// Exit status 0 when every selected level was solved or proven unsolvable. Ctrl-C stops
    /// the running levels after printing the ones already finished and the best solution of the
    /// level at hand, if it has one (exit status 130).
    ///
    /// Example: sokoban solve data/microban.xsb --levels 1-10 --time-limit 10
    Solve(solve::SolveArgs),
    /// Solve a level set under a per-level time limit and print solved counts, times, nodes and
    /// memory as a table (or JSON with --json). Every solution is verified.
    ///
    /// Ctrl-C cancels the running levels and still prints the table of what finished (and keeps
    /// the --solutions file, written as levels finish); a second Ctrl-C ends at once.
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
    /// Improve given solutions (from any program) by a vicinity search: the cheapest solution
    /// among box configurations within --radius pushes of the given path. Never worse; every
    /// result is verified.
    ///
    /// Example: sokoban optimize data/xsokoban90.xsb data/xsokoban90-reference-solutions.tsv --level 1
    Optimize(optimize::OptimizeArgs),
    /// Print levels with their titles.
    ///
    /// Example: sokoban show data/microban.xsb --level 3
    Show(show::ShowArgs),
    /// Play a move list on a level and print the resulting board in the level's own format (or
    /// "Impossible" and exit 1 at the first illegal move).
    ///
    /// Example: sokoban apply data/microban.xsb --level 1 --moves "dlUrrrdLullddrUluRuulDrddrruLdlUU"
    Apply(apply::ApplyArgs),
    /// Write levels in another format: xsb, grid (integer grid), json (object grid) or warehouse.
    ///
    /// Example: sokoban convert data/microban.xsb --levels 1-5 --to grid
    Convert(convert::ConvertArgs),
    /// List the positions one move away, in the order up, right, down, left, each with its
    /// move and the board in the level's own format (the CS161 next-states exercise).
    ///
    /// --moves plays a move list first, so the successors of any position can be listed.
    ///
    /// Example: sokoban next data/cs161-hw3-problems.lisp --level 1 --moves "r"
    Next(next::NextArgs),
    /// Serve a web player on this machine: play, load, build and watch solutions in the
    /// browser, with a JSON API (see the README).
    ///
    /// Example: sokoban serve --port 6101
    Serve(serve::ServeArgs),
}

/// A level file format on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// XSB/SOK text: # wall, $ box, . goal, @ player, * box on goal, + player on goal.
    Xsb,
    /// Integer grid: 0 floor, 1 wall, 2 box, 3 player, 4 goal, 5 box on goal, 6 player on goal.
    Grid,
    /// JSON grid of object lists: "wall", "computer" (box), "target" (goal), "player".
    Json,
    /// XSB board with an optional first line of box weights.
    Warehouse,
}

impl FormatArg {
    pub fn format(self) -> SourceFormat {
        match self {
            FormatArg::Xsb => SourceFormat::Xsb,
            FormatArg::Grid => SourceFormat::Grid,
            FormatArg::Json => SourceFormat::Json,
            FormatArg::Warehouse => SourceFormat::Warehouse,
        }
    }
}

/// When a level counts as solved.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RuleArg {
    /// Every box on a goal, as many boxes as goals (default for XSB and warehouse files).
    Standard,
    /// Every box on a goal; goals may outnumber boxes (default for integer grids).
    AllBoxes,
    /// Every goal holds a box; no goals means never solved (default for JSON grids).
    AllGoals,
}

/// How to read level files: the format and the solved rule, each detected unless given.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// Read the file in this format instead of detecting it from the extension and content.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// The solved rule, instead of the format's default.
    #[arg(long, value_enum)]
    pub rule: Option<RuleArg>,
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
    /// The 1-based inclusive range asked for, or `None` for every level.
    fn range(&self) -> Result<Option<(usize, usize)>> {
        Ok(match (&self.level, &self.range) {
            (Some(n), _) => Some((*n, *n)),
            (None, Some(range)) => {
                let (a, b) = range.split_once('-').unwrap_or((range, range));
                let a: usize = a.trim().parse().with_context(|| format!("bad level range {range:?}"))?;
                let b: usize = b.trim().parse().with_context(|| format!("bad level range {range:?}"))?;
                Some((a, b))
            }
            (None, None) => None,
        })
    }

    /// The selected 1-based level numbers out of `count`.
    pub fn pick(&self, count: usize) -> Result<Vec<usize>> {
        let has = match count {
            0 => "the file has no levels".to_string(),
            n => format!("the file has {}", plural(n, "level")),
        };
        let (a, b) = match self.range()? {
            Some(range) => range,
            None if count == 0 => bail!("{has}"),
            None => (1, count),
        };
        if a > b {
            bail!("--levels {a}-{b} is empty: the first level comes after the last");
        }
        if a == 0 || b > count {
            if a == b {
                bail!("there is no level {a} ({has}, numbered from 1)");
            }
            bail!("levels {a}-{b} reach outside 1-{count} ({has}, numbered from 1)");
        }
        Ok((a..=b).collect())
    }

    /// Whether the user picked levels (rather than taking the whole file).
    pub fn is_given(&self) -> bool {
        self.level.is_some() || self.range.is_some()
    }
}

/// `n` and the word, in the singular for 1: "1 move", "2 moves", "0 levels".
pub fn plural(n: usize, word: &str) -> String {
    let ending = if ["s", "x", "sh", "ch"].iter().any(|e| word.ends_with(e)) { "es" } else { "s" };
    if n == 1 { format!("{n} {word}") } else { format!("{n} {word}{ending}") }
}

/// " (title)" to print after "level N", or nothing when the level has no title or its title
/// only repeats the number ("1", "Level 1").
pub fn title_suffix(n: usize, title: Option<&str>) -> String {
    match title.map(str::trim) {
        None | Some("") => String::new(),
        Some(t) if t == n.to_string() || t.eq_ignore_ascii_case(&format!("level {n}")) => String::new(),
        Some(t) => format!(" ({t})"),
    }
}

/// Prints a problem with one level (it does not parse, say) and goes on with the others.
pub fn level_error(msg: &str) {
    eprintln!("error: {msg}");
}

/// Counts the outcomes of a run of several levels, for the closing summary line.
pub struct Tally {
    start: std::time::Instant,
    levels: usize,
    solved: usize,
    unsolvable: usize,
    /// Levels not solved, by status name ("timeout", "memory-limit", "error" for a level that
    /// could not be read), in first-seen order.
    other: Vec<(&'static str, usize)>,
}

impl Tally {
    pub fn start() -> Tally {
        Tally { start: std::time::Instant::now(), levels: 0, solved: 0, unsolvable: 0, other: Vec::new() }
    }

    /// Counts one level by its status; `None` for a level that could not be read.
    pub fn add(&mut self, status: Option<sokoban::solver::Status>) {
        use sokoban::solver::Status;
        self.levels += 1;
        let other = match status {
            Some(Status::Solved) => {
                self.solved += 1;
                return;
            }
            Some(Status::Unsolvable) => {
                self.unsolvable += 1;
                return;
            }
            Some(other) => other.name(),
            None => "error",
        };
        match self.other.iter_mut().find(|(s, _)| *s == other) {
            Some((_, n)) => *n += 1,
            None => self.other.push((other, 1)),
        }
    }

    /// "40 levels: 38 solved, 1 proven unsolvable, 1 unsolved (1 timeout) in 12.35 s".
    pub fn line(&self) -> String {
        let mut parts = vec![format!("{} solved", self.solved)];
        if self.unsolvable > 0 {
            parts.push(format!("{} proven unsolvable", self.unsolvable));
        }
        let unsolved: usize = self.other.iter().map(|(_, n)| n).sum();
        let detail: Vec<String> = self.other.iter().map(|(s, n)| format!("{n} {s}")).collect();
        if unsolved > 0 {
            parts.push(format!("{unsolved} unsolved ({})", detail.join(", ")));
        } else {
            parts.push("0 unsolved".to_string());
        }
        let secs = self.start.elapsed().as_secs_f64();
        format!("{}: {} in {secs:.2} s", plural(self.levels, "level"), parts.join(", "))
    }
}

/// Reads the solutions file of `verify` and `optimize` (`-` is standard input, which the level
/// file must then not be) and parses it; also returns the name that messages give it.
pub fn read_solutions(solutions: &Path, levels: &Path) -> Result<(sokoban::solutions::Read, String)> {
    let stdin = solutions == Path::new("-");
    if stdin && levels == Path::new("-") {
        bail!("the levels and the solutions cannot both come from standard input (-)");
    }
    let text = if stdin {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).context("cannot read standard input")?;
        text
    } else {
        std::fs::read_to_string(solutions).with_context(|| format!("cannot read {}", solutions.display()))?
    };
    let name = if stdin { "<stdin>".to_string() } else { solutions.display().to_string() };
    let read = sokoban::solutions::read(&text).with_context(|| format!("in {name}"))?;
    Ok((read, name))
}

/// A level file read level by level; only the selected levels are built.
pub struct LevelFile {
    pub path: PathBuf,
    /// How many levels the file holds.
    pub count: usize,
    /// The built levels by 1-based number.
    levels: std::collections::BTreeMap<usize, Result<Level, ParseError>>,
}

impl LevelFile {
    /// Reads and parses `path`, building only the levels `select` picks (the rest are only
    /// counted, so `--level 1` of a file of 100,000 levels costs little memory); `-` reads
    /// standard input (the format is then detected from the content alone, and messages name it
    /// `<stdin>`).
    pub fn load_selected(path: &Path, input: &InputArgs, select: &Selection) -> Result<LevelFile> {
        let range = select.range()?;
        LevelFile::load_where(path, input, |n| range.is_none_or(|(a, b)| (a..=b).contains(&n)))
    }

    /// Like [`LevelFile::load_selected`], building only the levels whose 1-based number `keep`
    /// accepts.
    pub fn load_where(path: &Path, input: &InputArgs, keep: impl Fn(usize) -> bool) -> Result<LevelFile> {
        let (path, text) = if path == Path::new("-") {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).context("cannot read standard input")?;
            (Path::new("<stdin>"), text)
        } else {
            (path, std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?)
        };
        let format = input.format.map(FormatArg::format).unwrap_or_else(|| sokoban::format::detect(path, &text));
        let mut options = sokoban::format::default_options(format);
        if let Some(rule) = input.rule {
            options.rule = match rule {
                RuleArg::Standard => SolvedRule::Standard,
                RuleArg::AllBoxes => SolvedRule::AllBoxesOnGoals,
                RuleArg::AllGoals => SolvedRule::AllGoalsCovered,
            };
        }
        let picked = sokoban::format::parse_where(&text, options, &mut |i| keep(i + 1))
            .map_err(|e| anyhow::anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.kind))?;
        let levels = picked.levels.into_iter().map(|(i, level)| (i + 1, level)).collect();
        Ok(LevelFile { path: path.to_path_buf(), count: picked.count, levels })
    }

    /// Level `n` (1-based), or its parse error with the file name.
    pub fn get(&self, n: usize) -> Result<&Level, String> {
        match self.levels.get(&n) {
            Some(Ok(level)) => Ok(level),
            Some(Err(e)) => Err(format!("{}:{}:{}: {}", self.path.display(), e.line, e.column, e.kind)),
            None => Err(format!("{}: level {n} was not read ({})", self.path.display(), plural(self.count, "level"))),
        }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Optimize(a) => optimize::run(a),
        Command::Show(a) => show::run(a),
        Command::Apply(a) => apply::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Next(a) => next::run(a),
        Command::Serve(a) => serve::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_forms() {
        assert_eq!(plural(1, "move"), "1 move");
        assert_eq!(plural(0, "move"), "0 moves");
        assert_eq!(plural(2, "push"), "2 pushes");
        assert_eq!(plural(1, "box"), "1 box");
        assert_eq!(plural(3, "box"), "3 boxes");
    }

    #[test]
    fn a_title_that_repeats_the_number_is_not_shown() {
        assert_eq!(title_suffix(1, Some("1")), "");
        assert_eq!(title_suffix(7, Some("Level 7")), "");
        assert_eq!(title_suffix(7, Some("7 ")), "");
        assert_eq!(title_suffix(7, Some("1")), " (1)");
        assert_eq!(title_suffix(2, Some("Lockdown")), " (Lockdown)");
        assert_eq!(title_suffix(2, None), "");
    }

    #[test]
    fn selections_and_their_messages() {
        let level = |n| Selection { level: Some(n), range: None };
        let range = |r: &str| Selection { level: None, range: Some(r.to_string()) };
        assert_eq!(Selection::default().pick(3).unwrap(), vec![1, 2, 3]);
        assert_eq!(level(2).pick(3).unwrap(), vec![2]);
        assert_eq!(range("2-3").pick(3).unwrap(), vec![2, 3]);
        assert_eq!(range("2").pick(3).unwrap(), vec![2]);
        let err = |s: Selection, n| s.pick(n).unwrap_err().to_string();
        assert_eq!(err(level(2), 1), "there is no level 2 (the file has 1 level, numbered from 1)");
        assert_eq!(err(level(0), 5), "there is no level 0 (the file has 5 levels, numbered from 1)");
        assert_eq!(err(range("4-9"), 5), "levels 4-9 reach outside 1-5 (the file has 5 levels, numbered from 1)");
        assert_eq!(err(range("3-2"), 5), "--levels 3-2 is empty: the first level comes after the last");
        assert_eq!(err(Selection::default(), 0), "the file has no levels");
        assert!(err(range("a-2"), 5).starts_with("bad level range"));
    }

    #[test]
    fn the_summary_line_counts_each_outcome() {
        let mut t = Tally::start();
        use sokoban::solver::Status;
        let statuses = [Status::Solved, Status::Timeout, Status::Solved, Status::Unsolvable, Status::Timeout];
        for s in statuses.into_iter().map(Some).chain([None]) {
            t.add(s);
        }
        let line = t.line();
        assert!(
            line.starts_with("6 levels: 2 solved, 1 proven unsolvable, 3 unsolved (2 timeout, 1 error) in "),
            "{line}"
        );
    }
}
