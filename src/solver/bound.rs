//! The lower bound on the cost to go: distance tables with frozen goal boxes, and a minimum-cost
//! matching of boxes to goals over them.
//!
//! A bound is computed in *bound units*: pushes, or in the cost mode pushes weighted by
//! `1 + weight` of each box. Each engine's cost type turns bound units into its own costs (see
//! [`super::astar::Metric`]). The matching uses the distance table of the state's boxes frozen
//! on goals ([`FrozenTables`]); why the bound stays consistent is argued in [`super::frozen`].
//!
//! Children differ from their parent in one box. On a square problem (as many boxes as goals)
//! the parent's matching is solved once and each child re-solves one row
//! ([`Hungarian::resolve_row`]), which is exact; [`LowerBound::begin_children`] and
//! [`LowerBound::child`] do that.

use super::config::Heuristic;
use super::frozen::{FrozenTables, NoTable, TableId, frozen_goal_set};
use super::hungarian::{self, FORBIDDEN, Hungarian, Stopped};
use super::state::BoxAt;
use super::store::NodeId;
use super::successors::Successors;
use crate::analysis::{Analysis, UNREACHABLE};
use crate::level::Level;

/// The lower bound of one search, with its tables and scratch.
pub struct LowerBound {
    heuristic: Heuristic,
    /// Every goal must be covered (boxes may outnumber goals).
    cover_goals: bool,
    /// Bound units per push of a box of each class.
    push_weight: Vec<i64>,
    frozen_goals: bool,
    tables: FrozenTables,
    hungarian: Hungarian,
    set: Vec<u64>,
    incremental: bool,
    saved: bool,
    /// The state being expanded and its parent (see [`LowerBound::begin_children`]).
    expanding: Option<(NodeId, Option<NodeId>)>,
    /// The matchings of the states expanded last, a ring of [`RECENT`].
    recent: Vec<Kept>,
    next_recent: usize,
    /// Scratch: rows of a kept matching renumbered for the state being expanded, and the rows
    /// whose box differs.
    rows: Vec<usize>,
    changed: Vec<usize>,
    /// How many expanded states' matchings were re-solved from a kept one.
    reused: u64,
}

/// How many expanded states' matchings are kept. A state's parent was expanded a few
/// expansions before it more often than not (A* goes on with the children of the state it
/// just expanded when their f is the same), and re-solving one row of the parent's matching
/// is O(boxes²) against O(boxes³) afresh.
const RECENT: usize = 16;

/// The solved matching of one expanded state, as [`hungarian::KeptState::set`] keeps it.
type Kept = hungarian::KeptState<NodeId, TableId, BoxAt>;

/// Renumbers the rows of `old` for `new` (both decoded, so in the same order: by class, then
/// square) when they differ in at least one box and at most `most`: `rows[r]` is the row in
/// `new` of old row `r`, the boxes that moved paired off in order, and `changed` gets the new
/// rows of the boxes that moved. `false` when the two do not differ so.
fn renumber(old: &[BoxAt], new: &[BoxAt], most: usize, rows: &mut Vec<usize>, changed: &mut Vec<usize>) -> bool {
    if old.len() != new.len() {
        return false;
    }
    rows.clear();
    rows.resize(old.len(), usize::MAX);
    changed.clear();
    let key = |b: &BoxAt| (b.class, b.sq.index());
    let (mut i, mut j) = (0, 0);
    // The old rows whose box moved wait in `rows` (as usize::MAX) until paired.
    let mut lone_old = 0;
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(o), Some(n)) if key(o) == key(n) => {
                rows[i] = j;
                i += 1;
                j += 1;
            }
            (Some(o), Some(n)) if key(o) > key(n) => {
                changed.push(j);
                j += 1;
            }
            (Some(_), _) => {
                lone_old += 1;
                i += 1;
            }
            (None, _) => {
                changed.push(j);
                j += 1;
            }
        }
        if changed.len() > most || lone_old > most {
            return false;
        }
    }
    let mut moved = changed.iter();
    for r in rows.iter_mut().filter(|r| **r == usize::MAX) {
        *r = *moved.next().expect("as many boxes left as came");
    }
    !changed.is_empty()
}

impl LowerBound {
    /// A bound for `a`'s level. `push_weight[c]` is what one push of a box of class `c` costs at
    /// least; `frozen_goals` switches to tables with frozen goal boxes as walls.
    pub fn new(
        a: &Analysis,
        heuristic: Heuristic,
        cover_goals: bool,
        push_weight: Vec<i64>,
        frozen_goals: bool,
    ) -> LowerBound {
        LowerBound::new_within(a, heuristic, cover_goals, push_weight, frozen_goals, &mut || false)
            .expect("a check that never stops")
    }

