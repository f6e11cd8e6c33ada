//! Solution files: `.sok` files written by `solve --out` read back with every solution intact,
//! run-length encoded LURD round trips, and solutions from standard input.

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use sokoban::format::parse_levels;
use sokoban::lurd::{compress, expand};
use sokoban::verify::verify;

fn sokoban(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sokoban"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn a_sok_file_we_write_reads_back_with_every_solution_intact() {
    let dir = std::env::temp_dir().join(format!("sokoban-sok-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.sok");
    let p = path.to_str().unwrap();
    // Levels 1-12 of Microban, each with its solution.
    let (code, json, _) = sokoban(&["solve", "data/microban.xsb", "--levels", "1-12", "--json", "--out", p], None);
    assert_eq!(code, 0);
    let want: Vec<(usize, String)> = json
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["level"].as_u64().unwrap() as usize, v["lurd"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(want.len(), 12);
    let text = std::fs::read_to_string(&path).unwrap();
    let sections = text.split("\n\n").filter(|s| s.starts_with("Solution")).count();
    assert_eq!(sections, 12, "one Solution section per level, after a blank line:\n{text}");
    let read = sokoban::solutions::read(&text).unwrap();
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let got: Vec<(usize, String)> = read.entries.iter().map(|e| (e.level, e.lurd.clone())).collect();
    assert_eq!(got, want, "every solution comes back, for its level");
    // The file is a level collection too: its boards are the original ones, and each solution
    // replays on them.
    let original = parse_levels(&std::fs::read_to_string("data/microban.xsb").unwrap()).unwrap();
    let back = parse_levels(&text).unwrap();
    assert_eq!(back.len(), 12);
    for (i, level) in back.iter().enumerate() {
        assert_eq!(sokoban::format::xsb::board_rows(level), sokoban::format::xsb::board_rows(&original[i]));
        assert_eq!(level.title(), original[i].title());
        assert!(verify(&original[i], &want[i].1).is_valid_solution());
    }
    // Each Solution section names its metrics.
    for (_, lurd) in &want {
        let (moves, pushes) = sokoban::lurd::counts(lurd);
        assert!(text.contains(&format!("Solution (moves {moves}, pushes {pushes})\n{lurd}\n")));
    }
    let (code, out, _) = sokoban(&["verify", p, p], None);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("12 valid, 0 invalid of 12 solutions\n"), "{out}");
    // A level without a solution is written as a bare board.
    let unsolved = dir.join("unsolved.sok");
    let u = unsolved.to_str().unwrap();
    let (code, _, _) =
        sokoban(&["solve", "data/xsokoban90.xsb", "--level", "29", "--time-limit", "0.1", "--out", u], None);
    assert_eq!(code, 1);
    let text = std::fs::read_to_string(&unsolved).unwrap();
    assert!(!text.contains("Solution") && parse_levels(&text).unwrap().len() == 1, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rle_output_and_input_from_standard_input() {
    // One thread, so that both solves below give the same solutions (a portfolio's first
    // finder depends on the machine).
    let (code, out, _) =
        sokoban(&["solve", "data/microban.xsb", "--levels", "1-4", "--json", "--rle", "--threads", "1"], None);
    assert_eq!(code, 0);
    let lurds: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["lurd"].as_str().unwrap().to_string())
        .collect();
    assert!(lurds.iter().any(|l| l.chars().any(|c| c.is_ascii_digit())), "some run is written as a count: {lurds:?}");
    // The encoded solutions verify, read from standard input.
    let (code, report, _) = sokoban(&["verify", "data/microban.xsb", "-", "--json"], Some(&out));
    assert_eq!(code, 0, "{report}");
    for line in report.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["status"], "valid");
        assert!(v["player_lines"].as_u64().unwrap() >= 1);
    }
    let (code, _, err) = sokoban(&["verify", "-", "-"], Some(""));
    assert_eq!(code, 2);
    assert!(err.contains("standard input"), "{err}");
    // A .sok file holds the moves in full even with --rle (not every program reads run-length
    // encoding there), and they are the printed ones expanded.
    let dir = std::env::temp_dir().join(format!("sokoban-sok-rle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rle.sok");
    let args = [
        "solve",
        "data/microban.xsb",
        "--levels",
        "1-4",
        "--json",
        "--rle",
        "--threads",
        "1",
        "--out",
        path.to_str().unwrap(),
    ];
    assert_eq!(sokoban(&args, None).0, 0);
    let text = std::fs::read_to_string(&path).unwrap();
    let read = sokoban::solutions::read(&text).unwrap();
    assert_eq!(read.entries.len(), 4);
    for (entry, printed) in read.entries.iter().zip(&lurds) {
        assert!(text.contains(&format!("\n{}\n", entry.lurd)), "written in full: {}", entry.lurd);
        assert!(!entry.lurd.chars().any(|c| c.is_ascii_digit()));
        assert_eq!(&entry.lurd, &expand(printed).unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn lurd_strategy() -> impl Strategy<Value = String> {
    proptest::collection::vec((0usize..8, 1usize..30), 0..40).prop_map(|runs| {
        runs.into_iter().map(|(c, n)| "lurdLURD".chars().nth(c).unwrap().to_string().repeat(n)).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rle_round_trips(lurd in lurd_strategy()) {
        let packed = compress(&lurd);
        prop_assert!(packed.len() <= lurd.len());
        prop_assert_eq!(expand(&packed).unwrap(), lurd.clone());
        prop_assert_eq!(sokoban::lurd::decode(&packed).unwrap(), sokoban::lurd::decode(&lurd).unwrap());
        // A group repeated n times is the text n times.
        let grouped = format!("3({packed})");
        prop_assert_eq!(expand(&grouped).unwrap(), lurd.repeat(3));
    }
}

#[test]
fn optimize_improves_never_worsens_and_reads_any_solution_file() {
    let dir = std::env::temp_dir().join(format!("sokoban-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let levels = dir.join("l.xsb");
    std::fs::write(&levels, "#######\n#@ $ .#\n#     #\n#######\n\n#####\n#@$.#\n#####\n").unwrap();
    let l = levels.to_str().unwrap();
    // A detour on level 1 and an optimal solution of level 2.
    let (code, out, err) = sokoban(&["optimize", l, "-", "--json", "--metric", "moves"], Some("1\tdrulrRlrR\n2\tR\n"));
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((rows[0]["lurd"].as_str(), rows[0]["improved"].as_bool()), (Some("rRR"), Some(true)));
    assert_eq!((rows[1]["lurd"].as_str(), rows[1]["improved"].as_bool()), (Some("R"), Some(false)));
    assert!(err.contains("1 of 2 solutions improved"), "{err}");
    // The same with the repeated search.
    let args = ["optimize", l, "-", "--json", "--repeat", "--radius", "3"];
    let (code, out, err) = sokoban(&args, Some("1\tdrulrRlrR\n2\tR\n"));
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((rows[0]["lurd"].as_str(), rows[0]["complete"].as_bool()), (Some("rRR"), Some(true)));
    assert_eq!((rows[1]["lurd"].as_str(), rows[1]["improved"].as_bool()), (Some("R"), Some(false)));
    // An invalid solution is reported, not optimised.
    let (code, _, err) = sokoban(&["optimize", l, "-"], Some("1\tL\n"));
    assert_eq!(code, 2);
    assert!(err.contains("not a valid solution"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
