//! The native part of the `sokoban_solver` Python package: levels, the verifier and the solvers
//! of the `sokoban` library. The Python package (`sokoban_solver/__init__.py`) re-exports these
//! and adds what is easier in Python (progress bars, gym-sokoban arrays).
//!
//! Every solve runs on a Rust thread while the calling thread waits in short slices with the GIL
//! released: other Python threads run meanwhile, and a signal (Ctrl-C) sets the solve's cancel
//! flag and raises `KeyboardInterrupt` as soon as the search stops. A panic in the library never
//! reaches Python as a crash: it becomes a `RuntimeError`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use sokoban::format::{self, xsb};
use sokoban::level::{BuildOptions, SourceFormat};
use sokoban::rules::Position;
use sokoban::solver::{self, Config, Mode, Solution, SolveError};

create_exception!(
    sokoban_solver,
    ParseError,
    PyValueError,
    "A level text that cannot be read; `line` and `column` (1-based) say where."
);
create_exception!(
    sokoban_solver,
    IllegalMoveError,
    PyValueError,
    "A move that the rules do not allow; `index` (0-based) says which."
);

/// How often the waiting thread looks for signals and reports progress.
const SLICE: Duration = Duration::from_millis(20);

/// The stack of each solver thread.
const SOLVE_STACK: usize = 16 << 20;

/// The largest time limit accepted, in seconds (as the CLI's --time-limit).
const MAX_SECONDS: f64 = 1e9;

fn parse_error(py: Python<'_>, e: &sokoban::ParseError) -> PyErr {
    let err = ParseError::new_err(e.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice; if it did, the
    // message still carries the line and column.
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("column", e.column);
    let _ = value.setattr("reason", e.kind.to_string());
    err
}

fn illegal_move(py: Python<'_>, index: usize, message: String) -> PyErr {
    let err = IllegalMoveError::new_err(message);
    let _ = err.value(py).setattr("index", index);
    err
}

/// A panic payload's message.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

fn format_by_name(name: &str) -> PyResult<SourceFormat> {
    SourceFormat::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = SourceFormat::ALL.iter().map(|f| f.name()).collect();
        PyValueError::new_err(format!("unknown format {name:?} (expected one of {})", names.join(", ")))
    })
}

/// A Sokoban level: the board, its boxes and goals. Immutable; made by `parse`, `read` or
/// `from_gym_sokoban`.
#[pyclass(frozen, module = "sokoban_solver")]
struct Level {
    inner: Arc<sokoban::Level>,
    /// 1-based number of the level in the text or file it came from.
    #[pyo3(get)]
    number: usize,
}

impl Level {
    fn new(level: sokoban::Level, number: usize) -> Level {
        Level { inner: Arc::new(level), number }
    }

    fn cells(&self, squares: &[sokoban::Square]) -> Vec<(usize, usize)> {
        squares.iter().map(|&s| self.inner.coords(s)).collect()
    }
}

#[pymethods]
impl Level {
    /// Width in cells.
    #[getter]
    fn width(&self) -> usize {
        self.inner.width()
    }

    /// Height in cells.
    #[getter]
    fn height(&self) -> usize {
        self.inner.height()
    }

    /// (width, height) in cells.
    #[getter]
    fn size(&self) -> (usize, usize) {
        (self.inner.width(), self.inner.height())
    }

    /// The boxes' cells as (row, column), 0-based, in reading order.
    #[getter]
    fn boxes(&self) -> Vec<(usize, usize)> {
        self.cells(self.inner.boxes())
    }

    /// The goals' cells as (row, column), 0-based, in reading order.
    #[getter]
    fn goals(&self) -> Vec<(usize, usize)> {
        self.cells(self.inner.goals())
    }

    /// The player's cell as (row, column), 0-based.
    #[getter]
    fn player(&self) -> (usize, usize) {
        self.inner.coords(self.inner.player())
    }

    /// The title the file gave the level, if any.
    #[getter]
    fn title(&self) -> Option<String> {
        self.inner.title().map(str::to_string)
    }

