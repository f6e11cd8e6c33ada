//! `sokoban convert`: write levels in another format.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use sokoban::Level;
use sokoban::level::SourceFormat;

use super::{EXIT_OK, FormatArg, InputArgs, LevelFile, Selection};

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The level file.
    pub levels: PathBuf,
    #[command(flatten)]
    pub select: Selection,
    #[command(flatten)]
    pub input: InputArgs,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: FormatArg,
    /// Write to this file instead of standard output (written whole, then renamed into place; a
    /// symlink's target is replaced, a FIFO or device written through, a directory refused).
    #[arg(long, short, value_name = "FILE", conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one file per level into this directory, named after the input and the level
    /// number (needed for JSON and warehouse output of several levels).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

fn extension(format: SourceFormat) -> &'static str {
    match format {
        SourceFormat::Xsb => "xsb",
        SourceFormat::Grid => "lisp",
        SourceFormat::Json => "json",
        SourceFormat::Warehouse => "txt",
    }
}

pub fn run(a: ConvertArgs) -> Result<ExitCode> {
    if let Some(out) = &a.output
        && super::same_file(out, &a.levels)
    {
        bail!("--output {} is the level file being read; write the conversion elsewhere", out.display());
    }
    let file = LevelFile::load_selected(&a.levels, &a.input, &a.select)?;
    let to = a.to.format();
    let mut levels: Vec<Level> = Vec::new();
    // All or nothing: a level that does not parse stops the conversion before anything is written.
    for n in a.select.pick(file.count)? {
        levels.push(file.get(n).map_err(anyhow::Error::msg)?.clone());
    }
    if let Some(dir) = &a.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let stem = match a.levels.file_stem() {
            Some(s) if a.levels != Path::new("-") => s.to_string_lossy().into_owned(),
            _ => "level".into(),
        };
        let numbers = a.select.pick(file.count)?;
        let texts: Vec<(PathBuf, String)> = numbers
            .iter()
            .zip(&levels)
            .map(|(n, level)| {
                let text = sokoban::format::write(level, to)?;
                Ok((dir.join(format!("{stem}-{n}.{}", extension(to))), text))
            })
            .collect::<Result<_>>()?;
        if let Some((path, _)) = texts.iter().find(|(path, _)| super::same_file(path, &a.levels)) {
            bail!("--out-dir would write {} over the level file being read", path.display());
        }
        for (path, text) in texts {
            super::write_output(&path, &text)?;
        }
        return Ok(ExitCode::from(EXIT_OK));
    }
    if levels.len() > 1 && matches!(to, SourceFormat::Json | SourceFormat::Warehouse) {
        bail!(
            "the {} format holds one level per file and {} levels are selected: pick one with --level N or write one file per level with --out-dir DIR",
            to.name(),
            levels.len()
        );
    }
    let text = sokoban::format::write_all(&levels, to)?;
    match &a.output {
        Some(path) => super::write_output(path, &text)?,
        None => out!("{text}")?,
    }
    Ok(ExitCode::from(EXIT_OK))
}
