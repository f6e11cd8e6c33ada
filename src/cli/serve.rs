//! `sokoban serve`: a local web player. One page (embedded: HTML, script and style, no build step,
//! no CDN) and a JSON API that uses only library calls: `sokoban::format` to parse and convert,
//! `sokoban::solver::solve` (through [`super::solve::solve_verified`], so the fields are those of
//! `solve --json`) and `sokoban::verify`.
//!
//! Safety: binds to 127.0.0.1 unless told otherwise; request bodies are capped at 1 MiB; every
//! solve runs under the server's time and memory maxima whatever the request asks; at most one
//! solve per slot (one per core by default) runs at a time and further requests get 503; a solve
//! is cancelled when its client goes away (the handler's future is dropped, which sets the
//! search's cancel flag); levels are served only from the sets loaded at start (the bundled sets
//! are embedded in the binary), never from paths in a request.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use clap::Args;
use serde_json::{Value, json};
use sokoban::level::{SolvedRule, SourceFormat};
use sokoban::solver::{Config, Mode};
use sokoban::{Level, ParseError};

use super::{EXIT_OK, plural};

const INDEX_HTML: &str = include_str!("serve/index.html");
const APP_JS: &str = include_str!("serve/app.js");
const STYLE_CSS: &str = include_str!("serve/style.css");

/// The bundled sets, embedded so the server works from any directory.
const BUNDLED: [(&str, &str); 4] = [
    ("Microban", include_str!("../../data/microban.xsb")),
    ("Microban II", include_str!("../../data/microban-ii.xsb")),
    ("Sasquatch", include_str!("../../data/sasquatch.xsb")),
    ("XSokoban", include_str!("../../data/xsokoban90.xsb")),
];

/// The largest request body accepted (1 MiB); a larger one gets 413.
pub const MAX_BODY: usize = 1 << 20;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Level files to offer (any format `solve` reads); none offers the bundled sets: Microban,
    /// Microban II, Sasquatch and XSokoban.
    pub levels: Vec<PathBuf>,
    /// The port to listen on (0 picks a free one; the address is printed on standard output).
    #[arg(long, default_value_t = 6101)]
    pub port: u16,
    /// The address to bind. The default serves this machine only; 0.0.0.0 opens the server to
    /// the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The longest a solve may run, in seconds, whatever a request asks.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub max_time: f64,
    /// The most search memory one solve may use, in megabytes [default: half the physical
    /// memory divided by the solve slots].
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<usize>,
    /// How many solves may run at once; more get 503 [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub solvers: Option<usize>,
}

/// A level set offered by the server.
struct Set {
    name: String,
    levels: Vec<Result<Level, ParseError>>,
}

struct AppState {
    sets: Vec<Set>,
    /// Free solve slots.
    slots: Arc<tokio::sync::Semaphore>,
    slot_count: usize,
    /// Solves running now (their threads, until the search has really stopped).
    running: Arc<AtomicUsize>,
    max_time: f64,
    max_memory_mb: usize,
    /// Set at shutdown: cancels every running solve.
    stop: Arc<AtomicBool>,
}

/// An API error: a status and a JSON body `{"error", "line"?, "column"?}`.
struct ApiError {
    status: StatusCode,
    message: String,
    at: Option<(usize, usize)>,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into(), at: None }
    }
    fn parse(e: &ParseError) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: e.kind.to_string(), at: Some((e.line, e.column)) }
    }
    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into(), at: None }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let Some((line, column)) = self.at {
            body["line"] = json!(line);
            body["column"] = json!(column);
        }
        let mut response = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("2"));
        }
        response
    }
}

type ApiResult = Result<axum::Json<Value>, ApiError>;

/// The request body as JSON: a body over the cap is 413, malformed JSON 400 with its line and
/// column.
fn body_json(body: Result<Bytes, BytesRejection>) -> Result<Value, ApiError> {
    let bytes = body.map_err(|e| {
        let message = match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => format!("the request body is over the limit of {MAX_BODY} bytes"),
            _ => format!("cannot read the request body: {}", e.body_text()),
        };
        ApiError { status: e.status(), message, at: None }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError {
        status: StatusCode::BAD_REQUEST,
        message: format!("malformed JSON: {e}"),
        at: Some((e.line(), e.column())),
    })
}

