//! The packing-order plan: in which order the goals should be filled.
//!
//! Worked out backwards from the solved position, before the search: every goal holds a box,
//! and boxes are pulled off the goals one at a time, the others staying where they are. A box
//! can leave when a sequence of pulls (the player stepping away from the box, dragging it
//! along) brings it back to where boxes start: a start square of some box that is not a goal
//! (the idea of "backward goals" in JSoko's packing sequence), with the player left on a square
//! it can walk to from its start: a pull onto a start square that leaves the player in a dead
//! end only that box closes is no way in (XSokoban 50's plan asked for its top row to be
//! filled from a side no box can ever reach). Boxes that can leave that way
//! go first, the one needing the fewest pulls first (it sits nearest the way in); when none
//! can, a box that can at least reach a square that is not a goal leaves, again fewest pulls
//! first. Ties go to the box that can roam over more squares, then to the lower goal index, so
//! the plan is deterministic. The order in which goals are emptied, reversed, is the order in
//! which to fill them: goals deep inside a goal room come first, its entrance last.
//!
//! Pulling towards start squares solves more levels at a fixed budget than pulling to "any
//! square that is not a goal" (see docs/benchmark-log.md), which can stop at a free square
//! inside the goal room instead of the way the boxes come in.
//!
//! Parking and staging: when no box can get back to the start squares, one waits on a
//! parking square that does not cut the floor (a step of the plan of its own: forward, the box
//! arrives there before the goals that would shut it out are filled, and fills its goal
//! later). Before any box leaves, boxes that can be pulled off their goals into
//! floor *behind the goals* (a part of the floor the player cannot reach from its start with
//! every goal a wall, and where no box starts: a dead end only the goal area leads to) wait
//! there, on the square deepest in pulls that does not cut the floor: forward, such a part
//! can only be filled while the goal area is open, and its boxes fill the goals next to it
//! last, pushed in from behind (XSokoban 88: three boxes wait in the corridor below its goal
//! room, as in Festival's solution). A parked box leaves, backwards, as soon as it can reach
//! a start square, so forwards it arrives on its parking square as late as it can: staged
//! early, the boxes would stand in the way of every goal filled after them.
//!
//! When no box can leave (the goal area is locked by boxes that only move together), the
//! remaining goals are appended in index order: the plan is advice, never a rule the search
//! depends on for soundness.
//!
//! Layers ([`Peel::Layers`], the second pass's plan). Taken off one at a time, each
//! box that leaves opens the way to the goal behind it as if it had vanished, though in the
//! game it stays on its start square until its turn. Where boxes start packed between the
//! goals, that plan fills a goal and then the ones it opened, each of which shuts the player
//! out of the squares it needs to push the next (Microban II 131, a band of goal lines at the
//! walls and between lines of boxes: the plan mixes the lines, while every solution fills the
//! lines at the walls first, sweeping the boxes between them aside and back). In layers,
//! every box that can leave as the goals stand leaves at once, each found with all the others
//! in place; the next layer is what their leaving opens. Forwards the deepest layer is filled
//! first, and within a layer the goal farthest from the player's start (walking over the bare
//! floor) first, so the player works its way back to where it came from. Staging is as
//! above; a layer of boxes that cannot get back to the start squares leaves without parking,
//! and boxes that no layer takes leave one at a time after the layers, parking as above.

use std::cell::Cell;

use super::bipartite::Edges;
use crate::analysis::region::Flood;
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::{Dir, Level};
use crate::solver::cuts::{Cuts, NO_SQUARE};

/// One step of the plan: a box arrives on `square`. The step stays done while a box stands on
/// `square` or on `goal`: for a goal filled straight from outside both are the goal; for a box
/// that waits on a parking square first, `square` is the parking square and `goal` the goal it
/// fills later (its own step comes further on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Where the box arrives.
    pub square: u16,
    /// The goal this box ends on.
    pub goal: u16,
    /// The index of the box's next step, when it moves on from `square` to another square
    /// short of its goal ([`NO_UNTIL`] for none): the step stays done once that one is in the
    /// done prefix (see [`PackingPlan::packed`]).
    pub until: u16,
}

/// No later step for the same box (see [`Step::until`]).
pub const NO_UNTIL: u16 = u16::MAX;

impl Step {
    /// A box arrives on `square` and ends on `goal`, with no step in between.
    pub fn new(square: u16, goal: u16) -> Step {
        Step { square, goal, until: NO_UNTIL }
    }
}

/// The goals (solver indices `0..a.goals()`) in the order they should be filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackingPlan {
    /// Goals in filling order.
    pub order: Vec<u16>,
    /// `rank[g]`: position of goal `g` in `order`.
    pub rank: Vec<u16>,
    /// The steps in order: the goals' fills with the parking arrivals among them.
    pub steps: Vec<Step>,
    /// A step linked to a later one ([`Step::until`]) is done only while a box stands on its
    /// square (or once the later step is in the done prefix), not when a box stands on its
    /// goal already: the staged plan's boxes wait where it puts them and go in in its order,
    /// and a box that skips its wait does not move the plan on (see `bases.rs`).
    pub waits_in_place: bool,
    /// The position (sorted solver squares) on the plan's line with the fewest boxes on goals,
    /// the first such going forwards from the solved position (`bases.rs`): forwards, the
    /// boxes staged round the goal area before its filling begins, where the staging midpoint
    /// aims (see `midpoint.rs`). `None` for a peeled plan, or when that position is the
    /// start's or the solved one.
    pub staged: Option<Vec<u16>>,
}

/// What the backward search did with one box, in backward order.
enum Event {
    /// The box on goal `goal` left the goal area for good (forward: it comes in and fills it).
    Leave { goal: usize },
    /// The box on `goal` was pulled to a parking square and waits there.
    Park { goal: usize },
    /// The box parked on `park` (from `goal`) left for good.
    Unpark { goal: usize, park: usize },
}

