//! README.md tells the truth: every command line of its ```sh blocks runs, in a fresh temporary
//! directory (with `data/` linked in), as the `sokoban` binary this build made, and does what
//! the README says it does.
//!
//! Two lines are not run, on purpose: `cargo test --release` (it is this test suite) and
//! `cargo install --path .` (a release build and an install into ~/.cargo/bin; the binary it
//! installs is the one every other line runs here). `cargo run --release -- ARGS` runs as
//! `sokoban ARGS`. A line the test does not know how to run fails it, so a new README command
//! cannot go untested.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const README: &str = include_str!("../README.md");

/// One command of a ```sh block (a heredoc and its body count as one), and the plain ```
/// block right after it, if any: the output the README shows for it.
struct Example {
    command: String,
    shown_output: Option<String>,
}

fn examples() -> Vec<Example> {
    let lines: Vec<&str> = README.lines().collect();
    let mut out: Vec<Example> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "```sh" {
            i += 1;
            continue;
        }
        i += 1;
        let first = out.len();
        while i < lines.len() && lines[i].trim() != "```" {
            let mut command = lines[i].to_string();
            if let Some(tag) = heredoc_tag(lines[i]) {
                while i + 1 < lines.len() {
                    i += 1;
                    command.push('\n');
                    command.push_str(lines[i]);
                    if lines[i] == tag {
                        break;
                    }
                }
            }
            if !command.trim().is_empty() {
                out.push(Example { command, shown_output: None });
            }
            i += 1;
        }
        i += 1;
        // A text block right after a block of one command shows that command's output.
        let mut j = i;
        while j < lines.len() && lines[j].trim().is_empty() {
            j += 1;
        }
        if out.len() == first + 1 && j < lines.len() && lines[j].trim() == "```text" {
            let end = (j + 1..lines.len()).find(|&k| lines[k].trim() == "```").expect("closed block");
            out[first].shown_output = Some(lines[j + 1..end].join("\n") + "\n");
            i = end + 1;
        }
    }
    out
}

/// The terminator of a `<<'EOF'` / `<<EOF` heredoc started on this line.
fn heredoc_tag(line: &str) -> Option<String> {
    let rest = line.split_once("<<")?.1.trim_start_matches('-').trim();
    let tag: String = rest.trim_matches(|c| c == '\'' || c == '"').split_whitespace().next()?.to_string();
    Some(tag.trim_matches(|c| c == '\'' || c == '"').to_string())
}

/// A fresh directory with `data/` linked in.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sokoban-readme-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), dir.join("data")).unwrap();
    dir
}

