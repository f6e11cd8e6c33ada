//! Static analysis, run once per level: live and dead squares, the solver's square numbering,
//! neighbour tables and goal push-distance tables.
//!
//! Dead squares are found by pulling a box backwards from every goal on an otherwise empty
//! board: a square no pull sequence reaches cannot bring a box to any goal, so a box there is a
//! deadlock. This subsumes the corner rule and the wall-line rule.
//!
//! The solver numbers squares goals first, then the other live squares, then the dead ones
//! (after tintor's solver), so a set of boxes is a bitset over the live squares only and "on a
//! goal" is an index comparison. The push-distance tables use the relaxed push graph: a box may
//! move from `s` to `s + d` when `s + d` is not a wall and the player can ever stand on `s - d`
//! with a box on `s` ([`Analysis::stands_beside`]: a floor square, but not one in a pocket that
//! only `s` opens onto), whatever the player can reach now. That makes each table entry drop by
//! at most one per push, so the matching bound built on them is consistent.
//!
//! Everything here is immutable once built and shared by every search engine.

use crate::level::{Dir, Level, SolvedRule, Square};

pub mod region;

/// A square in the solver's numbering: goals are `0..goals()`, the other live squares follow,
/// dead squares come last. Only an [`Analysis`] hands these out, so every `Sq` names a square of
/// the level it came from.
///
/// Per-square tables are indexed by it directly (`table[sq]`, for slices and vectors). It holds
/// the bare index: a niche (the index plus one in a `NonZeroU16`, so that `Option<Sq>` is two
/// bytes) slowed the A* engine measurably: one more operation in its tightest loops.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sq(u16);

impl Sq {
    /// The square with solver index `i`.
    ///
    /// # Panics
    /// If `i` does not fit a level's square count (more than [`crate::level::MAX_SQUARES`]).
    #[inline]
    pub fn new(i: usize) -> Sq {
        assert!(i < usize::from(NO_SQUARE), "solver index {i} out of range");
        Sq::from_raw(i as u16)
    }

    /// The square of raw index `i` (below [`NO_SQUARE`]).
    #[inline]
    const fn from_raw(i: u16) -> Sq {
        Sq(i)
    }

    /// The solver index, for indexing per-square tables.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl std::fmt::Debug for Sq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sq({})", self.index())
    }
}

impl<T> std::ops::Index<Sq> for [T] {
    type Output = T;
    #[inline]
    fn index(&self, s: Sq) -> &T {
        &self[s.index()]
    }
}

impl<T> std::ops::IndexMut<Sq> for [T] {
    #[inline]
    fn index_mut(&mut self, s: Sq) -> &mut T {
        &mut self[s.index()]
    }
}

impl<T> std::ops::Index<Sq> for Vec<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Sq) -> &T {
        &self[s.index()]
    }
}

impl<T> std::ops::IndexMut<Sq> for Vec<T> {
    #[inline]
    fn index_mut(&mut self, s: Sq) -> &mut T {
        &mut self[s.index()]
    }
}

/// No square, in a table of raw `u16` square indices: a wall in the neighbour table
/// ([`Analysis::neighbor_indices`]), a missing parent or player in the fast engine's compact
/// tables. Levels have fewer squares than this (see [`crate::level::MAX_SQUARES`]), so no real
/// square has this index. Equal to [`UNREACHABLE`], the distance tables' sentinel.
pub const NO_SQUARE: u16 = u16::MAX;

/// The result of the static analysis of one level.
#[derive(Debug, Clone)]
pub struct Analysis {
    squares: usize,
    live: usize,
    goals: usize,
    to_level: Vec<Square>,
    of_level: Vec<Sq>,
    neighbors: Vec<[u16; 4]>,
    /// `around[s]`: [`Analysis::around`]'s squares, then `NO_SQUARE`s.
    around: Vec<[u16; 8]>,
    /// `dist[g * squares + s]`: pushes to bring a box from `s` to goal `g`; `UNREACHABLE` if
    /// impossible.
    dist: Vec<u16>,
    pruning: bool,
    /// `player_sides[s]`: bit `d.index()` for [`Analysis::stands_beside`] `(s, d)`.
    player_sides: Vec<u8>,
    /// See [`Analysis::fills_every_goal`].
    fills_every_goal: bool,
}

