//! `sokoban next`: the successor positions of a level (after an optional move list), each with
//! its move, in the order up, right, down, left that [`Position::successors`] gives; what the
//! CS161 `next-states` exercise asks for.
//!
//! [`Position::successors`]: sokoban::rules::Position::successors

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use sokoban::level::SourceFormat;

use super::apply::{Played, one_level, play};
use super::{EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection};

#[derive(Args, Debug)]
pub struct NextArgs {
    /// The level file (a file with several levels needs --level N).
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// Play these moves first (LURD, a JSON array or words) and list the successors of where
    /// they lead; an illegal move prints "Impossible" and exits 1.
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Print one JSON array: [{"move": "up", "lurd": "U", "push": true, "solved": false,
    /// "board": …}, …].
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: NextArgs) -> Result<ExitCode> {
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let level = one_level(&file, &a.select)?;
    let Some(Played { position, .. }) = play(level, a.moves.as_deref().unwrap_or(""), false, a.json)? else {
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    };
    let successors = position.successors(level);
    let mut json = Vec::new();
    for (i, (m, next)) in successors.iter().enumerate() {
        let board = sokoban::format::write_raw(level, &next.to_raw(level), level.format())?;
        if a.json {
            // A JSON-grid level's board is embedded as JSON; the text formats as a string.
            let board = match level.format() {
                SourceFormat::Json => serde_json::from_str(&board)?,
                _ => serde_json::Value::String(board),
            };
            json.push(serde_json::json!({
                "move": m.dir.name(), "lurd": m.letter().to_string(), "push": m.push,
                "solved": next.is_solved(level), "board": board,
            }));
        } else {
            if i > 0 {
                outln!()?;
            }
            let push = if m.push { ", push" } else { "" };
            outln!("{} ({}{push}):", m.dir.name(), m.letter())?;
            out!("{board}")?;
            if !board.ends_with('\n') {
                outln!()?;
            }
        }
    }
    if a.json {
        outln!("{}", serde_json::Value::Array(json))?;
    } else if successors.is_empty() {
        eprintln!("no legal move: the player is walled in");
    }
    Ok(ExitCode::from(EXIT_OK))
}
