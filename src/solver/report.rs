//! What a solve returns (a solution with its counters, or why there is none), typed statuses,
//! and the statistics of a batch of solves, so that every front end (the CLI's
//! `solve` and `bench`, a server, an embedding program) reports the same things the same way.

use crate::rules::Move;

/// Counters of one search.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// States expanded (their pushes generated).
    pub expanded: u64,
    /// Pushes that survived pruning.
    pub generated: u64,
    /// Generated states already stored (and not improved).
    pub duplicates: u64,
    /// Pushes onto dead squares.
    pub pruned_dead_square: u64,
    /// Pushes that froze a box off its goal.
    pub pruned_freeze: u64,
    /// States of the fast engine proven dead by a search of some of their boxes: corral
    /// deadlocks (see `fast::corral`) and exhaustive searches or their learned patterns (see
    /// [`super::exhaust`]).
    pub pruned_corral: u64,
    /// Pushes that closed a 2×2 block of boxes and walls off goals.
    pub pruned_2x2: u64,
    /// States with no box-to-goal matching.
    pub pruned_no_matching: u64,
    /// Expansions restricted to the pushes of a PI-corral's barrier boxes.
    pub corral_cuts: u64,
    /// Distance tables built for sets of boxes frozen on goals.
    pub frozen_tables: u64,
    /// States stored when the search ended.
    pub stored_states: u64,
    /// Bytes of search memory per stored state (keys, nodes, closed table, open list).
    pub bytes_per_state: f64,
    /// Largest search memory seen, in bytes.
    pub peak_bytes: u64,
    /// Search time in seconds.
    pub seconds: f64,
}

impl Stats {
    /// Adds the counters of `other`, another search of the same solve (as [`Mode::Auto`] runs
    /// several): counts and seconds add up; the peak memory is the larger, and the stored
    /// states (with their bytes each) are those of the search that stored more.
    ///
    /// [`Mode::Auto`]: super::Mode::Auto
    pub fn add(&mut self, other: &Stats) {
        let Stats {
            expanded,
            generated,
            duplicates,
            pruned_dead_square,
            pruned_freeze,
            pruned_corral,
            pruned_2x2,
            pruned_no_matching,
            corral_cuts,
            frozen_tables,
            stored_states,
            bytes_per_state,
            peak_bytes,
            seconds,
        } = other;
        self.expanded += expanded;
        self.generated += generated;
        self.duplicates += duplicates;
        self.pruned_dead_square += pruned_dead_square;
        self.pruned_freeze += pruned_freeze;
        self.pruned_corral += pruned_corral;
        self.pruned_2x2 += pruned_2x2;
        self.pruned_no_matching += pruned_no_matching;
        self.corral_cuts += corral_cuts;
        self.frozen_tables += frozen_tables;
        if *stored_states > self.stored_states {
            self.stored_states = *stored_states;
            self.bytes_per_state = *bytes_per_state;
        }
        self.peak_bytes = self.peak_bytes.max(*peak_bytes);
        self.seconds += seconds;
    }
}

/// What a returned solution is proven to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimality {
    /// Fewest pushes.
    Pushes,
    /// Fewest pushes, and the fewest moves among the solutions with that many pushes.
    #[serde(rename = "pushes,moves")]
    PushesMoves,
    /// Fewest moves (then pushes).
    Moves,
    /// Least total cost.
    Cost,
}

impl Optimality {
    /// The name used in reports (`pushes`, `pushes,moves`, `moves`, `cost`).
    pub fn name(self) -> &'static str {
        match self {
            Optimality::Pushes => "pushes",
            Optimality::PushesMoves => "pushes,moves",
            Optimality::Moves => "moves",
            Optimality::Cost => "cost",
        }
    }
}

/// A solution and how it was found.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The moves, pushes included.
    pub moves: Vec<Move>,
    /// The moves in LURD.
    pub lurd: String,
    /// Pushes among the moves.
    pub pushes: usize,
    /// Total cost: each move 1, each push plus the pushed box's weight.
    pub cost: u64,
    /// What the solution is proven to minimise; `None` when nothing is proven.
    pub optimal: Option<Optimality>,
    /// Counters of the search.
    pub stats: Stats,
    /// When a solve that went on after its first solution ([`super::Mode::Auto`]'s proof)
    /// found that solution, in seconds from its start; `None` when the first solution is this
    /// one (found at [`Stats::seconds`]).
    pub found_seconds: Option<f64>,
    /// Which search found it, the outermost first, `/` between: `a-star`, `bfs`, or the fast
    /// engine's pass (`first-pass`, `second-pass`, `other-plan-pass`, `midpoint`,
    /// `staging-midpoint`, `staged-pass`, `staging-pass`, `third-pass`; on more threads also
    /// `blocked-pass`, `unexplored-pass` and `relaxed-pass`; see [`super::fast`]), followed
    /// by `/sprint` when a short search from one of its states finished it, `/backward` when
    /// it met the backward searches (or they reached the start); `optimizer` for fewer pushes
    /// found near an earlier solution (`--improve`). Empty when no search is credited (a
    /// solution made up by hand).
    pub found_by: String,
}

