//! The dependency rule of ARCHITECTURE.md (issue 10): `level` and `format` never use `rules`
//! (drawing a position is `rules::Position::to_raw`; writers take the raw board), and `verify`
//! shares no code with `rules`, `analysis` or `solver`.

use std::path::Path;

/// The code of a source file without its comments (`//` to the end of a line).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

fn sources(rel: &str) -> Vec<std::path::PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(rel);
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files
    } else {
        vec![path]
    }
}

#[test]
fn level_and_format_do_not_use_rules() {
    for path in sources("level.rs").into_iter().chain(sources("format")) {
        let code = code(&path);
        for banned in ["crate::rules", "super::rules", "Position"] {
            assert!(!code.contains(banned), "{} uses {banned}", path.display());
        }
    }
}

#[test]
fn the_verifier_shares_no_code_with_the_rules_or_the_solver() {
    let code = code(&sources("verify.rs")[0]);
    for banned in ["crate::rules", "crate::analysis", "crate::solver", "Position"] {
        assert!(!code.contains(banned), "verify.rs uses {banned}");
    }
}
