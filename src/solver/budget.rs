//! Limits of one search: time, memory, expanded states and cancellation, checked in one place.
//!
//! Reading the clock on every expansion costs time, reading it every few hundred expansions lets
//! a search with slow expansions (big levels) overshoot its deadline. [`Budget::tick`] checks
//! after a number of expansions that adapts to how long expansions take, aiming at a check about
//! every millisecond whatever the level. A zero time limit or a cancel flag set before the
//! search starts stops it at the first check, before any expansion.
//!
//! The budget also finishes a search's [`Stats`]: every engine reports through
//! [`Budget::finish`], so the counters mean the same in every engine.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::config::Config;
use super::report::{SolveError, Stats};

/// Why a search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The time limit passed.
    Timeout,
    /// The stored states would exceed the memory limit.
    Memory,
    /// More states were expanded than the node limit allows.
    Nodes,
    /// The cancel flag was set.
    Cancelled,
}

/// The limits of one search and the clock they are measured against.
#[derive(Debug)]
pub struct Budget<'c> {
    config: &'c Config,
    started: Instant,
    memory: usize,
    /// Expansions until the next clock check, and the current interval.
    countdown: u32,
    interval: u32,
    last_check: Instant,
}

/// Aim for one clock check per this many nanoseconds of search.
const CHECK_NANOS: u128 = 1_000_000;

impl<'c> Budget<'c> {
    /// Starts the clock for a search under `config`.
    pub fn new(config: &'c Config) -> Budget<'c> {
        Budget::starting_at(config, Instant::now())
    }

    /// A budget whose clock started at `started` (for engines that ran a preparation first).
    pub fn starting_at(config: &'c Config, started: Instant) -> Budget<'c> {
        Budget {
            config,
            started,
            memory: config.memory_limit.unwrap_or(usize::MAX),
            countdown: 0,
            interval: 1,
            last_check: started,
        }
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Checks the limits that do not depend on memory after `expanded` expansions. Call once per
    /// expansion; the clock is read only now and then (see the module doc).
    #[inline]
    pub fn tick(&mut self, expanded: u64) -> Result<(), Stop> {
        if self.config.node_limit.is_some_and(|l| expanded > l) {
            return Err(Stop::Nodes);
        }
        if self.countdown > 0 {
            self.countdown -= 1;
            return Ok(());
        }
        self.check(Some(expanded))
    }

    #[cold]
    fn check(&mut self, expanded: Option<u64>) -> Result<(), Stop> {
        let now = Instant::now();
        let since = now.duration_since(self.last_check).as_nanos();
        self.last_check = now;
        // Adapt the interval so that checks land about every CHECK_NANOS.
        if since < CHECK_NANOS / 2 && self.interval < 1 << 16 {
            self.interval *= 2;
        } else if since > CHECK_NANOS * 2 && self.interval > 1 {
            // Down at once in proportion: after a stretch of cheap calls (children's bounds) a
            // long interval must not carry over into expensive ones (expansions of a big level).
            let scaled = u128::from(self.interval) * CHECK_NANOS / since;
            self.interval = u32::try_from(scaled).unwrap_or(1).max(1);
        }
        self.countdown = self.interval - 1;
        if let (Some(p), Some(expanded)) = (&self.config.progress, expanded) {
            p.store(expanded, Ordering::Relaxed);
        }
        self.limits(now)
    }

    /// Whether the cancel flag or the time limit stops the search at `now`.
    fn limits(&self, now: Instant) -> Result<(), Stop> {
        if self.config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if self.config.time_limit.is_some_and(|t| now.duration_since(self.started) >= t) {
            return Err(Stop::Timeout);
        }
        Ok(())
    }

    /// Checks the time and cancel limits now, whatever the interval (for long steps outside the
    /// expansion loop).
    pub fn check_now(&mut self) -> Result<(), Stop> {
        // Not through `check`: these calls are not expansions and must not skew its interval.
        self.limits(Instant::now())
    }

    /// Checks the time and cancel limits within an expansion (once per child, say): the clock
    /// is read on the same adaptive interval as [`Budget::tick`], so an expansion with thousands
    /// of expensive children (a level with a thousand boxes) still stops about on time.
    #[inline]
    pub fn poll(&mut self) -> Result<(), Stop> {
        if self.countdown > 0 {
            self.countdown -= 1;
            return Ok(());
        }
        self.check(None)
    }

    /// A stop check for long steps that take a closure (the analysis, table builds, the root
    /// matching): true once the time or cancel limit is reached.
    pub fn stop_check(&mut self) -> impl FnMut() -> bool + '_ {
        move || self.check_now().is_err()
    }

    /// Why a step that [`Budget::stop_check`] ended stopped.
    pub fn stop_reason(&mut self) -> Stop {
        self.check_now().err().unwrap_or(Stop::Timeout)
    }

    /// Whether `bytes` of search memory stay within the memory limit.
    #[inline]
    pub fn fits(&self, bytes: usize) -> bool {
        bytes <= self.memory
    }

    /// Finishes `stats` (time, bytes per stored state, peak memory) for a search that holds
    /// `bytes` in `stored` states now.
    pub fn finish(&self, mut stats: Stats, stored: usize, bytes: usize) -> Stats {
        stats.stored_states = stored as u64;
        stats.peak_bytes = stats.peak_bytes.max(bytes as u64);
        stats.bytes_per_state = if stored == 0 { 0.0 } else { bytes as f64 / stored as f64 };
        stats.seconds = self.started.elapsed().as_secs_f64();
        stats
    }

    /// The error for a stop, with finished `stats`.
    pub fn error(&self, stop: Stop, stats: Stats, stored: usize, bytes: usize) -> SolveError {
        let stats = self.finish(stats, stored, bytes);
        match stop {
            Stop::Timeout => SolveError::Timeout(stats),
            Stop::Memory => SolveError::MemoryLimit(stats),
            Stop::Nodes => SolveError::NodeLimit(stats),
            Stop::Cancelled => SolveError::Cancelled(stats),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_zero_time_limit_or_a_set_cancel_flag_stops_at_the_first_tick() {
        let config = Config { time_limit: Some(Duration::ZERO), ..Config::optimal(None) };
        assert_eq!(Budget::new(&config).tick(0), Err(Stop::Timeout));
        let config = Config { cancel: Some(Arc::new(AtomicBool::new(true))), ..Config::optimal(None) };
        assert_eq!(Budget::new(&config).tick(0), Err(Stop::Cancelled));
    }

    #[test]
    fn the_node_limit_counts_expansions() {
        let config = Config { node_limit: Some(3), ..Config::optimal(None) };
        let mut budget = Budget::new(&config);
        assert!((0..=3).all(|n| budget.tick(n).is_ok()));
        assert_eq!(budget.tick(4), Err(Stop::Nodes));
    }

    #[test]
    fn the_clock_is_read_about_every_millisecond_whatever_an_expansion_costs() {
        let config = Config { time_limit: Some(Duration::from_millis(30)), ..Config::optimal(None) };
        let mut budget = Budget::new(&config);
        // Slow expansions: the interval stays small, so the overshoot is one expansion.
        let started = Instant::now();
        let mut n = 0;
        while budget.tick(n).is_ok() {
            std::thread::sleep(Duration::from_millis(2));
            n += 1;
        }
        assert!(started.elapsed() < Duration::from_millis(40), "{:?}", started.elapsed());
    }
}
