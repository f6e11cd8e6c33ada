//! Push-distance tables that treat boxes frozen on goals as walls.
//!
//! A box on a goal that can never move again without a deadlock (walls, dead squares and other
//! frozen boxes hold it on both axes; see [`super::deadlock`]) stays where it is in every
//! solution from that state on. So the rest of the search may treat it as a wall: its goal is
//! taken, and no other box may pass through or be pushed from its square. Distances on that
//! board are never shorter than the static ones, so the matching bound grows (often to
//! infinity: a goal room whose entrance was filled first is a deadlock the static tables cannot
//! see).
//!
//! The frozen goals also *settle* others (after Festival's "crystalline" boxes): played
//! backwards from the finished position, with the frozen boxes as walls, some goals' boxes can
//! never be pulled out, so no solution from the state moves the boxes on them, and an empty one
//! is never filled. A table treats them as frozen too: their boxes are walls, and an empty one
//! is a goal no box reaches, which no matching covers.
//!
//! Why the bound stays consistent: the frozen set of a state is a function of the box set alone,
//! and along any push it only grows (a frozen box never moves in a non-deadlocked successor, and
//! emptying a square never freezes a box); the goals a set settles grow with it (more walls
//! only keep more boxes in). Distances over a larger set are pointwise at least as large, and
//! each one still drops by at most one per push (a push needs both the square behind the box
//! and its target free of frozen boxes). So a child's bound is at least its parent's minus one
//! push.
//!
//! Tables are built on demand and kept per frozen set (a bitset over goals); id 0 is the static
//! table of the [`Analysis`].

use hashbrown::HashMap;

use crate::analysis::region::{self, Flood, NO_GROUP, Step, spread};
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::Dir;

/// The handle of one distance table; [`TableId::STATIC`] is the analysis's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TableId(u16);

impl TableId {
    /// The static table (no box frozen on a goal).
    pub const STATIC: TableId = TableId(0);
}

/// The distance tables seen so far, by id.
pub struct FrozenTables {
    goals: usize,
    tables: Vec<Box<[u16]>>,
    ids: HashMap<Box<[u64]>, TableId>,
    /// Bytes held by the tables and the index.
    bytes: usize,
    /// Scratch for the breadth-first searches.
    queue: Vec<Sq>,
    /// Whether the tables follow the player (see [`FrozenTables::player_aware_within`]).
    aware: bool,
}

impl FrozenTables {
    /// The static table of `a`, ready to add frozen sets to.
    pub fn new(a: &Analysis) -> FrozenTables {
        FrozenTables::new_within(a, &mut || false).expect("a check that never stops")
    }

    /// Like [`FrozenTables::new`], but calls `stop` every few thousand squares and gives up with
    /// `None` when it returns true.
    pub fn new_within(a: &Analysis, stop: &mut impl FnMut() -> bool) -> Option<FrozenTables> {
        // The analysis keeps goal-major rows; the bound reads one box against every goal, so the
        // tables here are square-major: entry `s * goals + g`.
        let (n, goals) = (a.squares(), a.goals());
        let by_goal = a.distance_table();
        let mut base = vec![UNREACHABLE; n * goals].into_boxed_slice();
        for s in 0..n {
            if s % 1024 == 0 && stop() {
                return None;
            }
            for g in 0..goals {
                base[s * goals + g] = by_goal[g * n + s];
            }
        }
        let bytes = base.len() * 2;
        Some(FrozenTables { goals, tables: vec![base], ids: HashMap::new(), bytes, queue: Vec::new(), aware: false })
    }

    /// Tables whose distances follow the player: a box moves only when the player can walk
    /// to the square behind it, with walls, frozen boxes and the box itself in the way (other
    /// boxes can only get in the way more, so each entry still bounds the pushes from below).
    /// A box that a corridor lets in only from a side the player cannot reach once the box
    /// stands in it is kept out, which the relaxed tables miss: a goal off a one-way passage
    /// that only boxes from one side can fill. Entries can drop by more than one per push (the
    /// player's side changes), so they suit the fast engine, whose bounds need not be
    /// consistent, and not A*. `None` when `stop` says so.
    pub fn player_aware_within(a: &Analysis, stop: &mut impl FnMut() -> bool) -> Option<FrozenTables> {
        let mut tables = FrozenTables {
            goals: a.goals(),
            tables: Vec::new(),
            ids: HashMap::new(),
            bytes: 0,
            queue: Vec::new(),
            aware: true,
        };
        let none = vec![0u64; a.goals().div_ceil(64).max(1)];
        let base = tables.build(a, &none, stop)?;
        tables.bytes = base.len() * 2;
        tables.tables.push(base);
        Some(tables)
    }

