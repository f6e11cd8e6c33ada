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
//! Why the bound stays consistent: the frozen set of a state is a function of the box set alone,
//! and along any push it only grows (a frozen box never moves in a non-deadlocked successor, and
//! emptying a square never freezes a box). Distances over a larger frozen set are pointwise at
//! least as large, and each one still drops by at most one per push (a push needs both the
//! square behind the box and its target free of frozen boxes). So a child's bound is at least
//! its parent's minus one push.
//!
//! Tables are built on demand and kept per frozen set (a bitset over goals); id 0 is the static
//! table of the [`Analysis`].

use hashbrown::HashMap;

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
    squares: usize,
    tables: Vec<Box<[u16]>>,
    ids: HashMap<Box<[u64]>, TableId>,
    /// Bytes held by the tables and the index.
    bytes: usize,
    /// Scratch for the breadth-first searches.
    queue: Vec<Sq>,
}

impl FrozenTables {
    /// The static table of `a`, ready to add frozen sets to.
    pub fn new(a: &Analysis) -> FrozenTables {
        let base: Box<[u16]> = a.distance_table().into();
        let bytes = base.len() * 2;
        FrozenTables { squares: a.squares(), tables: vec![base], ids: HashMap::new(), bytes, queue: Vec::new() }
    }

    /// Table `id`: entry `g * squares + s` is the pushes from solver square `s` to goal `g`, or
    /// [`UNREACHABLE`].
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

    /// The id of the table for the goals in `frozen` (bit `g` set: goal `g` holds a frozen box),
    /// building it if needed. An empty set is the static table. `None` when the set is new and
    /// 65,536 tables exist already (the caller treats that as running out of memory).
    pub fn id(&mut self, a: &Analysis, frozen: &[u64]) -> Option<TableId> {
        if frozen.iter().all(|&w| w == 0) {
            return Some(TableId::STATIC);
        }
        if let Some(&id) = self.ids.get(frozen) {
            return Some(id);
        }
        let id = TableId(u16::try_from(self.tables.len()).ok()?);
        let table = self.build(a, frozen);
        self.bytes += table.len() * 2 + frozen.len() * 8 + 32;
        self.tables.push(table);
        self.ids.insert(frozen.into(), id);
        Some(id)
    }

    fn build(&mut self, a: &Analysis, frozen: &[u64]) -> Box<[u16]> {
        let n = self.squares;
        let is_frozen = |s: Sq| a.is_goal(s) && frozen[s.index() / 64] >> (s.index() % 64) & 1 == 1;
        let mut dist = vec![UNREACHABLE; a.goals() * n].into_boxed_slice();
        for goal in a.all().take(a.goals()) {
            let g = goal.index();
            let row = &mut dist[g * n..(g + 1) * n];
            row[g] = 0;
            if is_frozen(goal) {
                // Its own box stays; no other box can use the goal.
                continue;
            }
            self.queue.clear();
            self.queue.push(goal);
            let mut head = 0;
            while head < self.queue.len() {
                let t = self.queue[head];
                head += 1;
                for d in Dir::ALL {
                    // A box on `s` pushed in direction `d` lands on `t`; the player stands on `p`.
                    let Some(s) = a.neighbor(t, d.opposite()) else { continue };
                    if is_frozen(s) || row[s.index()] != UNREACHABLE {
                        continue;
                    }
                    if a.neighbor(s, d.opposite()).is_none_or(is_frozen) {
                        continue;
                    }
                    row[s.index()] = row[t.index()] + 1;
                    self.queue.push(s);
                }
            }
        }
        dist
    }
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
        assert_eq!(tables.table(TableId::STATIC)[inner * a.squares() + sq(3)], 2);
        let mut frozen = vec![0u64; 1];
        frozen[0] |= 1 << inner;
        let id = tables.id(&a, &frozen).unwrap();
        assert_ne!(id, TableId::STATIC);
        let t = tables.table(id);
        let n = a.squares();
        assert_eq!(t[inner * n + inner], 0, "the frozen box keeps its goal");
        assert_eq!(t[inner * n + sq(3)], UNREACHABLE, "no other box reaches the taken goal");
        assert_eq!(t[outer * n + sq(3)], 1);
        assert_eq!(t[outer * n + sq(4)], 2);
        assert_eq!(tables.id(&a, &frozen), Some(id), "tables are built once per frozen set");
        assert_eq!(tables.count(), 2);

        // Frozen on the outer goal, the inner goal is cut off.
        let id = tables.id(&a, &[1 << outer]).unwrap();
        assert_eq!(tables.table(id)[inner * n + sq(3)], UNREACHABLE);
    }

    #[test]
    fn the_empty_set_is_the_static_table() {
        let level = parse_levels("#####\n#.$@#\n#####\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut tables = FrozenTables::new(&a);
        assert_eq!(tables.id(&a, &[0]), Some(TableId::STATIC));
        let b = a.sq(level.square_at(1, 2).unwrap());
        assert_eq!(Some(tables.table(TableId::STATIC)[b.index()]), a.distance(0, b));
    }
}
