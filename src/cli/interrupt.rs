//! Ctrl-C during `solve` and `bench`: the first interrupt cancels the searches that are running,
//! so the command can report what it finished (and keep the solutions file it wrote) before
//! exiting with [`EXIT_INTERRUPTED`]; a second interrupt ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The exit status after an interrupt (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag the first Ctrl-C sets; installs the handler on first use.
pub fn flag() -> Arc<AtomicBool> {
    let mut fresh = false;
    let flag = FLAG
        .get_or_init(|| {
            fresh = true;
            Arc::new(AtomicBool::new(false))
        })
        .clone();
    // Installed only once the flag exists, so the handler always finds it.
    if fresh {
        install();
    }
    flag
}

/// Set when the command itself cancelled the searches (an output error), not Ctrl-C.
static STOPPED_FOR_ERROR: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::Relaxed)) && !STOPPED_FOR_ERROR.load(Ordering::Relaxed)
}

/// Cancels the running searches and the levels not started, as Ctrl-C does, because the command
/// cannot go on (its output failed); [`interrupted`] stays false.
pub fn stop_for_error() {
    STOPPED_FOR_ERROR.store(true, Ordering::Relaxed);
    flag().store(true, Ordering::Relaxed);
}

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    // Only an atomic store and a signal reset: both are async-signal-safe. The flag is set
    // before the handler is installed, so `get` never races its initialisation.
    if let Some(flag) = FLAG.get() {
        flag.store(true, Ordering::Relaxed);
    }
    // SAFETY: restoring the default disposition is async-signal-safe; the next Ctrl-C kills.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

#[cfg(unix)]
fn install() {
    let handler: extern "C" fn(libc::c_int) = on_interrupt;
    // SAFETY: the handler only touches an initialised atomic and resets its own disposition.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

#[cfg(not(unix))]
fn install() {}