fn rule_name(rule: SolvedRule) -> &'static str {
    match rule {
        SolvedRule::Standard => "standard",
        SolvedRule::AllBoxesOnGoals => "all-boxes",
        SolvedRule::AllGoalsCovered => "all-goals",
    }
}

fn rule_from(name: &str) -> Result<SolvedRule, ApiError> {
    match name {
        "standard" => Ok(SolvedRule::Standard),
        "all-boxes" => Ok(SolvedRule::AllBoxesOnGoals),
        "all-goals" => Ok(SolvedRule::AllGoalsCovered),
        _ => Err(ApiError::bad(format!("unknown rule {name:?} (standard, all-boxes or all-goals)"))),
    }
}

/// An optional string field.
fn str_field<'a>(req: &'a Value, name: &str) -> Result<Option<&'a str>, ApiError> {
    match req.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::bad(format!("\"{name}\" must be a string"))),
    }
}

/// The level of a request: `"level"` as XSB text (or any format the CLI reads, detected from the
/// content) or an MIT JSON grid; `"rule"` overrides the format's solved rule. The first level of
/// the text is used.
fn request_level(req: &Value) -> Result<Level, ApiError> {
    if !req.is_object() {
        return Err(ApiError::bad("the request must be a JSON object"));
    }
    let text = match req.get("level") {
        Some(Value::String(s)) => s.clone(),
        Some(grid @ Value::Array(_)) => grid.to_string(),
        Some(_) => return Err(ApiError::bad("\"level\" must be XSB text (a string) or an MIT JSON grid (an array)")),
        None => return Err(ApiError::bad("missing \"level\"")),
    };
    let format = sokoban::format::detect(Path::new(""), &text);
    let mut options = sokoban::format::default_options(format);
    if let Some(rule) = str_field(req, "rule")? {
        options.rule = rule_from(rule)?;
    }
    let picked = sokoban::format::parse_where(&text, options, &mut |i| i == 0).map_err(|e| ApiError::parse(&e))?;
    match picked.levels.into_iter().next() {
        Some((_, Ok(level))) => Ok(level),
        Some((_, Err(e))) => Err(ApiError::parse(&e)),
        None => Err(ApiError::bad("the text holds no level")),
    }
}

/// What the page needs to show and play a level: title, XSB rows, the MIT JSON grid and the
/// solved rule.
fn level_json(level: &Level) -> Result<Value, ApiError> {
    let raw = level.to_raw();
    let write = |format| {
        sokoban::format::write_raw(level, &raw, format).map_err(|e| ApiError::bad(format!("cannot write: {e}")))
    };
    let xsb = write(SourceFormat::Xsb)?;
    let grid: Value = serde_json::from_str(&write(SourceFormat::Json)?).unwrap_or(Value::Null);
    Ok(json!({
        "title": level.title(),
        "xsb": xsb,
        "grid": grid,
        "rule": rule_name(level.rule()),
        "format": level.format().name(),
        "width": level.width(),
        "height": level.height(),
        "boxes": level.boxes().len(),
        "goals": level.goals().len(),
    }))
}

async fn sets(State(app): State<Arc<AppState>>) -> ApiResult {
    let list: Vec<Value> =
        app.sets.iter().enumerate().map(|(i, s)| json!({ "id": i, "name": s.name, "count": s.levels.len() })).collect();
    Ok(axum::Json(json!({ "sets": list })))
}