/// For each square of a level with the given `neighbors` ([`Analysis::neighbor_indices`]),
/// [`Analysis::around`]'s squares in its order, then `NO_SQUARE`s.
fn around_table(neighbors: &[[u16; 4]]) -> Vec<[u16; 8]> {
    let step = |s: u16, d: usize| if s == NO_SQUARE { NO_SQUARE } else { neighbors[s as usize][d] };
    let around = |s: usize| {
        let mut out = [NO_SQUARE; 8];
        let mut k = 0;
        for d in 0..4 {
            let turn = (d + 1) % 4;
            let (n, m) = (neighbors[s][d], neighbors[s][turn]);
            let diagonal = match step(n, turn) {
                NO_SQUARE => step(m, d),
                t => t,
            };
            for t in [n, diagonal] {
                if t != NO_SQUARE {
                    out[k] = t;
                    k += 1;
                }
            }
        }
        out
    };
    (0..neighbors.len()).map(around).collect()
}

/// A push distance table entry for a square from which no box reaches the goal.
pub const UNREACHABLE: u16 = u16::MAX;

impl Analysis {
    /// Analyses a level. Dead-square pruning is turned off when the level's rule lets boxes stay
    /// off goals (more boxes than goals under "every goal covered").
    pub fn new(level: &Level) -> Analysis {
        Analysis::new_within(level, &mut || false).expect("a check that never stops")
    }

    /// Bytes the analysis of `level` holds (its distance table and square tables), known before
    /// it is built so a caller can refuse a level that would not fit a memory limit.
    pub fn bytes_for(level: &Level) -> usize {
        let n = level.square_count();
        level.goals().len().saturating_mul(n).saturating_mul(2).saturating_add(n.saturating_mul(41))
    }

    /// Bytes this analysis holds (see [`Analysis::bytes_for`]).
    pub fn bytes(&self) -> usize {
        self.dist.len() * 2 + self.squares * 41
    }

    /// Like [`Analysis::new`], but calls `stop` between steps of bounded work (one goal's
    /// search, one table row: O(squares) each) and gives up with `None` as soon as it returns
    /// true, so a deadline or a cancel flag is observed with a small overshoot whatever the
    /// level's size. `stop` is called once before any work, so a check that is already true
    /// returns at once.
    pub fn new_within(level: &Level, stop: &mut impl FnMut() -> bool) -> Option<Analysis> {
        if stop() {
            return None;
        }
        let n = level.square_count();
        let nb = |s: usize, d: Dir| level.neighbor(Square::new(s), d).map(Square::index);
        let goal_list = level.goals();
        let level_order = Analysis::in_level_order(level, stop)?;
        let level_dist = level_order.goal_distances(goal_list, stop)?;
        let pruning = !(level.rule() == SolvedRule::AllGoalsCovered && level.boxes().len() > goal_list.len());
        let mut live_square = vec![!pruning; n];
        if pruning {
            for g in 0..goal_list.len() {
                if stop() {
                    return None;
                }
                for (live, &d) in live_square.iter_mut().zip(&level_dist[g * n..(g + 1) * n]) {
                    *live |= d != UNREACHABLE;
                }
            }
        }
        let is_live = |s: usize| live_square[s];

        // Goals first, then other live squares, then dead squares.
        let mut order: Vec<usize> = goal_list.iter().map(|g| g.index()).collect();
        order.extend((0..n).filter(|&s| !level.is_goal(Square::new(s)) && is_live(s)));
        let live = order.len();
        order.extend((0..n).filter(|&s| !level.is_goal(Square::new(s)) && !is_live(s)));
        let mut of_level = vec![Sq::from_raw(0); n];
        for (i, &s) in order.iter().enumerate() {
            of_level[s] = Sq::new(i);
        }
        let neighbors: Vec<[u16; 4]> = order
            .iter()
            .map(|&s| Dir::ALL.map(|d| nb(s, d).map_or(NO_SQUARE, |t| of_level[t].index() as u16)))
            .collect();
        // Renumber each row in place (one row of scratch), so the table exists only once.
        let mut dist = level_dist;
        let mut row = vec![UNREACHABLE; n];
        for g in 0..goal_list.len() {
            if stop() {
                return None;
            }
            row.copy_from_slice(&dist[g * n..(g + 1) * n]);
            for (i, &s) in order.iter().enumerate() {
                dist[g * n + i] = row[s];
            }
        }
        Some(Analysis {
            squares: n,
            live,
            goals: goal_list.len(),
            player_sides: order.iter().map(|&s| level_order.player_sides[s]).collect(),
            to_level: order.into_iter().map(Square::new).collect(),
            of_level,
            around: around_table(&neighbors),
            neighbors,
            dist,
            pruning,
            fills_every_goal: level.boxes().len() >= goal_list.len(),
        })
    }