impl Solution {
    /// The solution made of `moves` (legal moves that solve the level; their LURD and pushes
    /// follow from them), costing `cost`, with what it is proven to minimise and its search's
    /// counters.
    pub fn from_moves(moves: Vec<Move>, cost: u64, optimal: Option<Optimality>, stats: Stats) -> Solution {
        let lurd = crate::lurd::encode(&moves);
        let pushes = moves.iter().filter(|m| m.push).count();
        Solution { moves, lurd, pushes, cost, optimal, stats, found_seconds: None, found_by: String::new() }
    }

    /// Credits `search` with finding the solution: it becomes the outermost part of
    /// [`Solution::found_by`].
    pub fn credited(mut self, search: &str) -> Solution {
        self.found_by = match self.found_by.is_empty() {
            true => search.to_owned(),
            false => format!("{search}/{}", self.found_by),
        };
        self
    }

    /// [`Solution::found_by`], `None` when no search is credited.
    pub fn credit(&self) -> Option<&str> {
        Some(self.found_by.as_str()).filter(|f| !f.is_empty())
    }
}

/// Why no solution was returned.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolveError {
    /// The whole reachable state space was searched: no solution exists.
    #[error("unsolvable: the whole reachable state space was searched")]
    Unsolvable(Stats),
    #[error("time limit reached")]
    /// The time limit passed.
    Timeout(Stats),
    #[error("memory limit reached")]
    /// The memory limit would have been exceeded.
    MemoryLimit(Stats),
    #[error("node limit reached")]
    /// More states than the node limit allowed were expanded.
    NodeLimit(Stats),
    #[error("cancelled")]
    /// The cancel flag was set.
    Cancelled(Stats),
    /// The engine returned a solution that the independent verifier rejected (a bug).
    #[error("internal error: the solution found failed verification")]
    Unverified(Stats),
    /// [`super::Config::weights`] does not give exactly one weight per box; nothing was searched.
    #[error("the weights give {given} numbers but the level has {boxes} boxes (one weight per box, in reading order)")]
    WrongWeights {
        /// Weights given (saturated at `u32::MAX`).
        given: u32,
        /// Boxes of the level.
        boxes: u32,
        /// Empty counters.
        stats: Stats,
    },
}

/// The counters of a [`SolveError`], every variant listed once: `$e` is `&SolveError` or
/// `&mut SolveError`, and the result borrows the same way.
macro_rules! stats_of {
    ($e:expr) => {
        match $e {
            SolveError::Unsolvable(s)
            | SolveError::Timeout(s)
            | SolveError::MemoryLimit(s)
            | SolveError::NodeLimit(s)
            | SolveError::Cancelled(s)
            | SolveError::Unverified(s)
            | SolveError::WrongWeights { stats: s, .. } => s,
        }
    };
}

impl SolveError {
    /// The counters, to adjust them (e.g. the time of a composite solve).
    pub fn stats_mut(&mut self) -> &mut Stats {
        stats_of!(self)
    }

    /// Counters of the search up to the stop.
    pub fn stats(&self) -> &Stats {
        stats_of!(self)
    }

    /// The status this error reports.
    pub fn status(&self) -> Status {
        match self {
            SolveError::Unsolvable(_) => Status::Unsolvable,
            SolveError::Timeout(_) => Status::Timeout,
            SolveError::MemoryLimit(_) => Status::MemoryLimit,
            SolveError::NodeLimit(_) => Status::NodeLimit,
            SolveError::Cancelled(_) => Status::Cancelled,
            SolveError::Unverified(_) | SolveError::WrongWeights { .. } => Status::Invalid,
        }
    }
}

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
    /// The engine's answer failed verification (a bug), or the request was invalid (weights
    /// that do not match the boxes).
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
    /// Solved levels per [`Solution::found_by`], the most first (then by name).
    pub found_by: Vec<(String, usize)>,
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
            found_by: found_by_counts(&results),
        }
    }

    /// Levels that ended with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.by_status.iter().find(|(s, _)| *s == status).map_or(0, |(_, n)| *n)
    }
}

/// The solved levels among `results` per [`Solution::found_by`], the most first, then by name.
fn found_by_counts(results: &[&Result<Solution, SolveError>]) -> Vec<(String, usize)> {
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for s in results.iter().filter_map(|r| r.as_ref().ok()) {
        *counts.entry(&s.found_by).or_default() += 1;
    }
    let mut counts: Vec<(String, usize)> = counts.into_iter().map(|(f, n)| (f.to_owned(), n)).collect();
    // Stable: equal counts stay in name order.
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    counts
}

