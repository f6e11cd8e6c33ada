//! API tests of `sokoban serve`: every endpoint, bad input (malformed JSON, a 10 MiB body, a
//! level with no player, absurd time limits), 50 concurrent solves and a client that goes away
//! during a solve. After each, the server must answer the next request normally.
//!
//! The server runs as the real binary on a free port; requests are plain HTTP/1.1 over a socket.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The server's longest solve in these tests (seconds).
const MAX_TIME: f64 = 3.0;

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(extra: &[&str]) -> Server {
    start_with(MAX_TIME, extra)
}

fn start_with(max_time: f64, extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .args(["serve", "--port", "0", "--solvers", "2", "--max-memory", "300", "--max-time", &max_time.to_string()])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start sokoban serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("sokoban serve: http://").expect(&line).trim_end_matches('/').to_string();
    Server { child, addr }
}

/// One request; returns the status and the body.
fn request(server: &Server, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.addr,
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) and close before the whole of a huge body is sent.
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("no status in {text:?}"));
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

fn get(server: &Server, path: &str) -> (u16, Value) {
    let (status, body) = request(server, "GET", path, b"");
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body:?}")))
}

fn post(server: &Server, path: &str, body: &Value) -> (u16, Value) {
    let (status, body) = request(server, "POST", path, body.to_string().as_bytes());
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body:?}")))
}

/// The server still works: a small solve comes back solved.
fn answers_normally(server: &Server) {
    let (status, out) = post(server, "/api/solve", &json!({ "level": "#####\n#@$.#\n#####\n" }));
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["status"], "solved");
}

/// A level the solver does not finish within the server's maximum (XSokoban 29, which no run of
/// the solver has finished within 60 s).
fn hard_level(server: &Server) -> String {
    let (status, level) = get(server, "/api/sets/XSokoban/29");
    assert_eq!(status, 200);
    level["xsb"].as_str().unwrap().to_string()
}

#[test]
fn sets_levels_and_the_page() {
    let server = start(&[]);
    let (status, sets) = get(&server, "/api/sets");
    assert_eq!(status, 200);
    let names: Vec<&str> = sets["sets"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Microban", "Microban II", "Sasquatch", "XSokoban"]);
    assert_eq!(sets["sets"][0]["count"], 155);
    let (status, level) = get(&server, "/api/sets/0/1");
    assert_eq!(status, 200);
    let text = level["xsb"].as_str().unwrap();
    let parsed = sokoban::format::parse_levels(text).unwrap();
    assert_eq!(parsed[0].boxes().len(), level["boxes"].as_u64().unwrap() as usize);
    assert!(level["grid"].is_array());
    // The JSON grid is the same board.
    let (_, again) = post(&server, "/api/convert", &json!({ "level": level["grid"] }));
    assert_eq!(again["grid"], level["grid"]);
    assert_eq!(again["rule"], "all-goals", "a JSON grid keeps the JSON format's rule");
    for bad in ["/api/sets/9/1", "/api/sets/0/0", "/api/sets/0/156", "/api/sets/..%2F..%2Fetc/1", "/api/nothing"] {
        let (status, out) = get(&server, bad);
        assert_eq!(status, 404, "{bad}");
        assert!(out["error"].is_string(), "{bad}");
    }
    let (status, page) = request(&server, "GET", "/", b"");
    assert_eq!(status, 200);
    for id in ["board", "status", "moves", "pushes", "level-text", "load-level", "solve"] {
        assert!(page.contains(&format!("id=\"{id}\"")), "the page lacks #{id}");
    }
    assert_eq!(request(&server, "GET", "/app.js", b"").0, 200);
    assert_eq!(request(&server, "GET", "/style.css", b"").0, 200);
}

#[test]
fn given_files_are_the_only_sets() {
    let server = start(&["data/snekoban-puzzles/m1_001.json", "data/microban.xsb"]);
    let (_, sets) = get(&server, "/api/sets");
    let names: Vec<&str> = sets["sets"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["m1_001.json", "microban.xsb"]);
    let (status, level) = get(&server, "/api/sets/m1_001.json/1");
    assert_eq!(status, 200);
    assert_eq!(level["rule"], "all-goals");
}

#[test]
fn solve_verify_and_convert() {
    let server = start(&[]);
    let (_, level) = get(&server, "/api/sets/0/2");
    let xsb = level["xsb"].as_str().unwrap();
    for mode in ["auto", "pushes", "moves", "bfs"] {
        let (status, out) = post(&server, "/api/solve", &json!({ "level": xsb, "mode": mode, "time_limit": 10 }));
        assert_eq!(status, 200, "{out}");
        assert_eq!(out["status"], "solved", "{mode}: {out}");
        let lurd = out["lurd"].as_str().unwrap();
        let parsed = &sokoban::format::parse_levels(xsb).unwrap()[0];
        let report = sokoban::verify::verify(parsed, lurd);
        assert!(report.is_valid_solution(), "{mode}: {lurd}");
        assert_eq!(out["moves"], report.moves);
        assert_eq!(out["pushes"], report.pushes);
        // The server's own verifier agrees, and a wrong solution is refused.
        let (_, v) = post(&server, "/api/verify", &json!({ "level": xsb, "moves": lurd }));
        assert_eq!(v["valid"], true);
    }
    let (status, v) = post(&server, "/api/verify", &json!({ "level": "#####\n#@$.#\n#####\n", "moves": "l" }));
    assert_eq!(status, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["illegal"]["index"], 0);
    let (_, v) = post(&server, "/api/verify", &json!({ "level": "#####\n#@$.#\n#####\n", "moves": "x" }));
    assert_eq!(v["valid"], false);
    let (status, c) = post(&server, "/api/convert", &json!({ "level": xsb, "to": "grid" }));
    assert_eq!(status, 200);
    assert!(c["text"].as_str().unwrap().starts_with("'((1 1 1"), "{c}");
    let (status, c) = post(&server, "/api/convert", &json!({ "level": xsb, "to": "png" }));
    assert_eq!(status, 400);
    assert!(c["error"].as_str().unwrap().contains("png"));
}

#[test]
fn bad_input_gets_a_clear_4xx_and_the_server_goes_on() {
    let server = start(&[]);
    // Malformed JSON: 400 with the line and column of the fault.
    let (status, body) = request(&server, "POST", "/api/solve", b"{\n  \"level\": ");
    let out: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 400, "{out}");
    assert_eq!(out["line"], 2, "{out}");
    assert!(out["error"].as_str().unwrap().contains("malformed JSON"));
    answers_normally(&server);
    // A 10 MiB body: 413.
    let big = vec![b' '; 10 << 20];
    let (status, body) = request(&server, "POST", "/api/solve", &big);
    assert_eq!(status, 413);
    // The answer, when the server could send it before closing, is the API's JSON error.
    if !body.is_empty() {
        let out: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
        assert!(out["error"].as_str().unwrap().contains("over the limit"), "{out}");
    }
    answers_normally(&server);
    // A method an endpoint does not take: 405 with a JSON error too.
    let (status, body) = request(&server, "GET", "/api/solve", b"");
    assert_eq!(status, 405);
    let out: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    assert!(out["error"].as_str().unwrap().contains("GET is not allowed on /api/solve"), "{out}");
    // A level with no player: 400 naming the fault, with line and column.
    let (status, out) = post(&server, "/api/solve", &json!({ "level": "#####\n# $.#\n#####\n" }));
    assert_eq!(status, 400);
    assert!(out["error"].as_str().unwrap().contains("no player"), "{out}");
    assert!(out["line"].is_u64() && out["column"].is_u64(), "{out}");
    // An XSB error points at its square.
    let (_, out) = post(&server, "/api/convert", &json!({ "level": "#####\n#@$.#\n##X##\n#####\n" }));
    assert_eq!((out["line"].as_u64(), out["column"].as_u64()), (Some(3), Some(3)), "{out}");
    // Wrong shapes and values.
    for bad in [
        json!([1, 2]),
        json!({}),
        json!({ "level": 5 }),
        json!({ "level": "#####\n#@$.#\n#####\n", "mode": "fastest" }),
        json!({ "level": "#####\n#@$.#\n#####\n", "time_limit": -1 }),
        json!({ "level": "#####\n#@$.#\n#####\n", "time_limit": "soon" }),
        json!({ "level": "#####\n#@$.#\n#####\n", "rule": "whatever" }),
    ] {
        let (status, out) = post(&server, "/api/solve", &bad);
        assert_eq!(status, 400, "{bad}: {out}");
        assert!(out["error"].is_string());
    }
    answers_normally(&server);
    // An absurd time limit is cut to the server's maximum.
    let hard = hard_level(&server);
    let start = Instant::now();
    let (status, out) = post(&server, "/api/solve", &json!({ "level": hard, "time_limit": 1e300 }));
    assert_eq!(status, 200);
    assert_eq!(out["time_limit"], MAX_TIME);
    assert_eq!(out["status"], "timeout", "{out}");
    assert!(start.elapsed() < Duration::from_secs_f64(MAX_TIME + 5.0));
    answers_normally(&server);
}