    /// The squares of `level` in its own numbering, every one live, with their player sides
    /// and no distances yet: what the distances are worked out over before the solver
    /// numbering, which depends on them, exists. `None` when `stop` says so.
    fn in_level_order(level: &Level, stop: &mut impl FnMut() -> bool) -> Option<Analysis> {
        let n = level.square_count();
        let nb = |s: usize, d: Dir| level.neighbor(Square::new(s), d).map_or(NO_SQUARE, |t| t.index() as u16);
        let mut a = Analysis {
            squares: n,
            live: n,
            goals: 0,
            to_level: (0..n).map(Square::new).collect(),
            of_level: (0..n).map(Sq::new).collect(),
            neighbors: (0..n).map(|s| Dir::ALL.map(|d| nb(s, d))).collect(),
            around: Vec::new(),
            dist: Vec::new(),
            pruning: false,
            player_sides: Vec::new(),
            fills_every_goal: false,
        };
        a.around = around_table(&a.neighbors);
        a.player_sides = region::player_sides(&a, Sq::new(level.player().index()), stop)?;
        Some(a)
    }

    /// The push distances from every square to each of `goals` over the relaxed push graph
    /// (row `g` of `squares()` entries is goal `g`'s), one backward flood from each goal.
    /// `None` when `stop` says so (called once per goal).
    fn goal_distances(&self, goals: &[Square], stop: &mut impl FnMut() -> bool) -> Option<Vec<u16>> {
        let n = self.squares;
        let mut dist = vec![UNREACHABLE; goals.len() * n];
        let mut queue = Vec::with_capacity(n);
        for (gi, g) in goals.iter().enumerate() {
            if stop() {
                return None;
            }
            let row = &mut dist[gi * n..(gi + 1) * n];
            let goal = self.sq(*g);
            row[goal.index()] = 0;
            queue.clear();
            queue.push(goal);
            region::relaxed_pulls(
                self,
                &mut queue,
                |_, _| true,
                |t, s, _| {
                    let fresh = row[s.index()] == UNREACHABLE;
                    if fresh {
                        row[s.index()] = row[t.index()] + 1;
                    }
                    fresh
                },
            );
        }
        Some(dist)
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.squares
    }
    /// Live squares are solver indices `0..live()`.
    pub fn live(&self) -> usize {
        self.live
    }
    /// Goals are solver indices `0..goals()`.
    pub fn goals(&self) -> usize {
        self.goals
    }
    /// Whether every goal holds a box when the level is solved (as many boxes as goals, or
    /// more): the finished position is then known up to the boxes off goals.
    pub fn fills_every_goal(&self) -> bool {
        self.fills_every_goal
    }
    /// Whether deadlock pruning is sound for this level's rule.
    pub fn pruning(&self) -> bool {
        self.pruning
    }
    /// Every square in solver order.
    pub fn all(&self) -> impl Iterator<Item = Sq> + use<> {
        (0..self.squares as u16).map(Sq::from_raw)
    }
    /// The solver square of a level square.
    pub fn sq(&self, s: Square) -> Sq {
        self.of_level[s.index()]
    }
    /// The level square of a solver square.
    pub fn square(&self, s: Sq) -> Square {
        self.to_level[s.index()]
    }
    /// Whether a solver square is a goal.
    #[inline]
    pub fn is_goal(&self, s: Sq) -> bool {
        s.index() < self.goals
    }
    /// Whether a box on this solver square can still reach a goal.
    #[inline]
    pub fn is_live(&self, s: Sq) -> bool {
        s.index() < self.live
    }
    /// Whether a level square is dead (no box there can reach a goal).
    pub fn is_dead(&self, s: Square) -> bool {
        !self.is_live(self.sq(s))
    }
    /// Neighbour of `s` in direction `d`, or `None` for a wall.
    #[inline]
    pub fn neighbor(&self, s: Sq, d: Dir) -> Option<Sq> {
        match self.neighbors[s.index()][d.index()] {
            NO_SQUARE => None,
            t => Some(Sq::from_raw(t)),
        }
    }
    /// The squares round `s`, diagonals too: for each direction of [`Dir::ALL`] the square
    /// beside, then the diagonal one clockwise of it (reached round either corner, since walls
    /// are not squares). Symmetric: `t` is round `s` exactly when `s` is round `t`.
    pub fn around(&self, s: Sq) -> impl Iterator<Item = Sq> + '_ {
        self.around[s.index()].iter().take_while(|&&t| t != NO_SQUARE).map(|&t| Sq::from_raw(t))
    }
    /// The four neighbours of `s` in [`Dir::ALL`] order as raw indices, `u16::MAX` for a wall
    /// (for the solver's tightest loops; [`Analysis::neighbor`] otherwise).
    #[inline]
    pub fn neighbor_indices(&self, s: Sq) -> [u16; 4] {
        self.neighbors[s.index()]
    }
    /// Whether the player can ever stand on the side of `s` in direction `d` while a box is on
    /// `s` (see [`region::player_sides`]): a push of a box on `s` from any other side never
    /// happens.
    #[inline]
    pub fn stands_beside(&self, s: Sq, d: Dir) -> bool {
        self.player_sides[s.index()] >> d.index() & 1 == 1
    }
    /// Pushes to bring a box from `s` to goal `g` on an empty board, or `None`.
    #[inline]
    pub fn distance(&self, g: usize, s: Sq) -> Option<u16> {
        match self.dist[g * self.squares + s.index()] {
            UNREACHABLE => None,
            d => Some(d),
        }
    }
    /// The whole static distance table: entry `g * squares() + s` is [`Analysis::distance`], with
    /// [`UNREACHABLE`] for `None`.
    pub fn distance_table(&self) -> &[u16] {
        &self.dist
    }
}

