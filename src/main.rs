//! The `sokoban` command-line program: a thin layer over the library.
//!
//! Exit codes: 0 when everything asked for succeeded; 1 when the input was fine but a result was
//! negative (an invalid solution, a level not solved in time); 2 for bad input or usage; 130
//! when Ctrl-C interrupted `solve` or `bench` (after they report what they finished).

mod cli;

use std::io::ErrorKind::BrokenPipe;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_sigpipe();
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        // --help and --version go to standard output; a failed write there is an error too.
        Err(e) if !e.use_stderr() => {
            let printed = e.print().and_then(|()| std::io::stdout().flush());
            return match printed {
                Ok(()) => ExitCode::from(cli::EXIT_OK),
                Err(io) => {
                    eprintln!("error: cannot write to standard output: {io}");
                    ExitCode::from(cli::EXIT_BAD_INPUT)
                }
            };
        }
        Err(e) => e.exit(),
    };
    // Output still buffered (a last line without a newline) is flushed here, so its error shows.
    let result = cli::run(args).and_then(|code| {
        std::io::stdout().flush().map_err(|e| anyhow::Error::new(e).context("cannot write to standard output"))?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        // A reader that stops early (`sokoban solve … | head`) is not an error.
        Err(e) if e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == BrokenPipe)) => {
            ExitCode::from(cli::EXIT_OK)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(cli::EXIT_BAD_INPUT)
        }
    }
}

/// Restores the default SIGPIPE action, so `sokoban solve … | head` ends quietly when the reader
/// stops, like other Unix tools, instead of panicking inside `println!`.
fn quiet_sigpipe() {
    #[cfg(unix)]
    // SAFETY: runs first thing in `main`, before any other thread exists; it only resets a signal
    // disposition to the system default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
