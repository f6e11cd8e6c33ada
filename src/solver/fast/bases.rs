//! The first pass's packing plan from a backward search that takes boxes away where boxes
//! start (after the packing search of FESS, Shoham & Schaeffer 2020).
//!
//! The peel of `packing.rs` pulls one box at a time off the goals, the others staying on
//! theirs, and asks each to get back to a start square. In a goal room filled from storage
//! outside it, no box can leave alone: the room's boxes must come out together, wait on the
//! floor outside, and go on from there. This search works on whole positions: from the solved
//! position (a root per region of the free floor), macro pulls (one box, any number of pulls,
//! the player walking between them) over states of boxes and of the start squares not used
//! yet (*bases*). A pull that ends on a base at least [`FAR`] pulls from where the box left,
//! the other boxes still matched to the other bases, is a *base move*: the box and the base
//! both vanish (forwards: a box comes from the start squares and arrives where the pull
//! began). A base move is all a line needs to know of where the box comes from, which keeps
//! the search small: once every box is gone, the line is a plan. When some child of a state
//! is a base move, the children are base moves only, one per box.
//!
//! States are taken fewest boxes first, then fewest boxes on goals, then the boxes farthest
//! (pushes to the nearest goal, summed) from the goals, the newest first on a tie: a line
//! empties the goal room before it spends pulls on taking boxes away, as FESS's packing search
//! ranks its states. Taking the boxes nearest the bases first (the matching the backward
//! searches of `pull.rs` use) stalls: the boxes left jam the room's way out.
//!
//! The staged plan ([`Leave::StartAreaOpen`], FESS's rule for its base moves): a box may
//! leave only while the player can walk to every base of the largest group of bases that
//! reach each other by pushes (the boxes standing as walls), and only onto one of those. In a
//! goal room filled from storage round it, the room's boxes must then first be pulled out
//! onto the floor near the room, out of the player's way to the start area, before any
//! leaves: forwards, the boxes come from the start area to those squares first, staged, and
//! go in from there in order. States are then taken from cells (boxes left, player regions,
//! boxes on goals) in turn, the cell with the fewest boxes twice a round, each giving its
//! state with the boxes farthest from the goals, newest first: the line that opens the
//! player's way is rarely the one that keeps the fewest boxes on goals. Festival's packing
//! search makes its lines this way; on levels without such a room the two plans mostly
//! agree, and where they differ each leads on levels the other misleads on. The first pass
//! ([`first_plan`]) follows the anytime line's plan when that line takes every box away, and
//! the staged plan when it does not: a line that leaves boxes has met boxes that cannot come
//! out one at a time, the staged search's kind of level; elsewhere the staged plan is a pass
//! of its own (see the module docs of `super`).
//!
//! The staged pass's plan comes from the staged search with *advice* (FESS's packing search
//! advises, of each state, a pull out of the goal room): of a state's pulls, the one that
//! takes a box off the goals to the square farthest from them keeps the state's cost, every
//! other adds one, and each cell gives its cheapest state first, then the farthest. A line of
//! advised pulls, which empties a goal room onto storage squares round it, costs nothing and
//! comes out whole where the unadvised order, one state per cell a round, reaches it only
//! after thousands of expansions or never (XSokoban 50 parks thirteen boxes before the goal
//! room's entrance is filled; the unadvised search leaves 13 of its 16 boxes within 2,000
//! expansions, the advised one every box within [`ADVISED_EXPANSIONS`]). The first plan's
//! staged search goes without: that plan is made for every level before the first pass, and
//! at a fixed budget the advised order lost levels whose first pass follows the staged plan
//! as it is (the benchmark log has the figures). So does the short schedule's pass on the
//! other plan, made before the second pass (see the parent module): the advised search's
//! longer budget there delayed the second pass past levels it finds near a short limit.
//!
//! The plan is the line to the state with the fewest boxes, reversed: each pull becomes a step
//! on the square the box arrives on forwards, with the goal it ends on, so a box that waits
//! outside the room and is pushed in later has a step for each square, linked by
//! [`Step::until`]. Boxes the line never took away come first, on the squares it left them,
//! those that stay there in an order that never shuts the player out of a square it must push
//! from later (`fill_order.rs`).
//! A line that takes only some boxes away still leads: the boxes it leaves come first, where it
//! left them. The plan is `None` when the line takes no box away (small levels, where no pull
//! is long enough): the peel's plan serves.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::rc::Rc;

use hashbrown::{DefaultHashBuilder, HashSet, HashTable};
use std::hash::BuildHasher;

use super::bipartite::Edges;
use super::fill_order::{self, fill_order};
use super::packing::{NO_UNTIL, PackingPlan, Step};
use crate::analysis::region::{Labels, Stamps, relaxed_pulls, relaxed_pushes};
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::Dir;
use crate::solver::cuts::{Cuts, distinct_sides};

/// A base move takes a box at least this many pulls (FESS's "big distance"): a box pulled onto
/// a base a few squares off is not away; it stands where the forward search must move it.
pub const FAR: u16 = 6;

/// The expansions the search may take: most levels lose every box in a few hundred.
pub const EXPANSIONS: usize = 2000;

/// The expansions of the advised search (see the module docs), which makes the staged pass's
/// plan when that pass starts rather than every solve's first plan: its lines grow longer
/// before they take boxes away.
pub const ADVISED_EXPANSIONS: usize = 10_000;

/// The bytes the states may take (their boxes and bases, counted for each state, though a
/// state shares its parent's bases when they are the same): the search stops at this size
/// with the best line it has.
pub const MAX_BYTES: usize = 32 << 20;