    /// Bytes [`LowerBound::new`] allocates for `a`'s level (its copy of the distance table).
    pub fn bytes_for(a: &Analysis) -> usize {
        a.distance_table().len() * 2
    }

    /// Like [`LowerBound::new`], but building the tables calls `stop` now and then and gives
    /// up with `None` when it returns true.
    pub fn new_within(
        a: &Analysis,
        heuristic: Heuristic,
        cover_goals: bool,
        push_weight: Vec<i64>,
        frozen_goals: bool,
        stop: &mut impl FnMut() -> bool,
    ) -> Option<LowerBound> {
        // Unit weights are kept as an empty list, which `pair_cost` reads as "every push is 1".
        let push_weight = if push_weight.iter().all(|&w| w == 1) { Vec::new() } else { push_weight };
        Some(LowerBound {
            heuristic,
            cover_goals,
            push_weight,
            frozen_goals: frozen_goals && heuristic == Heuristic::Hungarian,
            tables: FrozenTables::new_within(a, stop)?,
            hungarian: Hungarian::default(),
            set: vec![0; a.goals().div_ceil(64).max(1)],
            incremental: false,
            saved: false,
            expanding: None,
            recent: Vec::new(),
            next_recent: 0,
            rows: Vec::new(),
            changed: Vec::new(),
            reused: 0,
        })
    }

    /// Whether the bound uses frozen-goal tables.
    pub fn frozen_goals(&self) -> bool {
        self.frozen_goals
    }

    /// Bytes held by the distance tables.
    pub fn bytes(&self) -> usize {
        self.tables.bytes()
    }

    /// Distance tables built beyond the static one.
    pub fn tables_built(&self) -> usize {
        self.tables.count() - 1
    }

    /// The table for the boxes frozen on goals in the state loaded in `board` (its boxes are
    /// `boxes`). A new table is built only within `room` bytes ([`NoTable::Full`], treat as out
    /// of memory); `stop` can end its build ([`NoTable::Stopped`]).
    pub fn table_for(
        &mut self,
        a: &Analysis,
        board: &mut Successors,
        boxes: &[BoxAt],
        room: usize,
        stop: &mut impl FnMut() -> bool,
    ) -> Result<TableId, NoTable> {
        if !self.frozen_goals {
            return Ok(TableId::STATIC);
        }
        frozen_goal_set(a, boxes.iter().map(|b| b.sq), |s| board.is_frozen(a, s), &mut self.set);
        self.tables.id(a, &self.set, room, stop)
    }

    /// The bound of `boxes` over distance table `table`, or `None` if no box-to-goal matching
    /// exists (a deadlock).
    pub fn of(&mut self, a: &Analysis, table: TableId, boxes: &[BoxAt]) -> Option<u64> {
        // A check that never stops never gives `Err`.
        self.of_within(a, table, boxes, &mut || false).ok().flatten()
    }

    /// Like [`LowerBound::of`], but the matching calls `stop` between rows (O(boxes·goals) work
    /// at most between calls) and gives up with [`Stopped`] when it returns true: the root of a
    /// level with a thousand boxes takes long enough to matter.
    pub fn of_within(
        &mut self,
        a: &Analysis,
        table: TableId,
        boxes: &[BoxAt],
        stop: &mut impl FnMut() -> bool,
    ) -> Result<Option<u64>, Stopped> {
        Ok(match self.heuristic {
            Heuristic::Zero => Some(0),
            Heuristic::Boxes => {
                if self.cover_goals {
                    let covered = boxes.iter().filter(|b| a.is_goal(b.sq)).count();
                    return Ok(Some(a.goals().saturating_sub(covered) as u64));
                }
                let weight = |b: &BoxAt| self.push_weight.get(usize::from(b.class)).copied().unwrap_or(1);
                let off: i64 = boxes.iter().filter(|b| !a.is_goal(b.sq)).map(weight).sum();
                Some(off as u64)
            }
            Heuristic::Hungarian => {
                let dist = self.tables.table(table);
                let weights = &self.push_weight;
                let costs = Costs::new(a, dist, weights, boxes);
                let cost = move |b: usize, g: usize| costs.at(b, g);
                let total = if self.cover_goals {
                    self.hungarian.solve_within(a.goals(), boxes.len(), |g, b| cost(b, g), stop)?
                } else {
                    self.hungarian.solve_within(boxes.len(), a.goals(), cost, stop)?
                };
                total.map(|t| t as u64)
            }
        })
    }