impl PackingPlan {
    /// Computes the plan for the level behind `a`, the boxes taken off the goals as `peel`
    /// says ([`Peel::OneByOne`] for the first pass's plan, [`Peel::Layers`] for the
    /// second's); `starts[s]` marks the squares where boxes stand at the start, and `player`
    /// is the player's start square.
    /// `None` when `stop()` says so (it is asked before each pull search: the plan takes
    /// goals² of them).
    /// With `park` off, no box waits on a parking square.
    pub fn peeled(
        a: &Analysis,
        starts: &[bool],
        player: usize,
        park: bool,
        peel: Peel,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<PackingPlan> {
        let entries = entry_sides(a, starts, player, stop)?;
        let back = if park { behind_goals(a, starts, player) } else { vec![false; a.squares()] };
        // Layers are filled farthest from the player's start first.
        let walk = match peel {
            Peel::OneByOne => Vec::new(),
            Peel::Layers => walking_distances(a, player),
        };
        match PackingPlan::backwards(a, starts, &entries, &back, park, &walk, stop)? {
            Ok(plan) => Some(plan),
            // Some parked box never got away: the parking choices sealed something off, so
            // the plan is worked out again without parking.
            Err(()) => PackingPlan::backwards(a, starts, &entries, &back, false, &walk, stop)?.ok(),
        }
    }

    /// The backward search behind [`PackingPlan::peeled`] (`entries` as [`entry_sides`] gives
    /// them); with `park` off, a box that cannot get back to the start squares leaves without
    /// blocking anything. With `walk` non-empty (the player's walking distance from its start
    /// to each square), the boxes leave in layers first. `Err` when parking was on and some
    /// parked box never left; `None` when stopped.
    fn backwards(
        a: &Analysis,
        starts: &[bool],
        entries: &[u8],
        back: &[bool],
        park: bool,
        walk: &[u32],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Result<PackingPlan, ()>> {
        let mut peeling = Peeling::new(a, starts, entries);
        if park {
            peeling.stage(back, stop)?;
        }
        if !walk.is_empty() {
            peeling.layers(walk, stop)?;
        }
        peeling.one_by_one(park, stop)?;
        Some(peeling.plan())
    }

    /// This plan checked forwards from the start position. The goals are taken in this
    /// plan's order, except that a goal is put off while filling it would leave the start
    /// boxes unable to fill the goals still empty, the goals filled so far and this one
    /// standing as walls, each box alone with the player walking round it (the player-aware
    /// distances of [`crate::solver::frozen`]), or would leave the player, wherever a push
    /// onto it leaves it, unable to walk to the goals still empty ([`player_goes_on`]). The
    /// backward search cannot see where the boxes come from; the forward search's matching can, and
    /// drops every state in which a frozen goal box cuts the player off from the side most boxes
    /// come in by. A plan whose first goal is such a corner goal is one the search can never follow
    /// (XSokoban 50 and 69 stayed at zero goals packed for the whole first pass). A goal that every
    /// order fails keeps its place; the checks stop after three per goal (each builds a table), and
    /// a plan with parking steps is kept as it is. `None` when `stop` says so.
    pub fn checked_from_start(
        &self,
        a: &Analysis,
        starts: &[bool],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<PackingPlan> {
        if self.steps.iter().any(|s| s.square != s.goal) {
            return Some(self.clone());
        }
        let goals = a.goals();
        // The goals filled so far (1 each), the walls of both checks.
        let mut filled = vec![0u8; a.squares()];
        let mut reach = Flood::new(a.squares());
        let mut left: Vec<u16> = self.order.clone();
        let mut order = Vec::with_capacity(goals);
        // Each check builds a table: a few per goal at most, then the plan's order as it is.
        let mut budget = 3 * goals;
        while !left.is_empty() {
            let mut pick = 0;
            for (k, &g) in left.iter().enumerate() {
                if budget == 0 || left.len() == 1 {
                    break;
                }
                filled[g as usize] = 1;
                let ok = player_goes_on(a, &filled, g as usize, starts, &mut reach) && {
                    budget -= 1;
                    fillable(a, &filled, starts, stop)?
                };
                filled[g as usize] = 0;
                if ok {
                    pick = k;
                    break;
                }
            }
            let g = left.remove(pick);
            filled[g as usize] = 1;
            order.push(g);
        }
        let mut rank = vec![0u16; goals];
        for (i, &g) in order.iter().enumerate() {
            rank[g as usize] = i as u16;
        }
        let steps = order.iter().map(|&g| Step::new(g, g)).collect();
        Some(PackingPlan { order, rank, steps, waits_in_place: false, staged: None })
    }

    /// How many steps from the start of the plan are done with the boxes in `occupied`: the
    /// longest prefix whose steps each have a box on their square or goal (only their square,
    /// for a linked step under [`PackingPlan::waits_in_place`]), or have their box's next step
    /// ([`Step::until`]) inside the prefix (the box moved on as planned).
    pub fn packed(&self, occupied: &[u8]) -> u16 {
        let on_goal = |s: &Step| (!self.waits_in_place || s.until == NO_UNTIL) && occupied[s.goal as usize] != 0;
        let holds = |s: &Step| occupied[s.square as usize] != 0 || on_goal(s);
        let mut k = self.steps.iter().position(|s| !holds(s) && s.until == NO_UNTIL).unwrap_or(self.steps.len());
        while let Some(i) = self.steps[..k].iter().position(|s| !holds(s) && usize::from(s.until) >= k) {
            k = i;
        }
        k as u16
    }
}

/// Whether the boxes on the start squares (`starts`) that do not stand on `walls` (the
/// squares marked non-zero) can fill every goal not in `walls`, each its own, a box alone
/// among the walls and the player walking round it (player-aware distances): the search's
/// matching over this table has a finite cost exactly when a matching over the pairs it
/// reaches covers every goal.
/// `None` when `stop` says so.
fn fillable(a: &Analysis, walls: &[u8], starts: &[bool], stop: &mut dyn FnMut() -> bool) -> Option<bool> {
    let table = crate::solver::frozen::player_aware_blocked(a, walls, &mut || stop())?;
    let goals = a.goals();
    let sources: Vec<usize> = (0..a.squares()).filter(|&s| starts[s] && walls[s] == 0).collect();
    let targets: Vec<usize> = (0..goals).filter(|&g| walls[g] == 0).collect();
    let reaches = |t: usize, k: usize| table[sources[k] * goals + targets[t]] != UNREACHABLE;
    Some(Edges::new(targets.len(), sources.len(), reaches).covers_every_row())
}

/// Whether the player, having just pushed a box onto goal `g` (the goals marked in `filled`,
/// `g` among them, filled), can stand where that push leaves it
/// and still walk to every goal left empty (except those a box stands on at the start): a push
/// from some side onto `g` whose player square and the box's square before it are free, from
/// which every such goal lies in the player's part of the floor, the filled goals and the
/// walls the only obstacles. When no push leaves the player there, the goals out of its
/// reach can never be filled again (no box gets past what the player cannot), so a plan that
/// fills `g` now cannot be followed (XSokoban 74: the goal at the goal room's far entrance
/// filled from outside shuts the player out of the room's other side, whose goals are still
/// empty).
fn player_goes_on(a: &Analysis, filled: &[u8], g: usize, starts: &[bool], reach: &mut Flood) -> bool {
    Dir::ALL.into_iter().any(|d| {
        let Some((from, _)) = push_onto(a, filled, Sq::new(g), d) else { return false };
        reach.player(a, filled, from);
        (0..a.goals()).all(|h| filled[h] != 0 || starts[h] || reach.contains(Sq::new(h)))
    })
}

/// The squares a push in direction `d` onto `s` needs free, the squares marked in `filled`
/// (nonzero) standing: (the box's square before the push, where the player then stands; the
/// player's square before it), `None` when either is a wall or filled.
pub fn push_onto(a: &Analysis, filled: &[u8], s: Sq, d: Dir) -> Option<(Sq, Sq)> {
    let open = |t: Option<Sq>| t.filter(|t| filled[t.index()] == 0);
    let from = open(a.neighbor(s, d.opposite()))?;
    let player = open(a.neighbor(from, d.opposite()))?;
    Some((from, player))
}

/// The non-goal squares the player cannot walk to from `player` with every goal a wall, in
/// parts of the floor where no box starts (`starts`): floor that only the goal area leads to,
/// empty until boxes are brought in through it.
fn behind_goals(a: &Analysis, starts: &[bool], player: usize) -> Vec<bool> {
    let n = a.squares();
    let walls: Vec<u8> = (0..n).map(|s| u8::from(s < a.goals())).collect();
    let mut reach = Flood::new(n);
    reach.player(a, &walls, Sq::new(player));
    // Squares seen by some flood: the player's part, then each part behind the goals in turn.
    let mut seen: Vec<bool> = (0..n).map(|s| reach.contains(Sq::new(s))).collect();
    let mut back = vec![false; n];
    for s in a.goals()..n {
        if seen[s] {
            continue;
        }
        reach.player(a, &walls, Sq::new(s));
        let part: Vec<usize> = (a.goals()..n).filter(|&t| reach.contains(Sq::new(t))).collect();
        let empty = !part.iter().any(|&t| starts[t]);
        for t in part {
            seen[t] = true;
            back[t] = empty;
        }
    }
    back
}

/// How one plan takes the boxes off the goals (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peel {
    /// One box at a time, the one nearest the way out first.
    OneByOne,
    /// In layers: every box that can leave at once.
    Layers,
}

/// The player's walking distance from `player` to every square over the bare floor
/// (`u32::MAX` where it cannot walk).
fn walking_distances(a: &Analysis, player: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; a.squares()];
    dist[player] = 0;
    Flood::new(a.squares()).fill_with(
        a,
        Sq::new(player),
        |_, _| true,
        |s, t| {
            dist[t] = dist[s] + 1;
            true
        },
    );
    dist
}

/// For each start square that is not a goal, the sides of a box on it (bit `d.index()` for
/// the side in direction `d`) that the player can walk to from its start square `player` with
/// that box the only one in the way (where the others stand by then is not known); 0 for every
/// other square. The last pull that brings a box back to a start square leaves the player on
/// the side it pushes from first, forwards; a side in a dead end that only the box closes (a
/// pocket off its square) is no way in, as the player could never get there. `None` when
/// `stop` says so (it is asked before each flood).
fn entry_sides(a: &Analysis, starts: &[bool], player: usize, stop: &mut dyn FnMut() -> bool) -> Option<Vec<u8>> {
    let n = a.squares();
    let mut entries = vec![0u8; n];
    let mut boxed = vec![0u8; n];
    let mut reach = Flood::new(n);
    for s in (a.goals()..n).filter(|&s| starts[s]) {
        if stop() {
            return None;
        }
        boxed[s] = 1;
        reach.player(a, &boxed, Sq::new(player));
        boxed[s] = 0;
        for d in Dir::ALL {
            if a.neighbor(Sq::new(s), d).is_some_and(|t| reach.contains(t)) {
                entries[s] |= 1 << d.index();
            }
        }
    }
    Some(entries)
}

/// The state of [`PackingPlan::backwards`]: the boxes still on goals and parked, the board
/// they make, and the events so far, in backward order.
struct Peeling<'p> {
    a: &'p Analysis,
    starts: &'p [bool],
    entries: &'p [u8],
    occupied: Vec<bool>,
    /// Goals whose box has not left yet.
    remaining: Vec<usize>,
    /// Boxes waiting on parking squares: (parking square, goal).
    parked: Vec<(usize, usize)>,
    events: Vec<Event>,
    pulls: Pulls,
}