/// No square.
const NONE: u16 = u16::MAX;

/// The stop check (which reads the clock) is asked once per this many pull nodes: once per
/// node, the clock took a few percent of a big level's time.
const STOP_EVERY: u32 = 64;

/// When a pull may take a box away at a base (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leave {
    /// Whenever a long enough pull takes it onto a base.
    Anytime,
    /// Only while the player reaches every base of the largest group that reach each other,
    /// onto one of them; states taken from cells in turn (the staged plan).
    StartAreaOpen,
}

/// A state of the search.
struct Node {
    parent: u32,
    /// The pulled box's square before and after the pull (unused for a root).
    from: u16,
    to: u16,
    /// Whether the pull was a base move (the box vanished).
    removed: bool,
    /// The boxes' squares, sorted.
    boxes: Vec<u16>,
    /// The bases left, sorted (shared with the parent when it took no box away).
    bases: Rc<[u16]>,
    /// Lowest square of the player's region.
    player: u16,
    /// How many parts the boxes cut the free floor into, when the expansion that made the
    /// state worked it out ([`NONE`] when not: [`Search::push`] then labels them).
    regions: u16,
    /// The pulls on the line to the state that were not the advised one (see
    /// [`Search::advise`]).
    weight: u32,
}

/// Where one macro pull takes a box.
struct Pull {
    to: u16,
    pulls: u16,
    /// The square the player stands on after the last pull.
    player: u16,
    /// How many parts of the floor the box's square touches once it stands there (the other
    /// boxes in place).
    parts: u16,
}

/// The open list: (boxes left, cell key, rank in the cell, newest first, state); the cell
/// key is the boxes on goals, after the player regions under [`Leave::StartAreaOpen`].
type Open = BinaryHeap<Reverse<(usize, u64, Rank, Reverse<u32>)>>;

/// A state's rank in its cell: the fewest pulls the advice did not name (none counted
/// without advice), then the farthest from the goals.
type Rank = (u32, u64);

/// One cell's states under [`Leave::StartAreaOpen`]: (rank, newest first, state).
type Cell = BinaryHeap<Reverse<(Rank, Reverse<u32>)>>;

/// The search's tables and scratch.
struct Search<'a> {
    a: &'a Analysis,
    leave: Leave,
    /// Whether the states of a cell are ranked by the pulls the advice did not name first.
    advised: bool,
    starts: Vec<u16>,
    /// `reach[t * n + s]`: pushes from start square `starts[t]` to `s` on the bare board.
    reach: Vec<u16>,
    /// Pushes from each square to the nearest goal (0 where none).
    goal_pushes: Vec<u16>,
    /// Whether some start square reaches each square by pushes on the bare board.
    from_starts: Vec<bool>,
    nodes: Vec<Node>,
    /// The states reached, as ids into `nodes` by the hash of their boxes, bases and player.
    seen: HashTable<u32>,
    hasher: DefaultHashBuilder,
    /// The bytes the states take (see [`MAX_BYTES`]).
    bytes: usize,
    labels: Labels,
    /// The boxes of the state being expanded (nonzero), the pulled box lifted while its
    /// search runs.
    occupied: Vec<u8>,
    /// The free floor's articulation points, one forest per expansion (see [`Cuts::lifted_sides`]).
    cuts: Cuts,
    /// (square, side) pairs the current box search reached.
    visited: Vec<u32>,
    stamp: u32,
    /// The pull nodes searched, for asking the stop check every [`STOP_EVERY`] of them.
    polled: u32,
    /// The squares a base's box reaches by pushes and those it may have come from (see
    /// [`Search::sinks`]), and the floods' queue.
    ahead: Stamps,
    behind: Stamps,
    queue: Vec<Sq>,
    /// The squares the player reaches in the state being expanded, and a child's boxes.
    reached: Vec<bool>,
    child_boxes: Vec<u16>,
    /// A box search's queue of (box square, side of the player, pulls), and the (square,
    /// player's part) pairs it found (see [`Search::box_pulls`]).
    pull_queue: Vec<(u16, u8, u16)>,
    found: HashSet<(u16, u16)>,
}