/// Runs a shell command line in `dir` with this build's `sokoban` first on the PATH.
fn shell(dir: &Path, command: &str) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_sokoban")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run sh")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Timings vary from run to run, and node counts with the threads: "0.004 s" reads "T s",
/// "3 nodes," reads "N nodes,".
fn without_times(s: &str) -> String {
    s.lines()
        .map(|l| {
            l.split(' ')
                .enumerate()
                .map(|(k, w)| {
                    let next = l.split(' ').nth(k + 1);
                    if next == Some("s") && w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.') {
                        "T"
                    } else if next == Some("nodes,") && w.chars().all(|c| c.is_ascii_digit()) {
                        // With several threads (solve's default) the lanes' nodes add up.
                        "N"
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the README's prose says about particular commands, checked on their output.
fn check_claims(command: &str, out: &Output, dir: &Path) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    let levels = |s: &str| s.lines().filter(|l| l.starts_with("level ")).count();
    if command.contains("solve data/microban.xsb --levels 1-40") {
        // "solves the first 40 Microban levels push-optimally"
        assert_eq!(levels(&stdout), 40, "{stdout}");
        let solved = stdout.lines().filter(|l| l.contains(": solved,") && l.contains("optimal in pushes")).count();
        assert_eq!(solved, 40, "{stdout}");
        let summary = stderr.lines().last().unwrap_or_default();
        assert!(summary.starts_with("40 levels: 40 solved, 0 unsolved in "), "{stderr}");
    }
    if command.contains("--json > mb.jsonl") {
        let saved = std::fs::read_to_string(dir.join("mb.jsonl")).unwrap();
        assert_eq!(saved.lines().count(), 3);
        assert!(saved.lines().all(|l| l.contains(r#""status":"solved""#)), "{saved}");
    }
    if command.starts_with("sokoban verify") {
        assert!(stdout.contains("valid, 0 invalid of"), "{stdout}");
        if command.contains("--level 2") {
            assert!(stdout.starts_with("level 2: valid,") && stdout.contains("of 1 solution\n"), "{stdout}");
        }
    }
    if command.starts_with("sokoban next") {
        let heads: Vec<&str> = stdout.lines().filter(|l| l.ends_with("):")).collect();
        let order = ["up", "right", "down", "left"];
        let idx: Vec<usize> =
            heads.iter().map(|h| order.iter().position(|d| h.starts_with(d)).expect("a direction")).collect();
        assert!(!idx.is_empty() && idx.windows(2).all(|w| w[0] < w[1]), "{stdout}");
    }
    if command.starts_with("sokoban apply") {
        assert!(stdout.contains('@') || stdout.contains('+'), "a board: {stdout}");
    }
    if command.contains("sokoban solve mine.xsb") {
        assert!(stdout.contains(": solved,"), "{stdout}");
    }
}

#[test]
fn every_readme_command_line_works_as_the_readme_says() {
    let examples = examples();
    assert!(examples.len() >= 8, "the README's sh blocks were not found: {}", examples.len());
    let dir = scratch("lines");
    let mut ran = 0;
    for ex in &examples {
        let line = ex.command.trim();
        if line.starts_with("cargo test") || line.starts_with("cargo install") {
            continue; // see the module comment
        }
        let command = match line.strip_prefix("cargo run --release -- ") {
            Some(args) => format!("sokoban {args}"),
            None => line.to_string(),
        };
        let first_word = command.split_whitespace().next().unwrap_or_default();
        assert!(
            matches!(first_word, "sokoban" | "echo" | "cat" | "printf"),
            "README line the test does not know how to run: {line}"
        );
        let out = shell(&dir, &command);
        assert!(out.status.success(), "{command}\nexit {:?}\n{}{}", out.status, text(&out.stdout), text(&out.stderr));
        if let Some(shown) = &ex.shown_output {
            assert_eq!(without_times(&text(&out.stdout)), without_times(shown), "output of {command}");
        }
        check_claims(&command, &out, &dir);
        ran += 1;
    }
    assert!(ran >= 7, "{ran} README lines ran");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's sample parse error is what a file with an `x` on line 6, column 4 gets.
#[test]
fn the_readme_parse_error_is_what_the_program_prints() {
    let sample = README.lines().find(|l| l.starts_with("error: levels.xsb:")).expect("the sample error");
    let dir = scratch("error");
    std::fs::write(dir.join("levels.xsb"), "#####\n#@$.#\n#####\n\n#####\n#@$x#\n#####\n").unwrap();
    let out = shell(&dir, "sokoban solve levels.xsb");
    assert_eq!(out.status.code(), Some(2), "bad input exits 2");
    assert!(text(&out.stderr).lines().any(|l| l == sample), "{}", text(&out.stderr));
    // The level before the bad one is still solved.
    assert!(text(&out.stdout).starts_with("level 1: solved,"), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// "Every command takes --level N or --levels A-B and --format/--rule. --help on any command
/// explains its options with an example."
#[test]
fn every_command_in_the_readme_table_has_the_common_options_and_an_example() {
    let commands: Vec<&str> = README
        .lines()
        .filter_map(|l| l.strip_prefix("| `sokoban "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    let dir = scratch("help");
    for c in commands {
        let out = shell(&dir, &format!("sokoban {c} --help"));
        assert!(out.status.success(), "{c}");
        let help = text(&out.stdout);
        for option in ["--level <LEVEL>", "--levels <A-B>", "--format <FORMAT>", "--rule <RULE>", "Example: sokoban"] {
            assert!(help.contains(option), "sokoban {c} --help lacks {option}:\n{help}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
