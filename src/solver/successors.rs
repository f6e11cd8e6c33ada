//! The successor generator: the pushes of a state, with every pruning rule applied.
//!
//! This is the one place where a state's pushes are enumerated and where dead-square, freeze,
//! 2×2 and PI-corral pruning run; engines call [`Successors::expand`] and never re-derive a
//! rule. The generator owns the per-search scratch (regex-automata's `Cache` idea): the
//! occupancy array, the player's reachable region (with walking distances when the objective
//! counts moves), a second region search for the child's normalised player, the freeze-check
//! path and the corral finder. Nothing is allocated per state once the buffers have grown.
//!
//! A search that stores its positions can also keep their regions
//! ([`Successors::keeping_regions`]): each child's region comes out as a bitset, made from the
//! flood that finds the child's player or, when the push leaves the region as it was but for the
//! two squares, from the parent's; [`Successors::expand_within`] with [`Start::Region`] then
//! expands a position in a region known already, so a position's region is flooded once, when it is
//! made, instead of again when it is expanded.
//!
//! Pushes come out in a fixed order (boxes in key order, then up, right, down, left), so a
//! search that consumes them in order is deterministic.

use super::corral::Corrals;
use super::deadlock;
use super::hungarian::Stopped;
use super::report::Stats;
use super::state::BoxAt;
use crate::analysis::region::Flood;
use crate::analysis::{Analysis, NO_SQUARE, Sq};
use crate::level::{Dir, Square};
use crate::solver::cuts::Cuts;

/// Which rules the generator applies.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Dead-square, freeze and 2×2 pruning (sound only when every box must end on a goal).
    pub deadlocks: bool,
    /// Restrict to the pushes of a PI-corral's barrier (push-optimal searches only).
    pub corrals: bool,
    /// Every goal must end covered (as many boxes as goals): a corral holding a goal must be
    /// entered.
    pub fill_goals: bool,
    /// Normalise the child's player square to the lowest square of its region.
    pub normalize: bool,
    /// Measure the player's walk to each push (for objectives that count moves).
    pub walks: bool,
    /// Report whether a push freezes its box on a goal (for the frozen-goal bound).
    pub frozen_goals: bool,
}

/// One push out of the expanded state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Successor {
    /// Index of the pushed box in the state's box list.
    pub index: usize,
    /// The pushed box before the push.
    pub from: BoxAt,
    /// Where it lands.
    pub to: Sq,
    /// The direction of the push.
    pub dir: Dir,
    /// The player's walk to the square behind the box (0 unless [`Rules::walks`]).
    pub walk: u32,
    /// The child's player square (normalised when [`Rules::normalize`]).
    pub player: Sq,
    /// The push leaves its box frozen on a goal (only with [`Rules::frozen_goals`]).
    pub freezes_on_goal: bool,
}

/// Where the player stands for an expansion: on a square, whose region is flooded, or
/// anywhere in a region already known (one bit per square, as [`Successors::child_region`]
/// gives it; only for a generator that keeps regions).
#[derive(Debug, Clone, Copy)]
pub enum Start<'r> {
    /// On this square.
    Player(Sq),
    /// Somewhere in this region.
    Region(&'r [u64]),
}

impl From<Sq> for Start<'_> {
    fn from(player: Sq) -> Self {
        Start::Player(player)
    }
}

/// Reusable scratch and the rules; one per search.
#[derive(Debug)]
pub struct Successors {
    rules: Rules,
    /// 1 on each square holding a box in the loaded state, 0 when empty.
    occupied: Vec<u8>,
    /// The player's region in the expanded state (with kept regions, its bits are read instead).
    region: Flood,
    /// The player's walk to each square of `region` (when the rules count walks).
    walk: Vec<u32>,
    /// A child's region, searched without disturbing the parent's.
    child_region: Flood,
    path: Vec<Sq>,
    corrals: Corrals,
    only: Vec<Sq>,
    loaded: Vec<Sq>,
    /// The articulation points of the expanded state's region, worked out when a second
    /// child's region needs them (`cuts`).
    cut_points: Cuts,
    cuts: CutsState,
    /// The regions of the expanded state and its children, when kept.
    kept: Option<KeptRegions>,
}

