//! The `sokoban` binary under bad and extreme input (issue 13): options checked before any work,
//! output errors reported, output files never clobbering inputs or special files, and the CAB320
//! course's sanity strings reproduced exactly (issue 14).

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
/// `sokoban apply` prints the same, newline-terminated as Python's `print` would.
#[test]
fn apply_matches_the_cab320_sanity_check() {
    let wh = "data/cab320-warehouses/warehouse_01.txt";
    let (code, out, err) = sokoban(&["apply", wh, "--moves", "Right, Right, Down"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "####  \n# .#  \n#  ###\n#*   #\n#  $@#\n#  ###\n####  \n");
    let (code, out, _) = sokoban(&["apply", wh, "--moves", r#"["Right", "Right", "Right"]"#]);
    assert_eq!((code, out.as_str()), (1, "Impossible\n"));
    // The written warehouse pads its rows the same way and reads back.
    let (code, out, _) = sokoban(&["convert", wh, "--to", "warehouse"]);
    assert_eq!(code, 0);
    assert_eq!(out, "\n####  \n# .#  \n#  ###\n#*@  #\n#  $ #\n#  ###\n####  \n");
}

#[test]
fn the_default_memory_limit_is_half_the_machine_and_shown_in_help() {
    let (code, out, _) = sokoban(&["solve", "--help"]);
    assert_eq!(code, 0);
    let mb = sokoban::system::default_memory_limit() >> 20;
    assert!(out.contains("half the") && out.contains(&format!("[default: {mb}]")), "{out}");
    assert_eq!(sokoban::solver::Config::default().memory_limit, Some(sokoban::system::default_memory_limit()));
}
