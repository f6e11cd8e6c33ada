//! `sokoban apply`: play a move list on a level and print the resulting board, so scripts in
//! other languages can drive the rules.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use sokoban::Level;
use sokoban::rules::Position;

use super::{EXIT_NEGATIVE, EXIT_OK, InputArgs, LevelFile, Selection, plural};

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

/// Where a move list leads from a level's start.
pub struct Played {
    pub position: Position,
    pub moves: usize,
    pub pushes: usize,
}

/// Plays `moves` (any spelling) from the start of `level`. At an illegal move, unless
/// `skip_illegal`, prints "Impossible" (or `{"error": "impossible", "at": k}` with `json`) and
/// returns `None`.
pub fn play(level: &Level, moves: &str, skip_illegal: bool, json: bool) -> Result<Option<Played>> {
    let letters = sokoban::moves::parse(moves).context("bad --moves")?;
    let mut played = Played { position: Position::start(level), moves: 0, pushes: 0 };
    for (k, letter) in letters.iter().enumerate() {
        match played.position.step(level, letter.dir) {
            Ok((next, m)) => {
                played.position = next;
                played.moves += 1;
                played.pushes += usize::from(m.push);
            }
            Err(_) if skip_illegal => {}
            Err(_) => {
                if json {
                    outln!("{}", serde_json::json!({"error": "impossible", "at": k}))?;
                } else {
                    outln!("Impossible")?;
                    eprintln!("move {k} (0-based, {:?}) is illegal", letter.dir.name());
                }
                return Ok(None);
            }
        }
    }
    Ok(Some(played))
}

/// The selected level of a file, which must select exactly one.
pub fn one_level<'f>(file: &'f LevelFile, select: &Selection) -> Result<&'f Level> {
    let picked = select.pick(file.count)?;
    let [n] = picked[..] else {
        bail!("{} holds {}; pick one with --level N", file.path.display(), plural(file.count, "level"));
    };
    file.get(n).map_err(anyhow::Error::msg)
}

pub fn run(a: ApplyArgs) -> Result<ExitCode> {
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let level = one_level(&file, &a.select)?;
    let Some(Played { position, moves, pushes }) = play(level, &a.moves, a.skip_illegal, a.json)? else {
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    };
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