    /// Table `id`: entry `s * goals + g` is the pushes from solver square `s` to goal `g`, or
    /// [`UNREACHABLE`] (square-major, so one box's distances to all goals are contiguous).
    #[inline]
    pub fn table(&self, id: TableId) -> &[u16] {
        &self.tables[usize::from(id.0)]
    }

    /// Bytes of memory the tables use.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Number of tables (the static one included).
    pub fn count(&self) -> usize {
        self.tables.len()
    }

    /// Bytes a new table adds.
    pub fn table_bytes(&self, a: &Analysis) -> usize {
        a.goals() * a.squares() * 2 + self.goals.div_ceil(64).max(1) * 8 + 32
    }

    /// The id of the table for the goals in `frozen` (bit `g` set: goal `g` holds a frozen box),
    /// building it if needed. An empty set is the static table. A new table is built only if
    /// it fits in `room` bytes and fewer than 65,536 exist ([`NoTable::Full`] otherwise, which
    /// the caller treats as running out of memory); `stop` is called between goals (O(squares)
    /// work each) and ends the build with [`NoTable::Stopped`] when it returns true.
    pub fn id(
        &mut self,
        a: &Analysis,
        frozen: &[u64],
        room: usize,
        stop: &mut impl FnMut() -> bool,
    ) -> Result<TableId, NoTable> {
        if frozen.iter().all(|&w| w == 0) {
            return Ok(TableId::STATIC);
        }
        if let Some(&id) = self.ids.get(frozen) {
            return Ok(id);
        }
        let id = TableId(u16::try_from(self.tables.len()).map_err(|_| NoTable::Full)?);
        let bytes = self.table_bytes(a);
        if bytes > room {
            return Err(NoTable::Full);
        }
        let walls = with_settled_goals(a, frozen);
        let table = self.build(a, &walls, stop).ok_or(NoTable::Stopped)?;
        self.bytes += bytes;
        self.tables.push(table);
        self.ids.insert(frozen.into(), id);
        Ok(id)
    }

    fn build(&mut self, a: &Analysis, frozen: &[u64], stop: &mut impl FnMut() -> bool) -> Option<Box<[u16]>> {
        let goals = self.goals;
        let is_frozen = |s: Sq| a.is_goal(s) && frozen[s.index() / 64] >> (s.index() % 64) & 1 == 1;
        if self.aware {
            return player_aware(a, is_frozen, stop);
        }
        let mut dist = vec![UNREACHABLE; a.goals() * a.squares()].into_boxed_slice();
        for goal in a.all().take(a.goals()) {
            if stop() {
                return None;
            }
            let g = goal.index();
            let at = |s: Sq| s.index() * goals + g;
            dist[at(goal)] = 0;
            if is_frozen(goal) {
                // Its own box stays; no other box can use the goal.
                continue;
            }
            self.queue.clear();
            self.queue.push(goal);
            // Backwards: a box on `s`, the neighbour of `t` in direction `d`, pushed onto `t`
            // from the player's square beyond `s` (order does not matter: only distances count).
            spread(
                a,
                &mut self.queue,
                |_, _| true,
                |t, d, s| {
                    let stood_on = a.stands_beside(s, d);
                    if is_frozen(s) || dist[at(s)] != UNREACHABLE || !stood_on || a.neighbor(s, d).is_none_or(is_frozen)
                    {
                        return Step::Skip;
                    }
                    dist[at(s)] = dist[at(t)] + 1;
                    Step::Enter
                },
            );
        }
        Some(dist)
    }
}

/// The parts of the floor round each square with a box on it, among the walls and the
/// `blocked` squares: a label per side (equal labels: the player can walk from one side to
/// the other), [`NO_GROUP`] where the side is not floor. `None` when `stop` says so.
fn side_groups(a: &Analysis, blocked: &impl Fn(Sq) -> bool, stop: &mut impl FnMut() -> bool) -> Option<Vec<[u8; 4]>> {
    let mut groups = vec![[NO_GROUP; 4]; a.squares()];
    let mut flood = Flood::new(a.squares());
    for s in a.all() {
        if s.index() % 256 == 0 && stop() {
            return None;
        }
        if !blocked(s) {
            groups[s] = region::side_groups(a, &mut flood, s, |t| t != s && !blocked(t));
        }
    }
    Some(groups)
}