/// Whether the expanded state's region holds `s`: the kept region's bits when regions are
/// kept (an expansion from [`Start::Region`] reads them without marking the flood), else the
/// flood's marks.
#[inline]
fn in_region(kept: Option<&KeptRegions>, region: &Flood, s: Sq) -> bool {
    match kept {
        Some(kept) => kept.has(s),
        None => region.contains(s),
    }
}

/// The lowest square of a region given as bits.
fn lowest_in(bits: &[u64]) -> Sq {
    let w = bits.iter().position(|&word| word != 0).expect("a region holds the player");
    Sq::new(w * 64 + bits[w].trailing_zeros() as usize)
}

/// The free squares beside `to` other than `from` (the box just pushed from `from` to `to`).
fn free_beside(a: &Analysis, occupied: &[u8], from: Sq, to: Sq) -> impl Iterator<Item = Sq> {
    let sides = a.neighbor_indices(to).into_iter().filter(move |&t| t != NO_SQUARE && usize::from(t) != from.index());
    sides.filter(|&t| occupied[usize::from(t)] == 0).map(|t| Sq::new(usize::from(t)))
}

/// The regions [`Successors::keeping_regions`] keeps, one bit per square
/// (`bits[s / 64] >> (s % 64) & 1`), `words` words each.
#[derive(Debug)]
struct KeptRegions {
    words: usize,
    /// The expanded state's region.
    parent: Vec<u64>,
    /// The region of each push written to `out`, in order.
    children: Vec<u64>,
}

impl KeptRegions {
    /// Keeps the parent's region less `to`, plus `from`: the child's when the push opens
    /// nothing new and cuts nothing off.
    fn push_moved(&mut self, from: Sq, to: Sq) {
        let at = self.children.len();
        self.children.extend_from_slice(&self.parent);
        let child = &mut self.children[at..];
        child[to.index() / 64] &= !(1 << (to.index() % 64));
        child[from.index() / 64] |= 1 << (from.index() % 64);
    }

    /// Whether the parent's region holds `s`.
    #[inline]
    fn has(&self, s: Sq) -> bool {
        self.parent[s.index() / 64] >> (s.index() % 64) & 1 == 1
    }

    /// Adds `s` to the last region kept.
    fn mark_last(&mut self, s: Sq) {
        let at = self.children.len() - self.words;
        self.children[at + s.index() / 64] |= 1 << (s.index() % 64);
    }

    /// Takes `s` out of the last region kept.
    fn unmark_last(&mut self, s: Sq) {
        let at = self.children.len() - self.words;
        self.children[at + s.index() / 64] &= !(1 << (s.index() % 64));
    }

    /// The last region kept.
    fn last(&self) -> &[u64] {
        &self.children[self.children.len() - self.words..]
    }

    /// The lowest square of the last region kept.
    fn lowest_of_last(&self) -> Sq {
        lowest_in(self.last())
    }

    /// Whether the last region kept is the one `flood` found (a check of the shortcuts).
    fn last_is(&self, flood: &Flood) -> bool {
        let mut bits = vec![0; self.words];
        flood.write_bits(&mut bits);
        self.last() == bits
    }

    /// Keeps the region `flood` found.
    fn push_flood(&mut self, flood: &Flood) {
        let at = self.children.len();
        self.children.resize(at + self.words, 0);
        flood.write_bits(&mut self.children[at..]);
    }
}

/// From this many boxes on, a region is crowded enough for its articulation points to pay
/// (see [`Successors::child_player`]): with fewer (the dead searches of a few boxes) most
/// pushes leave the region whole, and the search of the region cost the fast engine more
/// time than the floods it saved.
const CROWDED: usize = 8;

/// Whether the expanded state's articulation points are worked out (see
/// [`Successors::child_player`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CutsState {
    /// No child has needed them.
    None,
    /// One child flooded; the next works them out.
    Wanted,
    /// Worked out for this expansion.
    Made,
}