/// The taboo squares of the AI-course rule, by [`Square`] index: an inside corner that is not a
/// goal is taboo, and so is every square of a straight run between two taboo corners when each
/// square of the run has a wall on the same side and none is a goal.
///
/// This is weaker than [`Analysis::is_dead`] (which the solver uses) and exists so that course
/// users can compare against the rule they were taught.
pub fn taboo(level: &Level) -> Vec<bool> {
    let n = level.square_count();
    let wall = |s: Square, d: Dir| level.neighbor(s, d).is_none();
    let corner = |s: Square| {
        !level.is_goal(s) && (wall(s, Dir::Up) || wall(s, Dir::Down)) && (wall(s, Dir::Left) || wall(s, Dir::Right))
    };
    let mut taboo: Vec<bool> = (0..n).map(|i| corner(Square::new(i))).collect();
    // From each corner, walk right and down; a run that ends at another corner, with a wall on
    // one side all along and no goal, is taboo.
    for start in (0..n).map(Square::new).filter(|&s| corner(s)) {
        for (dir, sides) in [(Dir::Right, [Dir::Up, Dir::Down]), (Dir::Down, [Dir::Left, Dir::Right])] {
            let mut run = vec![start];
            let mut at = start;
            while let Some(next) = level.neighbor(at, dir) {
                run.push(next);
                at = next;
                if corner(next) || level.is_goal(next) {
                    break;
                }
            }
            if run.len() < 3 || !corner(at) {
                continue;
            }
            if sides.iter().any(|&side| run.iter().all(|&s| wall(s, side))) {
                for s in run {
                    taboo[s.index()] = true;
                }
            }
        }
    }
    taboo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn a_box_pushed_only_from_a_pocket_the_player_cannot_enter_is_dead() {
        // The box on (2,3) goes up towards the goal only pushed from (3,3), a dead end that
        // only (2,3) opens onto: the player is never there with the box on (2,3).
        let level = parse_levels("######\n#@  .#\n#  $##\n### #\n  ###\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |row, col| a.sq(level.square_at(row, col).unwrap());
        assert!(!a.is_live(at(2, 3)));
        assert_eq!(a.distance(0, at(1, 3)), Some(1));
        assert_eq!(a.distance(0, at(2, 2)), None, "along the row to (2,3) only");
    }

    #[test]
    fn a_square_indexes_tables_and_prints_its_index() {
        let s = Sq::new(3);
        assert_eq!((s.index(), format!("{s:?}")), (3, "Sq(3)".to_string()));
        assert!(Sq::new(0) < s && s < Sq::new(u16::MAX as usize - 1));
        let mut table = vec![0u8; 5];
        table[s] = 7;
        assert_eq!((table[s], table.as_slice()[s]), (7, 7));
    }

    #[test]
    fn corners_and_wall_lines_are_dead() {
        let level = parse_levels("######\n#    #\n# $@ #\n#   .#\n######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let dead = |r, c| a.is_dead(level.square_at(r, c).unwrap());
        assert!(dead(1, 1) && dead(1, 4) && dead(3, 1));
        assert!(dead(1, 2), "the top wall line has no goal");
        assert!(!dead(3, 4) && !dead(2, 2) && !dead(3, 2));
        assert_eq!(a.sq(level.goals()[0]).index(), 0);
        let s = a.sq(level.square_at(2, 2).unwrap());
        assert_eq!(a.distance(0, s), Some(3));
    }

    #[test]
    fn the_squares_round_a_square_are_its_eight_neighbours_reached_round_either_corner() {
        let level = parse_levels("######\n#   ##\n# $  #\n##@. #\n######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |r, c| a.sq(level.square_at(r, c).unwrap());
        let round = |r, c| a.around(at(r, c)).map(|t| a.square(t)).collect::<Vec<_>>();
        let squares = |v: &[(usize, usize)]| v.iter().map(|&(r, c)| level.square_at(r, c).unwrap()).collect::<Vec<_>>();
        // (2,2): all eight but the wall (3,1); (1,3) is reached round (1,2), (3,1) is a wall.
        let mut got = round(2, 2);
        got.sort();
        let mut want = squares(&[(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 2), (3, 3)]);
        want.sort();
        assert_eq!(got, want);
        // (1,4) is a wall, so (2,4) has (1,3) round it only round (2,3).
        assert!(round(2, 4).contains(&level.square_at(1, 3).unwrap()));
        for s in a.all() {
            for t in a.around(s) {
                assert!(a.around(t).any(|u| u == s), "{s:?} round {t:?} but not the other way");
            }
        }
    }

    #[test]
    fn taboo_marks_corners_and_walled_runs_between_them() {
        let level = parse_levels("#######\n#     #\n#  $@ #\n#.    #\n#######\n").unwrap().remove(0);
        let t = taboo(&level);
        let at = |r, c| t[level.square_at(r, c).unwrap().index()];
        // The top row runs corner to corner along a wall with no goal; the bottom row has a goal
        // in its corner, so neither bottom corner's run counts; the right column is walled.
        assert!((1..=5).all(|c| at(1, c)));
        assert!(!at(3, 1) && at(3, 5) && !at(3, 3));
        assert!(at(2, 5) && !at(2, 1), "right column taboo, left column ends at a goal");
        assert!(!at(2, 2) && !at(2, 3));
    }
}