impl<'p> Peeling<'p> {
    /// Every goal with its box.
    fn new(a: &'p Analysis, starts: &'p [bool], entries: &'p [u8]) -> Peeling<'p> {
        let (n, goals) = (a.squares(), a.goals());
        let mut occupied = vec![false; n];
        for o in occupied.iter_mut().take(goals) {
            *o = true;
        }
        Peeling {
            a,
            starts,
            entries,
            occupied,
            remaining: (0..goals).collect(),
            parked: Vec::new(),
            events: Vec::with_capacity(goals),
            pulls: Pulls::new(n),
        }
    }

    /// Staging (see the module docs): before any box leaves, boxes that can be pulled into
    /// the floor behind the goals (`back`) wait there, the deepest first. `None` when stopped.
    fn stage(&mut self, back: &[bool], stop: &mut dyn FnMut() -> bool) -> Option<()> {
        let (a, starts, entries) = (self.a, self.starts, self.entries);
        while back.iter().any(|&b| b) {
            // (pulls, goal index in remaining, square)
            let mut best: Option<(u32, usize, usize)> = None;
            for (i, &g) in self.remaining.iter().enumerate() {
                if stop() {
                    return None;
                }
                self.occupied[g] = false;
                self.pulls.leave(a, &self.occupied, g, starts, entries, stop);
                if self.pulls.stopped {
                    return None;
                }
                let reached = std::mem::take(&mut self.pulls.reached);
                let staged = reached.iter().rev().find(|&&p| back[p] && !self.pulls.cuts(a, &self.occupied, p));
                if let Some(&p) = staged {
                    let d = self.pulls.pulls_to(p);
                    if best.is_none_or(|(bd, _, _)| d > bd) {
                        best = Some((d, i, p));
                    }
                }
                self.pulls.reached = reached;
                self.occupied[g] = true;
            }
            let Some((_, i, p)) = best else { break };
            let goal = self.remaining.remove(i);
            self.occupied[goal] = false;
            self.occupied[p] = true;
            self.parked.push((p, goal));
            self.events.push(Event::Park { goal });
        }
        Some(())
    }

    /// Layers: every box that can leave as the goals stand leaves at once (each found with
    /// all the others in place); those that reach a start square, or when none does, those
    /// that reach any square off the goals. Backwards the nearest to the player's start
    /// (`walk`) leaves first, so forwards each layer is filled from its far end. `None` when
    /// stopped.
    fn layers(&mut self, walk: &[u32], stop: &mut dyn FnMut() -> bool) -> Option<()> {
        let (a, starts, entries) = (self.a, self.starts, self.entries);
        let mut layer: Vec<(bool, u32, usize)> = Vec::new();
        while !self.remaining.is_empty() {
            layer.clear();
            for &g in &self.remaining {
                if stop() {
                    return None;
                }
                self.occupied[g] = false;
                let found = self.pulls.leave(a, &self.occupied, g, starts, entries, stop);
                self.occupied[g] = true;
                if self.pulls.stopped {
                    return None;
                }
                if let Some((_, _, to_start)) = found {
                    layer.push((to_start.is_none(), walk[g], g));
                }
            }
            if layer.is_empty() {
                break;
            }
            let far = layer.iter().all(|&(far, _, _)| far);
            layer.retain(|&(f, _, _)| f == far);
            layer.sort_unstable_by_key(|&(_, walk, g)| (walk, g));
            for &(_, _, goal) in &layer {
                self.remaining.retain(|&g| g != goal);
                self.occupied[goal] = false;
                self.events.push(Event::Leave { goal });
            }
        }
        Some(())
    }

    /// The boxes left leave one at a time, the one that gets back to a start square in the
    /// fewest pulls first (see [`Self::next`]); with `park` on, one that cannot waits on a
    /// parking square ([`Self::park`]). `None` when stopped.
    fn one_by_one(&mut self, park: bool, stop: &mut dyn FnMut() -> bool) -> Option<()> {
        while !self.remaining.is_empty() || !self.parked.is_empty() {
            let Some((far, i)) = self.next(stop)? else { break };
            if i >= self.remaining.len() {
                let (park, goal) = self.parked.remove(i - self.remaining.len());
                self.occupied[park] = false;
                self.events.push(Event::Unpark { goal, park });
                continue;
            }
            let goal = self.remaining.remove(i);
            self.occupied[goal] = false;
            if far && park && self.park(goal, stop)? {
                continue;
            }
            self.events.push(Event::Leave { goal });
        }
        Some(())
    }

    /// The box that leaves next, as (whether it cannot get back to a start square, its index
    /// into `remaining` then `parked`); `None` inside when none can leave, outer `None` when
    /// stopped.
    fn next(&mut self, stop: &mut dyn FnMut() -> bool) -> Option<Option<(bool, usize)>> {
        let (a, starts, entries) = (self.a, self.starts, self.entries);
        // (no start, pulls, squares, index into remaining then parked)
        let mut best: Option<(bool, u32, usize, usize)> = None;
        let candidates = self.remaining.iter().copied().chain(self.parked.iter().map(|&(p, _)| p));
        for (i, s) in candidates.enumerate() {
            if stop() {
                return None;
            }
            let is_parked = i >= self.remaining.len();
            self.occupied[s] = false;
            let found = self.pulls.leave(a, &self.occupied, s, starts, entries, stop);
            if self.pulls.stopped {
                return None;
            }
            self.occupied[s] = true;
            let Some((p, roam, to_start)) = found else { continue };
            // A parked box only leaves for good; it never moves to another parking square.
            if is_parked && to_start.is_none() {
                continue;
            }
            let far = to_start.is_none();
            let p = to_start.unwrap_or(p);
            // A parked box leaves as soon as it can: forward, it arrives on its parking
            // square as late as it can, where it stands in the way least.
            let p = if is_parked { 0 } else { p };
            let better = match best {
                None => true,
                Some((bf, bp, br, _)) => (far, p) < (bf, bp) || ((far, p) == (bf, bp) && roam > br),
            };
            if better {
                best = Some((far, p, roam, i));
            }
        }
        Some(best.map(|(far, _, _, i)| (far, i)))
    }

    /// No box can get back to where boxes start: the one from `goal` waits on the nearest
    /// square it can reach that does not cut the floor in two, so the others can still get
    /// past it (forward: it is brought there early and fills its goal late); true when it
    /// parks. If every such square cuts the floor, it leaves (as far as the plan is
    /// concerned) without blocking anything. `None` when stopped.
    fn park(&mut self, goal: usize, stop: &mut dyn FnMut() -> bool) -> Option<bool> {
        let (a, starts, entries) = (self.a, self.starts, self.entries);
        self.pulls.leave(a, &self.occupied, goal, starts, entries, stop);
        if self.pulls.stopped {
            return None;
        }
        // Each test floods the floor: on a huge level the stop check is asked per test.
        let reached = std::mem::take(&mut self.pulls.reached);
        let mut park = None;
        for &p in &reached {
            if stop() {
                return None;
            }
            if !self.pulls.cuts(a, &self.occupied, p) {
                park = Some(p);
                break;
            }
        }
        let Some(park) = park else { return Some(false) };
        self.occupied[park] = true;
        self.parked.push((park, goal));
        self.events.push(Event::Park { goal });
        Some(true)
    }

    /// The plan: locked goals (if any) filled first, in index order, then the reversed
    /// events. `Err` when some parked box never left.
    fn plan(self) -> Result<PackingPlan, ()> {
        if !self.parked.is_empty() {
            return Err(());
        }
        let mut steps: Vec<Step> = self.remaining.iter().map(|&g| Step::new(g as u16, g as u16)).collect();
        for e in self.events.iter().rev() {
            steps.push(match *e {
                Event::Leave { goal } | Event::Park { goal } => Step::new(goal as u16, goal as u16),
                Event::Unpark { goal, park } => Step::new(park as u16, goal as u16),
            });
        }
        let order: Vec<u16> = steps.iter().filter(|s| s.square == s.goal).map(|s| s.goal).collect();
        let mut rank = vec![0u16; self.a.goals()];
        for (i, &g) in order.iter().enumerate() {
            rank[g as usize] = i as u16;
        }
        Ok(PackingPlan { order, rank, steps, waits_in_place: false, staged: None })
    }
}

/// Breadth-first search over pulls of one box: a node is the box's square and the side the
/// player stands on.
struct Pulls {
    seen: Vec<bool>,
    dist: Vec<u32>,
    queue: Vec<usize>,
    /// The articulation points of the free floor round the box (see [`Pulls::sides_joined`]),
    /// and the boxes as [`Cuts`] reads them.
    cuts: Cuts,
    occupied: Vec<u8>,
    /// The floods for [`Pulls::cuts`].
    sides: SideFlood,
    roam: Vec<bool>,
    /// Work (nodes and flood steps) since the last stop check.
    work: usize,
    /// The non-goal squares the last search reached, fewest pulls first.
    reached: Vec<usize>,
    /// Set when a stop check ended a search.
    stopped: bool,
}

/// Work units (search nodes and flood steps) between two stop checks: about a tenth of a
/// millisecond, whatever the level's size.
const WORK_PER_CHECK: usize = 1 << 14;

impl Pulls {
    fn new(n: usize) -> Pulls {
        Pulls {
            seen: vec![false; n * 4],
            dist: vec![0; n * 4],
            queue: Vec::new(),
            cuts: Cuts::new(n),
            occupied: vec![0; n],
            sides: SideFlood::new(n),
            roam: vec![false; n],
            work: 0,
            reached: Vec::new(),
            stopped: false,
        }
    }

