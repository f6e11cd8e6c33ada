//! Typed outcomes and the statistics of a batch of solves, so that every front end (the CLI's
//! `solve` and `bench`, a server, an embedding program) reports the same things the same way.

use super::{Solution, SolveError, Stats};

/// How one solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A verified solution was found.
    Solved,
    /// The whole reachable state space was searched: no solution exists.
    Unsolvable,
    /// The time limit passed.
    Timeout,
    /// The memory limit would have been exceeded.
    MemoryLimit,
    /// The node limit was reached.
    NodeLimit,
    /// The search was cancelled.
    Cancelled,
    /// The engine's answer failed verification (a bug).
    Invalid,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 7] = [
        Status::Solved,
        Status::Unsolvable,
        Status::Timeout,
        Status::MemoryLimit,
        Status::NodeLimit,
        Status::Cancelled,
        Status::Invalid,
    ];

    /// The name used in reports and JSON (`solved`, `memory-limit`, …).
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Timeout => "timeout",
            Status::MemoryLimit => "memory-limit",
            Status::NodeLimit => "node-limit",
            Status::Cancelled => "cancelled",
            Status::Invalid => "invalid",
        }
    }

    /// The status of a solve's result.
    pub fn of(result: &Result<Solution, SolveError>) -> Status {
        match result {
            Ok(_) => Status::Solved,
            Err(e) => e.status(),
        }
    }

    /// Whether the answer is final: solved, or proven unsolvable.
    pub fn is_verdict(self) -> bool {
        match self {
            Status::Solved | Status::Unsolvable => true,
            Status::Timeout | Status::MemoryLimit | Status::NodeLimit | Status::Cancelled | Status::Invalid => false,
        }
    }
}

/// The statistics of a batch of solves (what `sokoban bench` prints).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Levels in the batch.
    pub levels: usize,
    /// Levels solved.
    pub solved: usize,
    /// Solved levels whose solution is proven optimal.
    pub optimal: usize,
    /// Levels per status, in [`Status::ALL`] order.
    pub by_status: Vec<(Status, usize)>,
    /// Search time of the solved levels, in seconds.
    pub solved_seconds_total: f64,
    /// Median search time of the solved levels.
    pub solved_seconds_median: f64,
    /// Expanded states per second over all levels.
    pub nodes_per_second: f64,
    /// The most states stored by one search.
    pub peak_stored_states: u64,
    /// The most search memory used by one search, in bytes.
    pub peak_search_bytes: u64,
    /// Mean bytes per stored state over the levels that stored states.
    pub bytes_per_state: f64,
}

impl Summary {
    /// Summarises the results of a batch.
    pub fn of<'r>(results: impl IntoIterator<Item = &'r Result<Solution, SolveError>>) -> Summary {
        let results: Vec<&Result<Solution, SolveError>> = results.into_iter().collect();
        let stats = |r: &Result<Solution, SolveError>| -> Stats {
            match r {
                Ok(s) => s.stats.clone(),
                Err(e) => e.stats().clone(),
            }
        };
        let mut times: Vec<f64> = results.iter().filter(|r| r.is_ok()).map(|r| stats(r).seconds).collect();
        times.sort_by(f64::total_cmp);
        let all_time: f64 = results.iter().map(|r| stats(r).seconds).sum();
        let all_nodes: u64 = results.iter().map(|r| stats(r).expanded).sum();
        let bps: Vec<f64> = results.iter().map(|r| stats(r).bytes_per_state).filter(|b| *b > 0.0).collect();
        Summary {
            levels: results.len(),
            solved: times.len(),
            optimal: results.iter().filter(|r| r.as_ref().is_ok_and(|s| s.optimal.is_some())).count(),
            by_status: Status::ALL
                .iter()
                .map(|&s| (s, results.iter().filter(|r| Status::of(r) == s).count()))
                .collect(),
            solved_seconds_total: times.iter().sum(),
            solved_seconds_median: if times.is_empty() { 0.0 } else { times[times.len() / 2] },
            nodes_per_second: if all_time > 0.0 { all_nodes as f64 / all_time } else { 0.0 },
            peak_stored_states: results.iter().map(|r| stats(r).stored_states).max().unwrap_or(0),
            peak_search_bytes: results.iter().map(|r| stats(r).peak_bytes).max().unwrap_or(0),
            bytes_per_state: if bps.is_empty() { 0.0 } else { bps.iter().sum::<f64>() / bps.len() as f64 },
        }
    }

    /// Levels that ended with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.by_status.iter().find(|(s, _)| *s == status).map_or(0, |(_, n)| *n)
    }
}