/// Breadth first over (square, part of the floor round the box) from `s`, the player on any
/// of its sides (`dist`, indexed `square * 4 + part`, and `nodes` are scratch): `push(square,
/// part, d)` gives the node that one push in direction `d` (or one pull, for a backward
/// search) leads to, if any, and `found(square, part, pushes)` hears of each new node.
fn part_search(
    groups: &[[u8; 4]],
    s: Sq,
    (dist, nodes): (&mut [u16], &mut Vec<(Sq, u8)>),
    push: impl Fn(Sq, u8, Dir) -> Option<Sq>,
    mut found: impl FnMut(Sq, u8, u16),
) {
    dist.fill(UNREACHABLE);
    nodes.clear();
    for label in groups[s.index()].iter().copied().filter(|&l| l != NO_GROUP) {
        if dist[s.index() * 4 + label as usize] == UNREACHABLE {
            dist[s.index() * 4 + label as usize] = 0;
            nodes.push((s, label));
        }
    }
    let mut head = 0;
    while head < nodes.len() {
        let (t, label) = nodes[head];
        head += 1;
        let here = dist[t.index() * 4 + label as usize];
        for d in Dir::ALL {
            let Some(next) = push(t, label, d) else { continue };
            // The player ends on the square the box left, on that side of `next`.
            let part = groups[next.index()][d.opposite().index()];
            let node = next.index() * 4 + part as usize;
            if dist[node] == UNREACHABLE {
                dist[node] = here + 1;
                found(next, part, here + 1);
                nodes.push((next, part));
            }
        }
    }
}

/// Push distances from every square to every goal (square-major: `s * goals + g`) for a box
/// alone among the walls and the `blocked` squares, the player walking round it: the fewest
/// pushes from the box on `s`, the player on any free side of it. Breadth first backwards from
/// each goal over (square, the part of the floor round the box the player stands in).
fn player_aware(a: &Analysis, blocked: impl Fn(Sq) -> bool, stop: &mut impl FnMut() -> bool) -> Option<Box<[u16]>> {
    let (n, goals) = (a.squares(), a.goals());
    let groups = side_groups(a, &blocked, stop)?;
    let mut table = vec![UNREACHABLE; n * goals].into_boxed_slice();
    let mut scratch = (vec![UNREACHABLE; n * 4], Vec::new());
    for goal in a.all().take(goals) {
        if stop() {
            return None;
        }
        let g = goal.index();
        table[g * goals + g] = 0;
        pulls_from(a, &blocked, &groups, goal, &mut scratch, |s, pushes| {
            let cell = &mut table[s.index() * goals + g];
            *cell = (*cell).min(pushes);
        });
    }
    Some(table)
}

/// The player-aware push distances to `goal` alone (as in [`FrozenTables::player_aware_within`],
/// indexed by square, [`UNREACHABLE`] where a box cannot get there) for a box among the walls
/// and the squares marked (non-zero) in `blocked`: one column of [`player_aware_blocked`]'s
/// table, for a fraction of its work. `None` when `stop` says so.
pub(crate) fn player_aware_to(
    a: &Analysis,
    blocked: &[u8],
    goal: Sq,
    stop: &mut impl FnMut() -> bool,
) -> Option<Vec<u16>> {
    let is_blocked = |s: Sq| blocked[s.index()] != 0;
    let groups = side_groups(a, &is_blocked, stop)?;
    let mut column = vec![UNREACHABLE; a.squares()];
    column[goal.index()] = 0;
    let mut scratch = (vec![UNREACHABLE; a.squares() * 4], Vec::new());
    pulls_from(a, &is_blocked, &groups, goal, &mut scratch, |s, pushes| {
        column[s.index()] = column[s.index()].min(pushes);
    });
    Some(column)
}

