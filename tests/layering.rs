//! The dependency rule of ARCHITECTURE.md (issue 10): `level` and `format` never use `rules`
//! (drawing a position is `rules::Position::to_raw`; writers take the raw board), and `verify`
//! shares no code with `rules`, `analysis` or `solver`; the optimizer, which the solver calls,
//! does not use the solver.

use std::path::{Path, PathBuf};

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

/// A module's path below the crate root (`["solver", "fast", "search"]`; empty for `lib.rs` and
/// `main.rs`, `mod.rs` standing for its folder).
type Module = Vec<String>;

/// Every source file under `src/` with its module path.
fn modules() -> Vec<(Module, PathBuf)> {
    fn walk(dir: &Path, at: &[String], out: &mut Vec<(Module, PathBuf)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                walk(&path, &[at, &[name]].concat(), out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let module =
                    if ["mod", "lib", "main"].contains(&name.as_str()) { at.to_vec() } else { [at, &[name]].concat() };
                out.push((module, path));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &[], &mut out);
    out
}

/// The paths a piece of code names: every `use` item with its braces expanded
/// (`a::{b, c::d}` gives `a::b` and `a::c::d`), and every `crate::…`, `super::…` path in the
/// code, as lists of segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        match tree.find('{') {
            Some(open) if tree.ends_with('}') => {
                let head = format!("{prefix}{}", &tree[..open]);
                let (mut depth, mut from) = (0, open + 1);
                let inner = &tree[..tree.len() - 1];
                for (i, c) in inner.char_indices().skip(open + 1) {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            expand(&head, &inner[from..i], out);
                            from = i + 1;
                        }
                        _ => {}
                    }
                }
                expand(&head, &inner[from..], out);
            }
            _ if !tree.is_empty() => out.push(format!("{prefix}{tree}")),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for item in code.split(';') {
        if let Some(at) = item.find("use ").filter(|&at| at == 0 || !item.as_bytes()[at - 1].is_ascii_alphanumeric()) {
            let tree: String = item[at + 4..].chars().filter(|c| !c.is_whitespace()).collect();
            expand("", &tree, &mut found);
        }
    }
    for root in ["crate::", "super::"] {
        for (at, _) in code.match_indices(root) {
            if at > 0 && (code.as_bytes()[at - 1].is_ascii_alphanumeric() || code.as_bytes()[at - 1] == b':') {
                continue;
            }
            let rest = &code[at..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            found.push(rest[..end].to_string());
        }
    }
    found.iter().map(|p| p.split("::").filter(|s| !s.is_empty()).map(String::from).collect()).collect()
}

/// The modules `module` (its file's code) uses, outside its `#[cfg(test)]` part: each path
/// resolved to the longest module that it names.
fn uses(module: &Module, path: &Path, all: &[Module]) -> Vec<Module> {
    let code = code(path);
    let code = code.split("#[cfg(test)]").next().unwrap_or("");
    let mut used = Vec::new();
    for segments in paths(code) {
        let (mut base, mut rest) = match segments.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &segments[1..]),
            Some("self") => (module.clone(), &segments[1..]),
            Some("super") => (module.clone(), &segments[..]),
            _ => continue,
        };
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        let target = (0..=rest.len())
            .rev()
            .map(|k| [base.as_slice(), &rest[..k]].concat())
            .find(|candidate| all.contains(candidate));
        if let Some(target) = target
            && &target != module
            && !used.contains(&target)
        {
            used.push(target);
        }
    }
    used
}

/// The crate's module graph: each module and the modules it uses.
fn graph() -> Vec<(Module, Vec<Module>)> {
    let files = modules();
    let all: Vec<Module> = files.iter().map(|(m, _)| m.clone()).collect();
    files.iter().map(|(m, p)| (m.clone(), uses(m, p, &all))).collect()
}

/// Fails on a cycle in `graph` (module → modules it uses).
fn assert_acyclic(graph: &[(String, Vec<String>)]) {
    fn visit(m: &str, graph: &[(String, Vec<String>)], path: &mut Vec<String>, done: &mut Vec<String>) {
        if done.iter().any(|d| d == m) {
            return;
        }
        assert!(!path.iter().any(|p| p == m), "import cycle: {} -> {m}", path.join(" -> "));
        path.push(m.to_string());
        if let Some((_, next)) = graph.iter().find(|(n, _)| n == m) {
            for n in next {
                visit(n, graph, path, done);
            }
        }
        path.pop();
        done.push(m.to_string());
    }
    let mut done = Vec::new();
    for (m, _) in graph {
        visit(m, graph, &mut Vec::new(), &mut done);
    }
}