/// The plan of the search's best line (see the module docs) for the level behind `a`, whose
/// boxes start on the squares marked in `starts`, boxes taken away as `leave` says, within
/// `expansions`, with the pull advice when `advised` (see the module docs): `Some(None)`
/// when the line takes no box away, `None` when `stop` (asked for each square a box search
/// reaches) says so.
pub fn plan(
    a: &Analysis,
    starts: &[bool],
    (leave, advised): (Leave, bool),
    expansions: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Option<PackingPlan>> {
    Some(line(a, starts, (leave, advised), expansions, stop)?.plan)
}

/// The first pass's plan (see the module docs): the anytime line's when it takes every box
/// away, else, when `staged`, the staged line's if it takes any away, else the anytime line's;
/// `Some(None)` when neither line takes a box away, `None` when `stop` says so.
pub fn first_plan(
    a: &Analysis,
    starts: &[bool],
    staged: bool,
    expansions: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Option<PackingPlan>> {
    let anytime = line(a, starts, (Leave::Anytime, false), expansions, stop)?;
    if staged && anytime.boxes_left > 0 {
        let staged = line(a, starts, (Leave::StartAreaOpen, false), expansions, stop)?;
        if staged.plan.is_some() {
            return Some(staged.plan);
        }
    }
    Some(anytime.plan)
}

/// A search's best line: its plan (`None` when it takes no box away) and the boxes it leaves.
struct Line {
    plan: Option<PackingPlan>,
    boxes_left: usize,
}

/// The best line of the search from the solved position (see [`plan`]).
fn line(
    a: &Analysis,
    starts: &[bool],
    (leave, advised): (Leave, bool),
    expansions: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Line> {
    let mut search = Search::new(a, starts, (leave, advised));
    let best = search.run(expansions, stop)?;
    // No root: no free floor round the solved position (no level the engine takes).
    let Some(best) = search.nodes.get(best as usize) else { return Some(Line { plan: None, boxes_left: 0 }) };
    let plan = (best.boxes.len() < a.goals()).then(|| search.plan_to(best));
    Some(Line { plan, boxes_left: best.boxes.len() })
}

impl<'a> Search<'a> {
    fn new(a: &'a Analysis, starts: &[bool], (leave, advised): (Leave, bool)) -> Search<'a> {
        let n = a.squares();
        let starts: Vec<u16> = (0..n).filter(|&s| starts[s]).map(|s| s as u16).collect();
        let reach = super::pull::start_distances(a, &starts, false);
        let goal_pushes =
            (0..n).map(|s| (0..a.goals()).filter_map(|g| a.distance(g, Sq::new(s))).min().unwrap_or(0)).collect();
        let from_starts = (0..n).map(|s| (0..starts.len()).any(|t| reach[t * n + s] != UNREACHABLE)).collect();
        Search {
            a,
            leave,
            advised,
            starts,
            reach,
            goal_pushes,
            from_starts,
            nodes: Vec::new(),
            seen: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            bytes: 0,
            labels: Labels::new(n),
            occupied: vec![0; n],
            cuts: Cuts::new(n),
            visited: vec![0; n * 4],
            stamp: 0,
            polled: 0,
            ahead: Stamps::new(n),
            behind: Stamps::new(n),
            queue: Vec::new(),
            reached: Vec::new(),
            child_boxes: Vec::new(),
            pull_queue: Vec::new(),
            found: HashSet::new(),
        }
    }

    /// From the solved position, best-first or by cells as `self.leave` says: the id of the
    /// first state with the fewest boxes.
    fn run(&mut self, expansions: usize, stop: &mut dyn FnMut() -> bool) -> Option<u32> {
        let a = self.a;
        let goals: Vec<u16> = (0..a.goals() as u16).collect();
        self.set_boxes(&goals);
        let regions = self.labels.fill(a, |s| self.occupied[s] == 0);
        let players: Vec<u16> = (0..regions).map(|r| self.labels.seed(r).index() as u16).collect();
        let mut open = Open::new();
        for player in players {
            let root = Node {
                parent: u32::MAX,
                from: NONE,
                to: NONE,
                removed: false,
                boxes: goals.clone(),
                bases: Rc::from(self.starts.as_slice()),
                player,
                regions: NONE,
                weight: 0,
            };
            self.push(root, &mut open);
        }
        match self.leave {
            Leave::Anytime => self.best_first(open, expansions, stop),
            Leave::StartAreaOpen => self.by_cells(open, expansions, stop),
        }
    }

    /// The states in the open list's order.
    fn best_first(&mut self, mut open: Open, expansions: usize, stop: &mut dyn FnMut() -> bool) -> Option<u32> {
        let mut best = 0;
        for _ in 0..expansions {
            let Some(Reverse((_, _, _, Reverse(id)))) = open.pop() else { break };
            if !self.take(id, &mut best) {
                break;
            }
            for child in self.expand(id, stop)? {
                self.push(child, &mut open);
            }
        }
        Some(best)
    }

    /// The states from cells (boxes left, cell key) in turn, the fewest boxes twice a round.
    fn by_cells(&mut self, mut open: Open, expansions: usize, stop: &mut dyn FnMut() -> bool) -> Option<u32> {
        let mut cells: BTreeMap<(usize, u64), Cell> = BTreeMap::new();
        let file = |open: &mut Open, cells: &mut BTreeMap<(usize, u64), Cell>| {
            for Reverse((left, key, far, id)) in open.drain() {
                cells.entry((left, key)).or_default().push(Reverse((far, id)));
            }
        };
        file(&mut open, &mut cells);
        let (mut best, mut done) = (0, 0);
        while let Some(&first) = cells.keys().next() {
            let round: Vec<(usize, u64)> = std::iter::once(first).chain(cells.keys().copied()).collect();
            for key in round {
                let Some(cell) = cells.get_mut(&key) else { continue };
                let Some(Reverse((_, Reverse(id)))) = cell.pop() else { continue };
                if cell.is_empty() {
                    cells.remove(&key);
                }
                done += 1;
                if !self.take(id, &mut best) || done >= expansions {
                    return Some(best);
                }
                for child in self.expand(id, stop)? {
                    self.push(child, &mut open);
                }
                file(&mut open, &mut cells);
            }
        }
        Some(best)
    }

    /// Takes state `id` for expansion, `best` the state with the fewest boxes so far: false
    /// when the search ends (no box left, or the states take their bytes).
    fn take(&self, id: u32, best: &mut u32) -> bool {
        let left = self.nodes[id as usize].boxes.len();
        if left < self.nodes[*best as usize].boxes.len() {
            *best = id;
        }
        left > 0 && self.bytes <= MAX_BYTES
    }

    /// The hash of a state's boxes, bases and player in `seen`.
    fn hash_of(hasher: &DefaultHashBuilder, boxes: &[u16], bases: &[u16], player: u16) -> u64 {
        hasher.hash_one((boxes, bases, player))
    }

    /// Whether a state with these boxes, bases and player was reached before (`hash` is
    /// [`Search::hash_of`] them).
    fn seen_before(&self, hash: u64, (boxes, bases, player): (&[u16], &[u16], u16)) -> bool {
        let same = |id: &u32| {
            let old = &self.nodes[*id as usize];
            (&old.boxes[..], &old.bases[..], old.player) == (boxes, bases, player)
        };
        self.seen.find(hash, same).is_some()
    }

    /// Queues `node` unless it was reached before.
    fn push(&mut self, node: Node, open: &mut Open) {
        let hash = Search::hash_of(&self.hasher, &node.boxes, &node.bases, node.player);
        if self.seen_before(hash, (&node.boxes, &node.bases, node.player)) {
            return;
        }
        let id = self.nodes.len() as u32;
        let (nodes, hasher) = (&self.nodes, &self.hasher);
        self.seen.insert_unique(hash, id, |&id| {
            let old = &nodes[id as usize];
            Search::hash_of(hasher, &old.boxes, &old.bases, old.player)
        });
        let on_goals = node.boxes.iter().filter(|&&b| usize::from(b) < self.a.goals()).count() as u64;
        let far: u64 = node.boxes.iter().map(|&b| u64::from(self.goal_pushes[b as usize])).sum();
        let regions = match self.leave {
            Leave::Anytime => 0,
            Leave::StartAreaOpen if node.regions != NONE => u64::from(node.regions),
            Leave::StartAreaOpen => {
                self.set_boxes(&node.boxes);
                self.labels.fill(self.a, |s| self.occupied[s] == 0) as u64
            }
        };
        self.bytes += 2 * (node.boxes.len() + node.bases.len()) + 48;
        let unadvised = if self.advised { node.weight } else { 0 };
        open.push(Reverse((node.boxes.len(), (regions << 32) | on_goals, (unadvised, u64::MAX - far), Reverse(id))));
        self.nodes.push(node);
    }

    /// The bases a box may be taken away at (sorted), the boxes in `occupied` and the player
    /// on the squares marked in `reached`: every base, or under [`Leave::StartAreaOpen`]
    /// the largest group of bases that reach each other by pushes (the boxes as walls) when
    /// the player reaches all of them, else none. A group is the bases both reached from its
    /// first base and reaching it: two floods a group, whatever the bases.
    fn sinks(&mut self, bases: &[u16], reached: &[bool]) -> Vec<u16> {
        if self.leave == Leave::Anytime {
            return bases.to_vec();
        }
        let mut group = vec![usize::MAX; bases.len()];
        let mut sizes = Vec::new();
        for i in 0..bases.len() {
            if group[i] != usize::MAX {
                continue;
            }
            let Search { a, occupied, ahead, behind, queue, .. } = self;
            flood(a, occupied, bases[i], false, ahead, queue);
            flood(a, occupied, bases[i], true, behind, queue);
            let mut size = 0;
            for j in i..bases.len() {
                let t = Sq::new(usize::from(bases[j]));
                if group[j] == usize::MAX && ahead.has(t) && behind.has(t) {
                    group[j] = sizes.len();
                    size += 1;
                }
            }
            sizes.push(size);
        }
        let largest = sizes.iter().copied().max().unwrap_or(0);
        let sinks: Vec<u16> = (0..bases.len()).filter(|&i| sizes[group[i]] == largest).map(|i| bases[i]).collect();
        match sinks.iter().all(|&t| reached[usize::from(t)]) {
            true => sinks,
            false => Vec::new(),
        }
    }

    fn set_boxes(&mut self, boxes: &[u16]) {
        self.occupied.fill(0);
        for &b in boxes {
            self.occupied[b as usize] = 1;
        }
    }

    /// The children of state `id` (see the module docs); `None` when `stop` says so (asked
    /// every [`STOP_EVERY`] squares the box searches reach: on a big level one expansion is
    /// long).
    fn expand(&mut self, id: u32, stop: &mut dyn FnMut() -> bool) -> Option<Vec<Node>> {
        // The state's boxes are lent to the expansion (which makes no state), its bases shared.
        let node = &mut self.nodes[id as usize];
        let (boxes, bases, player) = (std::mem::take(&mut node.boxes), Rc::clone(&node.bases), node.player);
        let mut reached = std::mem::take(&mut self.reached);
        let children = self.children(id, (&boxes, &bases, player), &mut reached, stop);
        self.reached = reached;
        let node = &mut self.nodes[id as usize];
        node.boxes = boxes;
        children
    }

    /// [`Search::expand`] of state `id`, its boxes, bases and player given, `reached` scratch.
    fn children(
        &mut self,
        id: u32,
        (boxes, bases, player): (&[u16], &Rc<[u16]>, u16),
        reached: &mut Vec<bool>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<Node>> {
        let a = self.a;
        self.set_boxes(boxes);
        let count = self.labels.fill(a, |s| self.occupied[s] == 0);
        let region = self.labels.region_of(Sq::new(player as usize));
        reached.clear();
        reached.extend(a.all().map(|s| self.labels.region_of(s) == region));
        let sinks = self.sinks(bases, reached);
        // One forest of the free floor, every box in place, for every box's search.
        self.cuts.start_forest();
        for &b in boxes {
            for t in a.neighbor_indices(Sq::new(usize::from(b))) {
                if usize::from(t) < self.occupied.len() && self.occupied[usize::from(t)] == 0 {
                    self.cuts.grow_tree(a, &self.occupied, usize::from(t));
                }
            }
        }
        let mut pulled = Vec::new();
        let mut away = Vec::new();
        let weight = self.nodes[id as usize].weight;
        // The matching of every box, made when the first base move is tried (most states
        // have none).
        let mut matching: Option<(Edges, Vec<usize>)> = None;
        for (i, &b) in boxes.iter().enumerate() {
            // The regions once the box is lifted: those round its square become one.
            let lifted = count + 1 - self.labels.regions_beside(a, Sq::new(usize::from(b)));
            let pulls = self.box_pulls(b, reached, stop)?;
            let base = pulls.iter().filter(|p| p.pulls >= FAR && sinks.binary_search(&p.to).is_ok()).find(|p| {
                let t = bases.binary_search(&p.to).expect("a sink is a base");
                let (edges, owner) = matching.get_or_insert_with(|| {
                    let edges = self.edges(boxes, bases);
                    let owner = edges.matching();
                    (edges, owner)
                });
                edges.matched_without(owner, (i, t))
            });
            match base {
                Some(p) => {
                    let mut left = Vec::with_capacity(bases.len());
                    left.extend(bases.iter().copied().filter(|&t| t != p.to));
                    away.push((b, p.to, p.player, moved(boxes, i, None), left));
                }
                None if away.is_empty() => {
                    for p in pulls {
                        // A state reached before is left out here, before its boxes are
                        // copied ([`Search::push`] would drop it).
                        moved_into(boxes, i, Some(p.to), &mut self.child_boxes);
                        let hash = Search::hash_of(&self.hasher, &self.child_boxes, bases, p.player);
                        if self.seen_before(hash, (&self.child_boxes, bases, p.player)) {
                            continue;
                        }
                        pulled.push(Node {
                            parent: id,
                            from: b,
                            to: p.to,
                            removed: false,
                            boxes: self.child_boxes.clone(),
                            bases: Rc::clone(bases),
                            player: p.player,
                            // The box set down splits its region into its parts.
                            regions: (lifted - 1 + usize::from(p.parts)) as u16,
                            weight: weight + 1,
                        });
                    }
                }
                None => {}
            }
        }
        if away.is_empty() {
            self.advise(&mut pulled, weight);
            return Some(pulled);
        }
        let away = away
            .into_iter()
            .map(|(b, to, side, others, left)| {
                // The box is gone: the player's region is the one round where it stood.
                self.set_boxes(&others);
                let regions = self.labels.fill(a, |s| self.occupied[s] == 0) as u16;
                let r = self.labels.region_of(Sq::new(side as usize));
                let player = r.map_or(NONE, |r| self.labels.seed(r).index() as u16);
                Node {
                    parent: id,
                    from: b,
                    to,
                    removed: true,
                    boxes: others,
                    bases: left.into(),
                    player,
                    regions,
                    weight,
                }
            })
            .collect();
        Some(away)
    }

    /// Names the advised pull among a state's `children` (none of them a base move): the one
    /// that takes a box off the goals to the square farthest from them, which keeps the
    /// parent's `weight`; every other pull adds one to it. FESS's packing search advises a
    /// pull out of the goal room the same way.
    fn advise(&self, children: &mut [Node], weight: u32) {
        let goals = self.a.goals();
        let out = children.iter_mut().filter(|c| usize::from(c.from) < goals && usize::from(c.to) >= goals);
        if let Some(advised) = out.max_by_key(|c| self.goal_pushes[usize::from(c.to)]) {
            advised.weight = weight;
        }
    }

    /// Every square the box on `b` can be pulled to, the other boxes (in `occupied`) in place
    /// and the player starting in `reached`, on a square some base can push a box to: the
    /// fewest pulls first, each (square, player region) once. `None` when `stop` says so.
    fn box_pulls(&mut self, b: u16, reached: &[bool], stop: &mut dyn FnMut() -> bool) -> Option<Vec<Pull>> {
        let a = self.a;
        self.stamp += 1;
        let stamp = self.stamp;
        self.occupied[b as usize] = 0;
        let nb = |s: usize, d: Dir| a.neighbor(Sq::new(s), d).map(|t| t.index());
        // (box square, side of the player, pulls): the player steps back from the box's
        // square to that side's next square and drags the box one square.
        let mut queue = std::mem::take(&mut self.pull_queue);
        queue.clear();
        for (k, d) in Dir::ALL.into_iter().enumerate() {
            let Some(p) = nb(b as usize, d).filter(|&p| reached[p] && self.occupied[p] == 0) else { continue };
            if nb(p, d).is_some_and(|q| self.occupied[q] == 0) {
                queue.push((p as u16, k as u8, 1));
                self.visited[p * 4 + k] = stamp;
            }
        }
        let mut out = Vec::new();
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let mut head = 0;
        while let Some(&(pos, k, pulls)) = queue.get(head) {
            head += 1;
            self.polled = self.polled.wrapping_add(1);
            if self.polled.is_multiple_of(STOP_EVERY) && stop() {
                self.occupied[b as usize] = 1;
                (self.pull_queue, self.found) = (queue, found);
                return None;
            }
            let sides = self.sides_of(b as usize, pos as usize);
            let side = sides[k as usize];
            if self.from_starts[pos as usize] && found.insert((pos, side)) {
                let player = nb(pos as usize, Dir::ALL[k as usize]).map_or(NONE, |q| q as u16);
                let parts = distinct_sides(sides, NONE) as u16;
                out.push(Pull { to: pos, pulls, player, parts });
            }
            for (k2, d2) in Dir::ALL.into_iter().enumerate() {
                if sides[k2] == NONE || sides[k2] != side {
                    continue;
                }
                let Some(p2) = nb(pos as usize, d2) else { continue };
                let room = nb(p2, d2).is_some_and(|q| self.occupied[q] == 0 && q != pos as usize);
                if room && self.visited[p2 * 4 + k2] != stamp {
                    self.visited[p2 * 4 + k2] = stamp;
                    queue.push((p2 as u16, k2 as u8, pulls.saturating_add(1)));
                }
            }
        }
        self.occupied[b as usize] = 1;
        (self.pull_queue, self.found) = (queue, found);
        Some(out)
    }

    /// The lowest square of the region on each side of `pos` with the box from `lifted` there
    /// (the other boxes in `occupied`), [`NONE`] for a wall or a box: read from the
    /// expansion's forest, the square the box left joining the parts beside it.
    fn sides_of(&mut self, lifted: usize, pos: usize) -> [u16; 4] {
        self.cuts.lows_with_box_on(self.a, &mut self.occupied, lifted, pos)
    }

    /// Which of `bases` reach each of `boxes` by pushes on the bare board.
    fn edges(&self, boxes: &[u16], bases: &[u16]) -> Edges {
        let n = self.a.squares();
        let rows: Vec<usize> = bases.iter().map(|t| self.starts.binary_search(t).unwrap_or(0) * n).collect();
        Edges::new(boxes.len(), bases.len(), |i, j| self.reach[rows[j] + usize::from(boxes[i])] != UNREACHABLE)
    }

    /// The plan of the line to `best` (see the module docs).
    fn plan_to(&self, best: &Node) -> PackingPlan {
        let n = self.a.squares();
        let mut line = Vec::new();
        let mut at = best;
        while at.parent != u32::MAX {
            line.push(at);
            at = &self.nodes[at.parent as usize];
        }
        line.reverse();
        // The goal whose box stands on each square, following the line backwards.
        let mut box_of = vec![NONE; n];
        for (g, b) in box_of.iter_mut().enumerate().take(self.a.goals()) {
            *b = g as u16;
        }
        let mut arrivals = Vec::new();
        for node in &line {
            let g = std::mem::replace(&mut box_of[node.from as usize], NONE);
            if !node.removed {
                box_of[node.to as usize] = g;
            }
            arrivals.push(Step::new(node.from, g));
        }
        // Forwards: the boxes the line left first, those that stay where they are in an order
        // that keeps the player where the later steps need it (see `fill_order.rs`), then its
        // pulls undone, last first.
        arrivals.reverse();
        let moves_on = |s: u16| arrivals.iter().any(|step| step.goal == box_of[usize::from(s)]);
        let (stay, wait): (Vec<u16>, Vec<u16>) =
            (0..n as u16).filter(|&s| box_of[usize::from(s)] != NONE).partition(|&s| !moves_on(s));
        let later: Vec<u16> = wait.iter().copied().chain(arrivals.iter().map(|step| step.square)).collect();
        let stay = fill_order(self.a, &stay, &later, fill_order::BUDGET);
        let mut steps: Vec<Step> = stay.iter().chain(&wait).map(|&s| Step::new(s, box_of[usize::from(s)])).collect();
        steps.extend(arrivals);
        for i in 0..steps.len() {
            let g = steps[i].goal;
            if let Some(j) = steps[i + 1..].iter().position(|s| s.goal == g) {
                steps[i].until = (i + 1 + j) as u16;
            }
        }
        let order: Vec<u16> = steps.iter().filter(|s| s.until == NO_UNTIL).map(|s| s.goal).collect();
        let mut rank = vec![0u16; self.a.goals()];
        for (i, &g) in order.iter().enumerate() {
            rank[g as usize] = i as u16;
        }
        let staged = self.staged(&line);
        PackingPlan { order, rank, steps, waits_in_place: self.leave == Leave::StartAreaOpen, staged }
    }

    /// The position with the fewest boxes on goals on `line` (its states after the root, in
    /// the search's order), the first such: its boxes and the bases already used (forwards,
    /// those boxes still stand where they started). `None` when that is the solved position,
    /// the line's last state (the start, when the line takes every box away), or no position.
    fn staged(&self, line: &[&Node]) -> Option<Vec<u16>> {
        let position = |node: &Node| {
            let mut squares = node.boxes.clone();
            squares.extend(self.starts.iter().filter(|t| node.bases.binary_search(t).is_err()));
            squares.sort_unstable();
            squares.dedup();
            squares
        };
        let on_goals = |squares: &[u16]| squares.iter().filter(|&&s| self.a.is_goal(Sq::new(usize::from(s)))).count();
        let (i, squares) = line.iter().map(|n| position(n)).enumerate().min_by_key(|(i, p)| (on_goals(p), *i))?;
        let start = i + 1 == line.len() && line[i].bases.is_empty();
        // A pull over a used base would put two boxes on one square: no position.
        (!start && on_goals(&squares) < self.a.goals() && squares.len() == self.a.goals()).then_some(squares)
    }
}

/// `boxes` (sorted) without box `i`, with one on `to` when given, sorted: one allocation of
/// the right size (the states' boxes are most of what the search allocates).
fn moved(boxes: &[u16], i: usize, to: Option<u16>) -> Vec<u16> {
    let mut out = Vec::with_capacity(boxes.len());
    moved_into(boxes, i, to, &mut out);
    out
}

/// [`moved`] into `out`.
fn moved_into(boxes: &[u16], i: usize, to: Option<u16>, out: &mut Vec<u16>) {
    out.clear();
    let others = boxes[..i].iter().chain(&boxes[i + 1..]).copied();
    match to {
        None => out.extend(others),
        Some(to) => {
            out.extend(others.clone().take_while(|&b| b < to));
            out.push(to);
            out.extend(others.skip_while(|&b| b < to));
        }
    }
}

/// Marks in `seen` the squares a box on `from` reaches by pushes alone, or with `backward` the
/// squares it may have come from ([`relaxed_pushes`], [`relaxed_pulls`]), the boxes in
/// `occupied` as walls (the player taken to be wherever it must stand); `queue` is scratch.
fn flood(a: &Analysis, occupied: &[u8], from: u16, backward: bool, seen: &mut Stamps, queue: &mut Vec<Sq>) {
    let from = Sq::new(usize::from(from));
    seen.clear();
    seen.mark(from);
    let free = |s: Sq| occupied[s.index()] == 0;
    let mut enter = |here: Sq, next: Sq, player: Sq| {
        // The square the push puts the box on: the next one forwards, this one backwards.
        let onto = if backward { here } else { next };
        free(onto) && free(player) && seen.insert(next)
    };
    queue.clear();
    queue.push(from);
    match backward {
        false => relaxed_pushes(a, queue, |_, _| true, &mut enter),
        true => relaxed_pulls(a, queue, |_, _| true, &mut enter),
    };
}

#[cfg(test)]
mod tests {
    use super::super::packing::start_squares;
    use super::*;
    use crate::format::parse_levels;

    fn plan_of(text: &str) -> (Analysis, Option<PackingPlan>) {
        plan_with(text, Leave::Anytime)
    }

    fn plan_with(text: &str, leave: Leave) -> (Analysis, Option<PackingPlan>) {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let plan = plan(&a, &starts, (leave, false), EXPANSIONS, &mut || false).expect("never stopped");
        (a, plan)
    }

    /// The steps before the plan's first goal fill in which a box waits on a square that is
    /// not a goal.
    fn staged_first(a: &Analysis, plan: &PackingPlan) -> usize {
        let first_fill = plan.steps.iter().position(|s| s.until == NO_UNTIL).unwrap_or(plan.steps.len());
        plan.steps[..first_fill].iter().filter(|s| usize::from(s.square) >= a.goals()).count()
    }

    /// XSokoban level `n` of the bundled set.
    fn xsokoban(n: u32) -> String {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/data/xsokoban90.xsb")).unwrap();
        let tag = format!("; {n}\n");
        text.split("\n\n").find(|l| l.contains(&tag)).expect("the level").to_string()
    }

    #[test]
    fn the_regions_an_expansion_works_out_agree_with_a_labelling_of_the_child() {
        for n in [66, 69, 23] {
            let level = parse_levels(&xsokoban(n)).unwrap().remove(0);
            let a = Analysis::new(&level);
            let starts = start_squares(&level, &a);
            let mut search = Search::new(&a, &starts, (Leave::StartAreaOpen, false));
            search.run(300, &mut || false).expect("never stopped");
            let mut labels = Labels::new(a.squares());
            let worked_out: Vec<&Node> = search.nodes.iter().filter(|node| node.regions != NONE).collect();
            assert!(worked_out.len() > 100, "level {n}: {} states", worked_out.len());
            for node in worked_out {
                let mut occupied = vec![0u8; a.squares()];
                node.boxes.iter().for_each(|&b| occupied[usize::from(b)] = 1);
                let count = labels.fill(&a, |s| occupied[s] == 0);
                assert_eq!(usize::from(node.regions), count, "level {n}, boxes {:?}", node.boxes);
            }
        }
    }

    #[test]
    fn the_plan_names_the_position_where_its_boxes_wait_round_the_emptied_goal_room() {
        // XSokoban 66: 18 goals in a band; the line empties it onto the floor round it.
        let level = parse_levels(&xsokoban(66)).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let plan = first_plan(&a, &starts, true, EXPANSIONS, &mut || false).expect("never stopped").expect("a plan");
        let staged = plan.staged.expect("a staged position");
        assert_eq!(staged.len(), a.goals());
        assert!(staged.windows(2).all(|w| w[0] < w[1]), "sorted, one box a square");
        assert!(staged.iter().all(|&s| !a.is_goal(Sq::new(usize::from(s)))), "the goal room emptied");
        let start: Vec<u16> = (0..a.squares()).filter(|&s| starts[s]).map(|s| s as u16).collect();
        assert_ne!(staged, start, "some boxes moved");
    }

    #[test]
    fn the_staged_plan_puts_a_goal_rooms_boxes_on_the_floor_round_it_before_the_room_is_filled() {
        // XSokoban 69: 18 goals in one room, its boxes spread over the floor on both sides.
        let text = &xsokoban(69);
        let (a, staged) = plan_with(text, Leave::StartAreaOpen);
        let staged = staged.expect("the staged search takes boxes away");
        assert!(staged.waits_in_place);
        assert!(staged_first(&a, &staged) >= a.goals() / 2, "{}", staged_first(&a, &staged));
        let (_, anytime) = plan_with(text, Leave::Anytime);
        let anytime = anytime.expect("the search takes boxes away");
        assert!(!anytime.waits_in_place);
        assert!(staged_first(&a, &anytime) < staged_first(&a, &staged));
    }

    /// XSokoban 50: a goal room along a diagonal, whose boxes come in from the floor beside it.
    const ROOM: &str = "      ############\n     ##..    #   #\n    ##..* $    $ #\n   ##..*.# # # $##\n   #..*.# # # $  #\n####...#  #    # #\n#  ## #          #\n# @$ $ ###  #   ##\n# $   $   # #   #\n###$$   # # # # #\n  #   $   # # #####\n  # $# #####      #\n  #$   #   #    # #\n  #  ###   ##     #\n  #  #      #    ##\n  ####      ######\n";

    #[test]
    fn the_room_boxes_wait_outside_and_each_goal_is_filled_once_at_the_end_of_its_line() {
        let (a, plan) = plan_of(ROOM);
        let plan = plan.expect("the search takes boxes away");
        let mut filled = vec![0; a.goals()];
        for (i, step) in plan.steps.iter().enumerate() {
            match step.until {
                NO_UNTIL => {
                    assert_eq!(step.square, step.goal, "a box's last step fills its goal");
                    filled[step.goal as usize] += 1;
                }
                next => assert!(usize::from(next) > i && plan.steps[usize::from(next)].goal == step.goal),
            }
        }
        assert!(filled.iter().all(|&n| n == 1), "{filled:?}");
        let waits = plan.steps.iter().filter(|s| usize::from(s.square) >= a.goals()).count();
        assert!(waits >= 3, "boxes wait outside the room before they go in: {waits}");
        for (i, &g) in plan.order.iter().enumerate() {
            assert_eq!(usize::from(plan.rank[usize::from(g)]), i);
        }
    }

    /// XSokoban 50 halfway through a solution: the left part of the floor emptied into the
    /// room's lower corner but for one box, the rest waiting on the right; the room's ways in
    /// are its bottom entrance (5,5) and its top row.
    const HALFWAY: &str = "      ############\n     ##..$ $ #   #\n    ##.*.      $ #\n   ##....# # # $##\n   #....# # #    #\n####...#  #    # #\n#  ## #     $ $$ #\n#  $   ###  #   ##\n#  @      # # $ #\n###     # # # # #\n  #     $ # # #####\n  #  # #####      #\n  #$   #   #  $ # #\n  #  ###   ##$$ $ #\n  #  #      #    ##\n  ####      ######\n";

    #[test]
    fn the_boxes_a_line_leaves_fill_the_room_entrance_while_the_player_can_still_get_above_it() {
        // The staged line leaves boxes in the room's lower corner. The entrance goal (5,5)
        // filled after the goals above it, (3,5) and (4,5), could only be pushed in from below,
        // shutting the player out of the room's top, where every later box comes in.
        let level = parse_levels(HALFWAY).unwrap().remove(0);
        let (a, plan) = plan_with(HALFWAY, Leave::StartAreaOpen);
        let plan = plan.expect("the staged search takes boxes away");
        let at = |row, col| {
            let s = a.sq(level.square_at(row, col).expect("floor")).index() as u16;
            plan.steps.iter().position(|step| step.square == s).expect("a step")
        };
        let entrance = at(5, 5);
        assert!(entrance < at(3, 5) && entrance < at(4, 5), "{:?}", plan.steps);
        assert!(at(5, 4) < entrance, "the goal beside it first");
    }

    #[test]
    fn advice_empties_a_goal_room_onto_storage_round_it_before_any_goal_is_filled() {
        // XSokoban 50: thirteen boxes wait outside the room before its entrance is filled.
        // Without advice the staged search leaves most boxes within the first plan's budget,
        // and its longer line fills goals between two waves of waits.
        let level = parse_levels(ROOM).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let stop = &mut || false;
        let mut staged =
            |advised, expansions| line(&a, &starts, (Leave::StartAreaOpen, advised), expansions, stop).unwrap();
        // The waits after the plan's first fill.
        let late_waits = |plan: &PackingPlan| {
            let first_fill = plan.steps.iter().position(|s| s.until == NO_UNTIL).unwrap();
            plan.steps[first_fill..].iter().filter(|s| s.until != NO_UNTIL).count()
        };
        let advised = staged(true, ADVISED_EXPANSIONS);
        assert_eq!(advised.boxes_left, 0);
        let plan = advised.plan.expect("a plan");
        assert!(staged_first(&a, &plan) >= a.goals() / 2, "{}", staged_first(&a, &plan));
        assert_eq!(late_waits(&plan), 0);
        assert!(staged(false, EXPANSIONS).boxes_left > a.goals() / 2);
        let unadvised = staged(false, ADVISED_EXPANSIONS).plan.expect("a plan");
        assert!(late_waits(&unadvised) > 0);
    }

    #[test]
    fn the_first_plan_is_the_staged_one_where_the_anytime_line_leaves_boxes_on_the_board() {
        for (n, leaves_boxes) in [(14, true), (69, false)] {
            let level = parse_levels(&xsokoban(n)).unwrap().remove(0);
            let a = Analysis::new(&level);
            let starts = start_squares(&level, &a);
            let stop = &mut || false;
            let anytime = line(&a, &starts, (Leave::Anytime, false), EXPANSIONS, stop).unwrap();
            assert_eq!(anytime.boxes_left > 0, leaves_boxes, "level {n}: {} boxes left", anytime.boxes_left);
            let first = first_plan(&a, &starts, true, EXPANSIONS, stop).unwrap().expect("a plan");
            let expected = match leaves_boxes {
                true => plan(&a, &starts, (Leave::StartAreaOpen, false), EXPANSIONS, stop).unwrap(),
                false => anytime.plan.clone(),
            };
            assert_eq!(Some(&first), expected.as_ref(), "level {n}");
            assert_eq!(first.waits_in_place, leaves_boxes);
            let unstaged = first_plan(&a, &starts, false, EXPANSIONS, stop).unwrap();
            assert_eq!(unstaged, anytime.plan, "level {n}: without the staged plan, the anytime line's");
        }
    }

    #[test]
    fn a_level_with_no_long_pull_onto_a_start_square_has_no_such_plan() {
        let (_, plan) = plan_of("#######\n#@$$ ..#\n#######\n");
        assert!(plan.is_none());
    }
}