async fn set_level(State(app): State<Arc<AppState>>, UrlPath((set, n)): UrlPath<(String, String)>) -> ApiResult {
    let found = match set.parse::<usize>() {
        Ok(i) => app.sets.get(i),
        Err(_) => app.sets.iter().find(|s| s.name.eq_ignore_ascii_case(&set)),
    };
    let set = found.ok_or_else(|| ApiError::not_found(format!("no set {set:?} (GET /api/sets lists them)")))?;
    let count = set.levels.len();
    let level = n
        .parse::<usize>()
        .ok()
        .filter(|&n| n >= 1 && n <= count)
        .and_then(|n| set.levels.get(n - 1))
        .ok_or_else(|| {
            ApiError::not_found(format!("no level {n:?} in {} ({}, numbered from 1)", set.name, plural(count, "level")))
        })?;
    let level = level.as_ref().map_err(ApiError::parse)?;
    let mut out = level_json(level)?;
    out["set"] = json!(set.name);
    out["n"] = json!(n.parse::<usize>().unwrap_or(0));
    out["count"] = json!(count);
    Ok(axum::Json(out))
}

async fn convert(body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req = body_json(body)?;
    let level = request_level(&req)?;
    let mut out = level_json(&level)?;
    if let Some(to) = str_field(&req, "to")? {
        let format = SourceFormat::from_name(to)
            .ok_or_else(|| ApiError::bad(format!("unknown format {to:?} (xsb, grid, json or warehouse)")))?;
        let text = sokoban::format::write(&level, format).map_err(|e| ApiError::bad(format!("cannot write: {e}")))?;
        out["text"] = json!(text);
    }
    Ok(axum::Json(out))
}

async fn verify(body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req = body_json(body)?;
    let level = request_level(&req)?;
    let moves = str_field(&req, "moves")?.ok_or_else(|| ApiError::bad("missing \"moves\" (LURD text)"))?;
    let report = sokoban::verify::verify(&level, moves);
    let illegal = report.illegal.map(|i| json!({ "index": i.index, "reason": i.reason.to_string() }));
    Ok(axum::Json(json!({
        "valid": report.is_valid_solution(),
        "verdict": report.verdict(true).name(),
        "solved": report.solved,
        "moves": report.moves,
        "pushes": report.pushes,
        "illegal": illegal,
        "case_mismatch": report.first_case_mismatch,
        "final": report.final_rows.join("\n"),
    })))
}

/// Sets the cancel flag when dropped: the handler's future is dropped when its client goes away,
/// and the search then stops at its next check.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Counts a running solve until its thread ends.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn solve(State(app): State<Arc<AppState>>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let req = body_json(body)?;
    let level = request_level(&req)?;
    let mode = match str_field(&req, "mode")?.unwrap_or("auto") {
        "auto" => Mode::Auto,
        "pushes" => Mode::Pushes,
        "moves" => Mode::Moves,
        "cost" => Mode::Cost,
        "bfs" => Mode::Bfs,
        "fast" => Mode::Fast,
        other => {
            return Err(ApiError::bad(format!("unknown mode {other:?} (auto, pushes, moves, cost, bfs or fast)")));
        }
    };
    let asked = match req.get("time_limit") {
        None | Some(Value::Null) => 10.0,
        Some(v) => v.as_f64().ok_or_else(|| ApiError::bad("\"time_limit\" must be a number of seconds"))?,
    };
    if asked.is_nan() || asked <= 0.0 {
        return Err(ApiError::bad("\"time_limit\" must be a positive number of seconds"));
    }
    let time_limit = asked.min(app.max_time);
    let permit = app.slots.clone().try_acquire_owned().map_err(|_| ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: format!("all {} busy; try again shortly", plural(app.slot_count, "solver slot")),
        at: None,
    })?;
    let cancel = Arc::new(AtomicBool::new(app.stop.load(Ordering::Relaxed)));
    let config = Config {
        mode,
        time_limit: Some(Duration::from_secs_f64(time_limit)),
        memory_limit: Some(app.max_memory_mb.saturating_mul(1 << 20)),
        cancel: Some(cancel.clone()),
        ..Config::default()
    };
    let _guard = CancelOnDrop(cancel.clone());
    app.running.fetch_add(1, Ordering::SeqCst);
    let running = Running(app.running.clone());
    let stop = app.stop.clone();
    let task = tokio::task::spawn_blocking(move || {
        // The slot stays taken until the search has really stopped.
        let _permit = permit;
        let _running = running;
        if stop.load(Ordering::Relaxed) {
            cancel.store(true, Ordering::Relaxed);
        }
        super::solve::solve_verified(1, &level, &config)
    });
    let outcome = task.await.map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the solver failed: {e}"),
        at: None,
    })?;
    let mut out = outcome.json();
    out["mode"] = json!(str_field(&req, "mode")?.unwrap_or("auto"));
    out["time_limit"] = json!(time_limit);
    Ok(axum::Json(out))
}