/// The graph between the parts of folder `dir` (its files and subfolders, whole): part `a`
/// uses part `b` when some module in `a` uses one in `b`. Items of the folder's own `mod.rs`
/// are above its parts and take no part.
fn parts_of(dir: &[String], graph: &[(Module, Vec<Module>)]) -> Vec<(String, Vec<String>)> {
    let part = |m: &Module| m.starts_with(dir).then(|| m.get(dir.len()).cloned()).flatten();
    let mut parts: Vec<(String, Vec<String>)> = Vec::new();
    for (m, used) in graph {
        let Some(from) = part(m) else { continue };
        if !parts.iter().any(|(p, _)| *p == from) {
            parts.push((from.clone(), Vec::new()));
        }
        let entry = parts.iter_mut().find(|(p, _)| *p == from).unwrap();
        for to in used.iter().filter_map(part) {
            if to != from && !entry.1.contains(&to) {
                entry.1.push(to);
            }
        }
    }
    parts
}

#[test]
fn no_import_cycles_in_any_folder() {
    let graph = graph();
    let mut folders: Vec<Module> = graph.iter().map(|(m, _)| m.clone()).filter(|m| !m.is_empty()).collect();
    folders.retain(|m| graph.iter().any(|(n, _)| n.len() > m.len() && n.starts_with(m)));
    folders.push(Vec::new());
    for dir in &folders {
        assert_acyclic(&parts_of(dir, &graph));
    }
    for dir in [&[][..], &["solver".to_string()], &["solver".to_string(), "fast".to_string()]] {
        assert!(folders.iter().any(|f| f.as_slice() == dir), "{dir:?} not checked: {folders:?}");
    }
    // The checks see real edges.
    let edge = |dir: &[&str], from: &str, to: &str| {
        let dir: Module = dir.iter().map(|s| s.to_string()).collect();
        parts_of(&dir, &graph).iter().any(|(p, u)| p == from && u.iter().any(|t| t == to))
    };
    assert!(edge(&[], "solver", "analysis"));
    assert!(edge(&["solver"], "astar", "successors"));
    assert!(edge(&["solver", "fast"], "search", "packing"));
}

#[test]
fn the_solver_and_the_analysis_stay_below_what_they_must_not_use() {
    let graph = graph();
    let under = |m: &Module, top: &str| m.first().is_some_and(|t| t == top);
    for (m, used) in &graph {
        let banned: &[&str] = match m.first().map(String::as_str) {
            Some("solver") => &["format", "cli"],
            Some("analysis") => &["solver", "format", "cli"],
            Some("rules") => &["solver", "analysis", "format", "cli"],
            Some("level") => &["rules", "solver", "analysis", "format", "cli"],
            _ => &[],
        };
        for to in used {
            assert!(!banned.iter().any(|b| under(to, b)), "{} uses {}", m.join("::"), to.join("::"));
        }
    }
}

#[test]
fn the_optimizer_does_not_use_the_solver() {
    // The pushes mode calls the optimizer to shorten walks, so the optimizer stays below it.
    let path = &sources("optimize.rs")[0];
    let code = code(path);
    let code = code.split("#[cfg(test)]").next().unwrap_or("");
    for banned in ["crate::solver", "crate::format", "crate::cli"] {
        assert!(!code.contains(banned), "optimize.rs uses {banned}");
    }
}

#[test]
#[should_panic(expected = "import cycle")]
fn a_circle_inside_a_folder_is_seen() {
    let m = |p: &str| p.split("::").map(String::from).collect::<Module>();
    let graph = vec![
        (m("solver::fast::search"), vec![m("solver::fast::packing"), m("solver")]),
        (m("solver::fast::packing::peel"), vec![m("solver::fast::search")]),
    ];
    assert_acyclic(&parts_of(&m("solver::fast"), &graph));
}