    /// The fewest pulls that bring the box on `g` (not marked in `occupied`) to a non-goal
    /// square, how many squares it can reach by pulls, and the fewest pulls to a non-goal
    /// square in `starts` that leave the player on a side `entries` marks for it (see
    /// [`entry_sides`]); `None` if it cannot leave.
    fn leave(
        &mut self,
        a: &Analysis,
        occupied: &[bool],
        g: usize,
        starts: &[bool],
        entries: &[u8],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(u32, usize, Option<u32>)> {
        self.seen.fill(false);
        self.roam.fill(false);
        self.reached.clear();
        self.queue.clear();
        let free = |s: Option<Sq>| s.is_some_and(|s| !occupied[s]);
        self.grow_forest(a, occupied, g);
        // The player may start on any free square next to the box.
        for d in Dir::ALL {
            if free(a.neighbor(Sq::new(g), d)) {
                let node = g * 4 + d.index();
                self.seen[node] = true;
                self.dist[node] = 0;
                self.queue.push(node);
            }
        }
        let mut best: Option<u32> = None;
        let mut to_start: Option<u32> = None;
        let mut head = 0;
        while head < self.queue.len() {
            // One search can be long on a huge level: ask by the work done, not by nodes.
            self.work += 1;
            if self.work >= WORK_PER_CHECK {
                self.work = 0;
                if stop() {
                    self.stopped = true;
                    return None;
                }
            }
            let node = self.queue[head];
            head += 1;
            let (pos, side) = (node / 4, Dir::ALL[node % 4]);
            let dist = self.dist[node];
            if !self.roam[pos] {
                self.roam[pos] = true;
                if pos >= a.goals() {
                    self.reached.push(pos);
                }
            }
            if pos >= a.goals() && best.is_none() {
                best = Some(dist);
            }
            if pos >= a.goals() && starts[pos] && to_start.is_none() && entries[pos] >> side.index() & 1 == 1 {
                to_start = Some(dist);
            }
            // Which sides the player can reach with the box on `pos`.
            let sides = self.sides_joined(a, g, pos, side);
            for e in Dir::ALL {
                if sides & (1 << e.index()) == 0 {
                    continue;
                }
                // Pull towards `e`: the player on the `e` side steps further in direction `e`.
                let p = a.neighbor(Sq::new(pos), e).expect("a reachable side is floor");
                if !free(a.neighbor(p, e)) {
                    continue;
                }
                let next = p.index() * 4 + e.index();
                if !self.seen[next] {
                    self.seen[next] = true;
                    self.dist[next] = dist + 1;
                    self.queue.push(next);
                }
            }
        }
        let roam = self.roam.iter().filter(|&&r| r).count();
        best.map(|b| (b, roam, to_start))
    }

    /// Starts [`Pulls::sides_joined`] for the box on `g` (`occupied` marks the other boxes):
    /// one depth-first search over the free floor round it, the box in place.
    fn grow_forest(&mut self, a: &Analysis, occupied: &[bool], g: usize) {
        self.occupied.clear();
        self.occupied.extend(occupied.iter().map(|&o| u8::from(o)));
        self.occupied[g] = 1;
        self.cuts.start_forest();
        for t in a.neighbor_indices(Sq::new(g)) {
            if self.occupied.get(usize::from(t)) == Some(&0) {
                self.cuts.grow_tree(a, &self.occupied, usize::from(t));
            }
        }
        self.occupied[g] = 0;
        // The search visits each square at most once.
        self.work += a.squares();
    }

    /// Bit mask of the sides of `pos` the player reaches from its `side` once the box from
    /// `g` stands there (after [`Pulls::grow_forest`] for `g`): the sides whose part of the
    /// floor is the player's, read from the articulation points without a flood.
    fn sides_joined(&mut self, a: &Analysis, g: usize, pos: usize, side: Dir) -> u8 {
        let lows = self.cuts.lows_with_box_on(a, &mut self.occupied, g, pos);
        let own = lows[side.index()];
        let mut mask = 0;
        for (d, &low) in lows.iter().enumerate() {
            if low != NO_SQUARE && low == own {
                mask |= 1 << d;
            }
        }
        mask
    }

    /// The fewest pulls the last search needed to bring its box to `s`, a square it reached.
    fn pulls_to(&self, s: usize) -> u32 {
        (0..4).filter(|&d| self.seen[s * 4 + d]).map(|d| self.dist[s * 4 + d]).min().unwrap_or(0)
    }

    /// Whether a box on the free square `s` would leave its free neighbours in more than one
    /// region of the floor (see [`SideFlood::cuts`]), its flood counted as work.
    fn cuts(&mut self, a: &Analysis, occupied: &[bool], s: usize) -> bool {
        let cuts = self.sides.cuts(a, occupied, s);
        self.work += self.sides.take_steps();
        cuts
    }
}

/// Floods of the floor round a box: which of its sides the player reaches from one of them,
/// and whether the box cuts the floor. The plan's parking squares and the staging advisor's
/// squares (`staging.rs`) must not cut it.
pub(super) struct SideFlood {
    /// The current flood round the box.
    flood: Flood,
    /// Flood steps since [`SideFlood::take_steps`] last asked.
    steps: usize,
}

impl SideFlood {
    pub(super) fn new(n: usize) -> SideFlood {
        SideFlood { flood: Flood::new(n), steps: 0 }
    }