/// Breadth first backwards from `goal` over (square, part of the floor round the box), the
/// `blocked` squares and the walls the only obstacles (`groups` their side groups): `found`
/// hears of each square a box can be pushed to `goal` from, with the pushes it takes, the
/// player on a side of the box it can stand on ([`Analysis::stands_beside`]).
fn pulls_from(
    a: &Analysis,
    blocked: &impl Fn(Sq) -> bool,
    groups: &[[u8; 4]],
    goal: Sq,
    (dist, nodes): &mut (Vec<u16>, Vec<(Sq, u8)>),
    mut found: impl FnMut(Sq, u16),
) {
    if blocked(goal) {
        return;
    }
    let free = |t: Option<Sq>| t.filter(|&t| !blocked(t));
    let pull = |t: Sq, label: u8, d: Dir| {
        // The box came from `s`, pushed in direction `d`; the player, now on `s`, is in this
        // part of the floor, and stood on the square behind `s` before the push.
        let back = d.opposite();
        let s = free(a.neighbor(t, back))?;
        (groups[t.index()][back.index()] == label && free(a.neighbor(s, back)).is_some()).then_some(s)
    };
    let stood_on = |s: Sq, part: u8| {
        let sides = groups[s.index()];
        Dir::ALL.into_iter().any(|d| sides[d.index()] == part && a.stands_beside(s, d))
    };
    part_search(groups, goal, (dist, nodes), pull, |s, part, pushes| {
        if stood_on(s, part) {
            found(s, pushes);
        }
    });
}

/// The player-aware table (see [`FrozenTables::player_aware_within`]) for a box alone among
/// the walls and the squares marked (non-zero) in `blocked` (indexed by solver square). `None`
/// when `stop` says so.
pub(crate) fn player_aware_blocked(
    a: &Analysis,
    blocked: &[u8],
    stop: &mut impl FnMut() -> bool,
) -> Option<Box<[u16]>> {
    player_aware(a, |s: Sq| blocked[s.index()] != 0, stop)
}

/// Push distances from each of `sources` to every square (source-major: row `t`, of
/// `a.squares()` entries, is source `t`'s; [`UNREACHABLE`] where it cannot get) for a box alone
/// among the walls, the player walking round it and starting on any side: the forward
/// counterpart of the player-aware tables above, for the backward search's matching of boxes
/// to the start squares.
pub fn player_aware_from(a: &Analysis, sources: &[Sq]) -> Vec<u16> {
    let n = a.squares();
    let groups = side_groups(a, &|_| false, &mut || false).expect("never stopped");
    let mut table = vec![UNREACHABLE; sources.len() * n];
    let mut dist = vec![UNREACHABLE; n * 4];
    let mut nodes: Vec<(Sq, u8)> = Vec::new();
    for (t, &source) in sources.iter().enumerate() {
        let row = &mut table[t * n..(t + 1) * n];
        row[source.index()] = 0;
        let push = |s: Sq, label: u8, d: Dir| {
            // The player, in this part of the floor, stands behind the box and pushes it in
            // direction `d` onto `to`; it then stands on `s`.
            let back = d.opposite();
            a.neighbor(s, back)?;
            let to = a.neighbor(s, d)?;
            (groups[s.index()][back.index()] == label).then_some(to)
        };
        part_search(&groups, source, (&mut dist, &mut nodes), push, |to, _, pushes| {
            row[to.index()] = row[to.index()].min(pushes);
        });
    }
    table
}

/// `frozen` and the goals it settles: those whose boxes the finished position can never give
/// up, the frozen goals standing as walls. From the finished position (every goal holding a
/// box), a box that can be pulled one square (the square beside it and the one beyond free of
/// walls, frozen goals and boxes left, the player able to stand there) is taken off, until none
/// is; the goals whose boxes stay never lose them in any line played backwards from the
/// finished position. Forwards: from a position with these frozen boxes on, a box on such a
/// goal never moves again, and an empty one is never filled, so the position is dead (its
/// table lets no other box reach the goal, and no matching covers it). Only where every goal
/// holds a box when the level is solved ([`Analysis::fills_every_goal`]); else `frozen` alone.
fn with_settled_goals(a: &Analysis, frozen: &[u64]) -> Vec<u64> {
    let mut walls = frozen.to_vec();
    if !a.fills_every_goal() {
        return walls;
    }
    let is_frozen = |g: usize| frozen[g / 64] >> (g % 64) & 1 == 1;
    let mut boxed: Vec<bool> = (0..a.squares()).map(|s| s < a.goals() && !is_frozen(s)).collect();
    let walled = |s: Sq| a.is_goal(s) && is_frozen(s.index());
    let open = |s: Option<Sq>, boxed: &[bool]| s.is_some_and(|s| !boxed[s.index()] && !walled(s));
    let mut taken = true;
    while taken {
        taken = false;
        for g in a.all().take(a.goals()) {
            if !boxed[g.index()] {
                continue;
            }
            let pulled = Dir::ALL.into_iter().any(|d| {
                let beside = a.neighbor(g, d);
                let stands = beside.is_some_and(|b| a.stands_beside(b, d));
                stands && open(beside, &boxed) && open(beside.and_then(|b| a.neighbor(b, d)), &boxed)
            });
            if pulled {
                boxed[g.index()] = false;
                taken = true;
            }
        }
    }
    for g in (0..a.goals()).filter(|&g| boxed[g]) {
        walls[g / 64] |= 1 << (g % 64);
    }
    walls
}