    /// The format the level was read from: "xsb", "grid", "json" or "warehouse".
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format().name()
    }

    /// The board as XSB text (`#` wall, `@` player, `$` box, `.` goal, `*` box on goal, `+`
    /// player on goal), one line per row, newline-terminated.
    #[getter]
    fn board(&self) -> String {
        board_text(&self.inner, &self.inner.to_raw())
    }

    /// The level in its own format, as a file would hold it (title and comments included).
    fn to_text(&self) -> PyResult<String> {
        format::write(&self.inner, self.inner.format()).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __str__(&self) -> String {
        self.board()
    }

    fn __repr__(&self) -> String {
        let title = self.inner.title().map(|t| format!(" {t:?}")).unwrap_or_default();
        format!(
            "<Level {}{title}: {}x{}, {} boxes>",
            self.number,
            self.inner.width(),
            self.inner.height(),
            self.inner.boxes().len()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Level>().is_ok_and(|o| *o.get().inner == *self.inner)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board().hash(&mut h);
        h.finish()
    }

    /// Pickling (for multiprocessing and Ray): the level's own text, format and number.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, PickledLevel)> {
        let py = slf.py();
        let this = slf.get();
        let rebuild = py.import("sokoban_solver._sokoban")?.getattr("_level_from_text")?;
        Ok((rebuild, (this.to_text()?, this.format(), this.number)))
    }
}

/// What a pickled level holds: its text, format name and number.
type PickledLevel = (String, &'static str, usize);

fn board_text(level: &sokoban::Level, raw: &sokoban::level::RawBoard) -> String {
    let mut text = String::new();
    for row in xsb::raw_rows(level, raw) {
        text.push_str(&row);
        text.push('\n');
    }
    text
}

/// Rebuilds a pickled level.
#[pyfunction]
fn _level_from_text(py: Python<'_>, text: &str, format: &str, number: usize) -> PyResult<Level> {
    let format = format_by_name(format)?;
    let levels = format::parse_as(text, format).map_err(|e| parse_error(py, &e))?;
    let level = levels.into_iter().next().ok_or_else(|| PyValueError::new_err("no level in the text"))?;
    Ok(Level::new(level, number))
}

fn levels_from(py: Python<'_>, each: Vec<Result<sokoban::Level, sokoban::ParseError>>) -> PyResult<Vec<Level>> {
    each.into_iter()
        .enumerate()
        .map(|(i, level)| level.map(|l| Level::new(l, i + 1)).map_err(|e| parse_error(py, &e)))
        .collect()
}

/// Parses every level of a text: XSB/SOK unless `format` names another ("grid", "json",
/// "warehouse"); with format=None the format is recognised from the content. Raises
/// ParseError (a ValueError) with `line` and `column`.
///
/// >>> import sokoban_solver as sk
/// >>> sk.parse("#####\n#@$.#\n#####\n")[0].boxes
/// [(1, 2)]
/// >>> try:
/// ...     sk.parse("#####\n#@$.#\n#  x#\n#####\n")
/// ... except sk.ParseError as e:
/// ...     print(e.line, e.column, e.reason)
/// 3 4 unknown character 'x' in a board row
#[pyfunction]
#[pyo3(signature = (text, format=None))]
fn parse(py: Python<'_>, text: &str, format: Option<&str>) -> PyResult<Vec<Level>> {
    let format = match format {
        Some(name) => format_by_name(name)?,
        None => format::detect(Path::new(""), text),
    };
    let each = format::parse_each_as(text, format).map_err(|e| parse_error(py, &e))?;
    levels_from(py, each)
}

/// Reads every level of a file, its format recognised from the extension and content (OSError
/// when it cannot be read, ParseError at the first bad level). Levels are numbered as in the file.
///
/// >>> import sokoban_solver as sk, pathlib, tempfile
/// >>> path = pathlib.Path(tempfile.mkdtemp()) / "one.xsb"
/// >>> _ = path.write_text("Title: One\n#####\n#@$.#\n#####\n")
/// >>> sk.read(path)
/// [<Level 1 "One": 5x3, 1 boxes>]
#[pyfunction]
fn read(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Vec<Level>> {
    let text = std::fs::read_to_string(&path)
        .map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))?;
    let each = format::parse_each(&text, &path).map_err(|e| parse_error(py, &e))?;
    levels_from(py, each)
}