    /// Flood steps taken since the last call.
    fn take_steps(&mut self) -> usize {
        std::mem::take(&mut self.steps)
    }

    /// Whether a box on `s` (marked in `occupied` or not) would leave its free neighbours in
    /// more than one region of the floor (`occupied` marks the boxes).
    pub(super) fn cuts(&mut self, a: &Analysis, occupied: &[bool], s: usize) -> bool {
        let mut free = 0u8;
        let mut first = None;
        for d in Dir::ALL {
            if let Some(t) = a.neighbor(Sq::new(s), d).filter(|&t| !occupied[t]) {
                free |= 1 << d.index();
                first.get_or_insert(t);
            }
        }
        first.is_some_and(|start| self.reachable_sides(a, occupied, s, start) != free)
    }

    /// Bit mask of the sides of `pos` (free squares) reachable from `start` around the box on
    /// `pos`. The flood stops once every free side is reached (in open floor, after a few
    /// steps), which gives the same mask as flooding the whole region.
    fn reachable_sides(&mut self, a: &Analysis, occupied: &[bool], pos: usize, start: Sq) -> u8 {
        let pos = Sq::new(pos);
        let sides = Dir::ALL.map(|d| a.neighbor(pos, d).filter(|&t| !occupied[t]));
        let missing = Cell::new(sides.iter().filter(|t| t.is_some_and(|t| t != start)).count());
        let open = |t: Sq| t != pos && !occupied[t];
        self.steps += self.flood.fill_with(
            a,
            start,
            |_, _| missing.get() > 0,
            |_, t| {
                if !open(t) {
                    return false;
                }
                missing.set(missing.get() - sides.iter().filter(|&&side| side == Some(t)).count());
                true
            },
        );
        let mut mask = 0;
        for (d, side) in Dir::ALL.into_iter().zip(sides) {
            if side.is_some_and(|t| self.flood.contains(t)) {
                mask |= 1 << d.index();
            }
        }
        mask
    }
}

/// The squares the level's boxes start on, marked.
pub(super) fn start_squares(level: &Level, a: &Analysis) -> Vec<bool> {
    let mut starts = vec![false; a.squares()];
    for b in level.boxes() {
        starts[a.sq(*b).index()] = true;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    fn plan_of(text: &str) -> (crate::level::Level, Analysis, PackingPlan) {
        peeled_plan_of(text, Peel::OneByOne)
    }

    fn peeled_plan_of(text: &str, peel: Peel) -> (crate::level::Level, Analysis, PackingPlan) {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let (starts, player) = (start_squares(&level, &a), a.sq(level.player()).index());
        let plan = PackingPlan::peeled(&a, &starts, player, true, peel, &mut || false).expect("never stopped");
        (level, a, plan)
    }

    /// A diagonal band of goal and box lines (a cut-down Microban II 131): goal lines at the
    /// walls on both sides (r + c = 7 and 14), goal lines between the box lines (9 and 12).
    const BAND: &str = "      ####\n    ###  ###\n   ##.$.   #\n  ##.$.$$. #\n ##.$.$$.$##\n##.$.$$.$.#\n#.$.$$.$.##\n## $$.$.##\n #@  $.##\n ####.##\n    ###\n";

    #[test]
    fn in_layers_the_goals_at_the_walls_fill_first_from_the_far_end() {
        let (level, a, layered) = peeled_plan_of(BAND, Peel::Layers);
        let (_, _, one_by_one) = plan_of(BAND);
        let lines = |plan: &PackingPlan| -> Vec<(usize, usize)> {
            plan.order.iter().map(|&g| level.coords(a.square(Sq::new(g as usize)))).map(|(r, c)| (r + c, r)).collect()
        };
        let (layered, one_by_one) = (lines(&layered), lines(&one_by_one));
        // The deepest layer: eight of the ten goals at the walls (the two at the band's
        // bottom end open only once the lines between are empty).
        let outer = layered.iter().take_while(|(line, _)| *line == 7 || *line == 14).count();
        assert_eq!(outer, 8, "goals at the walls before any between the box lines: {layered:?}");
        // Farthest from the player (bottom left) first: the band's top end.
        assert!(layered[0].1 < layered[outer - 1].1, "{layered:?}");
        // One box at a time, each box taken off opens the goal behind it: the lines mix.
        let mixed = one_by_one.iter().take(8).filter(|(line, _)| *line == 9 || *line == 12).count();
        assert!(mixed > 0, "{one_by_one:?}");
        let mut sorted = layered.clone();
        sorted.sort_unstable();
        let mut all = one_by_one.clone();
        all.sort_unstable();
        assert_eq!(sorted, all, "both plans fill every goal once");
    }

    #[test]
    fn in_layers_a_goal_corridor_still_fills_from_its_far_end() {
        let corridor = "########
#...  @#
#### $ #
#### $ #
#### $ #
####   #
########
";
        let (level, a, plan) = peeled_plan_of(corridor, Peel::Layers);
        let cols: Vec<usize> = plan.order.iter().map(|&g| level.coords(a.square(Sq::new(g as usize))).1).collect();
        assert_eq!(cols, vec![1, 2, 3]);
    }

    #[test]
    fn a_dead_end_goal_corridor_fills_from_the_far_end() {
        // Goals in a one-wide dead-end corridor opening at column 4: the deepest goal first.
        let (level, a, plan) = plan_of("########\n#...  @#\n#### $ #\n#### $ #\n#### $ #\n####   #\n########\n");
        let cols: Vec<usize> = plan.order.iter().map(|&g| level.coords(a.square(Sq::new(g as usize))).1).collect();
        assert_eq!(cols, vec![1, 2, 3], "deepest goal of the corridor first");
    }

    #[test]
    fn the_goal_nearest_the_start_squares_fills_last() {
        // The same corridor both ways round: the boxes come in from one end, so the goal at
        // that end must wait until the far goal holds its box.
        for (text, last_col) in
            [("#########\n#$$.  . #\n#@      #\n#########\n", 3), ("#########\n# .  .$$#\n#      @#\n#########\n", 5)]
        {
            let (level, a, plan) = plan_of(text);
            let last = level.coords(a.square(Sq::new(plan.order[1] as usize)));
            assert_eq!(last, (1, last_col), "{text}");
        }
    }

    #[test]
    fn a_pull_that_shuts_the_player_in_a_dead_end_is_no_way_back_to_the_start() {
        // The goal box can be pulled down onto the start square below it only with the player
        // stepping into the dead end under that square, where it could never have come from;
        // pulled sideways it reaches a square that is no start square.
        let text = "#######\n#@ .  #\n###$###\n### ###\n#######\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |r: usize, c: usize| a.sq(level.square_at(r, c).unwrap()).index();
        let starts = start_squares(&level, &a);
        let occupied = vec![false; a.squares()];
        let mut pulls = Pulls::new(a.squares());
        let entries = entry_sides(&a, &starts, at(1, 1), &mut || false).expect("never stopped");
        let (fewest, _, to_start) =
            pulls.leave(&a, &occupied, at(1, 3), &starts, &entries, &mut || false).expect("the box can leave");
        assert_eq!(fewest, 1);
        assert_eq!(to_start, None);
        // With the player starting in the dead end, the same pull is its way in.
        let entries = entry_sides(&a, &starts, at(3, 3), &mut || false).expect("never stopped");
        let (_, _, to_start) =
            pulls.leave(&a, &occupied, at(1, 3), &starts, &entries, &mut || false).expect("the box can leave");
        assert_eq!(to_start, Some(1));
    }

    #[test]
    fn the_sides_read_from_articulation_points_are_the_floods() {
        // Boxes in corridors, in a room and beside a pocket: for each box lifted and every
        // square it could stand on, from each free side, the player reaches the same sides.
        let text = "##########\n#@  #    #\n# $$  #$ #\n##  # ## #\n#  $    $#\n# ##$##  #\n#   .. . #\n#  ...  ##\n##########\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let mut pulls = Pulls::new(a.squares());
        let mut flood = SideFlood::new(a.squares());
        let mut compared = 0;
        for g in (0..a.squares()).filter(|&g| starts[g]) {
            let mut occupied = starts.clone();
            occupied[g] = false;
            pulls.grow_forest(&a, &occupied, g);
            // The squares the box can stand on: the free floor round `g`.
            let mut floor = Flood::new(a.squares());
            floor.fill(&a, Sq::new(g), |t| !occupied[t.index()]);
            for pos in (0..a.squares()).filter(|&p| floor.contains(Sq::new(p))) {
                for side in Dir::ALL {
                    let Some(start) = a.neighbor(Sq::new(pos), side).filter(|&t| !occupied[t.index()]) else {
                        continue;
                    };
                    let joined = pulls.sides_joined(&a, g, pos, side);
                    assert_eq!(joined, flood.reachable_sides(&a, &occupied, pos, start), "box from {g} on {pos}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn reachable_sides_stop_early_with_the_whole_floods_answer() {
        // A box in a one-wide corridor into an open room: from the corridor side only that
        // side is reachable (the flood covers the whole corridor end first); from the room all
        // three free sides are (reached within a few steps).
        let text = "########\n#@     #\n#  $   #\n###.####\n###    #\n########\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |r: usize, c: usize| a.sq(level.square_at(r, c).unwrap()).index();
        let mut occupied = vec![false; a.squares()];
        let pos = at(3, 3);
        occupied[pos] = true;
        let mut pulls = SideFlood::new(a.squares());
        let below = pulls.reachable_sides(&a, &occupied, pos, Sq::new(at(4, 3)));
        assert_eq!(below, 1 << Dir::Down.index());
        let above = pulls.reachable_sides(&a, &occupied, pos, Sq::new(at(2, 3)));
        assert_eq!(above, 1 << Dir::Up.index());
        let room = at(2, 3);
        occupied.fill(false);
        occupied[room] = true;
        let sides = pulls.reachable_sides(&a, &occupied, room, Sq::new(at(1, 3)));
        let free = [Dir::Up, Dir::Left, Dir::Right].iter().map(|d| 1u8 << d.index()).sum::<u8>();
        assert_eq!(sides, free, "the three room sides; the corridor below is cut off");
    }

    #[test]
    fn a_goal_that_blocks_the_way_to_the_goals_behind_it_cannot_be_filled_first() {
        // A dead-end goal corridor entered from the left: the goal at its mouth, filled first,
        // walls off the deeper one; the deepest goal first leaves the other fillable.
        let text = "########\n#@$$ ..#\n########\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let goal_at = |c: usize| a.sq(level.square_at(1, c).unwrap()).index();
        let mut walls = vec![0u8; a.squares()];
        walls[goal_at(5)] = 1;
        assert_eq!(fillable(&a, &walls, &starts, &mut || false), Some(false));
        walls.fill(0);
        walls[goal_at(6)] = 1;
        assert_eq!(fillable(&a, &walls, &starts, &mut || false), Some(true));
        walls.fill(0);
        assert_eq!(fillable(&a, &walls, &starts, &mut || false), Some(true), "nothing filled yet");
    }

    #[test]
    fn the_check_puts_off_a_first_goal_that_cuts_the_player_off_and_keeps_every_goal_once() {
        // XSokoban 69: the backward plan fills a corner goal first that, filled, leaves most
        // boxes (those that come in from the left) unable to get past it; checked forwards the
        // first goal is one whose filling leaves the rest fillable.
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/xsokoban90.xsb")).unwrap();
        let levels = parse_levels(&text).unwrap();
        let level = &levels[68];
        let a = Analysis::new(level);
        let starts = start_squares(level, &a);
        let plan = PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), true, Peel::OneByOne, &mut || false)
            .unwrap();
        let checked = plan.checked_from_start(&a, &starts, &mut || false).unwrap();
        let first_ok = |g: u16| {
            let mut walls = vec![0u8; a.squares()];
            walls[g as usize] = 1;
            fillable(&a, &walls, &starts, &mut || false).unwrap()
        };
        assert!(!first_ok(plan.order[0]), "the backward plan's first goal fails the check");
        assert!(first_ok(checked.order[0]));
        for p in [&plan, &checked] {
            let mut sorted = p.order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..a.goals() as u16).collect::<Vec<_>>());
            for (i, &g) in p.order.iter().enumerate() {
                assert_eq!(p.rank[g as usize] as usize, i);
            }
            assert!(p.steps.iter().map(|s| s.goal).eq(p.order.iter().copied()));
        }
    }

    #[test]
    fn a_goal_whose_filling_shuts_the_player_away_from_the_empty_goals_fails() {
        // A dead-end goal corridor entered from the left: filled first, the goal at its mouth
        // leaves the player outside (the only push onto it comes from the left), away from the
        // deeper goal; the deepest goal first leaves the player on the other one.
        let text = "#######\n#@$$..#\n#######\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let goal_at = |c: usize| a.sq(level.square_at(1, c).unwrap()).index();
        let mut reach = Flood::new(a.squares());
        for (first, ok) in [(4, false), (5, true)] {
            let mut filled = vec![0u8; a.squares()];
            filled[goal_at(first)] = 1;
            assert_eq!(player_goes_on(&a, &filled, goal_at(first), &starts, &mut reach), ok, "{first}");
        }
    }

    #[test]
    fn the_checked_plan_never_shuts_the_player_away_from_the_goals_left() {
        // XSokoban 74: the backward plan fills the goal room's right-hand entrance from outside
        // while goals on the room's left-hand side are still empty, which leaves the player on
        // the right with no way back; the checked plan fills it from inside first.
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/xsokoban90.xsb")).unwrap();
        let level = &parse_levels(&text).unwrap()[73];
        let a = Analysis::new(level);
        let starts = start_squares(level, &a);
        let plan = PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), true, Peel::OneByOne, &mut || false)
            .unwrap();
        let checked = plan.checked_from_start(&a, &starts, &mut || false).unwrap();
        let mut reach = Flood::new(a.squares());
        let goes_on = |order: &[u16], reach: &mut Flood| {
            let mut filled = vec![0u8; a.squares()];
            order.iter().all(|&g| {
                filled[g as usize] = 1;
                player_goes_on(&a, &filled, g as usize, &starts, reach)
            })
        };
        assert!(!goes_on(&plan.order, &mut reach), "the backward plan shuts the player out");
        assert!(goes_on(&checked.order, &mut reach));
    }

