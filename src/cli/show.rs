//! `sokoban show`: print levels.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::{EXIT_BAD_INPUT, EXIT_OK, InputArgs, LevelFile, Selection, level_error, plural, title_suffix};

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The level file.
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
}

pub fn run(a: ShowArgs) -> Result<ExitCode> {
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let mut code = EXIT_OK;
    for n in a.select.pick(file.count)? {
        match file.get(n) {
            Ok(level) => {
                let title = title_suffix(n, level.title());
                let (boxes, squares) = (plural(level.boxes().len(), "box"), plural(level.square_count(), "square"));
                outln!("Level {n}{title}: {boxes}, {squares}")?;
                for row in sokoban::format::xsb::board_rows(level) {
                    outln!("{row}")?;
                }
                outln!()?;
            }
            Err(msg) => {
                level_error(&msg);
                code = EXIT_BAD_INPUT;
            }
        }
    }
    Ok(ExitCode::from(code))
}