/// The outcome of one solve. `to_dict()` and `to_json()` give the line `sokoban solve --json`
/// prints for the level.
#[pyclass(frozen, name = "Result", module = "sokoban_solver")]
struct SolveResult {
    /// 1-based number of the level in its file.
    #[pyo3(get)]
    level: usize,
    /// "solved", "unsolvable", "timeout", "memory-limit", "node-limit", "cancelled" or "invalid".
    #[pyo3(get)]
    status: &'static str,
    /// The solution in LURD (lowercase walk, uppercase push), or None.
    #[pyo3(get)]
    lurd: Option<String>,
    /// Moves of the solution, or None.
    #[pyo3(get)]
    moves: Option<usize>,
    /// Pushes of the solution, or None.
    #[pyo3(get)]
    pushes: Option<usize>,
    /// What the solution is proven to minimise ("pushes", "pushes,moves", "moves", "cost"), or
    /// None when nothing is proven.
    #[pyo3(get)]
    optimal: Option<&'static str>,
    /// States expanded.
    #[pyo3(get)]
    nodes: u64,
    /// Search time in seconds.
    #[pyo3(get)]
    seconds: f64,
    /// Which search found the solution ("a-star", "first-pass", "first-pass/sprint", …; see
    /// the `found_by` field of `sokoban solve --json`), or None.
    #[pyo3(get)]
    found_by: Option<String>,
    /// Why the solve gave no solution, in words (None when solved).
    #[pyo3(get)]
    error: Option<String>,
    json: String,
}

impl SolveResult {
    fn new(number: usize, level: &sokoban::Level, result: &Result<Solution, SolveError>, cost_mode: bool) -> Self {
        let json = solver::report::solve_json(number, level, result, cost_mode).to_string();
        let stats = match result {
            Ok(s) => &s.stats,
            Err(e) => e.stats(),
        };
        let solution = result.as_ref().ok();
        SolveResult {
            level: number,
            status: solver::Status::of(result).name(),
            lurd: solution.map(|s| s.lurd.clone()),
            moves: solution.map(|s| s.moves.len()),
            pushes: solution.map(|s| s.pushes),
            optimal: solution.and_then(|s| s.optimal.map(|o| o.name())),
            nodes: stats.expanded,
            seconds: stats.seconds,
            found_by: solution.and_then(|s| s.credit()).map(str::to_owned),
            error: result.as_ref().err().map(|e| e.to_string()),
            json,
        }
    }
}

#[pymethods]
impl SolveResult {
    /// True when a verified solution was found.
    #[getter]
    fn solved(&self) -> bool {
        self.status == "solved"
    }

    /// The JSON line of `sokoban solve --json` for this level (keys sorted, no newline).
    fn to_json(&self) -> &str {
        &self.json
    }

    /// The JSON line as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (&self.json,))
    }

    fn __repr__(&self) -> String {
        match (&self.moves, &self.pushes) {
            (Some(m), Some(p)) => format!(
                "<Result level {}: solved, {m} moves, {p} pushes, {} nodes, {:.3} s>",
                self.level, self.nodes, self.seconds
            ),
            _ => format!("<Result level {}: {}, {} nodes, {:.3} s>", self.level, self.status, self.nodes, self.seconds),
        }
    }
}

fn mode_by_name(name: &str) -> PyResult<Mode> {
    Ok(match name {
        "pushes" => Mode::Pushes,
        "moves" => Mode::Moves,
        "cost" => Mode::Cost,
        "bfs" => Mode::Bfs,
        "fast" => Mode::Fast,
        "auto" => Mode::Auto,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown mode {name:?} (expected \"auto\", \"pushes\", \"moves\", \"cost\", \"fast\" or \"bfs\")"
            )));
        }
    })
}

/// The solver configuration of the keyword arguments (as the CLI's options of the same names).
fn config(
    mode: &str,
    time_limit: Option<f64>,
    memory_limit: Option<usize>,
    node_limit: Option<u64>,
) -> PyResult<Config> {
    if let Some(t) = time_limit
        && !(t > 0.0 && t <= MAX_SECONDS)
    {
        return Err(PyValueError::new_err(format!(
            "time_limit must be a positive number of seconds, at most {MAX_SECONDS:e}"
        )));
    }
    if memory_limit == Some(0) {
        return Err(PyValueError::new_err("memory_limit must be a positive number of megabytes"));
    }
    let mut config = Config {
        mode: mode_by_name(mode)?,
        time_limit: time_limit.map(Duration::from_secs_f64),
        node_limit,
        ..Config::default()
    };
    if let Some(mb) = memory_limit {
        config.memory_limit = Some(mb.saturating_mul(1 << 20));
    }
    Ok(config)
}