    /// Prepares for the bounds of `children` children of state `node` (reached from `parent`)
    /// with `boxes` boxes: the node's matching is solved once (in [`LowerBound::child`]) when
    /// at least two children need it and the problem is square, re-solved from a kept one when
    /// it can be (see `LowerBound::resolve_kept`).
    pub fn begin_children(
        &mut self,
        a: &Analysis,
        boxes: usize,
        children: usize,
        (node, parent): (NodeId, Option<NodeId>),
    ) {
        self.incremental =
            self.heuristic == Heuristic::Hungarian && !self.cover_goals && boxes == a.goals() && children >= 2;
        self.saved = false;
        self.expanding = Some((node, parent));
    }

    /// The matching of `parent` (the state being expanded, over `table`) re-solved from its
    /// own parent's, if that one is kept and differs in one box, else from the last one kept
    /// if at most an eighth of the boxes differ: `None` when neither serves, else the optimum
    /// (`Some(None)`: no matching), with the duals in the Hungarian's state.
    fn resolve_kept(&mut self, a: &Analysis, table: TableId, parent: &[BoxAt]) -> Option<Option<i64>> {
        let (_, grandparent) = self.expanding?;
        let n = parent.len();
        let (rows, changed) = (&mut self.rows, &mut self.changed);
        // The parent's own, one box away; else the last one kept, when few boxes differ (each
        // costs an augmentation, O(boxes²), where a fresh solve costs one per box).
        let own = grandparent.and_then(|g| self.recent.iter().find(|k| k.is(&g, &table)));
        let kept = own.filter(|k| renumber(&k.boxes, parent, 1, rows, changed)).or_else(|| {
            let last = self.next_recent.checked_sub(1)?;
            let k = self.recent.get(last)?;
            (k.table == table && renumber(&k.boxes, parent, (n / 8).max(1), rows, changed)).then_some(k)
        })?;
        self.hungarian.restore(&kept.duals, rows);
        self.reused += 1;
        let costs = Costs::new(a, self.tables.table(table), &self.push_weight, parent);
        Some(self.hungarian.resolve_rows(n, changed, move |b, g| costs.at(b, g)))
    }

    /// Keeps the saved matching of the state being expanded (`boxes`, over `table`).
    fn keep(&mut self, table: TableId, boxes: &[BoxAt]) {
        if self.recent.len() < RECENT {
            self.recent.push(Kept::default());
        }
        let slot = self.next_recent % self.recent.len();
        self.next_recent = slot + 1;
        self.recent[slot].set(self.expanding.map(|(node, _)| node), table, boxes, &self.hungarian);
    }

    /// The bound of a child that moved box `moved` of `parent` (giving `child`), over `table`.
    /// Children whose table is the parent's `parent_table` re-solve one row of the parent's
    /// matching; the others are solved in full. Full solves call `stop` between rows and give
    /// up with [`Stopped`] when it returns true (a row re-solve is O(boxes²) and is not checked).
    #[allow(clippy::too_many_arguments)]
    pub fn child(
        &mut self,
        a: &Analysis,
        parent_table: TableId,
        table: TableId,
        parent: &[BoxAt],
        child: &[BoxAt],
        moved: usize,
        stop: &mut impl FnMut() -> bool,
    ) -> Result<Option<u64>, Stopped> {
        if table != parent_table {
            return self.of_within(a, table, child, stop);
        }
        if self.incremental && !self.saved {
            let solved = match self.resolve_kept(a, table, parent) {
                Some(solved) => solved,
                None => {
                    let dist = self.tables.table(table);
                    let weights = &self.push_weight;
                    let n = parent.len();
                    let costs = Costs::new(a, dist, weights, parent);
                    self.hungarian.solve_within(n, n, move |b, g| costs.at(b, g), stop)?
                }
            };
            if solved.is_some() {
                self.hungarian.save();
                self.saved = true;
                self.keep(table, parent);
            } else {
                self.incremental = false;
            }
        }
        if !self.incremental {
            return self.of_within(a, table, child, stop);
        }
        let dist = self.tables.table(table);
        let weights = &self.push_weight;
        let costs = Costs::new(a, dist, weights, child);
        let total = self.hungarian.resolve_row(child.len(), moved, move |b, g| costs.at(b, g));
        Ok(total.map(|t| t as u64))
    }
}

/// The matching costs of a set of boxes over one distance table, held by value so the
/// Hungarian's inner loop reads them without chasing references.
#[derive(Clone, Copy)]
struct Costs<'t> {
    dist: &'t [u16],
    goals: usize,
    /// Empty when every push costs 1 (the hot case: no load, no multiply).
    weights: &'t [i64],
    boxes: &'t [BoxAt],
}