    #[test]
    fn a_plan_that_passes_the_check_is_kept_as_it_is() {
        let (level, a, plan) = plan_of("########\n#...  @#\n#### $ #\n#### $ #\n#### $ #\n####   #\n########\n");
        let checked = plan.checked_from_start(&a, &start_squares(&level, &a), &mut || false).unwrap();
        assert_eq!(checked, plan);
    }

    #[test]
    fn a_step_whose_box_moved_on_holds_while_its_next_step_is_done() {
        // Squares 5 and 6 are not goals; goals 0 and 1. The box for goal 0 waits on 5, then
        // on 6, then fills 0; goal 1 is filled straight.
        let step = |square, goal, until| Step { square, goal, until };
        let steps = vec![step(5, 0, 2), step(1, 1, NO_UNTIL), step(6, 0, 3), step(0, 0, NO_UNTIL)];
        let plan = PackingPlan { order: vec![1, 0], rank: vec![1, 0], steps, waits_in_place: false, staged: None };
        let mut occupied = vec![0u8; 8];
        let packed = |occupied: &[u8]| plan.packed(occupied);
        occupied[5] = 1;
        assert_eq!(packed(&occupied), 1);
        occupied[1] = 1;
        assert_eq!(packed(&occupied), 2);
        // On to its next square: the first step holds through the third.
        (occupied[5], occupied[6]) = (0, 1);
        assert_eq!(packed(&occupied), 3);
        (occupied[6], occupied[0]) = (0, 1);
        assert_eq!(packed(&occupied), 4);
        // The second step undone cuts the prefix there, and with it the first step's hold.
        occupied[1] = 0;
        assert_eq!(packed(&occupied), 1);
        occupied[0] = 0;
        assert_eq!(packed(&occupied), 0);
    }

