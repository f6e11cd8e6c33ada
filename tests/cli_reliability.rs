//! The `sokoban` binary under bad and extreme input (issue 13): options checked before any work,
//! output errors reported, output files never clobbering inputs or special files, and the CAB320
//! course's sanity strings reproduced exactly (issue 14).

mod common;

use std::process::Command;

fn sokoban(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run sokoban");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

/// The course's sanity check (`sanity_check.py`, `test_check_elem_action_seq`) on
/// warehouse_01: `check_elem_action_seq(wh, ['Right', 'Right', 'Down'])` must equal
/// `'####  \n# .#  \n#  ###\n#*   #\n#  $@#\n#  ###\n####  '` (every row padded to the board's
/// width, as `Warehouse.__str__` prints) and `['Right', 'Right', 'Right']` gives `'Impossible'`.
/// `sokoban apply` prints the same, newline-terminated as Python's `print` would. (The strings
/// are those of the course's published sanity check, found with the `search` tool.)
#[test]
fn apply_matches_the_cab320_sanity_check() {
    let wh = "data/cab320-warehouses/warehouse_01.txt";
    let (code, out, err) = sokoban(&["apply", wh, "--moves", "Right, Right, Down"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "####  \n# .#  \n#  ###\n#*   #\n#  $@#\n#  ###\n####  \n");
    let (code, out, _) = sokoban(&["apply", wh, "--moves", r#"["Right", "Right", "Right"]"#]);
    assert_eq!((code, out.as_str()), (1, "Impossible\n"));
    // The same sanity check's `taboo_cells(wh)` string, from `analyze --taboo`.
    let (code, out, _) = sokoban(&["analyze", wh, "--taboo"]);
    assert_eq!(code, 0);
    assert_eq!(out, "####  \n#X #  \n#  ###\n#   X#\n#   X#\n#XX###\n####  \n");
    // The written warehouse pads its rows the same way and reads back.
    let (code, out, _) = sokoban(&["convert", wh, "--to", "warehouse"]);
    assert_eq!(code, 0);
    assert_eq!(out, "\n####  \n# .#  \n#  ###\n#*@  #\n#  $ #\n#  ###\n####  \n");
}

#[test]
fn the_default_memory_limit_is_half_the_machine_shared_by_the_jobs_and_said_in_help() {
    let (code, out, _) = sokoban(&["solve", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("half the physical") && out.contains("shared by the --jobs levels"), "{out}");
    assert_eq!(sokoban::solver::Config::default().memory_limit, Some(sokoban::system::default_memory_limit()));
}

fn repro(name: &str) -> String {
    format!("tests/data/repros/{name}")
}

/// A fresh directory for one test.
fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sokoban-rel-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn huge_time_limits_and_delays_are_refused_before_any_work() {
    for args in [
        &["solve", "data/microban.xsb", "--level", "1", "--time-limit", "1e300"][..],
        &["solve", "data/microban.xsb", "--level", "1", "--time-limit", "2e19"],
        &["bench", "data/microban.xsb", "--levels", "1-2", "--time-limit", "1e300"],
        &["solve", "data/microban.xsb", "--level", "1", "--animate", "--delay", "1e300"],
        &["solve", "data/microban.xsb", "--level", "1", "--animate", "--delay", "NaN"],
        &["solve", "no-such-file.xsb", "--time-limit", "1e300"],
    ] {
        let (code, out, err) = sokoban(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: nothing solved: {out}");
        assert!(err.starts_with("error: --"), "{args:?}: the option is named first: {err}");
    }
}

#[test]
fn weights_of_the_wrong_count_are_refused() {
    let weights = std::fs::read_to_string(repro("w251.txt")).unwrap();
    let numbers: Vec<&str> = weights.split_whitespace().collect();
    assert_eq!(numbers.len(), 251);
    let stars = repro("stars251.xsb");
    for given in [numbers[..250].join(" "), format!("{} 7", numbers.join(" ")), String::new()] {
        let (code, out, err) = sokoban(&["solve", &stars, "--mode", "cost", "--weights", &given]);
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty());
        assert!(err.contains("--weights gives") && err.contains("level 1 has 251 boxes"), "{err}");
    }
    let (code, _, err) =
        sokoban(&["bench", "data/microban.xsb", "--levels", "1-3", "--mode", "cost", "--weights", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--weights gives 1 number but"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_failing_standard_output_is_an_error_not_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let runs: [&[&str]; 9] = [
        &["solve", "data/microban.xsb", "--level", "1"],
        &["solve", "data/microban.xsb", "--level", "1", "--json"],
        &["show", "data/microban.xsb", "--level", "1"],
        &["analyze", "data/microban.xsb", "--level", "1"],
        &["apply", "data/microban.xsb", "--level", "1", "--moves", "l"],
        &["convert", "data/microban.xsb", "--level", "1", "--to", "grid"],
        &["next", "data/microban.xsb", "--level", "1"],
        &["verify", "data/xsokoban90.xsb", "data/xsokoban90-reference-solutions.tsv"],
        &["--help"],
    ];
    for args in runs {
        let out = Command::new(env!("CARGO_BIN_EXE_sokoban"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot write to standard output"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn bench_stops_at_once_when_the_solutions_file_cannot_be_written() {
    let (code, out, err) =
        sokoban(&["bench", "data/microban.xsb", "--levels", "1-30", "--solutions", "/dev/full", "--time-limit", "5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot write /dev/full"), "{err}");
    // The first level's line failed, so the rest were cancelled, not solved; the summary stays.
    assert!(out.contains("| solved | 1 / "), "{out}");
}

#[test]
fn bench_never_overwrites_a_level_file() {
    let dir = temp_dir("bench-input");
    let levels = dir.join("levels.xsb");
    std::fs::copy("data/microban.xsb", &levels).unwrap();
    let before = std::fs::read(&levels).unwrap();
    let link = dir.join("link.jsonl");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&levels, &link).unwrap();
    let (l, k) = (levels.display().to_string(), link.display().to_string());
    let mut targets = vec![l.clone()];
    if cfg!(unix) {
        targets.push(k);
    }
    for target in targets {
        let (code, out, err) = sokoban(&["bench", &l, "--levels", "1-2", "--solutions", &target]);
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty());
        assert!(err.contains("is the level file"), "{err}");
        assert_eq!(std::fs::read(&levels).unwrap(), before);
    }
    // The directory form sees the same file.
    let (code, _, err) = sokoban(&["bench", &dir.display().to_string(), "--levels", "1", "--solutions", &l]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read(&levels).unwrap(), before);
}

#[test]
fn bench_on_an_empty_directory_is_an_error() {
    let dir = temp_dir("bench-empty");
    let (code, out, err) = sokoban(&["bench", &dir.display().to_string()]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("holds no level files"), "{err}");
    // A set where nothing is solved prints no negative zero.
    let level = dir.join("stuck.xsb");
    std::fs::write(&level, "#######\n#@$#  #\n#  # .#\n#######\n").unwrap();
    let (_, out, _) = sokoban(&["bench", &level.display().to_string()]);
    assert!(out.contains("| total time of solved | 0.00 s |") && !out.contains("-0.00"), "{out}");
}

#[cfg(unix)]
#[test]
fn convert_output_writes_through_links_pipes_and_devices() {
    let dir = temp_dir("convert-out");
    let target = dir.join("target.lisp");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.lisp");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let convert = |out: &str| sokoban(&["convert", "data/microban.xsb", "--level", "1", "--to", "grid", "-o", out]);
    let (code, _, err) = convert(&link.display().to_string());
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is kept");
    assert!(std::fs::read_to_string(&target).unwrap().starts_with("; "), "its target is replaced");
    // A FIFO is written through, not replaced by a regular file.
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.display().to_string()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let (code, _, err) = convert(&fifo.display().to_string());
    assert_eq!(code, 0, "{err}");
    assert!(reader.join().unwrap().contains("(setq"));
    assert!(!std::fs::symlink_metadata(&fifo).unwrap().is_file(), "still a FIFO");
    // A device is written through too.
    let (code, _, err) = convert("/dev/null");
    assert_eq!(code, 0, "{err}");
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    // A directory and the input itself are refused.
    let (code, _, err) = convert(&dir.display().to_string());
    assert_eq!(code, 2, "{err}");
    let input = dir.join("in.xsb");
    std::fs::copy("data/microban.xsb", &input).unwrap();
    let i = input.display().to_string();
    let (code, _, err) = sokoban(&["convert", &i, "--level", "1", "--to", "xsb", "-o", &i]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), std::fs::read("data/microban.xsb").unwrap());
    // Nor through --out-dir, where a file of the name it writes is a link to the input.
    std::os::unix::fs::symlink(&input, dir.join("in-1.xsb")).unwrap();
    let (code, _, err) =
        sokoban(&["convert", &i, "--level", "1", "--to", "xsb", "--out-dir", &dir.display().to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("over the level file"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), std::fs::read("data/microban.xsb").unwrap());
}

#[test]
fn verify_warns_about_lines_it_cannot_read_and_reports_level_zero_per_entry() {
    let dir = temp_dir("verify");
    let plain = dir.join("plain.lurd");
    std::fs::write(&plain, "dlUrrrdLullddrUluRuulDrddrruLdlUU\n").unwrap();
    let (code, out, err) = sokoban(&["verify", "data/microban.xsb", &plain.display().to_string()]);
    assert_eq!(code, 1);
    assert!(out.contains("0 valid, 0 invalid of 0 solutions"), "{out}");
    assert!(err.contains("plain.lurd:1: skipped") && err.contains("holds no solution"), "{err}");
    // Level 0 is one bad entry in TSV as in JSON lines; the other entries are still checked.
    for (name, text) in [
        ("zero.tsv", "level\tlurd\n0\tuu\n1\tdlUrrrdLullddrUluRuulDrddrruLdlUU\n"),
        (
            "zero.jsonl",
            "{\"level\": 0, \"lurd\": \"uu\"}\n{\"level\": 1, \"lurd\": \"dlUrrrdLullddrUluRuulDrddrruLdlUU\"}\n",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, out, _) = sokoban(&["verify", "data/microban.xsb", &path.display().to_string()]);
        assert_eq!(code, 2, "{name}: {out}");
        assert!(out.contains("level 0: error") && out.contains("level numbers start at 1"), "{name}: {out}");
        assert!(out.contains("level 1: valid"), "{name}: {out}");
    }
}

#[test]
fn byte_order_marks_and_cr_only_files_are_read() {
    let (code, out, err) = sokoban(&["solve", &repro("bom_board.xsb")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solved"), "{out}");
    let (code, out, err) = sokoban(&["solve", &repro("bom_wh.txt"), "--mode", "cost", "--json"]);
    assert_eq!(code, 0, "{err}");
    // One push of the box of weight 1: cost 1 for the move plus 1 for the weight (1 without it).
    assert!(out.contains("\"cost\":2"), "the weights line is kept: {out}");
    let dir = temp_dir("cr");
    let cr = dir.join("cr.xsb");
    std::fs::write(&cr, "; T\r#####\r#@$.#\r#####\r").unwrap();
    let (code, out, err) = sokoban(&["solve", &cr.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("level 1 (T): solved"), "{out}");
}

#[test]
fn one_level_of_a_big_file_is_built_alone() {
    // 20,000 levels; level 3 is broken. Selecting level 1 neither builds nor reports it.
    let dir = temp_dir("select");
    let good = "#####\n#@$.#\n#####\n\n";
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(if i == 2 { "#####\n#@X.#\n#####\n\n" } else { good });
    }
    let path = dir.join("many.xsb");
    std::fs::write(&path, text).unwrap();
    let p = path.display().to_string();
    let (code, out, err) = sokoban(&["show", &p, "--level", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Level 1:") && err.is_empty(), "{out}{err}");
    let (code, _, err) = sokoban(&["show", &p, "--level", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains(":10:3: unknown character 'X'"), "{err}");
    let (code, _, err) = sokoban(&["show", &p, "--level", "20001"]);
    assert_eq!(code, 2);
    assert!(err.contains("the file has 20000 levels"), "{err}");
}

#[test]
fn analyze_observes_its_time_and_memory_limits_on_a_big_level() {
    let dir = temp_dir("analyze-limits");
    let path = dir.join("room.xsb");
    std::fs::write(&path, common::big_room_text(250, 1000)).unwrap();
    let p = path.display().to_string();
    let started = std::time::Instant::now();
    let (code, out, err) = sokoban(&["analyze", &p, "--time-limit", "0.2"]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("not analysed, the time limit (0.2 s) passed"), "{out}");
    // Reading and building the level are outside the limit; unbounded, the analysis takes
    // seconds in a release build.
    assert!(took < std::time::Duration::from_secs(3), "{took:?}");
    let (code, out, _) = sokoban(&["analyze", &p, "--memory-limit", "10"]);
    assert_eq!(code, 1);
    assert!(out.contains("over --memory-limit 10"), "{out}");
    let (code, _, err) = sokoban(&["analyze", &p, "--time-limit", "1e300"]);
    assert_eq!(code, 2, "{err}");
    // A small level is analysed as before, well within the default limits.
    let (code, out, _) = sokoban(&["analyze", "data/microban.xsb", "--level", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("Lower bound (push matching) of the start: 4 pushes"), "{out}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_analyze_on_a_big_level() {
    let dir = temp_dir("analyze-ctrl-c");
    let path = dir.join("room.xsb");
    std::fs::write(&path, common::big_room_text(250, 1000)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .args(["analyze", path.to_str().unwrap(), "--time-limit", "600"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sokoban");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let sent = std::time::Instant::now();
    // SAFETY: sends SIGINT to the child started above.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert!(sent.elapsed() < std::time::Duration::from_secs(2), "{:?}", sent.elapsed());
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
}