/// A solve that panicked, as a Python exception.
fn panicked(payload: Box<dyn std::any::Any + Send>) -> PyErr {
    PyRuntimeError::new_err(format!("internal error: the solver panicked: {}", panic_message(&*payload)))
}

/// Solves `levels` on `threads` Rust threads (each level on one thread, with its own limits)
/// while this thread waits with the GIL released, calling `on_done(finished)` after each level
/// and checking for signals. Results come in input order. On a signal every search is cancelled
/// and the signal's exception (KeyboardInterrupt) raised once they stopped.
fn run_solves(
    py: Python<'_>,
    levels: Vec<(Arc<sokoban::Level>, usize)>,
    config: Config,
    threads: usize,
    mut on_done: impl FnMut(Python<'_>, usize) -> PyResult<()>,
) -> PyResult<Vec<SolveResult>> {
    let cancel = Arc::new(AtomicBool::new(false));
    let config = Config { cancel: Some(cancel.clone()), ..config };
    let cost_mode = config.mode == Mode::Cost;
    let total = levels.len();
    let levels = Arc::new(levels);
    let next = Arc::new(AtomicUsize::new(0));
    let (send, mut receive) = mpsc::channel::<(usize, std::thread::Result<SolveResult>)>();
    let workers = (0..threads.clamp(1, total.max(1)))
        .map(|_| {
            let (levels, next, send, config) = (levels.clone(), next.clone(), send.clone(), config.clone());
            // The stack of a main thread (8 MiB) and more: deep searches stay off the guard page.
            let builder = std::thread::Builder::new().name("sokoban-solve".into()).stack_size(SOLVE_STACK);
            builder.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((level, number)) = levels.get(i) else { break };
                    let out = catch_unwind(AssertUnwindSafe(|| {
                        let result = if config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                            Err(SolveError::Cancelled(Default::default()))
                        } else {
                            solver::solve(level, &config)
                        };
                        SolveResult::new(*number, level, &result, cost_mode)
                    }));
                    if send.send((i, out)).is_err() {
                        break;
                    }
                }
            })
        })
        .collect::<std::io::Result<Vec<_>>>();
    drop(send);
    let workers = match workers {
        Ok(w) => w,
        Err(e) => {
            // Threads already started end at once: they find the flag set.
            cancel.store(true, Ordering::Relaxed);
            return Err(PyRuntimeError::new_err(format!("cannot start a solver thread: {e}")));
        }
    };
    let mut results: Vec<Option<SolveResult>> = (0..total).map(|_| None).collect();
    let mut finished = 0;
    let mut failure: Option<PyErr> = None;
    while finished < total {
        // The receiver is moved into the GIL-free wait and back (it is not `Sync`).
        let (got, back) = py.detach(move || (receive.recv_timeout(SLICE), receive));
        receive = back;
        match got {
            Ok((i, out)) => {
                finished += 1;
                match out {
                    Ok(r) => results[i] = Some(r),
                    Err(payload) => {
                        cancel.store(true, Ordering::Relaxed);
                        failure.get_or_insert(panicked(payload));
                    }
                }
                if failure.is_none()
                    && let Err(e) = on_done(py, finished)
                {
                    cancel.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        // After every wake-up, not only idle ones: a stream of quick levels must not hide Ctrl-C.
        if failure.is_none()
            && let Err(e) = py.check_signals()
        {
            cancel.store(true, Ordering::Relaxed);
            failure = Some(e);
        }
    }
    // The workers end once the queue is drained or the channel closed; cancelled searches stop
    // within milliseconds.
    py.detach(|| {
        drop(receive);
        for w in workers {
            let _ = w.join();
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    results
        .into_iter()
        .map(|r| r.ok_or_else(|| PyRuntimeError::new_err("internal error: a level's result is missing")))
        .collect()
}

/// Solves one level with the GIL released; Ctrl-C (SIGINT) cancels the search and raises
/// KeyboardInterrupt.
///
/// `mode`: "auto" (the fast engine, then push-optimal A* with the time left to prove it),
/// "pushes", "moves", "cost", "fast" or "bfs", as `sokoban solve --mode`. `time_limit` in seconds
/// (None: none), `memory_limit` in megabytes (None: half the physical memory), `node_limit` in
/// expanded states (None: none); a limit reached is a status of the Result, not an exception.
/// `threads`: threads on this one level, a portfolio of the fast engine's searches (modes auto
/// and fast; as `sokoban solve --threads`); with 1 a node-limited solve is deterministic.
///
/// >>> import sokoban_solver as sk
/// >>> level = sk.parse("######\n#@$ .#\n######\n")[0]
/// >>> r = sk.solve(level, mode="pushes")
/// >>> r.status, r.lurd, r.moves, r.pushes, r.optimal
/// ('solved', 'RR', 2, 2, 'pushes,moves')
/// >>> sk.solve(level, mode="pushes", node_limit=0).status
/// 'node-limit'
#[pyfunction]
#[pyo3(
    signature = (level, mode="auto", time_limit=Some(60.0), memory_limit=None, node_limit=None, threads=1),
    text_signature = "(level, mode='auto', time_limit=60.0, memory_limit=None, node_limit=None, threads=1)"
)]
fn solve(
    py: Python<'_>,
    level: &Level,
    mode: &str,
    time_limit: Option<f64>,
    memory_limit: Option<usize>,
    node_limit: Option<u64>,
    threads: usize,
) -> PyResult<SolveResult> {
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let config = Config { threads, ..config(mode, time_limit, memory_limit, node_limit)? };
    let mut results = run_solves(py, vec![(level.inner.clone(), level.number)], config, 1, |_, _| Ok(()))?;
    results.pop().ok_or_else(|| PyRuntimeError::new_err("internal error: no result"))
}

/// Solves many levels on `threads` Rust threads (0: one per core); results in input order.
/// `progress(done, total)` is called after each level. Without `memory_limit`, the threads
/// share half the physical memory; a given `memory_limit` holds for each level.
#[pyfunction]
#[pyo3(
    signature = (levels, threads=0, mode="auto", time_limit=Some(60.0), memory_limit=None, node_limit=None, progress=None),
    text_signature = "(levels, threads=0, mode='auto', time_limit=60.0, memory_limit=None, node_limit=None, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    levels: &Bound<'_, PyAny>,
    threads: usize,
    mode: &str,
    time_limit: Option<f64>,
    memory_limit: Option<usize>,
    node_limit: Option<u64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<SolveResult>> {
    let config = config(mode, time_limit, memory_limit, node_limit)?;
    let mut list = Vec::new();
    for item in levels.try_iter()? {
        let item = item?;
        let level = item.cast::<Level>().map_err(|_| {
            PyTypeError::new_err(format!(
                "solve_many takes Level objects, got {}",
                item.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        list.push((level.get().inner.clone(), level.get().number));
    }
    let threads = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    // The default memory limit (half the physical memory) is shared by the levels solved at
    // once, as `sokoban solve --jobs` shares it; a given limit is per level.
    let config = match memory_limit {
        None => Config { memory_limit: config.memory_limit.map(|m| (m / threads.max(1)).max(1 << 20)), ..config },
        Some(_) => config,
    };
    let total = list.len();
    run_solves(py, list, config, threads, |_, done| match &progress {
        Some(f) => f.call1((done, total)).map(|_| ()),
        None => Ok(()),
    })
}

/// The independent verifier's report on a move string.
#[pyclass(frozen, module = "sokoban_solver")]
struct Verification {
    /// Legal, solving, and every letter's case right (uppercase exactly for pushes).
    #[pyo3(get)]
    valid: bool,
    /// The final position solves the level (false when a move was illegal).
    #[pyo3(get)]
    solved: bool,
    /// Moves made before the end or the first illegal move.
    #[pyo3(get)]
    moves: usize,
    /// Pushes among those moves.
    #[pyo3(get)]
    pushes: usize,
    /// 0-based index of the first illegal move, or None.
    #[pyo3(get)]
    illegal_index: Option<usize>,
    /// Why the move string is not a valid solution, in words (None when valid).
    #[pyo3(get)]
    reason: Option<String>,
}

#[pymethods]
impl Verification {
    fn __bool__(&self) -> bool {
        self.valid
    }

    fn __repr__(&self) -> String {
        match &self.reason {
            None => format!("<Verification valid: {} moves, {} pushes>", self.moves, self.pushes),
            Some(r) => format!("<Verification invalid: {r}>"),
        }
    }
}

/// Replays LURD (run-length encoding allowed) with the independent verifier.
///
/// >>> import sokoban_solver as sk
/// >>> level = sk.parse("#####\n#@$.#\n#####\n")[0]
/// >>> sk.verify(level, "R")
/// <Verification valid: 1 moves, 1 pushes>
/// >>> sk.verify(level, "L").reason
/// 'move 0 (0-based) walks into a wall'
#[pyfunction]
fn verify(level: &Level, lurd: &str) -> PyResult<Verification> {
    let lurd = if sokoban::lurd::is_rle(lurd) {
        sokoban::lurd::expand(lurd).map_err(|e| PyValueError::new_err(e.to_string()))?
    } else {
        lurd.to_string()
    };
    let report = sokoban::verify::verify(&level.inner, &lurd);
    let reason = match report.verdict(true) {
        sokoban::verify::Verdict::Valid => None,
        sokoban::verify::Verdict::Illegal(ill) => Some(format!("move {} (0-based) {}", ill.index, ill.reason)),
        sokoban::verify::Verdict::Unsolved => Some("every move is legal but the level is not solved".to_string()),
        sokoban::verify::Verdict::CaseMismatch(i) => {
            Some(format!("move {i} (0-based) has the wrong case (uppercase marks exactly the pushes)"))
        }
    };
    Ok(Verification {
        valid: reason.is_none(),
        solved: report.solved,
        moves: report.moves,
        pushes: report.pushes,
        illegal_index: report.illegal.map(|i| i.index),
        reason,
    })
}

/// Where a move list leads: the board after it, whether it is solved, and the counts.
#[pyclass(frozen, module = "sokoban_solver")]
struct Played {
    /// The board after the moves, as XSB text.
    #[pyo3(get)]
    board: String,
    /// The position after the moves solves the level.
    #[pyo3(get)]
    solved: bool,
    /// Moves played.
    #[pyo3(get)]
    moves: usize,
    /// Pushes among them.
    #[pyo3(get)]
    pushes: usize,
    level: Level,
}

#[pymethods]
impl Played {
    /// The position after the moves as a level of its own (to solve from there).
    #[getter]
    fn level(&self) -> Level {
        Level { inner: self.level.inner.clone(), number: self.level.number }
    }

    fn __str__(&self) -> String {
        self.board.clone()
    }

    fn __repr__(&self) -> String {
        format!("<Played {} moves, {} pushes, solved={}>", self.moves, self.pushes, self.solved)
    }
}

/// Plays moves (LURD, a JSON array of directions, words, or a list of direction names) from
/// the level's start. Raises IllegalMoveError (a ValueError) with `index` at an illegal move.
///
/// >>> import sokoban_solver as sk
/// >>> level = sk.parse("######\n#@$ .#\n######\n")[0]
/// >>> played = sk.apply(level, ["right"])
/// >>> print(played.board, end="")
/// ######
/// # @$.#
/// ######
/// >>> played.solved, sk.apply(level, "RR").solved
/// (False, True)
#[pyfunction]
fn apply(py: Python<'_>, level: &Level, moves: &Bound<'_, PyAny>) -> PyResult<Played> {
    let text = if let Ok(s) = moves.extract::<String>() {
        s
    } else if moves.cast::<PyList>().is_ok() || moves.cast::<PyTuple>().is_ok() {
        let words: Vec<String> = moves.extract()?;
        words.join(",")
    } else {
        return Err(PyTypeError::new_err("moves must be a string or a list of direction names"));
    };
    let letters = sokoban::moves::parse(&text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let l = &level.inner;
    let mut position = Position::start(l);
    let (mut count, mut pushes) = (0, 0);
    for (k, letter) in letters.iter().enumerate() {
        let (next, m) = position
            .step(l, letter.dir)
            .map_err(|e| illegal_move(py, k, format!("move {k} (0-based, {}) is illegal: {e}", letter.dir.name())))?;
        position = next;
        count += 1;
        pushes += usize::from(m.push);
    }
    let raw = position.to_raw(l);
    let board = board_text(l, &raw);
    let options = BuildOptions { rule: l.rule(), edges: l.edges(), format: l.format() };
    let after = sokoban::Level::from_raw(raw, l.meta().clone(), options).map_err(|e| parse_error(py, &e))?;
    Ok(Played { board, solved: position.is_solved(l), moves: count, pushes, level: Level::new(after, level.number) })
}

/// The native module, re-exported by `sokoban_solver`.
#[pymodule]
fn _sokoban(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add_class::<Level>()?;
    m.add_class::<SolveResult>()?;
    m.add_class::<Verification>()?;
    m.add_class::<Played>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(_level_from_text, m)?)?;
    Ok(())
}
