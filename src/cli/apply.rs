//! `sokoban apply`: play a move list on a level and print the resulting board, so scripts in
//! other languages can drive the rules.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use sokoban::rules::Position;

use super::{EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection};

#[derive(Args, Debug)]
pub struct ApplyArgs {
    /// The level file (a file with several levels needs --level N).
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// The moves: LURD ("luRD"), a JSON array (["left","up"]) or words ("Left, Up").
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
    /// Treat an illegal move as the game does (nothing moves, it is not counted) and go on,
    /// instead of stopping with "Impossible".
    #[arg(long)]
    pub skip_illegal: bool,
    /// Print {"board": …, "solved": bool, "moves": n, "pushes": n}, or
    /// {"error": "impossible", "at": k} (k = 0-based index of the illegal move).
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ApplyArgs) -> Result<ExitCode> {
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let picked = a.select.pick(file.count)?;
    let [n] = picked[..] else {
        bail!("{} holds {} levels; pick one with --level N", a.levels.display(), file.count);
    };
    let level = file.get(n).map_err(anyhow::Error::msg)?;
    let letters = sokoban::moves::parse(&a.moves).context("bad --moves")?;
    let mut position = Position::start(level);
    let (mut moves, mut pushes) = (0usize, 0usize);
    for (k, letter) in letters.iter().enumerate() {
        match position.step(level, letter.dir) {
            Ok((next, m)) => {
                position = next;
                moves += 1;
                pushes += usize::from(m.push);
            }
            Err(_) if a.skip_illegal => {}
            Err(_) => {
                if a.json {
                    outln!("{}", serde_json::json!({"error": "impossible", "at": k}))?;
                } else {
                    outln!("Impossible")?;
                    eprintln!("move {k} (0-based, {:?}) is illegal", letter.dir.name());
                }
                return Ok(ExitCode::from(EXIT_NEGATIVE));
            }
        }
    }
    let board = sokoban::format::write_raw(level, &position.to_raw(level), level.format())?;
    if a.json {
        // A JSON-grid level's board is embedded as JSON; the text formats as a string.
        let board = match level.format() {
            sokoban::level::SourceFormat::Json => serde_json::from_str(&board)?,
            _ => serde_json::Value::String(board),
        };
        let solved = position.is_solved(level);
        outln!("{}", serde_json::json!({"board": board, "solved": solved, "moves": moves, "pushes": pushes}))?;
    } else {
        out!("{board}")?;
        if !board.ends_with('\n') {
            outln!()?;
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