    #[test]
    fn a_waiting_step_in_place_holds_only_where_its_box_waits() {
        // The plan above: the box for goal 0 stands on its goal before goal 1 is filled. The
        // waits count it as arrived, unless they are kept in place (the staged plan's rule).
        let step = |square, goal, until| Step { square, goal, until };
        let steps = vec![step(5, 0, 2), step(1, 1, NO_UNTIL), step(6, 0, 3), step(0, 0, NO_UNTIL)];
        let mut plan = PackingPlan { order: vec![1, 0], rank: vec![1, 0], steps, waits_in_place: false, staged: None };
        let mut occupied = vec![0u8; 8];
        occupied[0] = 1;
        assert_eq!(plan.packed(&occupied), 1);
        plan.waits_in_place = true;
        assert_eq!(plan.packed(&occupied), 0);
        // Once goal 1 is filled, the box's last step is in the prefix and its waits with it.
        occupied[1] = 1;
        assert_eq!(plan.packed(&occupied), 4);
        occupied[0] = 0;
        occupied[5] = 1;
        assert_eq!(plan.packed(&occupied), 2);
    }

    #[test]
    fn rank_is_the_inverse_of_order() {
        let (_, _, plan) = plan_of("########\n#...  @#\n#### $ #\n#### $ #\n#### $ #\n####   #\n########\n");
        for (i, &g) in plan.order.iter().enumerate() {
            assert_eq!(plan.rank[g as usize] as usize, i);
        }
        let mut sorted = plan.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2]);
    }

    #[test]
    fn a_goal_room_behind_a_door_fills_the_far_side_first() {
        // A 2x2 goal room entered through the door at row 2, column 3.
        let text = "#########\n#..#    #\n#..   $ #\n#####$$ #\n#####$@ #\n#########\n";
        let (level, a, plan) = plan_of(text);
        let first = level.coords(a.square(Sq::new(plan.order[0] as usize)));
        let last = level.coords(a.square(Sq::new(plan.order[3] as usize)));
        assert_eq!(first.1, 1, "a goal in the far column first, got {first:?}");
        assert_eq!(last, (2, 2), "the goal at the door last");
    }

    #[test]
    fn floor_behind_the_goals_is_what_only_the_goals_lead_to_and_no_box_starts_in() {
        // The square after the goal is reached only through it.
        let level = parse_levels("#######\n#@$ . #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let back = behind_goals(&a, &start_squares(&level, &a), a.sq(level.player()).index());
        let behind: Vec<(usize, usize)> =
            (0..a.squares()).filter(|&s| back[s]).map(|s| level.coords(a.square(Sq::new(s)))).collect();
        assert_eq!(behind, vec![(1, 5)]);
        // A box starts behind the first goal: boxes come from there, it is no staging room.
        let level = parse_levels("#########\n#@$ .$ .#\n#########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let back = behind_goals(&a, &start_squares(&level, &a), a.sq(level.player()).index());
        assert!(back.iter().all(|&b| !b));
    }

    #[test]
    fn boxes_wait_behind_the_goal_room_and_arrive_there_late() {
        // XSokoban 88: a corridor below the goal room, reachable only through it. Its boxes
        // are staged there and fill the goals next to it last; they arrive after most goals
        // are filled (staged early, they stand in the way of the rest).
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/xsokoban90.xsb")).unwrap();
        let level = parse_levels(&text).unwrap().remove(87);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let back = behind_goals(&a, &starts, a.sq(level.player()).index());
        let plan = PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), true, Peel::OneByOne, &mut || false)
            .unwrap();
        let parks: Vec<(usize, Step)> =
            plan.steps.iter().copied().enumerate().filter(|(_, s)| s.square != s.goal).collect();
        assert_eq!(parks.len(), 3, "{:?}", plan.steps);
        let last: Vec<u16> = plan.order[plan.order.len() - 3..].to_vec();
        for (i, step) in parks {
            assert!(back[step.square as usize], "a staging square behind the goals");
            assert!(last.contains(&step.goal), "staged boxes fill the last goals");
            assert!(i > plan.steps.len() / 2, "staged late, at step {i} of {}", plan.steps.len());
        }
        let without =
            PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), false, Peel::OneByOne, &mut || false)
                .unwrap();
        assert!(without.steps.iter().all(|s| s.square == s.goal));
    }

    #[test]
    fn parking_steps_come_before_their_goal_and_every_goal_is_filled_once() {
        // XSokoban 87's goal room cannot be emptied without a box waiting aside; whatever the
        // plan chooses, its steps must be consistent.
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/xsokoban90.xsb")).unwrap();
        let levels = parse_levels(&text).unwrap();
        let mut parking_seen = false;
        for level in levels.iter().take(90) {
            let a = Analysis::new(level);
            let starts = start_squares(level, &a);
            let plan =
                PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), true, Peel::OneByOne, &mut || false)
                    .expect("never stopped");
            let mut fills: Vec<u16> = plan.steps.iter().filter(|s| s.square == s.goal).map(|s| s.goal).collect();
            assert_eq!(fills, plan.order);
            fills.sort_unstable();
            assert_eq!(fills, (0..a.goals() as u16).collect::<Vec<_>>(), "each goal filled once");
            for (i, s) in plan.steps.iter().enumerate() {
                if s.square != s.goal {
                    parking_seen = true;
                    assert!(s.square as usize >= a.goals(), "parking squares are not goals");
                    let fill = plan.steps.iter().position(|t| t.square == s.goal && t.goal == s.goal).unwrap();
                    assert!(i < fill, "a box parks before it fills its goal");
                }
            }
            let without =
                PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), false, Peel::OneByOne, &mut || false)
                    .expect("never stopped");
            assert!(without.steps.iter().all(|s| s.square == s.goal));
        }
        assert!(parking_seen, "some XSokoban goal room needs a parking square");
    }
}
