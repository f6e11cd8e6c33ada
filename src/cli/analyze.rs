//! `sokoban analyze`: show the static analysis of a level.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use sokoban::analysis::Analysis;
use sokoban::level::Tile;

use super::{EXIT_BAD_INPUT, EXIT_OK, InputArgs, LevelFile, Selection, level_error, plural, title_suffix};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The level file.
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the AI-course taboo map instead: walls `#`, taboo squares `X`, everything else a
    /// space (boxes, goals and the player removed). A square is taboo if it is an inside corner
    /// that is not a goal, or lies on a walled run between two taboo corners with no goal on it.
    #[arg(long)]
    pub taboo: bool,
}

pub fn run(a: AnalyzeArgs) -> Result<ExitCode> {
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let mut code = EXIT_OK;
    for n in a.select.pick(file.count)? {
        let level = match file.get(n) {
            Ok(l) => l,
            Err(msg) => {
                level_error(&msg);
                code = EXIT_BAD_INPUT;
                continue;
            }
        };
        if a.taboo {
            print_taboo(level)?;
            continue;
        }
        let an = Analysis::new(level);
        let bound = sokoban::solver::bound::start_bound(level);
        let title = title_suffix(n, level.title());
        let squares = plural(an.squares(), "square");
        outln!("Level {n}{title}: {squares}, {} live, {} dead", an.live(), an.squares() - an.live())?;
        outln!("Dead squares are marked x (a box there can never reach a goal).")?;
        let raw = level.to_raw();
        for r in 0..level.height() {
            let row: String = (0..level.width())
                .map(|c| {
                    let cell = raw.rows[r][c];
                    match (level.tile(r, c), level.square_at(r, c)) {
                        (Tile::Wall, _) => '#',
                        (_, Some(s)) if an.is_dead(s) && !cell.box_ && !cell.player => 'x',
                        (Tile::Outside, _) => ' ',
                        _ => sokoban::format::xsb::cell_char(cell),
                    }
                })
                .collect();
            outln!("{}", row.trim_end())?;
        }
        match bound {
            Some(b) => outln!("Lower bound (push matching) of the start: {}", plural(b as usize, "push")),
            None => outln!("Lower bound of the start: none, no box-to-goal matching exists (deadlocked)"),
        }?;
        outln!()?;
    }
    Ok(ExitCode::from(code))
}

fn print_taboo(level: &sokoban::Level) -> Result<()> {
    let taboo = sokoban::analysis::taboo(level);
    for r in 0..level.height() {
        let row: String = (0..level.width())
            .map(|c| match (level.tile(r, c), level.square_at(r, c)) {
                (Tile::Wall, _) => '#',
                (_, Some(s)) if taboo[s.index()] => 'X',
                _ => ' ',
            })
            .collect();
        outln!("{row}")?;
    }
    Ok(())
}
