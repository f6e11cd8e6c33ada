//! The `sokoban` binary end to end: exit codes and messages.

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

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sokoban-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn verify_accepts_the_reference_solutions() {
    let (code, out, _) = sokoban(&["verify", "data/xsokoban90.xsb", "data/xsokoban90-reference-solutions.tsv"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("90 valid, 0 invalid of 90 solutions"), "{out}");
}

#[test]
fn verify_names_the_level_and_move_of_a_changed_letter() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/xsokoban90-reference-solutions.tsv"))
        .unwrap();
    // Level 7's first move becomes a walk up; whatever it runs into, the solution must fail.
    let changed: Vec<String> = text
        .lines()
        .map(|l| {
            if let Some(rest) = l.strip_prefix("7\t") {
                let (head, lurd) = rest.rsplit_once('\t').unwrap();
                let mut chars: Vec<char> = lurd.chars().collect();
                chars[10] = if chars[10] == 'u' { 'd' } else { 'u' };
                format!("7\t{head}\t{}", chars.into_iter().collect::<String>())
            } else {
                l.to_string()
            }
        })
        .collect();
    let path = temp_file("changed.tsv", &(changed.join("\n") + "\n"));
    let (code, out, _) = sokoban(&["verify", "data/xsokoban90.xsb", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let line = out.lines().find(|l| l.starts_with("level 7:")).unwrap();
    assert!(line.contains("invalid") && line.contains("move "), "{line}");
    assert!(out.contains("89 valid, 1 invalid"), "{out}");
    let (_, json, _) = sokoban(&["verify", "data/xsokoban90.xsb", path.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(json.lines().nth(6).unwrap()).unwrap();
    assert_eq!(v["level"], 7);
    assert_eq!(v["status"], "invalid");
    assert!(v["at"].as_u64().is_some(), "{v}");
}

#[test]
fn show_prints_a_level_and_rejects_bad_selections() {
    let (code, out, _) = sokoban(&["show", "data/microban.xsb", "--level", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("Level 1") && out.contains('@'), "{out}");
    let (code, _, err) = sokoban(&["show", "data/microban.xsb", "--levels", "150-160"]);
    assert_eq!(code, 2);
    assert!(err.contains("outside 1-155"), "{err}");
}

#[test]
fn parse_errors_name_file_line_and_column() {
    let path = temp_file("bad.xsb", "#####\n#@$.#\n#####\n\n#####\n#@$x#\n#####\n");
    let (code, _, err) = sokoban(&["show", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.xsb:6:4:") && err.contains("'x'"), "{err}");
    let (code, _, err) = sokoban(&["show", "no/such/file.xsb"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}