#[test]
fn fifty_concurrent_solves_are_bounded() {
    let server = start(&[]);
    let hard = hard_level(&server);
    let body = json!({ "level": hard, "time_limit": 100 });
    let start = Instant::now();
    let statuses: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..50).map(|_| s.spawn(|| post(&server, "/api/solve", &body))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ok = statuses.iter().filter(|(c, _)| *c == 200).count();
    let busy = statuses.iter().filter(|(c, _)| *c == 503).count();
    assert_eq!(ok + busy, 50, "{statuses:?}");
    assert!((1..=2).contains(&ok), "2 solver slots, {ok} ran");
    for (code, out) in &statuses {
        if *code == 200 {
            assert_eq!(out["status"], "timeout");
        } else {
            assert!(out["error"].as_str().unwrap().contains("busy"));
        }
    }
    assert!(start.elapsed() < Duration::from_secs_f64(MAX_TIME + 10.0));
    answers_normally(&server);
}

fn running(server: &Server) -> u64 {
    get(server, "/api/status").1["running"].as_u64().unwrap()
}

#[test]
fn a_solve_is_cancelled_when_its_client_goes_away() {
    // A long maximum, so only the cancellation can end the solve quickly.
    let server = start_with(60.0, &[]);
    let hard = hard_level(&server);
    let body = json!({ "level": hard, "time_limit": 60 }).to_string();
    let mut s = TcpStream::connect(&server.addr).unwrap();
    let head =
        format!("POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(&server) == 0 {
        assert!(Instant::now() < deadline, "the solve never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(running(&server), 1, "the solve runs while its client waits");
    drop(s);
    let gone = Instant::now();
    while running(&server) > 0 {
        assert!(gone.elapsed() < Duration::from_secs(5), "the solve went on after its client left");
        std::thread::sleep(Duration::from_millis(50));
    }
    answers_normally(&server);
}

#[test]
fn bad_options_are_refused_before_serving() {
    for args in [&["--max-time", "0"][..], &["--solvers", "0"], &["--host", "not-an-ip"], &["no/such/file.xsb"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_sokoban"))
            .arg("serve")
            .args(["--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{args:?}");
    }
}