/// Writes to `set` (bit `s` for square `s`, every other bit cleared) the boxes of `boxes` that
/// stand on a goal where `is_frozen` says they are frozen: the set [`FrozenTables::id`] takes.
pub fn frozen_goal_set(
    a: &Analysis,
    boxes: impl IntoIterator<Item = Sq>,
    mut is_frozen: impl FnMut(Sq) -> bool,
    set: &mut [u64],
) {
    set.fill(0);
    for b in boxes {
        if a.is_goal(b) && is_frozen(b) {
            set[b.index() / 64] |= 1 << (b.index() % 64);
        }
    }
}

/// Why [`FrozenTables::id`] gave no table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoTable {
    /// The table would not fit in memory, or the ids ran out.
    Full,
    /// The stop check asked to end the build.
    Stopped,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn a_frozen_goal_blocks_the_way_to_the_goals_behind_it() {
        // Two goals at the end of a corridor. With a box frozen on the inner goal the outer
        // one is still reachable but the inner is taken; frozen on the outer, the inner is cut off.
        let level = parse_levels("#######\n#..$$@#\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut tables = FrozenTables::new(&a);
        let sq = |c| a.sq(level.square_at(1, c).unwrap()).index();
        let (inner, outer) = (sq(1), sq(2));
        let goals = a.goals();
        assert_eq!(tables.table(TableId::STATIC)[sq(3) * goals + inner], 2);
        let mut frozen = vec![0u64; 1];
        frozen[0] |= 1 << inner;
        let id = tables.id(&a, &frozen, usize::MAX, &mut || false).unwrap();
        assert_ne!(id, TableId::STATIC);
        let t = tables.table(id);
        let at = |goal: usize, s: usize| t[s * goals + goal];
        assert_eq!(at(inner, inner), 0, "the frozen box keeps its goal");
        assert_eq!(at(inner, sq(3)), UNREACHABLE, "no other box reaches the taken goal");
        assert_eq!(at(outer, sq(3)), 1);
        assert_eq!(at(outer, sq(4)), 2);
        assert_eq!(tables.id(&a, &frozen, usize::MAX, &mut || false), Ok(id), "tables are built once per frozen set");
        assert_eq!(tables.count(), 2);

        // Frozen on the outer goal, the inner goal is cut off.
        let id = tables.id(&a, &[1 << outer], usize::MAX, &mut || false).unwrap();
        assert_eq!(tables.table(id)[sq(3) * goals + inner], UNREACHABLE);
    }

    #[test]
    fn player_aware_tables_bound_from_below_and_see_one_way_passages() {
        // XSokoban 41: the goal under the passage between the upper room and the corridor is
        // filled from above. A box from the lower right gets there only by way of the upper
        // room, the player walking round through the bottom row of goals; once boxes are frozen
        // on that row, not at all (pushed in from the corridor, it cuts the player off from
        // the square above it), which the relaxed table (7 pushes) cannot see.
        let text = include_str!("../../data/xsokoban90.xsb");
        let level = crate::format::parse_levels(text).unwrap().remove(40);
        let a = Analysis::new(&level);
        let mut aware = FrozenTables::player_aware_within(&a, &mut || false).unwrap();
        let goals = a.goals();
        let t = aware.table(TableId::STATIC);
        for s in a.all() {
            for g in 0..goals {
                let relaxed = a.distance(g, s).unwrap_or(UNREACHABLE);
                assert!(t[s.index() * goals + g] >= relaxed, "square {} goal {g}", s.index());
            }
        }
        for g in 0..goals {
            assert_eq!(t[g * goals + g], 0);
        }
        let at = |row, col| a.sq(level.square_at(row, col).unwrap());
        let (goal, lower_right) = (at(10, 11).index(), at(9, 15));
        assert_eq!(a.distance(goal, lower_right), Some(7));
        assert_eq!(t[lower_right.index() * goals + goal], 15);
        let mut frozen = vec![0u64; goals.div_ceil(64)];
        for col in 1..=11 {
            let g = at(11, col).index();
            frozen[g / 64] |= 1 << (g % 64);
        }
        let id = aware.id(&a, &frozen, usize::MAX, &mut || false).unwrap();
        assert_eq!(aware.table(id)[lower_right.index() * goals + goal], UNREACHABLE);
        assert_eq!(aware.table(id)[at(5, 11).index() * goals + goal], 5, "from the upper room");
    }

    #[test]
    fn no_table_pushes_a_box_from_a_pocket_the_player_cannot_stand_in() {
        // XSokoban 50: a box under the top row, at (2,10), reaches the goal on (1,8) up the
        // top row only if the player pushes it from (3,10), a dead end that only (2,10)
        // opens onto; else by way of (2,8), pushed up from (3,8). With a box frozen on the goal
        // at (3,8), neither table has a way (the first is no way at all).
        let text = include_str!("../../data/xsokoban90.xsb");
        let level = crate::format::parse_levels(text).unwrap().remove(49);
        let a = Analysis::new(&level);
        let at = |row, col| a.sq(level.square_at(row, col).unwrap());
        let (goal, under_top_row, corner) = (at(1, 8).index(), at(2, 10), at(3, 8).index());
        let mut frozen = vec![0u64; a.goals().div_ceil(64)];
        frozen[corner / 64] |= 1 << (corner % 64);
        let entry = |tables: &mut FrozenTables| {
            let id = tables.id(&a, &frozen, usize::MAX, &mut || false).unwrap();
            tables.table(id)[under_top_row.index() * a.goals() + goal]
        };
        assert_eq!(a.distance(goal, under_top_row), Some(3), "by way of (2,8)");
        assert_eq!(entry(&mut FrozenTables::new(&a)), UNREACHABLE);
        assert_eq!(entry(&mut FrozenTables::player_aware_within(&a, &mut || false).unwrap()), UNREACHABLE);
    }

    #[test]
    fn goals_the_finished_position_never_gives_up_are_settled() {
        // XSokoban 50 with boxes frozen on (1,7), in the goal room's top left corner, and on
        // (4,7), against its right wall: pulled back from the finished position, the boxes on
        // (3,6), (3,7), (4,4), (4,6), (5,4) and (5,6) never come out (each has a box or a
        // wall beside it on every way out until the others are gone, and they hold each other).
        let text = include_str!("../../data/xsokoban90.xsb");
        let level = crate::format::parse_levels(text).unwrap().remove(49);
        let a = Analysis::new(&level);
        let at = |row, col| a.sq(level.square_at(row, col).unwrap()).index();
        let mut frozen = vec![0u64; a.goals().div_ceil(64)];
        for g in [at(1, 7), at(4, 7)] {
            frozen[g / 64] |= 1 << (g % 64);
        }
        let walls = with_settled_goals(&a, &frozen);
        let settled: Vec<usize> = (0..a.goals()).filter(|&g| walls[g / 64] >> (g % 64) & 1 == 1).collect();
        let mut expected = vec![at(1, 7), at(4, 7), at(3, 6), at(3, 7), at(4, 4), at(4, 6), at(5, 4), at(5, 6)];
        expected.sort();
        assert_eq!(settled, expected);
        // Nothing frozen: every box comes out.
        assert!(with_settled_goals(&a, &vec![0u64; frozen.len()]).iter().all(|&w| w == 0));
    }

    #[test]
    fn the_empty_set_is_the_static_table() {
        let level = parse_levels("#####\n#.$@#\n#####\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut tables = FrozenTables::new(&a);
        assert_eq!(tables.id(&a, &[0], usize::MAX, &mut || false), Ok(TableId::STATIC));
        let b = a.sq(level.square_at(1, 2).unwrap());
        assert_eq!(Some(tables.table(TableId::STATIC)[b.index() * a.goals()]), a.distance(0, b));
    }
}