impl Successors {
    /// A generator for `a`'s level under `rules`. Deadlock rules are dropped when the analysis
    /// says they are unsound for the level's solved rule, and corral pruning needs them.
    pub fn new(a: &Analysis, mut rules: Rules) -> Successors {
        rules.deadlocks &= a.pruning();
        rules.corrals &= rules.deadlocks;
        rules.frozen_goals &= rules.deadlocks;
        let n = a.squares();
        Successors {
            rules,
            occupied: vec![0; n],
            region: Flood::new(n),
            walk: vec![0; n],
            child_region: Flood::new(n),
            path: Vec::new(),
            corrals: Corrals::new(n),
            only: Vec::new(),
            loaded: Vec::new(),
            cut_points: Cuts::new(n),
            cuts: CutsState::None,
            kept: None,
        }
    }

    /// The generator, keeping the region of each child it makes (see [`Successors::child_region`]
    /// and [`Start::Region`]); the rules must normalise the player and not count walks.
    pub fn keeping_regions(mut self, a: &Analysis) -> Successors {
        assert!(self.rules.normalize && !self.rules.walks, "a kept region belongs to a normalised player");
        let words = a.squares().div_ceil(64);
        self.kept = Some(KeptRegions { words, parent: vec![0; words], children: Vec::new() });
        self
    }