/// One level's outcome as the JSON object `sokoban solve --json` prints for it: `level` (the
/// 1-based number in its file), `title`, `status`, `lurd`, `moves`, `pushes`, `cost` (only when
/// the run minimised cost), `optimal`, `nodes`, `seconds`, `found_seconds` (when the
/// solution was found, see [`Solution::found_seconds`]) and `found_by` (which search found it,
/// see [`Solution::found_by`]). The solution fields are null
/// without a solution. [`add_metrics_json`] adds the solution metrics; [`solve_json`] does both.
pub fn outcome_json(
    number: usize,
    title: Option<&str>,
    result: &Result<Solution, SolveError>,
    cost_mode: bool,
) -> serde_json::Value {
    let (lurd, moves, pushes, optimal, cost) = match result {
        Ok(s) => (Some(s.lurd.clone()), Some(s.moves.len()), Some(s.pushes), s.optimal.map(|o| o.name()), Some(s.cost)),
        Err(_) => (None, None, None, None, None),
    };
    let stats = match result {
        Ok(s) => &s.stats,
        Err(e) => e.stats(),
    };
    let mut json = serde_json::json!({
        "level": number, "title": title, "status": Status::of(result).name(), "lurd": lurd,
        "moves": moves, "pushes": pushes, "cost": cost, "optimal": optimal,
        "nodes": stats.expanded, "seconds": stats.seconds,
        "found_seconds": result.as_ref().ok().map(|s| s.found_seconds.unwrap_or(stats.seconds)),
        "found_by": result.as_ref().ok().and_then(Solution::credit),
    });
    // `cost` means something only when weights were counted; otherwise the fields are the
    // documented set exactly.
    if !cost_mode && let Some(map) = json.as_object_mut() {
        map.remove("cost");
    }
    json
}

/// Adds the secondary solution metrics (`box_lines`, `box_changes`, `pushing_sessions`,
/// `player_lines`; null when there is no solution) to a level's JSON object.
pub fn add_metrics_json(json: &mut serde_json::Value, metrics: Option<&crate::metrics::Metrics>) {
    let get = |f: fn(&crate::metrics::Metrics) -> usize| metrics.map(f);
    json["box_lines"] = get(|m| m.box_lines).into();
    json["box_changes"] = get(|m| m.box_changes).into();
    json["pushing_sessions"] = get(|m| m.pushing_sessions).into();
    json["player_lines"] = get(|m| m.player_lines).into();
}

/// The whole JSON line of `sokoban solve --json` (without `--rle` or `--move-format`) for a
/// solve of `level`, level number `number` of its file: [`outcome_json`] with the metrics of
/// the solution, so that other front ends (the Python package) report exactly what the CLI does.
///
/// ```
/// use sokoban::format::parse_levels;
/// use sokoban::solver::{Config, Mode, report::solve_json, solve};
///
/// let level = &parse_levels("#####\n#@$.#\n#####\n")?[0];
/// let config = Config { mode: Mode::Pushes, ..Config::default() };
/// let json = solve_json(1, level, &solve(level, &config), false);
/// assert_eq!(json["status"], "solved");
/// assert_eq!(json["lurd"], "R");
/// assert_eq!(json["box_lines"], 1);
/// # Ok::<(), sokoban::Error>(())
/// ```
pub fn solve_json(
    number: usize,
    level: &crate::level::Level,
    result: &Result<Solution, SolveError>,
    cost_mode: bool,
) -> serde_json::Value {
    let mut json = outcome_json(number, level.title(), result, cost_mode);
    let metrics = result.as_ref().ok().and_then(|s| crate::metrics::measure(level, s.moves.iter().map(|m| m.dir)).ok());
    add_metrics_json(&mut json, metrics.as_ref());
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found_by(search: &str) -> Result<Solution, SolveError> {
        let mut solution = Solution::from_moves(Vec::new(), 0, None, Stats::default());
        solution.found_by = search.to_owned();
        Ok(solution)
    }

    #[test]
    fn the_summary_counts_solved_levels_by_their_search_the_most_first() {
        let results = [
            found_by("second-pass"),
            Err(SolveError::Timeout(Stats::default())),
            found_by("first-pass/sprint"),
            found_by("a-star"),
            found_by("first-pass/sprint"),
        ];
        let counts = Summary::of(&results).found_by;
        let counts: Vec<(&str, usize)> = counts.iter().map(|(by, n)| (by.as_str(), *n)).collect();
        assert_eq!(counts, [("first-pass/sprint", 2), ("a-star", 1), ("second-pass", 1)]);
    }

    #[test]
    fn credit_puts_the_outer_search_first() {
        let solution = Solution::from_moves(Vec::new(), 0, None, Stats::default());
        assert_eq!(solution.credited("sprint").credited("first-pass").found_by, "first-pass/sprint");
    }
}
