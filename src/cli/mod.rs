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
mod pool;
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
/// --format. Select levels with --level N or --levels A-B (1-based).
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
    /// The default mode proves the fewest pushes with A* and a matching lower bound. Exit status
    /// 0 when every selected level was solved or proven unsolvable. Ctrl-C stops the running
    /// levels after printing the ones already finished (exit status 130).
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
        let (a, b) = self.range()?.unwrap_or((1, count));
        if a == 0 || a > b || b > count {
            bail!("level selection {a}-{b} is outside 1-{count} (the file has {count} levels)");
        }
        Ok((a..=b).collect())
    }
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
    /// Reads a file, building only the levels `select` picks (the rest are only counted, so
    /// `--level 1` of a file of 100,000 levels costs little memory).
    pub fn load_selected(path: &Path, input: &InputArgs, select: &Selection) -> Result<LevelFile> {
        let range = select.range()?;
        LevelFile::load_where(path, input, |n| range.is_none_or(|(a, b)| (a..=b).contains(&n)))
    }

    /// Reads a file, building only the levels whose 1-based number `keep` accepts.
    pub fn load_where(path: &Path, input: &InputArgs, keep: impl Fn(usize) -> bool) -> Result<LevelFile> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
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
            None => {
                Err(format!("{}: level {n} was not read (the file has {} levels)", self.path.display(), self.count))
            }
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
        Command::Apply(a) => apply::run(a),
        Command::Convert(a) => convert::run(a),
    }
}