    /// The player's region of push `i` of the last expansion (when keeping regions), one bit per
    /// square: what [`Start::Region`] takes to expand that child.
    pub fn child_region(&self, i: usize) -> &[u64] {
        let kept = self.kept.as_ref().expect("the generator keeps regions");
        &kept.children[i * kept.words..(i + 1) * kept.words]
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Places `boxes` on the board (and removes the previous state's).
    pub fn load(&mut self, boxes: &[BoxAt]) {
        for &s in &self.loaded {
            self.occupied[s.index()] = 0;
        }
        self.loaded.clear();
        for b in boxes {
            self.occupied[b.sq.index()] = 1;
            self.loaded.push(b.sq);
        }
    }

    /// The occupancy of the loaded state: 1 on each box, 0 elsewhere.
    pub fn occupied(&self) -> &[u8] {
        &self.occupied
    }

    /// Whether the loaded box on `t` is frozen (see [`deadlock::is_frozen`]).
    pub fn is_frozen(&mut self, a: &Analysis, t: Sq) -> bool {
        deadlock::is_frozen(a, &self.occupied, t, &mut self.path)
    }

    /// The lowest square of the player's region from `player` in the loaded state.
    pub fn normalized(&mut self, a: &Analysis, player: Sq) -> Sq {
        flood(a, &mut self.region, &self.occupied, player, None)
    }

    /// Writes the player's region of the last [`Successors::normalized`] or expansion to
    /// `bits`, one bit per square (`bits[s / 64] >> (s % 64) & 1`).
    pub fn region_bits(&self, bits: &mut [u64]) {
        self.region.write_bits(bits);
    }

    /// Loads `boxes` with the player on `player` and writes every push that survives the rules
    /// to `out`, counting pruned pushes in `stats`.
    pub fn expand(&mut self, a: &Analysis, boxes: &[BoxAt], player: Sq, out: &mut Vec<Successor>, stats: &mut Stats) {
        // A check that never stops never gives `Err`.
        let _ = self.expand_within(a, boxes, player, out, stats, &mut || false);
    }

    /// Like [`Successors::expand`], but calls `stop` before each box's pushes (each may flood
    /// the player's region, O(squares)) and gives up with [`Stopped`] when it returns true, so
    /// one expansion of a level with a thousand boxes can be interrupted. `out` is then partial.
    /// With [`Start::Region`] the player's region is taken as given instead of flooded.
    pub fn expand_within<'r>(
        &mut self,
        a: &Analysis,
        boxes: &[BoxAt],
        start: impl Into<Start<'r>>,
        out: &mut Vec<Successor>,
        stats: &mut Stats,
        stop: &mut impl FnMut() -> bool,
    ) -> Result<(), Stopped> {
        out.clear();
        self.load(boxes);
        // The region's lowest square: the normalised player, whatever square it stands on.
        let lowest = match start.into() {
            Start::Player(player) => self.flood_region(a, player),
            Start::Region(region) => self.take_region(a, region),
        };
        if let Some(kept) = &mut self.kept {
            kept.children.clear();
        }
        self.cuts = CutsState::None;
        self.only.clear();
        let restricted = self.rules.corrals && {
            let Successors { corrals, occupied, region, only, rules, loaded, kept, .. } = self;
            let kept = kept.as_ref();
            let size = match kept {
                Some(kept) => kept.parent.iter().map(|w| w.count_ones() as usize).sum(),
                None => region.squares().len(),
            };
            let reached = |s: Sq| in_region(kept, region, s);
            let unreached = a.squares() - size - loaded.len();
            match corrals.pi_corral(a, occupied, reached, unreached, rules.fill_goals) {
                Some(barrier) => {
                    only.extend_from_slice(barrier);
                    true
                }
                None => false,
            }
        };
        stats.corral_cuts += u64::from(restricted);
        for (index, &b) in boxes.iter().enumerate() {
            if restricted && !self.only.contains(&b.sq) {
                continue;
            }
            if stop() {
                return Err(Stopped);
            }
            for dir in Dir::ALL {
                let (Some(to), Some(behind)) = (a.neighbor(b.sq, dir), a.neighbor(b.sq, dir.opposite())) else {
                    continue;
                };
                if self.occupied[to.index()] != 0 || !self.reached(behind) {
                    continue;
                }
                if self.rules.deadlocks && !a.is_live(to) {
                    stats.pruned_dead_square += 1;
                    continue;
                }
                let walk = if self.rules.walks { self.walk[behind] } else { 0 };
                self.occupied[b.sq.index()] = 0;
                self.occupied[to.index()] = 1;
                let verdict = if !self.rules.deadlocks {
                    None
                } else if deadlock::block_2x2(a, &self.occupied, to) {
                    Some(&mut stats.pruned_2x2)
                } else if deadlock::freeze(a, &self.occupied, to, &mut self.path) {
                    Some(&mut stats.pruned_freeze)
                } else {
                    None
                };
                if let Some(counter) = verdict {
                    *counter += 1;
                } else {
                    stats.generated += 1;
                    let freezes_on_goal = self.rules.frozen_goals
                        && a.is_goal(to)
                        && deadlock::is_frozen(a, &self.occupied, to, &mut self.path);
                    let player = self.child_player(a, b.sq, to, dir, lowest);
                    out.push(Successor { index, from: b, to, dir, walk, player, freezes_on_goal });
                }
                self.occupied[to.index()] = 0;
                self.occupied[b.sq.index()] = 1;
            }
        }
        Ok(())
    }

    /// Floods the player's region from `player` (with the walks when the rules want them,
    /// and kept as bits when regions are kept); its lowest square.
    fn flood_region(&mut self, a: &Analysis, player: Sq) -> Sq {
        let walk = self.rules.walks.then_some(&mut self.walk[..]);
        let lowest = flood(a, &mut self.region, &self.occupied, player, walk);
        if let Some(kept) = &mut self.kept {
            self.region.write_bits(&mut kept.parent);
        }
        lowest
    }

    /// Takes `region` (one bit per square, as [`Successors::child_region`] gives it) for the
    /// player's region of the loaded boxes; its lowest square. Only when keeping regions.
    fn take_region(&mut self, a: &Analysis, region: &[u64]) -> Sq {
        let kept = self.kept.as_mut().expect("the generator keeps regions");
        kept.parent.copy_from_slice(region);
        let lowest = lowest_in(region);
        debug_assert_eq!(lowest, flood(a, &mut self.child_region, &self.occupied, lowest, None));
        debug_assert!(a.all().all(|s| self.child_region.contains(s) == self.reached(s)));
        lowest
    }

    /// The player square after pushing the box on `from` to `to` (the board shows the child;
    /// `lowest` is the lowest square of the parent's region).
    fn child_player(&mut self, a: &Analysis, from: Sq, to: Sq, dir: Dir, lowest: Sq) -> Sq {
        if !self.rules.normalize {
            return from;
        }
        let sides_known = Dir::ALL
            .iter()
            .filter(|&&e| e != dir && e != dir.opposite())
            .all(|&e| a.neighbor(from, e).is_none_or(|n| self.occupied[n.index()] != 0 || self.reached(n)));
        // The square the box left opens onto nothing new, and the box either went somewhere
        // the player could not reach or stands where it cuts nothing apart: the region is the
        // parent's, less `to`, plus `from`. Its lowest square is the parent's unless that was
        // `to`; then the kept region says which it is.
        let whole = sides_known && (!self.reached(to) || !splits(a, &self.occupied, from, to));
        if whole && to != lowest {
            debug_assert_eq!(lowest.min(from), flood(a, &mut self.child_region, &self.occupied, from, None));
            if let Some(kept) = &mut self.kept {
                kept.push_moved(from, to);
                debug_assert!(kept.last_is(&self.child_region));
            }
            lowest.min(from)
        } else if let Some(player) = self.kept_child(a, from, to, dir, sides_known) {
            player
        } else if sides_known && self.cuts != CutsState::None {
            self.player_by_cuts(a, from, to, lowest)
        } else {
            // Kept regions need the child's flood whatever the articulation points say.
            if sides_known && self.loaded.len() >= CROWDED && self.kept.is_none() {
                self.cuts = CutsState::Wanted;
            }
            let player = flood(a, &mut self.child_region, &self.occupied, from, None);
            if let Some(kept) = &mut self.kept {
                kept.push_flood(&self.child_region);
            }
            player
        }
    }

    /// With kept regions, [`Successors::child_player`] from the parent's region when the push
    /// cuts nothing apart (see [`splits`]): the child's is the parent's less `to`, plus `from`
    /// and the corrals beside `from` it opens (the expansion's corral search found them all).
    /// Keeps the child's region and returns its lowest square; `None` without the corrals.
    /// `sides_known`: `from` opens no corral.
    fn kept_child(&mut self, a: &Analysis, from: Sq, to: Sq, dir: Dir, sides_known: bool) -> Option<Sq> {
        let Successors { kept, occupied, corrals, rules, child_region, .. } = self;
        let kept = kept.as_mut()?;
        if !sides_known && !rules.corrals {
            return None;
        }
        if (!sides_known || kept.has(to)) && splits(a, occupied, from, to) {
            // The box may cut the region apart: it does not when a flood from `from` gets round
            // it to every free side (which is soon, in an open area), else that flood found the
            // region.
            let mut sides = [from; 4];
            let mut count = 0;
            for t in free_beside(a, occupied, from, to) {
                sides[count] = t;
                count += 1;
            }
            if !child_region.fill_until(a, from, |t| occupied[t] == 0, &sides[..count]) {
                kept.push_flood(child_region);
                return Some(kept.lowest_of_last());
            }
        }
        kept.push_moved(from, to);
        if !sides_known {
            for e in Dir::ALL.into_iter().filter(|&e| e != dir && e != dir.opposite()) {
                let Some(n) = a.neighbor(from, e) else { continue };
                if occupied[n.index()] == 0 && !kept.has(n) {
                    corrals.corral_holding(n).iter().for_each(|&s| kept.mark_last(s));
                }
            }
            kept.unmark_last(to);
        }
        let player = kept.lowest_of_last();
        debug_assert_eq!(player, flood(a, &mut self.child_region, &self.occupied, from, None));
        debug_assert!(self.kept.as_ref().is_some_and(|kept| kept.last_is(&self.child_region)));
        Some(player)
    }

    /// [`Successors::child_player`] when the box now stands inside the region and may cut it
    /// apart: `from` joins the parts of the region without `to` that hold its free neighbours
    /// (the square the player pushed from among them), read from the region's articulation
    /// points instead of a flood. Most pushes in a crowded region come here; the first of an
    /// expansion floods and asks for the articulation points, the next works them out for the
    /// rest (a search of the region costs more than a flood, and often one child alone needs
    /// it). Kept out of line: `child_player` runs for every push.
    #[inline(never)]
    fn player_by_cuts(&mut self, a: &Analysis, from: Sq, to: Sq, lowest: Sq) -> Sq {
        if self.cuts == CutsState::Wanted {
            self.make_cuts(a, from, to, lowest);
        }
        let low = self.cut_points.opened(a, &self.occupied, from.index(), to.index()).low;
        debug_assert_eq!(Sq::new(usize::from(low)), flood(a, &mut self.child_region, &self.occupied, from, None));
        Sq::new(usize::from(low))
    }

    /// Works out the articulation points of the expanded state's region (once per expansion;
    /// the board shows the child that moved a box from `from` to `to`, the region's lowest
    /// square is `lowest`).
    fn make_cuts(&mut self, a: &Analysis, from: Sq, to: Sq, lowest: Sq) {
        self.occupied[to.index()] = 0;
        self.occupied[from.index()] = 1;
        self.cut_points.run_next(a, &self.occupied, lowest.index());
        self.occupied[from.index()] = 0;
        self.occupied[to.index()] = 1;
        self.cuts = CutsState::Made;
    }

    /// Runs `f` with the board showing `push` applied (to inspect the child, e.g. its frozen
    /// boxes), then restores the loaded state.
    pub fn with_push<R>(&mut self, push: &Successor, f: impl FnOnce(&mut Successors) -> R) -> R {
        self.occupied[push.from.sq.index()] = 0;
        self.occupied[push.to.index()] = 1;
        let r = f(self);
        self.occupied[push.to.index()] = 0;
        self.occupied[push.from.sq.index()] = 1;
        r
    }

    #[inline]
    fn reached(&self, s: Sq) -> bool {
        in_region(self.kept.as_ref(), &self.region, s)
    }
}

/// Whether a box on `s` may cut its free neighbours apart: true unless every free square beside
/// `s` is linked to the others through the free squares of its 8-neighbourhood (then any walk
/// through `s` can go round it, so taking `s` out of a region leaves the rest connected).
fn cuts_locally(a: &Analysis, occupied: &[u8], s: Sq) -> bool {
    let free = |t: Option<Sq>| t.is_some_and(|t| occupied[t.index()] == 0);
    // The ring round `s`, clockwise from above: each side, then the corner after it.
    let mut ring = [false; 8];
    for (i, d) in Dir::ALL.into_iter().enumerate() {
        let next = Dir::ALL[(i + 1) % 4];
        let side = a.neighbor(s, d);
        let corner =
            side.and_then(|t| a.neighbor(t, next)).or_else(|| a.neighbor(s, next).and_then(|t| a.neighbor(t, d)));
        ring[2 * i] = free(side);
        ring[2 * i + 1] = free(corner);
    }
    let Some(gap) = ring.iter().position(|&f| !f) else {
        return false;
    };
    // Runs of free squares round the ring, starting after a blocked one: the free sides must
    // all lie in one run.
    let mut run = 0;
    let mut side_run = None;
    for k in 1..=8 {
        let i = (gap + k) % 8;
        if !ring[i] {
            run += 1;
        } else if i % 2 == 0 {
            match side_run {
                None => side_run = Some(run),
                Some(r) if r != run => return true,
                Some(_) => {}
            }
        }
    }
    false
}

/// Whether the box just pushed from `from` to `to` (the board shows the child; the player
/// reached `to` and stands beside `from`) may cut the player's region apart: only if it cuts
/// its free neighbours apart locally (see [`cuts_locally`]) and has two or more of them besides
/// `from`. With one at most, every part of the region without `to` would hold one of them, so
/// there is one part, and `from` joins it through the square the player pushed from.
fn splits(a: &Analysis, occupied: &[u8], from: Sq, to: Sq) -> bool {
    free_beside(a, occupied, from, to).count() > 1 && cuts_locally(a, occupied, to)
}

/// The player's region from `start` in `occupied` (with walking distances in `walk` if
/// `distances`); returns its lowest square.
#[inline]
fn flood(a: &Analysis, region: &mut Flood, occupied: &[u8], start: Sq, walk: Option<&mut [u32]>) -> Sq {
    match walk {
        None => region.fill(a, start, |t| occupied[t] == 0),
        Some(walk) => {
            walk[start] = 0;
            let mut lowest = start;
            region.fill_with(
                a,
                start,
                |_, _| true,
                |s, t| {
                    if occupied[t] != 0 {
                        return false;
                    }
                    walk[t] = walk[s] + 1;
                    lowest = lowest.min(t);
                    true
                },
            );
            lowest
        }
    }
}

/// The pushes the generator keeps from a position given in level squares, as (the box's square
/// before the push, direction), in generation order. This runs the same code as the engines'
/// expansions; it exists so that tests and tools can check the pruning rules from outside.
pub fn level_pushes(a: &Analysis, rules: Rules, boxes: &[Square], player: Square) -> Vec<(Square, Dir)> {
    let mut generator = Successors::new(a, rules);
    let boxes: Vec<BoxAt> = boxes.iter().map(|&b| BoxAt { sq: a.sq(b), class: 0 }).collect();
    let mut out = Vec::new();
    generator.expand(a, &boxes, a.sq(player), &mut out, &mut Stats::default());
    out.into_iter().map(|p| (a.square(p.from.sq), p.dir)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    fn pushes(text: &str, deadlocks: bool, corrals: bool) -> Vec<(usize, usize, Dir)> {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let rules = Rules { deadlocks, corrals, fill_goals: true, normalize: true, walks: false, frozen_goals: false };
        level_pushes(&a, rules, level.boxes(), level.player())
            .into_iter()
            .map(|(s, d)| {
                let (r, c) = level.coords(s);
                (r, c, d)
            })
            .collect()
    }

    #[test]
    fn a_square_that_does_not_cut_locally_leaves_its_neighbours_connected() {
        let texts = [
            "  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########\n",
            "#######\n#.$ $.#\n# $@$ #\n#.   .#\n#######\n",
            "########\n#@ #   #\n# $  $ #\n##  #..#\n #    ##\n ######\n",
        ];
        for text in texts {
            let level = parse_levels(text).unwrap().remove(0);
            let a = Analysis::new(&level);
            let mut occupied = vec![0u8; a.squares()];
            for &b in level.boxes() {
                occupied[a.sq(b).index()] = 1;
            }
            let mut region = Flood::new(a.squares());
            let mut local = 0;
            for s in (0..a.squares()).map(Sq::new) {
                if occupied[s.index()] != 0 {
                    continue;
                }
                occupied[s.index()] = 1;
                let sides: Vec<Sq> = Dir::ALL
                    .into_iter()
                    .filter_map(|d| a.neighbor(s, d))
                    .filter(|t| occupied[t.index()] == 0)
                    .collect();
                let connected = sides.first().is_none_or(|&first| {
                    flood(&a, &mut region, &occupied, first, None);
                    sides.iter().all(|&t| region.contains(t))
                });
                if !cuts_locally(&a, &occupied, s) {
                    local += 1;
                    assert!(connected, "{text}: square {s:?}");
                }
                occupied[s.index()] = 0;
            }
            assert!(local > 0, "{text}: some square should pass the local test");
        }
    }

    #[test]
    fn pushes_onto_dead_squares_are_pruned() {
        // The box can go left towards the goal, or right into a dead corner.
        let level = "#######\n#.  $ #\n#   @ #\n#######\n";
        assert_eq!(pushes(level, true, false), vec![(1, 4, Dir::Left)]);
        assert_eq!(pushes(level, false, false), vec![(1, 4, Dir::Right), (1, 4, Dir::Left)]);
    }

    #[test]
    fn a_2x2_block_off_goals_is_pruned() {
        // Pushing the lower box up puts both boxes against the top wall, off goals.
        let level = "#######\n#.$ . #\n#  $  #\n#  @  #\n#######\n";
        assert!(!pushes(level, true, false).contains(&(2, 3, Dir::Up)));
        assert!(pushes(level, false, false).contains(&(2, 3, Dir::Up)));
    }

    #[test]
    fn a_pi_corral_restricts_the_pushes_to_its_barrier() {
        // The right part is a corral fenced by two boxes and walls; every push of its barrier
        // goes into it and the player reaches them all, so only those pushes are generated.
        let level = "#########\n#   #   #\n#@$ $  .#\n#   $  .#\n#   #  .#\n#########\n";
        assert_eq!(pushes(level, true, true), vec![(2, 4, Dir::Right), (3, 4, Dir::Right)]);
        assert!(pushes(level, true, false).contains(&(2, 2, Dir::Right)));
    }
}
