//! Reading solution files: `.sok` files (levels with `Solution` sections, see [`crate::sok`]),
//! JSON lines (`{"level": 3, "lurd": "..."}`, the output of
//! `sokoban solve --json`; lines whose `lurd` is null are levels without a solution and are
//! skipped) or TSV whose first column is the 1-based level number and whose last column is the
//! LURD string (a header line is allowed). LURD may be run-length encoded (`3l2U`); it is
//! written out in full when read (a string that does not expand is kept as written, so the
//! replay reports its first bad character).

use crate::Error;

/// One solution read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based level number.
    pub level: usize,
    /// The moves, in LURD (run-length encoding written out).
    pub lurd: String,
    /// 1-based line in the solutions file.
    pub line: usize,
}

#[derive(serde::Deserialize)]
struct JsonEntry {
    level: usize,
    /// `null` in `sokoban solve --json` output for a level without a solution.
    lurd: Option<String>,
}

/// A line of a solutions file that holds no solution to check, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line in the solutions file.
    pub line: usize,
    /// What the line holds instead of a solution.
    pub reason: String,
}

/// A solutions file read: the solutions, and the lines that gave none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Read {
    /// The solutions, in file order.
    pub entries: Vec<Entry>,
    /// The lines without a solution, in file order.
    pub skipped: Vec<Skipped>,
}

/// Parses a solutions file, detecting JSON lines by a first non-blank line that starts with `{`.
/// Lines without a solution (a TSV header, a JSON `lurd` of null) are left out; [`read`] also
/// reports lines that may have been meant as solutions.
pub fn parse(text: &str) -> Result<Vec<Entry>, Error> {
    read(text).map(|r| r.entries)
}

/// Like [`parse`], and also lists the lines that were skipped although they may have been meant
/// as solutions (a first line of one column, such as a bare LURD string; a header of several
/// columns and JSON lines whose `lurd` is null are not reported). Level number 0 is kept as an
/// entry (the caller reports it, as for any level the level file does not have).
/// A `.sok` file (one with board rows, see [`crate::sok`]) is read by
/// [`crate::sok::read_solutions`].
pub fn read(text: &str) -> Result<Read, Error> {
    if !text.trim_start().starts_with('{') && crate::sok::looks_like_sok(text) {
        let sok = crate::sok::read_solutions(text);
        let entries = sok.entries.into_iter().map(|f| Entry { level: f.level, lurd: f.lurd, line: f.line }).collect();
        let skipped = sok.skipped.into_iter().map(|(line, reason)| Skipped { line, reason }).collect();
        return Ok(Read { entries, skipped });
    }
    let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let mut lines = lines.filter(|(_, l)| !l.trim().is_empty()).peekable();
    let json = lines.peek().is_some_and(|(_, l)| l.trim_start().starts_with('{'));
    let mut out = Read::default();
    for (n, (line, text)) in lines.enumerate() {
        let err = |message: String| Error::Solutions { line, message };
        if json {
            let e: JsonEntry = serde_json::from_str(text).map_err(|e| err(format!("bad JSON: {e}")))?;
            if let Some(lurd) = e.lurd {
                out.entries.push(Entry { level: e.level, lurd: expanded(lurd), line });
            }
            continue;
        }
        let cols: Vec<&str> = text.split('\t').collect();
        match cols[0].trim().parse::<usize>() {
            Ok(level) if cols.len() >= 2 => {
                let lurd = expanded(cols[cols.len() - 1].trim().to_string());
                out.entries.push(Entry { level, lurd, line });
            }
            Ok(_) => return Err(err("expected at least two tab-separated columns".into())),
            // A header names its columns; a first line of one column (a bare LURD string, say)
            // is no header, and is reported.
            Err(_) if n == 0 && cols.len() >= 2 => {}
            Err(_) if n == 0 => {
                let reason = format!("{:?} is not a level number, a tab and a LURD string", cols[0]);
                out.skipped.push(Skipped { line, reason });
            }
            Err(_) => return Err(err(format!("the first column {:?} is not a level number", cols[0]))),
        }
    }
    Ok(out)
}

/// `lurd` with its run-length encoding written out, or as it is when it has none or it does not
/// expand.
fn expanded(lurd: String) -> String {
    if crate::lurd::is_rle(&lurd) { crate::lurd::expand(&lurd).unwrap_or(lurd) } else { lurd }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tsv_with_header_and_json_lines() {
        let tsv = parse("level\tmoves\tlurd\n1\t3\tuRd\n2\t1\tL\n").unwrap();
        assert_eq!(tsv.len(), 2);
        assert_eq!((tsv[1].level, tsv[1].lurd.as_str(), tsv[1].line), (2, "L", 3));
        let json = parse("{\"level\": 4, \"lurd\": \"rR\"}\n").unwrap();
        assert_eq!(json[0].level, 4);
        assert!(parse("level\tlurd\nx\tuu\n").is_err());
        assert!(parse("{\"level\": 1, \"lurd\": 5}\n").is_err());
        assert!(parse("{\"level\": 1, \"lurd\": null}\n").unwrap().is_empty());
        // Level 0 is an entry like any other (the caller reports it), in both forms.
        assert_eq!(parse("0\tuu\n").unwrap()[0].level, 0);
        assert_eq!(parse("{\"level\": 0, \"lurd\": \"u\"}\n").unwrap()[0].level, 0);
        // A plain LURD line is not silently lost: it is reported as skipped.
        let r = read("uRd\n").unwrap();
        assert!(r.entries.is_empty());
        assert_eq!(r.skipped[0].line, 1);
        // A header of several columns is a header, not a skipped solution.
        assert!(read("level\tlurd\n1\tuu\n").unwrap().skipped.is_empty());
        // Run-length encoded LURD is written out; a string that does not expand is kept.
        assert_eq!(parse("1\t3l2U\n").unwrap()[0].lurd, "lllUU");
        assert_eq!(parse("{\"level\": 1, \"lurd\": \"2(uR)\"}\n").unwrap()[0].lurd, "uRuR");
        assert_eq!(parse("1\t3\n").unwrap()[0].lurd, "3");
    }
}