impl<'t> Costs<'t> {
    fn new(a: &Analysis, dist: &'t [u16], weights: &'t [i64], boxes: &'t [BoxAt]) -> Costs<'t> {
        Costs { dist, goals: a.goals(), weights, boxes }
    }

    /// The cost of box `b` (an index into the boxes) to goal `g`.
    #[inline(always)]
    fn at(&self, b: usize, g: usize) -> i64 {
        let bx = self.boxes[b];
        match self.dist[bx.sq.index() * self.goals + g] {
            UNREACHABLE => FORBIDDEN,
            d if self.weights.is_empty() => i64::from(d),
            d => i64::from(d) * self.weights[usize::from(bx.class)],
        }
    }
}

/// The push lower bound of a level's start position: a minimum-cost matching of boxes to goals
/// over the static push distances (what `sokoban analyze` prints). `None` when no matching
/// exists, so the level is unsolvable.
pub fn start_bound(level: &Level) -> Option<u64> {
    let a = Analysis::new(level);
    let boxes: Vec<BoxAt> = level.boxes().iter().map(|&b| BoxAt { sq: a.sq(b), class: 0 }).collect();
    let cover_goals = boxes.len() > a.goals();
    let mut bound = LowerBound::new(&a, Heuristic::Hungarian, cover_goals, vec![1], false);
    bound.of(&a, TableId::STATIC, &boxes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Sq;
    use crate::format::parse_levels;

    fn at(sq: usize, class: u16) -> BoxAt {
        BoxAt { sq: Sq::new(sq), class }
    }

    #[test]
    fn rows_are_renumbered_only_across_one_moved_box() {
        let old = [at(2, 0), at(5, 0), at(9, 0), at(3, 1)];
        // The box on 5 moved to 11: the box on 9 takes the row before it.
        let new = [at(2, 0), at(9, 0), at(11, 0), at(3, 1)];
        let (mut rows, mut changed) = (Vec::new(), Vec::new());
        assert!(renumber(&old, &new, 1, &mut rows, &mut changed));
        assert_eq!((&rows[..], &changed[..]), (&[0, 2, 1, 3][..], &[2][..]));
        // Two boxes moved: only when two may.
        let two = [at(1, 0), at(9, 0), at(11, 0), at(3, 1)];
        assert!(!renumber(&old, &two, 1, &mut rows, &mut changed));
        assert!(renumber(&old, &two, 2, &mut rows, &mut changed));
        assert_eq!((&rows[..], &changed[..]), (&[0, 2, 1, 3][..], &[0, 2][..]));
        // None moved, or another count: nothing to renumber.
        assert!(!renumber(&old, &old, 4, &mut rows, &mut changed));
        assert!(!renumber(&old, &new[..3], 4, &mut rows, &mut changed));
    }

    #[test]
    fn a_matching_re_solved_from_the_parents_kept_one_gives_the_children_fresh_bounds() {
        let text = "##########\n#. $  $ .#\n#  $$ @  #\n#.  $  $.#\n#.      .#\n##########\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut bound = LowerBound::new(&a, Heuristic::Hungarian, false, vec![1], false);
        let mut fresh = LowerBound::new(&a, Heuristic::Hungarian, false, vec![1], false);
        let sorted = |mut boxes: Vec<BoxAt>| {
            boxes.sort_by_key(|b| b.sq.index());
            boxes
        };
        let start = sorted(level.boxes().iter().map(|&b| BoxAt { sq: a.sq(b), class: 0 }).collect());
        let table = TableId::STATIC;
        let never = &mut || false;
        // A line of states, each a child of the one before: every box steps to a floor square
        // beside it in turn, and each state's children are bounded from its kept matching.
        let mut state = start.clone();
        let mut parent = None;
        for step in 0..6 {
            let node = NodeId::for_tests(step);
            bound.begin_children(&a, state.len(), 2, (node, parent));
            let mut next = None;
            for (row, b) in state.iter().enumerate() {
                for t in a.neighbor_indices(b.sq) {
                    let t = usize::from(t);
                    if t >= a.live() || state.iter().any(|o| o.sq.index() == t) {
                        continue;
                    }
                    let mut child = state.clone();
                    child[row].sq = Sq::new(t);
                    let got = bound.child(&a, table, table, &state, &child, row, never).unwrap();
                    assert_eq!(got, fresh.of(&a, table, &child), "step {step}, box {row} to {t}");
                    next.get_or_insert(child);
                }
            }
            state = sorted(next.expect("some box can move"));
            parent = Some(node);
        }
        // Every state after the first had its matching re-solved from its parent's.
        assert_eq!(bound.reused, 5);
    }
}