async fn status(State(app): State<Arc<AppState>>) -> ApiResult {
    Ok(axum::Json(json!({
        "solvers": app.slot_count,
        "running": app.running.load(Ordering::SeqCst),
        "max_time": app.max_time,
        "max_memory_mb": app.max_memory_mb,
        "max_body": MAX_BODY,
    })))
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or endpoint")
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    let message = format!("{method} is not allowed on {} (see the API table in the README)", uri.path());
    ApiError { status: StatusCode::METHOD_NOT_ALLOWED, message, at: None }
}

fn asset(kind: &'static str, text: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], text)
}

/// The router: the page, its assets and the API.
fn router(app: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }))
        .route("/api/sets", get(sets))
        .route("/api/sets/{set}/{n}", get(set_level))
        .route("/api/solve", post(solve))
        .route("/api/verify", post(verify))
        .route("/api/convert", post(convert))
        .route("/api/status", get(status))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Loads the sets to offer: the given files (named by file name) or the bundled sets.
fn load_sets(files: &[PathBuf]) -> Result<Vec<Set>> {
    if files.is_empty() {
        return BUNDLED
            .iter()
            .map(|(name, text)| {
                let levels = sokoban::format::parse_each_as(text, SourceFormat::Xsb)
                    .map_err(|e| anyhow::anyhow!("bundled set {name}: {e:?}"))?;
                Ok(Set { name: name.to_string(), levels })
            })
            .collect();
    }
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            let levels = sokoban::format::parse_each(&text, path)
                .map_err(|e| anyhow::anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.kind))?;
            let name =
                path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
            Ok(Set { name, levels })
        })
        .collect()
}

pub fn run(a: ServeArgs) -> Result<ExitCode> {
    if !(a.max_time > 0.0 && a.max_time <= 1e9) {
        anyhow::bail!("--max-time must be a positive number of seconds, at most 1e9");
    }
    let slot_count = a.solvers.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if slot_count == 0 {
        anyhow::bail!("--solvers must be at least 1");
    }
    let max_memory_mb = match a.max_memory {
        Some(0) => anyhow::bail!("--max-memory must be at least 1 MB"),
        Some(mb) => mb,
        None => (sokoban::system::default_memory_limit() >> 20) / slot_count,
    };
    let sets = load_sets(&a.levels)?;
    let addr: SocketAddr = format!("{}:{}", a.host, a.port)
        .parse()
        .or_else(|_| format!("[{}]:{}", a.host, a.port).parse())
        .with_context(|| format!("bad --host {:?} (an IP address such as 127.0.0.1)", a.host))?;
    let stop = Arc::new(AtomicBool::new(false));
    let app = Arc::new(AppState {
        sets,
        slots: Arc::new(tokio::sync::Semaphore::new(slot_count)),
        slot_count,
        running: Arc::new(AtomicUsize::new(0)),
        max_time: a.max_time,
        max_memory_mb,
        stop: stop.clone(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr().context("cannot read the listening address")?;
        let count: usize = app.sets.iter().map(|s| s.levels.len()).sum();
        outln!("sokoban serve: http://{local}/")?;
        eprintln!(
            "{} ({}), {} at a time, at most {} s and {} MB each; Ctrl-C stops",
            plural(app.sets.len(), "set"),
            plural(count, "level"),
            plural(slot_count, "solve"),
            app.max_time,
            max_memory_mb
        );
        let shutdown = async move {
            let _ = tokio::signal::ctrl_c().await;
            stop.store(true, Ordering::Relaxed);
        };
        axum::serve(listener, router(app)).with_graceful_shutdown(shutdown).await.context("the server failed")
    })?;
    runtime.shutdown_timeout(Duration::from_secs(2));
    Ok(ExitCode::from(EXIT_OK))
}
