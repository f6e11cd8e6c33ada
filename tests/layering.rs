//! The dependency rule of ARCHITECTURE.md (issue 10): `level` and `format` never use `rules`
//! (drawing a position is `rules::Position::to_raw`; writers take the raw board), and `verify`
//! shares no code with `rules`, `analysis` or `solver`; the optimizer, which the solver calls,
//! does not use the solver.

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

/// The modules a file names with `crate::m` or `super::m` (one level below `src/` or
/// `src/solver/`), outside its `#[cfg(test)]` part.
fn uses(path: &Path, siblings: &[String], prefix: &str) -> Vec<String> {
    let code = code(path);
    let code = code.split("#[cfg(test)]").next().unwrap_or("");
    siblings
        .iter()
        .filter(|m| {
            code.contains(&format!("{prefix}{m}::"))
                || code.contains(&format!("{prefix}{m}}}"))
                || code.contains(&format!("{prefix}{m};"))
        })
        .cloned()
        .collect()
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

fn module_names(dir: &str) -> Vec<(String, std::path::PathBuf)> {
    sources(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .filter(|(n, _)| n != "mod" && n != "lib" && n != "main")
        .collect()
}

#[test]
fn no_import_cycles_between_modules() {
    // The crate's top-level modules.
    let top = module_names("");
    let names: Vec<String> = top.iter().map(|(n, _)| n.clone()).chain(["solver".into(), "format".into()]).collect();
    let mut graph: Vec<(String, Vec<String>)> = top
        .iter()
        .map(|(n, p)| (n.clone(), uses(p, &names, "crate::").into_iter().filter(|m| m != n).collect()))
        .collect();
    for dir in ["solver", "format"] {
        let mut used = Vec::new();
        for (_, p) in module_names(dir)
            .into_iter()
            .chain([("mod".into(), Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir).join("mod.rs"))])
        {
            used.extend(uses(&p, &names, "crate::").into_iter().filter(|m| m != dir));
        }
        used.sort();
        used.dedup();
        graph.push((dir.to_string(), used));
    }
    assert_acyclic(&graph);
    assert!(graph.iter().any(|(n, u)| n == "solver" && u.contains(&"analysis".to_string())), "{graph:?}");
    // The solver's own layers: `super::x` between files of src/solver, with mod.rs on top.
    let layers = module_names("solver");
    let names: Vec<String> = layers.iter().map(|(n, _)| n.clone()).collect();
    let graph: Vec<(String, Vec<String>)> = layers
        .iter()
        .map(|(n, p)| (n.clone(), uses(p, &names, "super::").into_iter().filter(|m| m != n).collect()))
        .collect();
    assert_acyclic(&graph);
    assert!(graph.iter().any(|(n, u)| n == "astar" && u.contains(&"successors".to_string())), "{graph:?}");
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
