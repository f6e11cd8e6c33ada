//! The feature-space search loop.
//!
//! States live in an arena (`nodes`, `keys`: box bitsets over the live squares) with a
//! transposition table of handles compared by full key and normalised player square. Each
//! state belongs to the feature-space cell of its boxes ([`super::features`]); each cell keeps
//! a heap of its unexpanded states ordered by accumulated weight, then the matching bound, then
//! age. The loop visits the non-empty cells in key order, round after round, and expands the
//! cheapest state of each. Expanding a state generates all its macro moves; the advisors each
//! pick at most one of them, and a move costs its advisor's weight ([`Weights`]).
//!
//! Every other visit goes to the *lead cell*, the most advanced cell a picked state has
//! reached ([`Cell`]s compared by `leads`: more of the plan packed, then fewer player regions),
//! as Festival's loop gives the cell of its best state every other turn: the line that has
//! got furthest is followed at half the pace of all the others together, however many cells
//! the others fill. Without it a level with many cells gives its leading line one expansion
//! a round, and a long packing line waits for hundreds of cells that lead nowhere.
//!
//! After each visit the search *dives*: when the packing advisor's move from the state just
//! expanded made a new state that packs more of the plan and has no more player regions, that
//! state's cell is visited at once, up to [`DIVE_DEPTH`] cells down the line (as YASS expands
//! a child no worse than its parent at once). A packing line that every cell's turn would
//! advance by one move a round then runs to where it stops packing, in whichever cell it
//! started; the cell's own order still decides which state it expands, so the dive is a
//! visit out of turn, not a second search.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::{Arc, atomic};
use std::time::Instant;

use super::bases::Leave;
use super::corral::CorralCheck;
use super::explorer::Explorer;
use super::features::{Cell, Features, MAX_BRANCHES};
use super::hotspots::{Hotspots, Moving};
use super::keyed::{self, Keyed, hash_key};
use super::macros::{MacroMove, Macros};
use super::packing::{PackingPlan, Peel, start_squares};
use super::plan_reach::{Matchings, PlanReach};
use super::pull::{Backward, Found};
use super::rooms::Rooms;
use super::staging::{self, Aside};
use super::turns::Turn;
use super::way::Way;
use crate::analysis::region::{Flood, Step, spread};
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::{BuildOptions, Dir, Level};
use crate::solver::budget::{Budget, Stop};
use crate::solver::corral::Corrals;
use crate::solver::deadlock;
use crate::solver::exhaust::{Exhaust, PatternLog, Patterns};
use crate::solver::expand::{Push, moves_to_pushes, pushes_to_moves};
use crate::solver::frozen::{FrozenTables, NoTable, TableId, frozen_goal_set};
use crate::solver::hungarian::{self, FORBIDDEN, Hungarian};
use crate::solver::{Config, FastOptions, Solution, SolveError, Stats, cost_of};

const ROOT: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    parent: u32,
    /// The macro move from the parent (unused for the root).
    from: Sq,
    to: Sq,
    dir: u8,
    expanded: bool,
    /// Normalised player square: the lowest index of the player's region.
    player: u16,
    weight: u32,
}

/// Whether cell `a` is further on than `b`: more of the plan packed, then fewer player
/// regions, then more boxes on goals, then not blocked (see [`super::features`]).
fn leads(a: &Cell, b: &Cell) -> bool {
    let progress = |c: &Cell| (Reverse(c[4]), c[0], Reverse(c[1]), c[2], Reverse(c[3]));
    progress(a) > progress(b)
}

/// A child found while expanding, before the advisors choose.
struct Child {
    m: MacroMove,
    /// The moved box's row in the parent's `boxes`.
    row: usize,
    player: u16,
    hash: u32,
    /// The matching bound: a lower bound until `exact`.
    h: u32,
    exact: bool,
    cell: Cell,
    regions: u16,
    /// Boxes that are hotspots (see `super::hotspots`).
    hotspots: u32,
    /// Existing node with the same key, if any.
    existing: Option<u32>,
    /// Room links cut (see `super::rooms`).
    cut: u16,
}

/// A cell's queue, smallest (weight, bound) first; ties go to the newest state, which carries
/// on the line the search just followed (at a fixed budget it solves more XSokoban and
/// Microban II levels than oldest first, and about as many Sasquatch ones).
type Heap = BinaryHeap<Reverse<(u32, u32, Reverse<u32>)>>;

struct Search {
    states: Keyed<Node>,
    cells: BTreeMap<Cell, Heap>,
    queued: usize,
    stats: Stats,
    /// Each state's branch (see [`Weights::branches`]; empty without), and the branch the
    /// root's next child gets.
    branches: Vec<u8>,
    next_branch: u8,
}

impl keyed::Node for Node {
    fn player(&self) -> u16 {
        self.player
    }
}

impl Search {
    fn new(a: &Analysis) -> Search {
        Search {
            states: Keyed::new(a),
            cells: BTreeMap::new(),
            queued: 0,
            stats: Stats::default(),
            branches: Vec::new(),
            next_branch: 0,
        }
    }

    fn key(&self, node: u32) -> &[u64] {
        self.states.key(node)
    }

    fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<u32> {
        self.states.find(words, player, hash)
    }

    fn insert(&mut self, words: &[u64], node: Node, hash: u32) -> u32 {
        self.states.insert(words, node, hash)
    }

    fn bytes(&self) -> usize {
        self.states.bytes() + self.queued * 16 + self.cells.len() * 64 + self.branches.capacity()
    }

    /// The branch of a new child of `parent` (see [`Weights::branches`]): its parent's, or for
    /// a child of the root the next one when an advisor names its move (`advised`), the last
    /// one, shared, when none does or the others are taken.
    fn child_branch(&mut self, parent: &Node, parent_id: u32, advised: bool) -> u8 {
        if parent.parent != ROOT {
            return self.branch(parent_id);
        }
        if !advised {
            return MAX_BRANCHES;
        }
        self.next_branch = (self.next_branch + 1).min(MAX_BRANCHES);
        self.next_branch
    }

    /// The branch of state `id` (0, the root's, when branches are not kept).
    fn branch(&self, id: u32) -> u8 {
        self.branches.get(id as usize).copied().unwrap_or(0)
    }

    /// Records `branch` as the branch of the state just inserted as `id`.
    fn set_branch(&mut self, id: u32, branch: u8) {
        if self.branches.len() <= id as usize {
            self.branches.resize(id as usize + 1, 0);
        }
        self.branches[id as usize] = branch;
    }

    fn finish_stats(&self, started: Instant) -> Stats {
        let mut st = self.stats.clone();
        st.stored_states = self.states.len() as u64;
        st.peak_bytes = st.peak_bytes.max(self.bytes() as u64);
        st.bytes_per_state = self.bytes() as f64 / self.states.len().max(1) as f64;
        st.seconds = started.elapsed().as_secs_f64();
        st
    }

    fn enqueue(&mut self, cell: Cell, weight: u32, h: u32, id: u32) {
        self.cells.entry(cell).or_default().push(Reverse((weight, h, Reverse(id))));
        self.queued += 1;
    }
}

/// The counters of a search's result, solved or not.
pub(super) fn stats_of(r: &mut Result<Solution, SolveError>) -> &mut Stats {
    match r {
        Ok(solution) => &mut solution.stats,
        Err(e) => e.stats_mut(),
    }
}

/// What the searches of one level learn and pass on: the deadlock patterns, the exhaustive
/// searches that proved nothing (so the second pass does not repeat them), and the states the
/// backward searches, which grow beside the forward passes (every state they reach is solvable
/// by undoing its pulls).
pub struct Learned {
    exhaust: Exhaust,
    patterns: Patterns,
    pub backward: Backward,
    /// The log this search shares patterns through with the others of a portfolio, its own
    /// number there and how much of the log it has taken in (`None`: it only publishes).
    exchange: Option<(Arc<PatternLog>, usize, Option<usize>)>,
    /// The search's turn, when it shares one thread with other lanes (`turns.rs`).
    turn: Option<Turn>,
}

impl Learned {
    pub fn new(a: &Analysis, backward: Backward) -> Learned {
        Learned { exhaust: Exhaust::new(a), patterns: Patterns::new(a), backward, exchange: None, turn: None }
    }

    /// Like [`Learned::new`], sharing patterns through `log` as search number `me`: publishing
    /// those it proves and, when `takes_in`, taking in the others'.
    pub fn shared(a: &Analysis, backward: Backward, log: Arc<PatternLog>, me: usize, takes_in: bool) -> Learned {
        Learned { exchange: Some((log, me, takes_in.then_some(0))), ..Learned::new(a, backward) }
    }

    /// These searches take `turn`s with other lanes on one thread, when given one: they hand
    /// it on at an expansion once their share of the round is spent.
    pub fn taking_turns(self, turn: Option<Turn>) -> Learned {
        Learned { turn, ..self }
    }

    /// The turn these searches take, for a search they run inside theirs.
    pub fn turn(&self) -> Option<Turn> {
        self.turn.clone()
    }

    /// Stores a pattern this search proved, and publishes it to the others.
    fn learn(&mut self, boxes: &[Sq], region: &[u64]) {
        self.patterns.add(boxes, region);
        if let Some((log, me, _)) = &self.exchange {
            log.publish(*me, boxes, region);
        }
    }

    /// Takes in the patterns the other searches proved since the last call.
    fn take_in(&mut self) {
        if let Some((log, me, Some(seen))) = &mut self.exchange {
            log.take_in(*me, seen, &mut self.patterns);
        }
    }

    fn bytes(&self) -> usize {
        self.exhaust.bytes() + self.patterns.bytes() + self.backward.bytes()
    }
}

/// Whether the boxes around the one on `at.0` (`occupied` marks the position's `count` boxes;
/// the player on `at.1`, any square of the region) are proven dead on their own, within the
/// budget; a proven set becomes a pattern. With all the boxes in the set the matching reads
/// `table` (boxes frozen on goals as walls), else the static distances: a subset is searched
/// without the other boxes, frozen ones included.
///
/// When the search of the cluster runs out of its budget, the cluster's boxes that cannot be
/// pushed at all where they stand (see [`stuck`]) are searched on their own: a jam of a few
/// boxes that lock each other in, next to boxes that can wander far, is proven in a handful of
/// positions where the whole cluster's search drowns in the wanderers' moves (XSokoban 39's
/// middle room: three boxes hold the square behind each other, two more roam).
#[allow(clippy::too_many_arguments)]
fn cluster_dead(
    a: &Analysis,
    occupied: &[u8],
    at: (usize, usize),
    count: usize,
    seeds: Option<&[Sq]>,
    table: Option<&[u16]>,
    base: Option<&[u16]>,
    learned: &mut Learned,
    scratch: &mut DeadScratch,
    stop: &mut impl FnMut() -> bool,
) -> bool {
    let moved = [Sq::new(at.0)];
    let seeds = seeds.unwrap_or(&moved);
    let reach = scratch.reach;
    let DeadScratch { subset, core, flood, pockets, linked, minimal, .. } = scratch;
    cluster(a, occupied, seeds, reach.boxes, subset, None);
    let tables = (table, base);
    if subset_dead(a, occupied, at, count, subset, (core, flood, minimal), tables, learned, stop) {
        return true;
    }
    // The same with the boxes that fence a pocket beside the cluster, if there are any.
    cluster(a, occupied, seeds, reach.boxes, linked, Some((at.1, (reach.pocket, pockets))));
    if linked.iter().all(|b| subset.contains(b)) {
        return false;
    }
    subset_dead(a, occupied, at, count, linked, (core, flood, minimal), tables, learned, stop)
}

/// The search of [`cluster_dead`] for one set of boxes (`subset`; `core`, `reach` scratch).
#[allow(clippy::too_many_arguments)]
fn subset_dead(
    a: &Analysis,
    occupied: &[u8],
    at: (usize, usize),
    count: usize,
    subset: &[Sq],
    (core, reach, minimal): (&mut Vec<Sq>, &mut Flood, &mut Minimal),
    (table, base): (Option<&[u16]>, Option<&[u16]>),
    learned: &mut Learned,
    stop: &mut impl FnMut() -> bool,
) -> bool {
    let all = subset.len() == count;
    let reaches = |s, g| table_cost(a, if all { table } else { base }, s, g) < FORBIDDEN;
    if learned.exhaust.proves_dead(a, subset, Sq::new(at.1), DEAD_SEARCH_BUDGET, reaches, stop) {
        learn_minimal(a, subset, at.1, base, learned, minimal, stop);
        return true;
    }
    if !learned.exhaust.stopped_short() {
        return false; // the cluster has a way to the goals, so every part of it has one
    }
    reach.player(a, occupied, Sq::new(at.1));
    core.clear();
    core.extend(subset.iter().filter(|b| stuck(a, occupied, reach, b.index())));
    if core.is_empty() || core.len() == subset.len() || core.iter().all(|&b| a.is_goal(b)) {
        return false;
    }
    let reaches = |s, g| table_cost(a, base, s, g) < FORBIDDEN;
    let dead = learned.exhaust.proves_dead(a, core, Sq::new(at.1), DEAD_SEARCH_BUDGET, reaches, stop);
    if dead {
        learn_minimal(a, core, at.1, base, learned, minimal, stop);
    }
    dead
}

/// Stores the proven-dead set `set` (the player on `player`; the proof just run, so
/// [`Exhaust::region`] is its region) as a pattern, first dropping every box without which
/// the rest is still proven dead: a pattern of fewer boxes matches more positions (the same
/// few boxes in a corner recur beside any others). Each box is tried once, in order; the
/// patterns of the smaller sets read the static distances, as every subset's search does.
fn learn_minimal(
    a: &Analysis,
    set: &[Sq],
    player: usize,
    base: Option<&[u16]>,
    learned: &mut Learned,
    minimal: &mut Minimal,
    stop: &mut impl FnMut() -> bool,
) {
    let Minimal { kept, trial, region } = minimal;
    region.clear();
    region.extend_from_slice(learned.exhaust.region());
    kept.clear();
    kept.extend_from_slice(set);
    let reaches = |s, g| table_cost(a, base, s, g) < FORBIDDEN;
    let mut i = 0;
    while i < kept.len() && kept.len() > 1 {
        trial.clear();
        trial.extend(kept.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &b)| b));
        if learned.exhaust.proves_dead(a, trial, Sq::new(player), DEAD_SEARCH_BUDGET, reaches, stop) {
            kept.remove(i);
            region.clear();
            region.extend_from_slice(learned.exhaust.region());
        } else {
            i += 1;
        }
    }
    learned.learn(kept, region);
}

/// Scratch for [`learn_minimal`]: the boxes kept so far, the set being tried and the region of
/// the last proof.
#[derive(Default)]
struct Minimal {
    kept: Vec<Sq>,
    trial: Vec<Sq>,
    region: Vec<u64>,
}

/// Whether the boxes fencing some pocket of the position (a part of the floor without the
/// player, no larger than the pass's [`DeadReach`] allows, see [`cluster`]) are proven dead, each
/// fence with the boxes around it ([`cluster_dead`]): a corral shut by a move of one of its
/// boxes lasts, and the checks round each later move never look at it again.
#[allow(clippy::too_many_arguments)]
fn pockets_dead(
    a: &Analysis,
    occupied: &[u8],
    boxes: &[u16],
    player: usize,
    (table, base): (Option<&[u16]>, Option<&[u16]>),
    learned: &mut Learned,
    scratch: &mut DeadScratch,
    fences: &mut Fences,
    stop: &mut impl FnMut() -> bool,
) -> bool {
    let Fences { squares, ends } = fences;
    squares.clear();
    ends.clear();
    scratch.pockets.clear();
    for &b in boxes {
        scratch.linked.clear();
        let pockets = (scratch.reach.pocket, &mut scratch.pockets);
        pocket_boxes(a, occupied, b as usize, player, pockets, scratch.reach.boxes, &mut scratch.linked);
        if !scratch.linked.is_empty() {
            squares.extend_from_slice(&scratch.linked);
            ends.push(squares.len());
        }
    }
    let count = boxes.len();
    (0..ends.len()).any(|i| {
        let fence = &squares[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
        let at = (fence[0].index(), player);
        cluster_dead(a, occupied, at, count, Some(fence), table, base, learned, scratch, stop)
    })
}

/// The fences [`pockets_dead`] found, one after another in `squares`; fence `i` ends at
/// `ends[i]`.
#[derive(Default)]
struct Fences {
    squares: Vec<Sq>,
    ends: Vec<usize>,
}

/// Whether the box on `s` has no push at all: in every direction the square ahead is a wall,
/// a box or dead, or the square behind is a wall or out of the player's `reach`.
fn stuck(a: &Analysis, occupied: &[u8], reach: &Flood, s: usize) -> bool {
    Dir::ALL.iter().all(|&d| {
        let s = Sq::new(s);
        let (Some(ahead), Some(behind)) = (a.neighbor(s, d), a.neighbor(s, d.opposite())) else { return true };
        occupied[ahead] != 0 || !a.is_live(ahead) || !reach.contains(behind)
    })
}

/// What [`cluster_dead`] works with: how far it looks (the pass's reach) and its scratch, the
/// cluster, its stuck boxes, a player flood and the pockets the cluster links through.
struct DeadScratch {
    reach: DeadReach,
    subset: Vec<Sq>,
    core: Vec<Sq>,
    flood: Flood,
    pockets: Pockets,
    /// The cluster with the boxes round its pockets.
    linked: Vec<Sq>,
    minimal: Minimal,
}

impl DeadScratch {
    fn new(n: usize, reach: DeadReach) -> DeadScratch {
        DeadScratch {
            reach,
            subset: Vec::new(),
            core: Vec::new(),
            flood: Flood::new(n),
            pockets: Pockets::new(n),
            linked: Vec::new(),
            minimal: Minimal::default(),
        }
    }
}

/// Scratch for the pockets [`cluster`] links boxes through: for each square the flood that saw
/// it (floods before `first` belong to earlier calls), and the part being flooded.
struct Pockets {
    flood: Vec<u32>,
    first: u32,
    current: u32,
    part: Vec<Sq>,
}

impl Pockets {
    fn new(n: usize) -> Pockets {
        Pockets { flood: vec![0; n], first: 1, current: 0, part: Vec::new() }
    }

    /// Forgets the floods of the last call. A call floods at most once per square (each flood
    /// starts on a square no flood has seen), so the ids never wrap within one.
    fn clear(&mut self) {
        if self.current >= u32::MAX - self.flood.len() as u32 - 1 {
            self.flood.fill(0);
            self.current = 0;
        }
        self.current += 1;
        self.first = self.current;
    }

    fn seen(&self, s: usize) -> bool {
        self.flood[s] >= self.first
    }
}

/// Whether the box on `at.0` closes off a small part of the floor beside it (at most
/// [`CUT_OFF_SQUARES`] squares, away from the player, `at.1` being a square of its region)
/// whose fence of boxes the dead search proves dead (see [`cluster_dead`]; `tables` are the
/// state's table and the static one, `k` its boxes). The parts are found as pockets are
/// ([`pocket_boxes`], only larger), so the player's region is never flooded whole; a fence of
/// more boxes than the pass's [`DeadReach`] takes is left alone.
#[allow(clippy::too_many_arguments)]
fn cut_off_dead(
    a: &Analysis,
    occupied: &[u8],
    at: (usize, usize),
    k: usize,
    tables: (Option<&[u16]>, Option<&[u16]>),
    learned: &mut Learned,
    scratch: &mut CutOff,
    dead_scratch: &mut DeadScratch,
    stop: &mut impl FnMut() -> bool,
) -> bool {
    let CutOff { fence, pockets } = scratch;
    fence.clear();
    pockets.clear();
    if pocket_boxes(a, occupied, at.0, at.1, (CUT_OFF_SQUARES, pockets), dead_scratch.reach.boxes + 1, fence) {
        return false;
    }
    !fence.is_empty() && cluster_dead(a, occupied, at, k, Some(fence), tables.0, tables.1, learned, dead_scratch, stop)
}

/// Scratch for [`cut_off_dead`]: the fence and the parts' floods.
struct CutOff {
    fence: Vec<Sq>,
    pockets: Pockets,
}

impl CutOff {
    fn new(n: usize) -> CutOff {
        CutOff { fence: Vec::new(), pockets: Pockets::new(n) }
    }
}

/// The most squares a cut-off part may have for [`cut_off_dead`] to look at it: small corners
/// are where one box seals a deadlock in; a big area rarely dies of its fence alone.
const CUT_OFF_SQUARES: usize = 32;

/// Positions the exhaustive search that tries to prove a picked state dead may store: enough
/// for the corners whose proof needs a few hundred positions, while a search that fails is
/// cheap (and never repeated: [`Exhaust`] remembers the sets that proved nothing).
const DEAD_SEARCH_BUDGET: usize = 400;

/// How far a pass's dead search ([`cluster_dead`]) looks round a moved box.
///
/// The first pass looks wide: clusters of up to ten boxes, enough for the fence of a pocket
/// along a wall, linked through pockets of up to sixteen squares, and boxes that wander away
/// from the shut-in floor vanish from the search (see `crate::solver::exhaust`), which keeps
/// it small however many boxes there are. Its proofs prune its own search and, as patterns,
/// every later pass's. The later passes look narrow (six boxes, pockets of eight squares, no
/// vanishing): they search afresh for what the first pass did not find, and a search that
/// prunes other states goes other ways (levels that one finds late, the other misses). Under
/// a time limit the two together find more than the wide search in every pass (BENCHMARKS.md,
/// "What each technique adds").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeadReach {
    /// The most boxes (the one just moved and those around it) the exhaustive search looks at.
    boxes: usize,
    /// The most squares of a pocket that links the boxes round it into one cluster (see
    /// [`cluster`]).
    pocket: usize,
    /// Whether boxes vanish from the exhaustive search once they leave the shut-in floor.
    vanish: bool,
}

impl DeadReach {
    /// The first pass's reach.
    pub const WIDE: DeadReach = DeadReach { boxes: 10, pocket: 16, vanish: true };
    /// The later passes' reach.
    pub const NARROW: DeadReach = DeadReach { boxes: 6, pocket: 8, vanish: false };
}

/// The boxes (`occupied`) connected to the ones on `starts` through boxes in each other's
/// 8-neighbourhood, breadth first, at most `max` of them. With `pockets` (a square of the
/// player's region, the most squares of a pocket and scratch), boxes that fence the same
/// pocket are linked too: a small part of the floor beside a box of the cluster that the player
/// cannot reach brings in every box beside it. Boxes that hold a corral shut between them often do
/// not touch (XSokoban 52: three boxes round a pocket of four squares and a fourth that
/// blocks the way behind one of them, a deadlock that the boxes around any one of them miss).
fn cluster(
    a: &Analysis,
    occupied: &[u8],
    starts: &[Sq],
    max: usize,
    out: &mut Vec<Sq>,
    mut pockets: Option<(usize, (usize, &mut Pockets))>,
) {
    out.clear();
    out.extend_from_slice(starts);
    if out.len() >= max {
        return;
    }
    if let Some((_, (_, p))) = pockets.as_mut() {
        p.clear();
    }
    let mut next = 0;
    while next < out.len() && out.len() < max {
        let s = out[next].index();
        next += 1;
        if let Some((player, (size, p))) = pockets.as_mut()
            && pocket_boxes(a, occupied, s, *player, (*size, p), max, out)
        {
            return;
        }
        for t in a.around(Sq::new(s)) {
            if occupied[t] != 0 && !out.contains(&t) {
                out.push(t);
                if out.len() == max {
                    return;
                }
            }
        }
    }
}

/// Adds to `out` the boxes beside each pocket next to the box on `s` (see [`cluster`]; the
/// player stands on `player`) that are not in it yet; true once `out` holds `max` boxes. A
/// pocket is a part of the floor that closes within `size` squares without the player
/// (the [`DeadReach`]'s for [`cluster`]): each free side is flooded only that far, and a flood
/// that runs into an earlier one's squares is in the same (open) part.
fn pocket_boxes(
    a: &Analysis,
    occupied: &[u8],
    s: usize,
    player: usize,
    (size, p): (usize, &mut Pockets),
    max: usize,
    out: &mut Vec<Sq>,
) -> bool {
    for d in Dir::ALL {
        let Some(t) = a.neighbor(Sq::new(s), d) else { continue };
        if occupied[t] != 0 || p.seen(t.index()) {
            continue;
        }
        // Floods of one call get ids from `first` on; the first flood's id is `first`.
        p.current += 1;
        let id = p.current;
        p.part.clear();
        p.part.push(t);
        p.flood[t] = id;
        let open = std::cell::Cell::new(false);
        let Pockets { flood, first, part, .. } = p;
        spread(
            a,
            part,
            |q, queued| {
                if open.get() {
                    return false;
                }
                open.set(q.index() == player || queued > size);
                true
            },
            |_, _, u| {
                if occupied[u] != 0 || flood[u] == id {
                    Step::Skip
                } else if flood[u] >= *first {
                    open.set(true); // an earlier flood's part, which was open
                    Step::Stop
                } else {
                    flood[u] = id;
                    Step::Enter
                }
            },
        );
        let open = open.get();
        if open {
            continue;
        }
        for i in 0..p.part.len() {
            let q = p.part[i].index();
            for e in Dir::ALL {
                let Some(u) = a.neighbor(Sq::new(q), e) else { continue };
                if occupied[u] != 0 && !out.contains(&u) {
                    out.push(u);
                    if out.len() == max {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// How many of an advisor's best children are checked for corral deadlocks before it gives up.
const ADVISOR_TRIES: usize = 4;

/// An advisor's candidate: (score, matching bound, pushes, child index), smallest first.
type Advice = (i64, u32, u16, usize);

/// What the advisors found out about a child: not checked yet, alive, dead by a corral, or
/// dead for want of a matching.
const UNCHECKED: u8 = 0;
const ALIVE: u8 = 1;
const CORRAL_DEAD: u8 = 2;
const NO_MATCHING: u8 = 3;

/// Whether the position (`occupied` marks its `boxes`, player on `player`) has a PI-corral
/// that is a deadlock.
fn child_corral_dead(
    a: &Analysis,
    occupied: &[u8],
    boxes: usize,
    player: usize,
    reach: &mut Flood,
    corrals: &mut Corrals,
    check: &mut CorralCheck,
) -> bool {
    reach.player(a, occupied, Sq::new(player));
    let reach = &*reach;
    let unreached = a.squares() - reach.squares().len() - boxes;
    match corrals.pi_corral(a, occupied, |s| reach.contains(s), unreached, true) {
        Some(barrier) => {
            let barrier: Vec<u16> = barrier.iter().map(|s| s.index() as u16).collect();
            check.is_dead(a, occupied, |s| reach.contains(Sq::new(s)), player, &barrier)
        }
        None => false,
    }
}

/// The opener's key (smallest first) for a move that takes a box off the way to the plan's
/// next goal `goal` and leaves it on `to`: the farther the box ends from that goal (in pushes,
/// on the bare board), the better. A box moved just off the way stays in the area the next
/// boxes must cross, and clearing a corridor or a goal band takes many such moves; one parked
/// far away is out of the way for good, as YASS's packing order pushes boxes as far as they go
/// (XSokoban 23's solution parks the boxes of the corridor before the goal room on the level's
/// far side before the first box goes in).
fn opener_score(a: &Analysis, goal: Option<usize>, to: usize) -> i64 {
    match goal.and_then(|g| a.distance(g, Sq::new(to))) {
        Some(d) => -i64::from(d),
        None => 0,
    }
}

/// The matching cost of a box on square `s` for goal `g`.
fn square_cost(a: &Analysis, s: usize, g: usize) -> i64 {
    a.distance(g, Sq::new(s)).map_or(FORBIDDEN, i64::from)
}

/// Table `id` of `tables`, or `None` while there are none (the analysis's static distances,
/// which need no copy, stand for them).
fn frozen_table(tables: &Option<FrozenTables>, id: TableId) -> Option<&[u16]> {
    tables.as_ref().map(|t| t.table(id))
}

/// Bytes the frozen-goal tables hold (none before the first is built).
fn tables_bytes(tables: &Option<FrozenTables>) -> usize {
    tables.as_ref().map_or(0, FrozenTables::bytes)
}

/// The matching cost of a box on square `s` for goal `g` over a frozen-goal distance table
/// (square-major), or the static one when `table` is `None`.
fn table_cost(a: &Analysis, table: Option<&[u16]>, s: usize, g: usize) -> i64 {
    match table {
        None => square_cost(a, s, g),
        Some(t) => table_entry_cost(t[s * a.goals() + g]),
    }
}

/// The matching cost of one entry of a frozen-goal distance table.
#[inline]
fn table_entry_cost(d: u16) -> i64 {
    match d {
        UNREACHABLE => FORBIDDEN,
        d => i64::from(d),
    }
}

/// A child's matching cost of box `b` for goal `g`, when the box of row `row` moved to square
/// `to`: the parent's costs (`k` per row in `costs`, over the parent's `table`) for the other
/// boxes.
#[allow(clippy::too_many_arguments)]
fn moved_cost(
    a: &Analysis,
    table: Option<&[u16]>,
    costs: &[i64],
    k: usize,
    row: usize,
    to: usize,
    b: usize,
    g: usize,
) -> i64 {
    if b == row { table_cost(a, table, to, g) } else { costs[b * k + g] }
}

/// Why the search must stop now, if it must: the cancel flag or the time limit. Checked once
/// per expansion and inside the long parts of one (the plan, each box's macro moves, each
/// child), so a level with hundreds of boxes stops near its limit too.
pub fn stop_reason(config: &Config, started: Instant) -> Option<fn(Stats) -> SolveError> {
    if config.cancel.as_ref().is_some_and(|c| c.load(atomic::Ordering::Relaxed)) {
        return Some(SolveError::Cancelled);
    }
    if config.time_limit.is_some_and(|t| started.elapsed() >= t) {
        return Some(SolveError::Timeout);
    }
    None
}

/// The error for a search that a stop check ended: cancelled or out of time, as the check now
/// says (out of time when it no longer says either).
fn stopped(config: &Config, started: Instant, stats: Stats) -> SolveError {
    stop_reason(config, started).unwrap_or(SolveError::Timeout)(stats)
}

/// The packing plan of `level` (an error when the limits or the cancel flag stopped it), under
/// `config`'s clock started at `started`, the boxes taken off the goals as `peel` says; for
/// [`Peel::OneByOne`] with `config.fast.bases`, the plan of the backward search that takes
/// boxes away at the start squares (`super::bases`) when it takes any.
pub fn plan(
    level: &Level,
    a: &Analysis,
    config: &Config,
    peel: Peel,
    started: Instant,
) -> Result<PackingPlan, SolveError> {
    let starts = start_squares(level, a);
    let stop = &mut || stop_reason(config, started).is_some();
    if peel == Peel::OneByOne
        && config.fast.bases
        && let Some(plan) = super::bases::first_plan(a, &starts, config.fast.staged, super::bases::EXPANSIONS, stop)
            .ok_or_else(|| halted(config, started))?
    {
        return Ok(plan);
    }
    let plan = PackingPlan::peeled(a, &starts, a.sq(level.player()).index(), config.fast.parking, peel, stop);
    let plan = match plan {
        Some(plan) if config.fast.plan_check => plan.checked_from_start(a, &starts, stop),
        plan => plan,
    };
    plan.ok_or_else(|| halted(config, started))
}

/// The bases plan of `level` the first pass does not follow when it follows `first`
/// (`super::bases::first_plan`): the staged plan (under [`Leave::StartAreaOpen`]; when
/// `advised`, the staged pass's, with the pull advice and [`super::bases::ADVISED_EXPANSIONS`],
/// see `bases.rs`), or, where `first` is the staged plan, the anytime line's, under `config`'s
/// clock started at `started`. `None` when that line takes no box away, its plan is `first`, or
/// `config.fast.staged` is off; an error when the limits or the cancel flag stopped it.
pub fn other_plan(
    level: &Level,
    a: &Analysis,
    config: &Config,
    first: &PackingPlan,
    started: Instant,
    advised: bool,
) -> Result<Option<PackingPlan>, SolveError> {
    if !config.fast.staged {
        return Ok(None);
    }
    // Only a staged plan keeps its waits in place.
    let leave = if first.waits_in_place { Leave::Anytime } else { Leave::StartAreaOpen };
    let stop = &mut || stop_reason(config, started).is_some();
    let expansions = if advised { super::bases::ADVISED_EXPANSIONS } else { super::bases::EXPANSIONS };
    let other = super::bases::plan(a, &start_squares(level, a), (leave, advised), expansions, stop)
        .ok_or_else(|| halted(config, started))?;
    Ok(other.filter(|plan| plan != first))
}

/// The error for a search before the passes (a plan, the hotspot table) that a stop check
/// ended (see [`stopped`]), with the solve's seconds and no other counters.
pub(super) fn halted(config: &Config, started: Instant) -> SolveError {
    stopped(config, started, Stats { seconds: started.elapsed().as_secs_f64(), ..Stats::default() })
}

/// What a pass's moves cost (see [`super`]): a move named by the packing, connectivity or
/// opener advisor costs 0, one named by an optional advisor that advisor's weight, one that no
/// advisor names `other`; a move named by several costs the least of their weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// The hotspot advisor's move (see [`super::hotspots`]), `None` when it takes no part.
    pub hotspots: Option<u32>,
    /// The distance advisor's move (the largest drop of the matching bound), `None` when it
    /// takes no part.
    pub distance: Option<u32>,
    /// Whether the feature-space cell counts the boxes on goals in any order (see
    /// [`super::features`]).
    pub filled: bool,
    /// Whether the feature-space cell says that boxes block the way to the plan's next goal
    /// (see [`super::features`]).
    pub blocked: bool,
    /// A move no advisor names.
    pub other: u32,
    /// Expansions for a sprint from each state that beats the search's best count of boxes on
    /// goals (see [`sprint`]); `None` for no sprints (and inside one).
    pub sprint: Option<u64>,
    /// The staging advisor's move (a box of a pair in each other's way stepping aside while
    /// no goal of the plan is filled, see [`super::staging`]), `None` when it takes no part.
    pub staging: Option<u32>,
    /// Whether the feature-space cell says that the state cannot follow the plan, the packing
    /// advisor leading into none such from one that can (see [`super::plan_reach`]).
    pub astray: bool,
    /// Whether the feature-space cell says which of the root's moves the state's line starts
    /// with (see [`super::features`]).
    pub branches: bool,
    /// The normalised player a solution must end with (the staging midpoint's imagined level,
    /// see `midpoint.rs`: its continuation holds from one region only); `None` for any. A
    /// state with every box on a goal and the player elsewhere is searched on like any other.
    pub end_region: Option<u16>,
    /// How far the pass's dead search looks (see [`DeadReach`]).
    pub dead: DeadReach,
    /// The explorer advisor's move (a reversible move that lets the player push a box it
    /// could not push before, see [`super::explorer`]), `None` when it takes no part.
    pub explorer: Option<u32>,
}

/// The open-packing advisor's score of a child (smaller is better): the most of the plan
/// packed, then the fewest player regions, then the fewest hotspots, FESS's order of the
/// features. The packing advisor takes the smallest bound instead, which favours bringing in
/// a far box (its cost leaves the matching); this one a move that keeps the board open, so
/// the two name different children where the plan's next goal can take either.
fn openness(c: &Child) -> i64 {
    (-i64::from(c.cell[0]) << 32) + (i64::from(c.regions) << 16) + i64::from(c.hotspots.min(0xFFFF))
}

/// The advisors' slots, in the order they choose.
const PACKING: usize = 0;
const CONNECTIVITY: usize = 1;
const DISTANCE: usize = 2;
const OPENER: usize = 3;
const HOTSPOTS: usize = 4;
const STAGING: usize = 5;
const OPEN_PACKING: usize = 6;
const ROOMS: usize = 7;
const EXPLORER: usize = 8;
const ADVISORS: usize = 9;

/// The most cells one visit dives into (see the module docs): enough for a packing line to
/// run through a goal room's row of goals; the dive ends sooner where the line stops packing.
const DIVE_DEPTH: usize = 8;

/// A state with at most this many moves is narrow: one of them is free (see
/// `Pass::narrow_move`). FESS's rule; one move alone, or up to three, solved fewer XSokoban
/// levels at a fixed budget.
const NARROW: usize = 2;

/// Runs the search. The level must have as many boxes as goals under the standard rule, with
/// deadlock pruning sound (the caller checks). `weights` says which optional advisors take part
/// and what each kind of move costs; `hot` is the level's hotspot table (empty when no pass
/// uses it). `learned` carries deadlock patterns from an earlier search of the same level and
/// takes this one's.
pub fn run(
    level: &Level,
    a: &Analysis,
    plan: &PackingPlan,
    hot: &Hotspots,
    config: &Config,
    weights: Weights,
    learned: &mut Learned,
) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let mut pass = Pass::new(Inputs { level, a, plan, hot, config, weights, started }, learned);
    let Err(end) = pass.start().and_then(|()| pass.rounds());
    *end
}

/// How a pass ends, carried out of its steps by `?`: its solution, or why it stopped.
type Flow<T> = Result<T, Box<Result<Solution, SolveError>>>;

/// Ends the pass with `result`.
fn end<T>(result: Result<Solution, SolveError>) -> Flow<T> {
    Err(Box::new(result))
}

/// What a pass reads and never changes.
#[derive(Clone, Copy)]
struct Inputs<'r> {
    level: &'r Level,
    a: &'r Analysis,
    plan: &'r PackingPlan,
    hot: &'r Hotspots,
    config: &'r Config,
    weights: Weights,
    /// When the pass started: its time limit counts from here.
    started: Instant,
}

/// The state being expanded, as its children and the advisors see it.
struct Parent {
    id: u32,
    node: Node,
    /// Its exact matching bound.
    h: i64,
    on_goals: usize,
    /// Its number of player regions.
    regions: u16,
    cell: Cell,
    /// Its boxes that are hotspots.
    hot: u32,
    /// The boxes on the cheapest way to the plan's next goal, when that way was searched.
    obstacles: Option<u32>,
    /// Whether the opener advises (boxes stand on that way).
    opening: bool,
    /// Room links cut.
    cut: u16,
}

/// One run of the search (see [`run`]): its states, the state it has loaded (picked, then
/// expanded) and the scratch its steps reuse, so an expansion allocates nothing.
struct Pass<'r> {
    inputs: Inputs<'r>,
    /// The limits: expansions, time, cancel flag (memory is checked against the bytes held).
    budget: Budget<'r>,
    learned: &'r mut Learned,
    search: Search,
    features: Features,
    macros: Macros,
    hungarian: Hungarian,
    /// Per square, the moved box's dual there under the expanded state's duals (see
    /// [`Hungarian::row_fit`]), with the duals' generation it was made under.
    fits: Vec<(u64, i64)>,
    /// The matchings of the states expanded lately, for their children's exact matchings,
    /// and scratch for their rows' new order.
    recent: Recent,
    rows: Vec<usize>,
    /// Distance tables with boxes frozen on goals as walls, built when a frozen set first
    /// appears. Player-aware ones (see `crate::solver::frozen`) start with their static table;
    /// relaxed ones read the analysis's until a box freezes.
    tables: Option<FrozenTables>,
    /// The loaded state's table in `tables`.
    parent_table: TableId,
    frozen_set: Vec<u64>,
    /// Words of a state key.
    words: usize,
    /// The loaded state: its boxes (sorted), its key, and its matching costs box by box in
    /// rows. `occupied` marks its boxes while it is being expanded, and is clear between.
    boxes: Vec<u16>,
    key: Vec<u64>,
    costs: Vec<i64>,
    occupied: Vec<u8>,
    /// A PI-corral's barrier boxes, the only ones that move when there is one.
    restricted: Vec<u16>,
    corrals: Corrals,
    corral_check: CorralCheck,
    moves: Vec<MacroMove>,
    way: Way,
    /// How many boxes not on goals each box of the expanded state is a hotspot for.
    hot_counts: Vec<u32>,
    /// The children's hotspot counts, worked out for the box they move.
    moving: Moving,
    /// The children of the state being expanded, their keys one after another, and the hash of
    /// each move's child.
    children: Vec<Child>,
    child_keys: Vec<u64>,
    child_key: Vec<u64>,
    child_hashes: Vec<u32>,
    /// What the advisors found out about each child (`UNCHECKED` …).
    dead_children: Vec<u8>,
    child_reach: Flood,
    path: Vec<Sq>,
    squares: Vec<Sq>,
    dead_scratch: DeadScratch,
    fences: Fences,
    cut_off: CutOff,
    /// Each advisor's weight in this pass.
    slot_weights: [Option<u32>; ADVISORS],
    /// The most boxes on goals of a state picked so far.
    best_on_goals: usize,
    /// The sprints' expansions so far.
    sprinted: u64,
    /// Whether a sprint has run.
    sprinted_once: bool,
    /// The expansions of the first sprint when it ran before the sprints' share allowed it
    /// (counted in neither the share nor the pass's own expansions).
    early: u64,
    /// The staging advisor's moves, worked out once for the start's boxes.
    asides: Vec<Aside>,
    /// The lead cell (see the module docs), once a state is picked.
    lead: Option<Cell>,
    /// The cell to dive into after this visit (see the module docs), when the expansion made
    /// a packing child no worse than its parent.
    dive: Option<Cell>,
    /// Where boxes can reach the plan's goals in their turn, when cells say whether a state
    /// can follow the plan (`Weights::astray`).
    plan_reach: Option<PlanReach>,
    /// The expanded state's matching of boxes to the plan's goals left, for its children's
    /// test (see `plan_reach.rs`).
    matched: Box<Matchings>,
    /// A child's boxes, for `plan_reach`.
    child_boxes: Vec<u16>,
    /// The level's rooms, for the rooms advisor.
    rooms: Rooms,
    /// The explorer advisor's tables, when it takes part.
    explorer: Option<Explorer>,
}

impl<'r> Pass<'r> {
    fn new(inputs: Inputs<'r>, learned: &'r mut Learned) -> Pass<'r> {
        let Inputs { level, a, weights, .. } = inputs;
        learned.exhaust.set_vanishing(weights.dead.vanish);
        let n = a.squares();
        let words = keyed::words(a);
        let mut slot_weights = [Some(0); ADVISORS];
        slot_weights[DISTANCE] = weights.distance;
        slot_weights[HOTSPOTS] = weights.hotspots;
        slot_weights[STAGING] = weights.staging;
        slot_weights[OPEN_PACKING] = inputs.config.fast.open_packing.then_some(0);
        // The rooms advisor's move costs one less than an unadvised one: a nudge, not a line
        // to follow (at an advised move's full weight, 0, it led XSokoban's searches astray).
        slot_weights[ROOMS] = inputs.config.fast.rooms.then(|| weights.other.saturating_sub(1));
        slot_weights[EXPLORER] = weights.explorer;
        Pass {
            inputs,
            budget: Budget::starting_at(inputs.config, inputs.started),
            learned,
            search: Search::new(a),
            features: Features::new(a, weights.filled, weights.blocked),
            macros: Macros::new(n),
            hungarian: Hungarian::default(),
            fits: vec![(u64::MAX, 0); inputs.a.squares()],
            recent: Recent::new(inputs.config.memory_limit),
            rows: Vec::new(),
            tables: None,
            parent_table: TableId::STATIC,
            frozen_set: vec![0; a.goals().div_ceil(64).max(1)],
            words,
            boxes: Vec::with_capacity(level.boxes().len()),
            key: vec![0; words],
            costs: Vec::new(),
            occupied: vec![0; n],
            restricted: Vec::new(),
            corrals: Corrals::new(n),
            corral_check: CorralCheck::new(n),
            moves: Vec::new(),
            way: Way::new(n),
            hot_counts: Vec::new(),
            moving: Moving::default(),
            children: Vec::new(),
            child_keys: Vec::new(),
            child_key: vec![0; words],
            child_hashes: Vec::new(),
            dead_children: Vec::new(),
            child_reach: Flood::new(n),
            path: Vec::new(),
            squares: Vec::new(),
            dead_scratch: DeadScratch::new(n, weights.dead),
            fences: Fences::default(),
            cut_off: CutOff::new(n),
            slot_weights,
            best_on_goals: 0,
            sprinted: 0,
            sprinted_once: false,
            early: 0,
            asides: if weights.staging.is_some() { start_asides(level, a) } else { Vec::new() },
            lead: None,
            dive: None,
            plan_reach: None,
            matched: Box::default(),
            child_boxes: Vec::new(),
            rooms: if slot_weights[ROOMS].is_some() { Rooms::new(a) } else { Rooms::none() },
            explorer: slot_weights[EXPLORER].map(|_| Explorer::new()),
        }
    }

    /// Queues the root, or ends the pass at once: solved when every box starts on a goal,
    /// unsolvable when a box starts on a dead square or the boxes have no matching.
    fn start(&mut self) -> Flow<()> {
        let Inputs { level, a, plan, config, started, .. } = self.inputs;
        for b in level.boxes() {
            let s = a.sq(*b).index();
            if s >= a.live() {
                return end(Err(SolveError::Unsolvable(self.search.finish_stats(started))));
            }
            self.key[s / 64] |= 1 << (s % 64);
            self.occupied[s] = 1;
            self.boxes.push(s as u16);
        }
        self.boxes.sort_unstable();
        let on_goals = self.on_goals();
        // An end region asks for a line even from a start with every box on a goal.
        if on_goals == self.boxes.len() && self.inputs.weights.end_region.is_none() {
            return end(self.solved(ROOT, &[]));
        }
        if config.fast.aware {
            let made = FrozenTables::player_aware_within(a, &mut self.budget.stop_check());
            match made {
                Some(t) => self.tables = Some(t),
                None => return self.stopped(),
            }
        }
        if self.inputs.weights.astray {
            // `None`: a plan too long to check, or the limits ran out.
            self.plan_reach = PlanReach::new(a, plan, &mut self.budget.stop_check());
            if self.plan_reach.is_none() && self.budget.check_now().is_err() {
                return self.stopped();
            }
        }
        let base = frozen_table(&self.tables, TableId::STATIC);
        let boxes = &self.boxes;
        let cost = |b: usize, g| table_cost(a, base, boxes[b] as usize, g);
        let root = self.hungarian.solve_within(boxes.len(), a.goals(), cost, &mut self.budget.stop_check());
        let Ok(root) = root else { return self.stopped() };
        let Some(h) = root else {
            return end(Err(SolveError::Unsolvable(self.search.finish_stats(started))));
        };
        let regions = self.features.regions(a, &self.occupied, a.sq(level.player()).index());
        let cell = self.features.cell(plan, &self.occupied, (regions.count, on_goals), |_| false, |p| self.astray(p));
        let root = Node {
            parent: ROOT,
            from: Sq::new(0),
            to: Sq::new(0),
            dir: 0,
            expanded: false,
            player: regions.player,
            weight: 0,
        };
        let hash = hash_key(&self.key);
        let id = self.search.insert(&self.key, root, hash);
        self.search.enqueue(cell, 0, h as u32, id);
        self.set_boxes(0);
        self.best_on_goals = on_goals;
        Ok(())
    }

    /// Visits the non-empty cells in key order, round after round, each visit followed by
    /// one to the lead cell (with `FastOptions::lead`), until the pass ends.
    fn rounds(&mut self) -> Flow<std::convert::Infallible> {
        let lead = self.inputs.config.fast.lead;
        let mut round: Vec<Cell> = Vec::new();
        loop {
            round.clear();
            round.extend(self.search.cells.keys().copied());
            if round.is_empty() {
                return end(Err(SolveError::Unsolvable(self.search.finish_stats(self.inputs.started))));
            }
            for cell in &round {
                self.visit(cell)?;
                self.dive()?;
                if lead && let Some(cell) = self.lead {
                    self.visit(&cell)?;
                    self.dive()?;
                }
            }
        }
    }

    /// Follows the packing line of the visit just made (see the module docs): the cell of its
    /// packing child, then that visit's, up to [`DIVE_DEPTH`] cells.
    fn dive(&mut self) -> Flow<()> {
        for _ in 0..DIVE_DEPTH {
            let Some(cell) = self.dive.take() else { break };
            self.visit(&cell)?;
        }
        self.dive = None;
        Ok(())
    }

    /// Expands the cheapest live state of `cell`, if it has one, after the steps that may end
    /// the pass first: the limits, a sprint, the backward searches.
    fn visit(&mut self, cell: &Cell) -> Flow<()> {
        let Some((id, h)) = self.pick(cell)? else { return Ok(()) };
        if self.lead.is_none_or(|lead| leads(cell, &lead)) {
            self.lead = Some(*cell);
        }
        if self.inputs.config.fast.dead_search && self.dead(id)? {
            return Ok(());
        }
        let on_goals = self.on_goals();
        self.count_expansion()?;
        self.sprint_if_due(id, on_goals)?;
        self.advance_backward()?;
        self.expand(id, h, on_goals)
    }

    /// The cheapest unexpanded state of `cell`, loaded, with its exact matching. A child is
    /// queued under a lower bound of its matching (see [`Self::child_bound`]); here, once
    /// picked, it gets the exact matching, and goes back to the queue when that is higher, so
    /// states leave in the order exact bounds would give.
    fn pick(&mut self, cell: &Cell) -> Flow<Option<(u32, i64)>> {
        while let Some(heap) = self.search.cells.get_mut(cell) {
            let Some(Reverse((weight, h, Reverse(id)))) = heap.pop() else { break };
            self.search.queued -= 1;
            if heap.is_empty() {
                self.search.cells.remove(cell);
            }
            let node = &self.search.states.nodes[id as usize];
            if node.expanded || node.weight != weight {
                continue;
            }
            keyed::boxes_of(self.search.key(id), &mut self.boxes);
            self.parent_table = self.table_id()?;
            match self.matching(id)? {
                None => {
                    self.search.states.nodes[id as usize].expanded = true;
                    self.search.stats.pruned_no_matching += 1;
                }
                Some(exact) if exact > i64::from(h) => self.search.enqueue(*cell, weight, exact as u32, id),
                Some(exact) => {
                    self.hungarian.save();
                    self.recent.keep(id, self.parent_table, &self.boxes, &self.hungarian);
                    return Ok(Some((id, exact)));
                }
            }
        }
        Ok(None)
    }

    /// The distance table of the loaded boxes: the one with the boxes frozen on goals as walls
    /// (see `crate::solver::frozen`: such a box never moves again, so a goal room whose
    /// entrance was filled first has no matching), or the static one when none is frozen, the
    /// option is off or no table fits.
    fn table_id(&mut self) -> Flow<TableId> {
        let Inputs { a, config, .. } = self.inputs;
        if !config.pruning.frozen_goals {
            return Ok(TableId::STATIC);
        }
        self.set_boxes(1);
        let squares = self.boxes.iter().map(|&b| Sq::new(b as usize));
        let (occupied, path) = (&self.occupied, &mut self.path);
        let is_frozen = |s| crate::solver::deadlock::is_frozen(a, occupied, s, &mut *path);
        frozen_goal_set(a, squares, is_frozen, &mut self.frozen_set);
        self.set_boxes(0);
        // The first table needs a copy of the static one too.
        let memory_limit = config.memory_limit.unwrap_or(usize::MAX);
        let first = a.distance_table().len() * 4;
        let fits = self.tables.is_some() || self.search.bytes().saturating_add(first) <= memory_limit;
        if !fits || self.frozen_set.iter().all(|&w| w == 0) {
            return Ok(TableId::STATIC);
        }
        let held = self.search.bytes();
        let tables = self.tables.get_or_insert_with(|| FrozenTables::new(a));
        let room = memory_limit.saturating_sub(held + tables.bytes());
        let id = tables.id(a, &self.frozen_set, room, &mut self.budget.stop_check());
        match id {
            Ok(id) => Ok(id),
            // Out of room for another table: the static distances still bound.
            Err(NoTable::Full) => Ok(TableId::STATIC),
            Err(NoTable::Stopped) => self.stopped(),
        }
    }

    /// The exact matching of the loaded boxes of state `id` over their table (`None` when
    /// there is none), its costs kept in `costs` for re-solving one row per child: its
    /// parent's re-solved for the moved box when [`Recent`] still has the parent's.
    fn matching(&mut self, id: u32) -> Flow<Option<i64>> {
        let Inputs { a, .. } = self.inputs;
        let k = self.boxes.len();
        let table = frozen_table(&self.tables, self.parent_table);
        self.costs.clear();
        for &b in &self.boxes {
            self.costs.extend((0..k).map(|g| table_cost(a, table, b as usize, g)));
        }
        if let Some(exact) = self.resolved_from_parent(id) {
            return Ok(exact);
        }
        let costs = &self.costs;
        let exact = self.hungarian.solve_within(k, k, |b, g| costs[b * k + g], &mut self.budget.stop_check());
        match exact {
            Ok(exact) => Ok(exact),
            Err(_) => self.stopped(),
        }
    }

    /// The exact matching of state `id` (loaded, its costs in `costs`) from its parent's
    /// matching, when [`Recent`] keeps it under the same table: the parent's rows renumbered
    /// as the boxes sort now, the moved box's row re-solved (O(boxes²) instead of O(boxes³)).
    /// `None` when it is not kept.
    fn resolved_from_parent(&mut self, id: u32) -> Option<Option<i64>> {
        let node = self.search.states.nodes[id as usize];
        let kept = self.recent.of(node.parent, self.parent_table)?;
        let (from, to) = (node.from.index() as u16, node.to.index() as u16);
        let at = |b: u16| self.boxes.binary_search(&b).ok();
        self.rows.clear();
        for &b in &kept.boxes {
            self.rows.push(at(if b == from { to } else { b })?);
        }
        let moved = at(to)?;
        self.hungarian.restore(&kept.duals, &self.rows);
        let (k, costs) = (self.boxes.len(), &self.costs);
        Some(self.hungarian.resolve_rows(k, &[moved], |b, g| costs[b * k + g]))
    }

    /// Whether the picked state `id` (loaded) is dead: a learned pattern matches it, or the
    /// exhaustive search (see `crate::solver::exhaust`) proves dead the boxes round its last
    /// move, the small part of the floor that move closed off or a pocket's fence. Done on the
    /// states picked rather than on every child made: most children are never picked, and on
    /// levels with many corners (XSokoban 41) the search on all of them took much of the time.
    /// A dead state is marked expanded and never is.
    fn dead(&mut self, id: u32) -> Flow<bool> {
        let Inputs { a, .. } = self.inputs;
        let node = self.search.states.nodes[id as usize];
        self.squares.clear();
        self.squares.extend(self.boxes.iter().map(|&b| Sq::new(b as usize)));
        self.set_boxes(1);
        self.learned.take_in();
        let mut dead = self.learned.patterns.matches(&self.occupied, &self.squares, node.player as usize);
        if !dead && node.parent != ROOT {
            let tables = (frozen_table(&self.tables, self.parent_table), frozen_table(&self.tables, TableId::STATIC));
            let stop = &mut self.budget.stop_check();
            let at = (node.to.index(), node.player as usize);
            let k = self.boxes.len();
            let (occupied, learned, scratch) = (&self.occupied, &mut *self.learned, &mut self.dead_scratch);
            dead = cluster_dead(a, occupied, at, k, None, tables.0, tables.1, learned, scratch, &mut *stop)
                || cut_off_dead(a, occupied, at, k, tables, learned, &mut self.cut_off, scratch, &mut *stop)
                || pockets_dead(a, occupied, &self.boxes, at.1, tables, learned, scratch, &mut self.fences, stop);
        }
        self.set_boxes(0);
        if dead {
            self.search.states.nodes[id as usize].expanded = true;
            self.search.stats.pruned_corral += 1;
            return Ok(true);
        }
        if let Err(stop) = self.budget.check_now() {
            return self.stop(stop);
        }
        Ok(false)
    }

    /// Counts an expansion and checks the limits, once per expansion (an expansion is a
    /// fraction of a millisecond).
    fn count_expansion(&mut self) -> Flow<()> {
        self.search.stats.expanded += 1;
        if let Some(turn) = &mut self.learned.turn {
            turn.tick();
        }
        match self.budget.tick(self.search.stats.expanded) {
            Ok(()) => Ok(()),
            Err(stop) => self.stop(stop),
        }
    }

    /// A record of boxes on goals (`on_goals` in the picked state `id`), with few left: a short
    /// search with a fresh plan (see [`sprint`]), whose solution ends the pass.
    fn sprint_if_due(&mut self, id: u32, on_goals: usize) -> Flow<()> {
        let Inputs { level, a, hot, config, weights, started, .. } = self.inputs;
        let k = self.boxes.len();
        let record = on_goals > self.best_on_goals;
        self.best_on_goals = self.best_on_goals.max(on_goals);
        let sprinted = self.sprinted;
        let share = (self.search.stats.expanded - sprinted - self.early) / SPRINT_SHARE;
        // The first sprint of a level larger than a sprint's state may leave runs whatever
        // the share, and when it runs before it, it is left out of it (see `SPRINT_SHARE`).
        let first = !self.sprinted_once && k > SPRINT_BOXES;
        let due =
            weights.sprint.filter(|&b| record && k - on_goals <= SPRINT_BOXES && (sprinted + b <= share || first));
        let Some(budget) = due else { return Ok(()) };
        let early = sprinted + budget > share;
        let player = self.search.states.nodes[id as usize].player;
        let held = self.held();
        self.sprinted_once = true;
        match sprint(level, a, hot, config, weights, (&self.boxes, player), (budget, held), started) {
            Sprint::Solved(tail, stats) => {
                self.search.stats.add(&stats);
                end(self.solved(id, &tail).map(|s| s.credited("sprint")))
            }
            Sprint::Failed(stats) => {
                match early {
                    true => self.early += stats.expanded,
                    false => self.sprinted += stats.expanded,
                }
                self.search.stats.add(&stats);
                Ok(())
            }
            Sprint::Stopped => self.stopped(),
        }
    }

    /// The backward searches keep pace, and meet the forward states made so far: a meeting
    /// ends the pass solved.
    fn advance_backward(&mut self) -> Flow<()> {
        let Inputs { a, .. } = self.inputs;
        let search = &self.search;
        let met = self.learned.backward.advance(a, &mut self.budget.stop_check(), |w, p, h| search.find(w, p, h));
        let Some((i, found)) = met else { return Ok(()) };
        let (goal, id) = match found {
            Found::Start(id) => (ROOT, id),
            Found::Forward { id, node } => (node, id),
        };
        let tail = self.learned.backward.pushes_from(a, i, id);
        end(self.solved(goal, &tail).map(|s| s.credited("backward")))
    }

    /// Expands the picked state `id` (loaded; `h` its exact matching, `on_goals` its boxes on
    /// goals): its macro moves become children, the advisors name theirs, and the children
    /// are queued at their weights.
    fn expand(&mut self, id: u32, h: i64, on_goals: usize) -> Flow<()> {
        let Inputs { a, plan, hot, config, weights, .. } = self.inputs;
        let node = self.search.states.nodes[id as usize];
        self.search.states.nodes[id as usize].expanded = true;
        self.key.copy_from_slice(self.search.key(id));
        self.set_boxes(1);
        let regions = self.features.regions(a, &self.occupied, node.player as usize).count;
        let (reach, matched) = (&self.plan_reach, &mut self.matched);
        let astray = |p| reach.as_ref().is_some_and(|r| !r.match_parent(&self.boxes, p, matched));
        let cell = self.features.cell(plan, &self.occupied, (regions, on_goals), |_| false, astray);
        if self.pi_corral_dead(node.player) {
            self.set_boxes(0);
            return Ok(());
        }
        self.generate_moves()?;
        // The cheapest way to the plan's next goal and the boxes on it, for the opener and
        // the blocked feature.
        let obstacles = if config.fast.opener || weights.blocked {
            self.way.search(a, plan, cell[0], &self.occupied, node.player as usize).map(|f| f.obstacles)
        } else {
            None
        };
        let hot = match weights.hotspots {
            Some(_) => {
                self.moving.clear();
                hot.count(&self.boxes, a.goals(), &mut self.hot_counts)
            }
            None => 0,
        };
        let opening = config.fast.opener && obstacles.is_some_and(|o| o > 0);
        // Without the rooms advisor there are no rooms, and nothing is cut.
        let cut = self.rooms.load(a, &self.occupied);
        if let Some(explorer) = &mut self.explorer {
            explorer.load(a, self.features.labels().0, &self.occupied, &self.boxes);
        }
        let parent = Parent { id, node, h, on_goals, regions, cell, hot, obstacles, opening, cut };
        self.children.clear();
        self.child_keys.clear();
        self.prefetch_children();
        for i in 0..self.moves.len() {
            self.child(&parent, i)?;
        }
        let advised = self.advise(&parent);
        self.set_boxes(0);
        self.queue_children(&parent, &advised)?;
        let bytes = self.held();
        self.search.stats.peak_bytes = self.search.stats.peak_bytes.max(bytes as u64);
        Ok(())
    }

    /// Whether the expanded state (the player on `player`, its regions labelled in `features`)
    /// has a PI-corral that is a deadlock. A PI-corral's barrier boxes go to `restricted`: one
    /// of them must be pushed first, so only they move.
    fn pi_corral_dead(&mut self, player: u16) -> bool {
        let Inputs { a, config, .. } = self.inputs;
        self.restricted.clear();
        if config.pruning.corrals {
            let features = &self.features;
            let unreached = a.squares() - features.reach_size() - self.boxes.len();
            if let Some(barrier) = self.corrals.pi_corral(a, &self.occupied, |s| features.reaches(s), unreached, true) {
                self.restricted.extend(barrier.iter().map(|s| s.index() as u16));
                self.search.stats.corral_cuts += 1;
            }
        }
        if self.restricted.is_empty() {
            return false;
        }
        let features = &self.features;
        let dead = self.corral_check.is_dead(
            a,
            &self.occupied,
            |s| features.reaches(Sq::new(s)),
            player as usize,
            &self.restricted,
        );
        if dead {
            self.search.stats.pruned_corral += 1;
        }
        dead
    }

    /// The expanded state's macro moves, of the barrier's boxes only when `restricted` holds
    /// a PI-corral's.
    fn generate_moves(&mut self) -> Flow<()> {
        let Inputs { a, .. } = self.inputs;
        self.moves.clear();
        let restricted = &self.restricted;
        let mut boxes =
            self.boxes.iter().filter(|b| restricted.is_empty() || restricted.contains(b)).map(|&b| b as usize);
        let (features, budget) = (&self.features, &mut self.budget);
        let mut stopped = None;
        // Polled on the budget's interval: the clock read once per box showed in the profile.
        let mut stop = || budget.poll().map_err(|stop| stopped = Some(stop)).is_err();
        self.macros.moves(
            a,
            &mut self.occupied,
            &|s| features.reaches(Sq::new(s)),
            &mut boxes,
            &mut self.moves,
            &mut stop,
        );
        match stopped {
            Some(stop) => self.stop(stop),
            None => Ok(()),
        }
    }

    /// Loads the children's slots in both arenas while the first children are checked: one
    /// lookup after another each waited on memory (see keyed.rs).
    fn prefetch_children(&mut self) {
        self.child_hashes.clear();
        for m in &self.moves {
            keyed::moved(&self.key, m.from.index(), m.to.index(), &mut self.child_key);
            let hash = hash_key(&self.child_key);
            self.search.states.prefetch(hash);
            self.learned.backward.prefetch(hash);
            self.child_hashes.push(hash);
        }
        for &hash in &self.child_hashes {
            self.search.states.prefetch_matches(hash);
        }
    }

    /// The child of move `i`, unless the pushed box dies in a 2×2 block or a freeze (see
    /// [`Self::live_child`]).
    fn child(&mut self, parent: &Parent, i: usize) -> Flow<()> {
        let Inputs { a, .. } = self.inputs;
        // The clock is read on the budget's interval: read per child, it showed in the profile.
        if let Err(stop) = self.budget.poll() {
            return self.stop(stop);
        }
        let m = self.moves[i];
        let (from, to) = (m.from.index(), m.to.index());
        self.occupied[from] = 0;
        self.occupied[to] = 1;
        let dead = if deadlock::block_2x2(a, &self.occupied, Sq::new(to)) {
            self.search.stats.pruned_2x2 += 1;
            true
        } else if deadlock::freeze(a, &self.occupied, Sq::new(to), &mut self.path) {
            self.search.stats.pruned_freeze += 1;
            true
        } else {
            false
        };
        if !dead {
            self.live_child(parent, i, m)?;
        }
        self.occupied[to] = 0;
        self.occupied[from] = 1;
        Ok(())
    }

    /// Move `i` (`m`, made on `occupied`) as a child: unless [`Self::child_bound`] drops it,
    /// it joins `children` with its cell and hotspots. A solved child, or one the backward
    /// searches reached (undoing their pulls solves it), ends the pass.
    fn live_child(&mut self, p: &Parent, i: usize, m: MacroMove) -> Flow<()> {
        let Inputs { a, plan, hot, weights, .. } = self.inputs;
        let (from, to) = (m.from.index(), m.to.index());
        let row = self.boxes.iter().position(|&b| usize::from(b) == m.from.index()).unwrap_or(0);
        let regions = self.features.child_regions(a, p.regions, m);
        #[cfg(debug_assertions)]
        {
            let mut check = Features::new(a, false, false);
            let player_square = m.player_square(a).index();
            let full = check.regions(a, &self.occupied, player_square);
            debug_assert_eq!((full.count, full.player), (regions.count, regions.player));
        }
        keyed::moved(&self.key, from, to, &mut self.child_key);
        let hash = self.child_hashes[i];
        let existing = self.search.find(&self.child_key, regions.player, hash);
        if existing.is_some() {
            self.search.stats.duplicates += 1;
        }
        let expanded = existing.is_some_and(|e| self.search.states.nodes[e as usize].expanded);
        let on_goals = p.on_goals - usize::from(from < a.goals()) + usize::from(to < a.goals());
        let Some(h) = self.child_bound(expanded, regions.player, m, row, on_goals) else { return Ok(()) };
        let met = self.learned.backward.find(&self.child_key, regions.player, hash);
        self.search.stats.generated += 1;
        if (h == 0 && self.inputs.weights.end_region.is_none_or(|r| r == regions.player)) || met.is_some() {
            let node = p.node;
            let child = Node {
                parent: p.id,
                from: m.from,
                to: m.to,
                dir: m.dir,
                expanded: false,
                player: regions.player,
                weight: node.weight,
            };
            let goal = self.search.insert(&self.child_key, child, hash);
            let tail = met.map(|(i, y)| self.learned.backward.pushes_from(a, i, y)).unwrap_or_default();
            return end(self.solved(goal, &tail));
        }
        // A child that packs has a new next goal, whose way is not known yet.
        let way = &self.way;
        let blocked = |packed| packed == p.cell[0] && p.obstacles.is_some_and(|o| way.blocked_after(o, from, to));
        let (reach, boxes, matched) = (&self.plan_reach, &mut self.child_boxes, &mut self.matched);
        let astray = |packed| {
            reach.as_ref().is_some_and(|r| {
                // A move that keeps what the box could reach keeps a state on the plan, and
                // one that adds nothing to it keeps a state astray; the others are judged
                // from the parent's matching.
                if packed == p.cell[0] {
                    let (from, to) = (from as u16, to as u16);
                    match p.cell[4] {
                        0 if r.keeps_reach(from, to, packed) => return false,
                        1 if r.keeps_astray(from, to, packed) => return true,
                        _ => {}
                    }
                }
                if let Some(follows) = r.child_follows(&self.boxes, matched, (row, to as u16), packed) {
                    return !follows;
                }
                boxes.clear();
                boxes.extend(self.boxes.iter().map(|&b| if usize::from(b) == from { to as u16 } else { b }));
                !r.follows(boxes, packed)
            })
        };
        let cell = self.features.cell(plan, &self.occupied, (regions.count, on_goals), blocked, astray);
        let hotspots = match weights.hotspots {
            Some(_) => {
                hot.moving(&self.boxes, a.goals(), &self.hot_counts, row, &mut self.moving);
                hot.moved_to(&self.moving, a.goals(), to)
            }
            None => 0,
        };
        self.child_keys.extend_from_slice(&self.child_key);
        let player = regions.player;
        let h = h as u32;
        let cut = self.child_cut(p, m);
        let c = Child { m, row, player, hash, h, exact: false, cell, regions: regions.count, hotspots, existing, cut };
        self.children.push(c);
        Ok(())
    }

    /// The matching bound of the child of move `m` (box row `row`; `player` its normalised
    /// player, `on_goals` its boxes on goals), or `None` to drop it: a state expanded already
    /// (another path gains nothing, weights only matter before expansion), one a learned
    /// pattern matches, one without a matching.
    fn child_bound(&mut self, expanded: bool, player: u16, m: MacroMove, row: usize, on_goals: usize) -> Option<i64> {
        let Inputs { a, config, .. } = self.inputs;
        let (k, to) = (self.boxes.len(), m.to.index());
        if expanded {
            return None;
        }
        if config.fast.dead_search && self.learned.patterns.matches_at(&self.occupied, player as usize, to) {
            self.search.stats.pruned_corral += 1;
            return None;
        }
        if on_goals == k {
            return Some(0);
        }
        // A lower bound of the matching in O(boxes): exact for nearly every child, and made
        // exact when the child is picked or advised. Most children are never picked, and the
        // exact re-solve was over half of the search's time on levels with many boxes.
        // The moved box's costs read straight from its square's row of the table.
        // The moved box's dual depends on its square alone: the children that move a box to
        // the same square share it.
        let generation = self.hungarian.saved_generation();
        let fit = match self.fits[to] {
            (made, fit) if made == generation => Some(fit),
            _ => {
                let fit = match frozen_table(&self.tables, self.parent_table) {
                    Some(t) => self.hungarian.row_fit(k, t[to * a.goals()..].iter().map(|&d| table_entry_cost(d))),
                    None => self.hungarian.row_fit(k, (0..k).map(|g| square_cost(a, to, g))),
                };
                if let Some(fit) = fit {
                    self.fits[to] = (generation, fit);
                }
                fit
            }
        };
        let bound = fit.and_then(|fit| self.hungarian.row_bound_with(k, row, fit));
        match bound {
            Some(bound) if bound < FORBIDDEN => Some(bound.clamp(1, i64::from(u32::MAX))),
            _ => {
                self.search.stats.pruned_no_matching += 1;
                None
            }
        }
    }

    /// The room links cut in the child of move `m` (made on `occupied`) of `p`, when the
    /// rooms advisor takes part (see `super::rooms`).
    fn child_cut(&mut self, p: &Parent, m: MacroMove) -> u16 {
        let a = self.inputs.a;
        // Only a child with fewer links cut than its parent's matters.
        let near = |s| self.rooms.near_passage(a, s);
        match p.cut > 0 && (near(m.from) || near(m.to)) {
            true => self.rooms.cut_after(a, &self.occupied, m.from, m.to),
            false => p.cut,
        }
    }

    /// The advisors' children, by slot (`usize::MAX` where an advisor names none): each names
    /// at most one child, which then costs the advisor's weight. Scores are minimised; ties go
    /// to the lower bound, then fewer pushes, then generation order. An advised child is first
    /// checked for a corral deadlock; a dead one is dropped and the advisor's next choice is
    /// tried.
    fn advise(&mut self, p: &Parent) -> [usize; ADVISORS] {
        self.dead_children.clear();
        self.dead_children.resize(self.children.len(), UNCHECKED);
        let lists = self.candidates(p);
        let mut advised = [usize::MAX; ADVISORS];
        for (slot, list) in lists.into_iter().enumerate() {
            advised[slot] = self.choose(p, slot, list);
        }
        advised
    }

    /// Each advisor's candidates, keyed (score, bound, pushes, child), from the children's
    /// lower bounds.
    fn candidates(&self, p: &Parent) -> [Vec<Reverse<Advice>>; ADVISORS] {
        let Inputs { a, plan, weights, .. } = self.inputs;
        // Opener: when boxes stand on the cheapest way to the plan's next goal, move one of
        // them off it.
        let next_goal = plan.steps.get(p.cell[0] as usize).map(|step| step.goal as usize);
        let opens = |c: &Child| p.opening && self.way.blocks(c.m.from.index()) && !self.way.on_way(c.m.to.index());
        // Staging: before the plan's first goal is filled, a box of a pair in each other's
        // way steps aside (the fewest pushes first when several may).
        let staging = !self.asides.is_empty() && p.cell[0] == 0;
        let open_packing = self.slot_weights[OPEN_PACKING].is_some();
        let mut lists: [Vec<Reverse<Advice>>; ADVISORS] = Default::default();
        let labels = self.features.labels();
        for (i, c) in self.children.iter().enumerate() {
            // Packing: progress along the plan, never astray from it (see `plan_reach.rs`).
            let gain = i64::from(c.cell[0]) - i64::from(p.cell[0]);
            if gain > 0 && c.cell[4] <= p.cell[4] {
                lists[PACKING].push(Reverse((-gain, c.h, c.m.pushes, i)));
                if open_packing {
                    lists[OPEN_PACKING].push(Reverse((openness(c), c.h, c.m.pushes, i)));
                }
            }
            // Connectivity: fewer player regions.
            let gain = i64::from(p.regions) - i64::from(c.regions);
            if gain > 0 {
                lists[CONNECTIVITY].push(Reverse((-gain, c.h, c.m.pushes, i)));
            }
            // Distance: the largest drop of the matching bound.
            let gain = p.h - i64::from(c.h);
            if weights.distance.is_some() && gain > 0 {
                lists[DISTANCE].push(Reverse((-gain, c.h, c.m.pushes, i)));
            }
            if staging && self.asides.contains(&Aside { from: c.m.from, to: c.m.to }) {
                lists[STAGING].push(Reverse((i64::from(c.m.pushes), c.h, c.m.pushes, i)));
            }
            if opens(c) {
                lists[OPENER].push(Reverse((opener_score(a, next_goal, c.m.to.index()), c.h, c.m.pushes, i)));
            }
            // Rooms: fewer links between rooms cut, the plan's progress kept.
            if c.cut < p.cut && c.cell[0] >= p.cell[0] {
                lists[ROOMS].push(Reverse((i64::from(c.cut) - i64::from(p.cut), c.h, c.m.pushes, i)));
            }
            // Explorer: a reversible move that lets the player push a box it could not.
            if let Some(explorer) = &self.explorer
                && c.cell[0] >= p.cell[0]
                && explorer.opens(a, labels.0, &self.occupied, labels.1, c.m.from)
                && explorer.reversible(a, c.m.from, c.m.to)
            {
                lists[EXPLORER].push(Reverse((openness(c), c.h, c.m.pushes, i)));
            }
            // Hotspots: fewer boxes in other boxes' way.
            let gain = i64::from(p.hot) - i64::from(c.hotspots);
            if weights.hotspots.is_some() && gain > 0 {
                lists[HOTSPOTS].push(Reverse((-gain, c.h, c.m.pushes, i)));
            }
        }
        lists
    }

    /// The child the advisor of `slot` names from its candidates `list`, taken smallest first.
    /// A candidate gets its exact matching when it comes first (one with none is dead and no
    /// candidate), then goes back under its exact key: the order is the one exact bounds give,
    /// with a handful of exact matchings instead of one per candidate. The distance advisor's
    /// score is the drop of the bound, so it is rescored too. At most [`ADVISOR_TRIES`]
    /// candidates are checked for a corral deadlock.
    fn choose(&mut self, p: &Parent, slot: usize, list: Vec<Reverse<Advice>>) -> usize {
        let mut heap = BinaryHeap::from(list);
        let mut tries = 0;
        while tries < ADVISOR_TRIES {
            let Some(Reverse((score, h, pushes, i))) = heap.pop() else { break };
            if self.dead_children[i] == NO_MATCHING || !self.make_exact(i) {
                continue;
            }
            // Requeue under the exact key when this one was made from the lower bound.
            let exact = self.children[i].h;
            if h != exact {
                let score = if slot == DISTANCE {
                    let gain = p.h - i64::from(exact);
                    if gain <= 0 {
                        continue;
                    }
                    -gain
                } else {
                    score
                };
                heap.push(Reverse((score, exact, pushes, i)));
                continue;
            }
            tries += 1;
            if self.dead_children[i] == UNCHECKED {
                self.check_corral(i);
            }
            if self.dead_children[i] == ALIVE {
                return i;
            }
        }
        usize::MAX
    }

    /// Gives child `i` its exact matching (once); false, marking it, when it has none.
    fn make_exact(&mut self, i: usize) -> bool {
        if self.children[i].exact {
            return true;
        }
        let a = self.inputs.a;
        let (k, row, to) = (self.boxes.len(), self.children[i].row, self.children[i].m.to.index());
        let table = frozen_table(&self.tables, self.parent_table);
        let costs = &self.costs;
        match self.hungarian.resolve_row_value(k, row, |b, g| moved_cost(a, table, costs, k, row, to, b, g)) {
            Some(exact) => {
                self.children[i].h = exact.clamp(1, i64::from(u32::MAX)) as u32;
                self.children[i].exact = true;
                true
            }
            None => {
                self.dead_children[i] = NO_MATCHING;
                self.search.stats.pruned_no_matching += 1;
                false
            }
        }
    }

    /// Checks child `i` for a PI-corral deadlock (see [`child_corral_dead`]).
    fn check_corral(&mut self, i: usize) {
        let a = self.inputs.a;
        let m = self.children[i].m;
        self.occupied[m.from.index()] = 0;
        self.occupied[m.to.index()] = 1;
        let player = m.player_square(a).index();
        let (reach, corrals, check) = (&mut self.child_reach, &mut self.corrals, &mut self.corral_check);
        let dead = child_corral_dead(a, &self.occupied, self.boxes.len(), player, reach, corrals, check);
        self.occupied[m.to.index()] = 0;
        self.occupied[m.from.index()] = 1;
        self.dead_children[i] = if dead { CORRAL_DEAD } else { ALIVE };
        if dead {
            self.search.stats.pruned_corral += 1;
        }
    }

    /// Queues the children not found dead at the parent's weight plus their move's cost: the
    /// least weight of the advisors that named it, or `other`; nothing for the narrow move
    /// (see [`Self::narrow_move`]). A child that is a state made already and not expanded is
    /// queued again when this is a cheaper way to it.
    fn queue_children(&mut self, p: &Parent, advised: &[usize; ADVISORS]) -> Flow<()> {
        let weights = self.inputs.weights;
        let words = self.words;
        let free = self.narrow_move();
        let dives = self.inputs.config.fast.dive;
        for (i, c) in self.children.iter().enumerate() {
            if !self.live(i) {
                continue;
            }
            let named = advised.iter().zip(self.slot_weights).filter_map(|(&named, w)| w.filter(|_| named == i));
            let cost = if free == Some(i) { 0 } else { named.min().unwrap_or(weights.other) };
            let weight = p.node.weight + cost;
            let (from, to, dir) = (c.m.from, c.m.to, c.m.dir);
            match c.existing {
                Some(old) => {
                    let o = &mut self.search.states.nodes[old as usize];
                    if !o.expanded && weight < o.weight {
                        *o = Node { weight, parent: p.id, from, to, dir, ..*o };
                        let cell = Self::with_branch(c.cell, self.search.branch(old));
                        self.search.enqueue(cell, weight, c.h, old);
                    }
                }
                None => {
                    let child = Node { parent: p.id, from, to, dir, expanded: false, player: c.player, weight };
                    let key = &self.child_keys[i * words..(i + 1) * words];
                    // The same child can come twice from one parent (two moves, same state).
                    if self.search.find(key, c.player, c.hash).is_some() {
                        continue;
                    }
                    if !self.budget.fits(self.held() + 64 * words) {
                        return self.stop(Stop::Memory);
                    }
                    let kid = self.search.insert(key, child, c.hash);
                    let mut cell = c.cell;
                    if weights.branches {
                        let branch = self.search.child_branch(&p.node, p.id, cost < weights.other);
                        self.search.set_branch(kid, branch);
                        cell = Self::with_branch(cell, branch);
                    }
                    // The packing advisor names only children that pack more of the plan.
                    if dives && advised[PACKING] == i && c.regions <= p.regions {
                        self.dive = Some(cell);
                    }
                    self.search.enqueue(cell, weight, c.h, kid);
                }
            }
        }
        Ok(())
    }

    /// `cell` with the branch feature set to `branch`.
    fn with_branch(mut cell: Cell, branch: u8) -> Cell {
        cell[5] = u16::from(branch);
        cell
    }

    /// Whether child `i` survived the advisors' checks (no corral deadlock, a matching).
    fn live(&self, i: usize) -> bool {
        !matches!(self.dead_children[i], CORRAL_DEAD | NO_MATCHING)
    }

    /// With `FastOptions::narrow`, the live child with the smallest matching bound (the first
    /// generated on a tie) of a state with at most [`NARROW`] of them: it costs nothing, as in
    /// FESS. A state with so little choice is a passage (a corridor, a box that must go one
    /// way), and a line through one should not pay for its length at every step; with more
    /// choice the advisors decide.
    fn narrow_move(&self) -> Option<usize> {
        if !self.inputs.config.fast.narrow {
            return None;
        }
        let live = || (0..self.children.len()).filter(|&i| self.live(i));
        if live().count() > NARROW {
            return None;
        }
        live().min_by_key(|&i| (self.children[i].h, i))
    }

    /// Marks (1) or clears (0) the loaded boxes on `occupied`.
    fn set_boxes(&mut self, mark: u8) {
        for &b in &self.boxes {
            self.occupied[b as usize] = mark;
        }
    }

    /// The loaded state's boxes on goals.
    fn on_goals(&self) -> usize {
        self.boxes.iter().filter(|&&b| (b as usize) < self.inputs.a.goals()).count()
    }

    /// Bytes the pass holds, with what the level learned and its hotspot table.
    fn held(&self) -> usize {
        self.search.bytes()
            + tables_bytes(&self.tables)
            + self.learned.bytes()
            + self.inputs.hot.bytes()
            + self.recent.bytes()
    }

    /// The solution through state `goal`, then `tail`.
    fn solved(&mut self, goal: u32, tail: &[Push]) -> Result<Solution, SolveError> {
        let Inputs { level, a, started, .. } = self.inputs;
        finish(level, a, &self.search, &mut self.macros, goal, tail, started)
    }

    /// Ends the pass stopped by a limit or the cancel flag, after a step whose stop check said
    /// so.
    fn stopped<T>(&mut self) -> Flow<T> {
        let stop = self.budget.stop_reason();
        self.stop(stop)
    }

    /// Whether the loaded state, `packed` steps of the plan done, is astray from the plan (see
    /// `super::plan_reach`; never when cells do not say).
    fn astray(&self, packed: u16) -> bool {
        self.plan_reach.as_ref().is_some_and(|r| !r.follows(&self.boxes, packed))
    }

    /// Ends the pass stopped by `stop`.
    fn stop<T>(&self, stop: Stop) -> Flow<T> {
        let stats = self.search.stats.clone();
        end(Err(self.budget.error(stop, stats, self.search.states.len(), self.search.bytes())))
    }
}

/// The staging advisor's moves (see [`super::staging`]) for the start's boxes.
fn start_asides(level: &Level, a: &Analysis) -> Vec<Aside> {
    staging::staging_moves(a, &start_squares(level, a))
}

/// A sprint starts only from a state with at most this many boxes off goals: from further
/// away its few expansions rarely finish (more boxes off goals, even with longer sprints,
/// solved no more levels), and records of boxes on goals come often early in a search.
const SPRINT_BOXES: usize = 6;

/// A sprint starts only while the expansions the sprints took, with the new one's whole
/// budget, are at most one in this many of the search's own: a small node limit is not spent on
/// them (with no cap, the sprints ate a small budget and lost levels), while a long search
/// (XSokoban 39's) is hardly held back.
///
/// The first sprint is the exception, on a level with more boxes than [`SPRINT_BOXES`]: the
/// first record with few boxes left often comes within a few hundred expansions, and there
/// a fresh plan often finishes the level at once, where under the share alone the pass
/// would first spend thousands of expansions below it (BENCHMARKS.md, "What each technique
/// adds", has the expansions saved). Run before its share, it is left out of the share, so
/// the sprints after it start where they would without it: counted, it held back a later
/// record's sprint that finishes a level (Sasquatch III 44). On a smaller level every record
/// qualifies, from the first box placed, and a sprint is no shorter than the pass itself.
const SPRINT_SHARE: u64 = 4;

/// The solved matchings of the states expanded lately ([`hungarian::Kept`]), a slot for
/// each (by handle, the newest kept), with their boxes and table: a picked state's exact
/// matching is its parent's re-solved for the moved box ([`Hungarian::resolve_rows`]), which
/// on levels with many boxes is a fraction of solving it afresh. A state's children are often
/// picked thousands of expansions after it, since every cell gets one expansion a round, and
/// by then a small table has given its parent's slot to another state: the slots are as many
/// as the room holds for the level's boxes (see [`Recent::entry_bytes`]), within
/// [`RECENT_SLOTS`].
struct Recent {
    slots: Vec<Kept>,
    /// What the slots may hold: [`RECENT_BYTES`], or a sixteenth of a smaller memory limit.
    room: usize,
    /// The bytes the slots hold once filled (see [`Recent::entry_bytes`]).
    bytes: usize,
}

/// One state's entry in [`Recent`].
type Kept = hungarian::KeptState<u32, TableId, u16>;

/// The fewest and the most slots of [`Recent`].
const RECENT_SLOTS: (usize, usize) = (1 << 10, 1 << 14);

/// What [`Recent`]'s slots may hold, in bytes, unless [`RECENT_SLOTS`]'s fewest need more
/// (a sixteenth of a smaller memory limit).
const RECENT_BYTES: usize = 16 << 20;

impl Recent {
    /// No slots yet, with room for [`RECENT_BYTES`] or a sixteenth of `memory_limit`.
    fn new(memory_limit: Option<usize>) -> Recent {
        let room = memory_limit.map_or(RECENT_BYTES, |m| (m / 16).min(RECENT_BYTES));
        Recent { slots: Vec::new(), room, bytes: 0 }
    }

    /// The bytes of a slot filled for a state of `boxes` boxes: the boxes (two bytes each)
    /// and the duals and matching (three words per box, and one more of each).
    fn entry_bytes(boxes: usize) -> usize {
        std::mem::size_of::<Kept>() + boxes * 2 + (boxes + 1) * 24
    }

    /// Keeps the saved matching of `hungarian`, state `id`'s, whose `boxes` were matched
    /// over `table`.
    fn keep(&mut self, id: u32, table: TableId, boxes: &[u16], hungarian: &Hungarian) {
        if self.slots.is_empty() {
            let entry = Recent::entry_bytes(boxes.len());
            let slots = (self.room / entry).clamp(RECENT_SLOTS.0, RECENT_SLOTS.1);
            self.slots.resize_with(slots, Kept::default);
            self.bytes = slots * entry;
        }
        let slot = id as usize % self.slots.len();
        self.slots[slot].set(Some(id), table, boxes, hungarian);
    }

    /// The kept matching of state `id` over `table`, if still kept.
    fn of(&self, id: u32, table: TableId) -> Option<&Kept> {
        let slot = id as usize % self.slots.len().max(1);
        self.slots.get(slot).filter(|k| k.is(&id, &table))
    }

    /// The bytes the slots hold once filled.
    fn bytes(&self) -> usize {
        self.bytes
    }
}

/// What a [`sprint`] came to.
enum Sprint {
    /// The pushes from the sprint's start to the solution, and the sprint's counters.
    Solved(Vec<Push>, Stats),
    /// No solution within its budget.
    Failed(Stats),
    /// A limit of the whole search or the cancel flag stopped it.
    Stopped,
}

/// A short search of its own from a state with more boxes on goals than any before it: the
/// level with the state as its start, a packing plan made afresh for its boxes, `budget`
/// expansions. The search's plan was made for the start's boxes, and once boxes stand on
/// goals out of its order its packing advice has nothing left to say, while a plan for the
/// boxes still out often finishes such a state in a few hundred expansions (XSokoban 39's
/// search packs 21 of its 25 goals early and then stalls on a state a fresh search solves at
/// once). It learns deadlock patterns of its own, and the backward searches stay out of it, so
/// the search goes on as if it had not run; its expansions count towards the node limit.
#[allow(clippy::too_many_arguments)]
fn sprint(
    level: &Level,
    a: &Analysis,
    hot: &Hotspots,
    config: &Config,
    weights: Weights,
    (boxes, player): (&[u16], u16),
    (budget, held): (u64, usize),
    outer: Instant,
) -> Sprint {
    let started = Instant::now();
    let mut has_box = vec![false; level.square_count()];
    for &b in boxes {
        has_box[a.square(Sq::new(b as usize)).index()] = true;
    }
    let at = a.square(Sq::new(player as usize));
    let options = BuildOptions { rule: level.rule(), edges: level.edges(), format: level.format() };
    let start = Level::from_raw(level.raw_with(|s| has_box[s.index()], at), level.meta().clone(), options);
    // The sprint's pushes are read as this level's squares: the same board, the same numbering.
    let Some(start) = start.ok().filter(|s| (s.width(), s.height()) == (level.width(), level.height())) else {
        return Sprint::Failed(Stats::default());
    };
    let left = config.time_limit.map(|t| t.saturating_sub(outer.elapsed()));
    let sub = Config {
        node_limit: Some(budget),
        time_limit: left,
        memory_limit: config.memory_limit.map(|m| m.saturating_sub(held)),
        progress: None,
        ..config.clone()
    };
    // The boxes peeled off one at a time: the bases search (`super::bases`) costs about
    // as much as the sprint's own search, and a plan for a state a few boxes from solved
    // leads no better for it: peeled, the sprints take the same expansions in less time.
    let peel = Config { fast: FastOptions { bases: false, ..sub.fast }, ..sub.clone() };
    let Ok(plan) = plan(&start, a, &peel, Peel::OneByOne, started) else {
        return Sprint::Stopped;
    };
    let mut own = Learned::new(a, Backward::none());
    let r = run(&start, a, &plan, hot, &sub, Weights { sprint: None, ..weights }, &mut own);
    match r {
        Ok(solution) => match moves_to_pushes(&start, &solution.moves) {
            Some(tail) => Sprint::Solved(tail, solution.stats),
            None => Sprint::Failed(solution.stats),
        },
        Err(SolveError::Timeout(_) | SolveError::Cancelled(_)) => Sprint::Stopped,
        Err(e) => Sprint::Failed(e.stats().clone()),
    }
}

/// Rebuilds the macro moves from the root to `goal`, expands them into pushes and unit moves,
/// and packages the solution.
fn finish(
    level: &Level,
    a: &Analysis,
    search: &Search,
    macros: &mut Macros,
    goal: u32,
    tail: &[Push],
    started: Instant,
) -> Result<Solution, SolveError> {
    let mut line = Vec::new();
    let mut at = goal;
    while at != ROOT && search.states.nodes[at as usize].parent != ROOT {
        let node = search.states.nodes[at as usize];
        line.push(MacroMove { from: node.from, to: node.to, dir: node.dir, pushes: 0, splits: 0, player: 0 });
        at = node.parent;
    }
    line.reverse();
    // Replay the macro moves from the start, rebuilding each one's pushes.
    let n = a.squares();
    let mut occupied = vec![0u8; n];
    for b in level.boxes() {
        occupied[a.sq(*b).index()] = 1;
    }
    let mut player = a.sq(level.player()).index();
    let mut reach = Flood::new(n);
    let mut pushes = Vec::new();
    for m in line {
        reach.player(a, &occupied, Sq::new(player));
        let steps =
            macros.pushes(a, &mut occupied, &|s| reach.contains(Sq::new(s)), m).expect("a stored macro move replays");
        for (from, dir) in steps {
            pushes.push(Push { from: a.square(Sq::new(from as usize)), dir });
        }
        occupied[m.from.index()] = 0;
        occupied[m.to.index()] = 1;
        player = m.player_square(a).index();
    }
    pushes.extend_from_slice(tail);
    Ok(package(level, &pushes, search.finish_stats(started)))
}

/// The solution made of `pushes` (legal from the start: the searches only make legal pushes
/// and undo legal pulls), with the player's walks between them, not proven optimal.
pub(super) fn package(level: &Level, pushes: &[Push], stats: Stats) -> Solution {
    let moves = pushes_to_moves(level, pushes).expect("the search only makes legal pushes");
    let cost = cost_of(level, level.weights(), &moves);
    Solution::from_moves(moves, cost, None, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::solver::fast::SPRINT_EXPANSIONS;

    #[test]
    fn a_search_that_takes_in_nothing_still_publishes_its_patterns() {
        let level = parse_levels("#######\n#@ $ .#\n#. $  #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let region = vec![u64::MAX; a.squares().div_ceil(64)];
        let log = Arc::new(PatternLog::default());
        let mut first = Learned::shared(&a, Backward::none(), log.clone(), 0, false);
        let mut other = Learned::shared(&a, Backward::none(), log.clone(), 1, true);
        log.publish(1, &[Sq::new(3)], &region);
        first.learn(&[Sq::new(1), Sq::new(2)], &region);
        first.take_in();
        other.take_in();
        // The first holds its own pattern only; the other took it in.
        assert_eq!((first.patterns.len(), other.patterns.len()), (1, 1));
        assert_eq!(other.patterns.boxes(0).collect::<Vec<_>>(), vec![Sq::new(1), Sq::new(2)]);
    }

    /// The first push of `lurd` (a solution of `level`, or a prefix of one) after which one of
    /// the search's dead tests says the position is dead, and which test; `None` when every
    /// position passes. Every position on a solution is alive, so any answer there is a bug.
    fn first_dead_push(level: &Level, lurd: &str, reach: DeadReach) -> Option<(usize, &'static str)> {
        let a = Analysis::new(level);
        let n = a.squares();
        let mut occupied = vec![0u8; n];
        let mut boxes: Vec<usize> = level.boxes().iter().map(|b| a.sq(*b).index()).collect();
        let mut player = a.sq(level.player()).index();
        let mut learned = Learned::new(&a, Backward::none());
        learned.exhaust.set_vanishing(reach.vanish);
        let mut tables = FrozenTables::player_aware_within(&a, &mut || false).unwrap();
        let (mut scratch, mut cut, mut fences) = (DeadScratch::new(n, reach), CutOff::new(n), Fences::default());
        let mut path = Vec::new();
        let mut frozen_set = vec![0u64; a.goals().div_ceil(64).max(1)];
        let mut hungarian = Hungarian::default();
        let (mut corrals, mut check, mut reach) = (Corrals::new(n), CorralCheck::new(n), Flood::new(n));
        let mut pushes = 0;
        for c in lurd.chars() {
            let d = Dir::ALL.into_iter().find(|d| d.letter() == c.to_ascii_lowercase()).unwrap();
            let next = a.neighbor(Sq::new(player), d).expect("a legal move").index();
            player = next;
            let Some(i) = boxes.iter().position(|&b| b == next) else { continue };
            let to = a.neighbor(Sq::new(next), d).expect("a legal push").index();
            boxes[i] = to;
            pushes += 1;
            occupied.fill(0);
            for &b in &boxes {
                occupied[b] = 1;
            }
            if to >= a.live() {
                return Some((pushes, "dead square"));
            }
            if deadlock::block_2x2(&a, &occupied, Sq::new(to)) {
                return Some((pushes, "2x2 block"));
            }
            if deadlock::freeze(&a, &occupied, Sq::new(to), &mut path) {
                return Some((pushes, "freeze"));
            }
            let squares: Vec<Sq> = boxes.iter().map(|&b| Sq::new(b)).collect();
            let is_frozen = |s| crate::solver::deadlock::is_frozen(&a, &occupied, s, &mut path);
            frozen_goal_set(&a, squares.iter().copied(), is_frozen, &mut frozen_set);
            let id = tables.id(&a, &frozen_set, usize::MAX, &mut || false).ok().unwrap();
            let (table, base) = (Some(tables.table(id)), Some(tables.table(TableId::STATIC)));
            let k = boxes.len();
            let matched = hungarian.solve_within(k, k, |b, g| table_cost(&a, table, boxes[b], g), &mut || false);
            if matched.unwrap().is_none() {
                return Some((pushes, "matching over the frozen-goal table"));
            }
            if learned.patterns.matches(&occupied, &squares, player) {
                return Some((pushes, "learned pattern"));
            }
            let (at, stop) = ((to, player), &mut || false);
            if cluster_dead(&a, &occupied, at, k, None, table, base, &mut learned, &mut scratch, stop) {
                return Some((pushes, "cluster search"));
            }
            if cut_off_dead(&a, &occupied, at, k, (table, base), &mut learned, &mut cut, &mut scratch, stop) {
                return Some((pushes, "cut-off search"));
            }
            let held: Vec<u16> = boxes.iter().map(|&b| b as u16).collect();
            let tables = (table, base);
            if pockets_dead(&a, &occupied, &held, player, tables, &mut learned, &mut scratch, &mut fences, stop) {
                return Some((pushes, "pocket search"));
            }
            if child_corral_dead(&a, &occupied, boxes.len(), player, &mut reach, &mut corrals, &mut check) {
                return Some((pushes, "PI-corral"));
            }
        }
        None
    }

    #[test]
    fn the_lead_cell_follows_the_plan_then_has_packed_most_then_has_fewest_regions() {
        assert!(leads(&[3, 4, 0, 0, 0, 0], &[2, 1, 0, 0, 0, 0]), "packing comes first");
        assert!(leads(&[3, 1, 0, 0, 0, 0], &[3, 2, 0, 0, 0, 0]), "then fewer regions");
        assert!(leads(&[3, 1, 5, 0, 0, 0], &[3, 1, 4, 0, 0, 0]), "then more boxes on goals");
        assert!(leads(&[3, 1, 5, 0, 0, 0], &[3, 1, 5, 1, 0, 0]), "then a clear way");
        assert!(!leads(&[3, 1, 5, 0, 0, 0], &[3, 1, 5, 0, 0, 0]));
        assert!(leads(&[2, 4, 0, 0, 0, 0], &[3, 1, 0, 0, 1, 0]), "a state that can follow the plan first");
        assert!(!leads(&[3, 1, 5, 0, 0, 2], &[3, 1, 5, 0, 0, 1]), "the branch is no progress");
    }

    #[test]
    fn no_dead_test_drops_a_position_of_a_known_solution() {
        // The XSokoban reference solutions and the fast engine's own Sasquatch solutions (each
        // replayed by the verifier when it was stored): every position on them is alive, so
        // every dead test the search applies (including the patterns it learns on the way)
        // must pass each of them.
        let root = env!("CARGO_MANIFEST_DIR");
        let read = |p: &str| std::fs::read_to_string(format!("{root}/{p}")).unwrap();
        let sets = [
            ("data/xsokoban90.xsb", "data/xsokoban90-reference-solutions.tsv"),
            ("data/sasquatch.xsb", "benches/results/sasquatch-fast-60s.jsonl"),
        ];
        let mut checked = 0;
        for (levels, solutions) in sets {
            let levels = parse_levels(&read(levels)).unwrap();
            for s in crate::solutions::parse(&read(solutions)).unwrap() {
                let level = &levels[s.level - 1];
                assert!(crate::verify::verify(level, &s.lurd).is_valid_solution());
                for reach in [DeadReach::WIDE, DeadReach::NARROW] {
                    let dead = first_dead_push(level, &s.lurd, reach);
                    assert_eq!(dead, None, "{solutions}, level {}, {reach:?}", s.level);
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} solutions");
    }

    #[test]
    fn the_opener_prefers_the_square_farthest_from_the_next_goal() {
        // A corridor leading away from the goal on column 1: of two squares, the one more
        // pushes away from the goal comes first (the smaller key); no goal, no preference.
        let level = parse_levels("#########\n#.    $@#\n#########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |c: usize| a.sq(level.square_at(1, c).unwrap()).index();
        let goal = Some(at(1));
        assert!(opener_score(&a, goal, at(5)) < opener_score(&a, goal, at(3)));
        assert_eq!(opener_score(&a, goal, at(5)), -4);
        assert_eq!(opener_score(&a, None, at(5)), 0);
    }

    #[test]
    fn the_solution_replay_sees_a_box_pushed_onto_a_dead_square() {
        // The box pushed left lands against the left wall, whose column has no goal.
        let level = parse_levels("######\n#    #\n# $@ #\n#  . #\n######\n").unwrap().remove(0);
        assert_eq!(first_dead_push(&level, "l", DeadReach::WIDE), Some((1, "dead square")));
        let alive = first_dead_push(&level, "uld", DeadReach::WIDE);
        assert_eq!(alive, None, "pushed down, next to the goal's row, it stays alive");
    }

    /// XSokoban 39 in a search: 18 boxes packed, and in the middle room three boxes ((5,7),
    /// (5,8), (6,8)) hold each other in (the square behind the first is walled in by them),
    /// beside four that can still move about.
    const JAM: &str = "\
###################
##############..**#
##   ## $   ##****#
#    ##  $  ##****#
#@        $#  *.**#
#    ##$$$ # # .**#
#    ## $  #  *.**#
## ##### ### ##.###
##        ##   .  #
#  ###  # ##### ###
#       #       ###
#    #     ###  ###
#    #     ########
#    #     ########
######   ##########
###################
";

    /// XSokoban 39 with 21 of its 25 goals filled, the state its search reaches early and then
    /// cannot get past: the plan made for the start's boxes packs only 18 goals here.
    const LATE: &str = "\
###################
##############****#
##   ##     ##****#
#    ##     ##****#
#          #  ****#
#    ##    # # *.*#
#    ##    #  *.**#
## ##### ### ##.###
##        ##   .  #
#  ###  # ##### ###
#       #   @   ###
#    #     ###  ###
#    #$$   # ######
#    #  $$ ########
######   ##########
###################
";

    /// An XSokoban level (1-based) with its analysis and hotspot table, the config of a
    /// one-pass test at 30,000 expansions and the first pass's weights (the states astray
    /// from the plan set apart as after a long limit's first round).
    fn xsokoban_pass(number: usize) -> (Level, Analysis, Hotspots, Config, Weights) {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/data/xsokoban90.xsb")).unwrap();
        let level = parse_levels(&text).unwrap().remove(number - 1);
        let a = Analysis::new(&level);
        let hot = Hotspots::new(&a, &mut || false).unwrap();
        let config = Config { node_limit: Some(30_000), ..Config::default() };
        let first = Weights {
            hotspots: Some(1),
            distance: Some(2),
            filled: false,
            blocked: false,
            other: 3,
            sprint: Some(SPRINT_EXPANSIONS),
            staging: None,
            astray: true,
            branches: false,
            end_region: None,
            dead: DeadReach::WIDE,
            // Without the explorer: with it, XSokoban 41's first pass takes another line.
            explorer: None,
        };
        (level, a, hot, config, first)
    }

    #[test]
    fn states_astray_from_the_plan_in_cells_of_their_own_let_the_others_through() {
        // XSokoban 41, one pass with the first pass's weights on the first plan: with the
        // states that cannot follow the plan in cells of their own (and no packing advice into
        // them) it finishes within 30,000 expansions; sharing their cells, they take the
        // turns and it does not.
        let (level, a, hot, config, first) = xsokoban_pass(41);
        let plan = plan(&level, &a, &config, Peel::OneByOne, Instant::now()).unwrap();
        let search = |weights| run(&level, &a, &plan, &hot, &config, weights, &mut Learned::new(&a, Backward::none()));
        let solved = search(first).expect("solved with the states astray set apart");
        assert!(crate::verify::verify(&level, &solved.lurd).is_valid_solution());
        let shared = search(Weights { astray: false, ..first });
        assert!(matches!(shared, Err(SolveError::NodeLimit(_))), "solved with the states astray sharing cells");
    }

    #[test]
    fn each_named_opening_has_a_branch_and_the_unnamed_ones_share_the_last() {
        let level = parse_levels("#####\n#@$.#\n#####\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut search = Search::new(&a);
        let node =
            |parent| Node { parent, from: Sq::new(0), to: Sq::new(0), dir: 0, expanded: false, player: 0, weight: 0 };
        let root = node(ROOT);
        assert_eq!(search.child_branch(&root, 0, true), 1);
        assert_eq!(search.child_branch(&root, 0, false), MAX_BRANCHES, "unnamed moves share the last");
        assert_eq!(search.child_branch(&root, 0, true), 2, "the next named move has the next");
        // Deeper states keep their line's branch.
        search.set_branch(7, 2);
        assert_eq!(search.child_branch(&node(0), 7, false), 2);
        assert_eq!(search.branch(8), 0, "no branch recorded");
        // Past the last, named moves share it too.
        for _ in 0..MAX_BRANCHES {
            search.child_branch(&root, 0, true);
        }
        assert_eq!(search.child_branch(&root, 0, true), MAX_BRANCHES);
    }

    #[test]
    fn the_staged_plan_leads_where_the_first_plan_misleads() {
        // XSokoban 69, one pass with the first pass's weights: on the staged plan (the goal
        // room's boxes wait round the room, then go in in order) it finishes within 30,000
        // expansions; on the first round's plan it does not.
        let (level, a, hot, config, first) = xsokoban_pass(69);
        let first = Weights { astray: false, ..first };
        let search =
            |plan: &PackingPlan| run(&level, &a, plan, &hot, &config, first, &mut Learned::new(&a, Backward::none()));
        let plan = plan(&level, &a, &config, Peel::OneByOne, Instant::now()).unwrap();
        assert!(!plan.waits_in_place, "the first plan is the anytime line's");
        let staged = other_plan(&level, &a, &config, &plan, Instant::now(), false).unwrap().expect("a staged plan");
        assert!(staged.waits_in_place, "the other plan is the staged one");
        let solved = search(&staged).expect("solved on the staged plan");
        assert!(crate::verify::verify(&level, &solved.lurd).is_valid_solution());
        assert!(matches!(search(&plan), Err(SolveError::NodeLimit(_))), "solved on the first round's plan");
        // Where the first pass follows the staged plan, the other plan is the anytime line's.
        let anytime = other_plan(&level, &a, &config, &staged, Instant::now(), false).unwrap().expect("another plan");
        assert_eq!(anytime, plan);
    }

    #[test]
    fn a_sprint_with_a_fresh_plan_finishes_a_late_state() {
        let level = parse_levels(LATE).unwrap().remove(0);
        let a = Analysis::new(&level);
        let hot = Hotspots::new(&a, &mut || false).unwrap();
        let mut boxes: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
        boxes.sort_unstable();
        let player = a.sq(level.player()).index() as u16;
        let weights = Weights {
            hotspots: Some(1),
            distance: Some(2),
            filled: false,
            blocked: false,
            other: 3,
            sprint: None,
            staging: Some(0),
            astray: false,
            branches: false,
            end_region: None,
            dead: DeadReach::WIDE,
            explorer: Some(0),
        };
        let config = Config::default();
        let r = sprint(&level, &a, &hot, &config, weights, (&boxes, player), (SPRINT_EXPANSIONS, 0), Instant::now());
        let Sprint::Solved(tail, stats) = r else { panic!("the sprint should finish the state") };
        assert!(stats.expanded <= SPRINT_EXPANSIONS);
        let moves = pushes_to_moves(&level, &tail).expect("the sprint's pushes are legal");
        assert!(crate::verify::verify(&level, &crate::lurd::encode(&moves)).is_valid_solution());
        // Within too few expansions it says so, and nothing is lost.
        let r = sprint(&level, &a, &hot, &config, weights, (&boxes, player), (3, 0), Instant::now());
        assert!(matches!(r, Sprint::Failed(stats) if stats.expanded <= 4));
    }

    /// XSokoban 52 in a search: 14 boxes packed, and four boxes hold a corral of four squares
    /// shut ((11,5)–(11,7) and (12,6)): three round it, none of them touching the others, and
    /// one under the lowest that keeps it from being pushed back.
    const CORRAL: &str = "\
###################
############******#
############******#
####  #########*.*#
####  @       #...#
####  # # # # #   #
##### # # # # #   #
#   # ### ### ## ##
#      #       # ##
#          #     ##
#   #$### ### ## ##
### #   $  #     ##
###  $ #       ####
##  #$### ### #####
##            #####
##  ###############
###################
";

    /// The level in `text`, its analysis, the occupancy of its boxes and the player's square.
    fn board(text: &str) -> (Level, Analysis, Vec<u8>, usize) {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut occupied = vec![0u8; a.squares()];
        for &b in level.boxes() {
            occupied[a.sq(b).index()] = 1;
        }
        let player = a.sq(level.player()).index();
        (level, a, occupied, player)
    }

    #[test]
    fn a_part_closed_off_by_the_last_move_is_searched_on_its_fence() {
        let (level, a, occupied, player) = board(CORRAL);
        let sq = |r: usize, c: usize| a.sq(level.square_at(r, c).unwrap()).index();
        let count = level.boxes().len();
        let (mut scratch, mut cut_off) = (DeadScratch::new(a.squares(), DeadReach::WIDE), CutOff::new(a.squares()));
        let mut dead = |at: (usize, usize)| {
            let mut learned = Learned::new(&a, Backward::none());
            let tables = (None, None);
            cut_off_dead(&a, &occupied, at, count, tables, &mut learned, &mut cut_off, &mut scratch, &mut || false)
        };
        // The box on (11,8) shuts the four squares left of it off: their fence is dead.
        assert!(dead((sq(11, 8), player)));
        // With the player in that part, nothing is closed off.
        assert!(!dead((sq(11, 8), sq(11, 6))));
        // A box in the goal room has no free side.
        assert!(!dead((sq(1, 12), player)));
        // Twice in a row, so the marks of an earlier call do not leak into the next.
        assert!(dead((sq(11, 8), player)));
    }

    #[test]
    fn boxes_round_a_pocket_are_searched_together() {
        let (level, a, occupied, player) = board(CORRAL);
        let sq = |r: usize, c: usize| a.sq(level.square_at(r, c).unwrap()).index();
        let mut scratch = DeadScratch::new(a.squares(), DeadReach::WIDE);
        let (boxes, pocket) = (DeadReach::WIDE.boxes, DeadReach::WIDE.pocket);
        // Around the box on (11,8) alone there is no other box; through the pocket beside
        // it, the three others.
        cluster(&a, &occupied, &[Sq::new(sq(11, 8))], boxes, &mut scratch.subset, None);
        assert_eq!(scratch.subset, vec![Sq::new(sq(11, 8))]);
        let pockets = Some((player, (pocket, &mut scratch.pockets)));
        cluster(&a, &occupied, &[Sq::new(sq(11, 8))], boxes, &mut scratch.linked, pockets);
        let mut linked: Vec<usize> = scratch.linked.iter().map(|b| b.index()).collect();
        linked.sort_unstable();
        let mut expected = vec![sq(11, 8), sq(10, 5), sq(12, 5), sq(13, 5)];
        expected.sort_unstable();
        assert_eq!(linked, expected);

        let mut learned = Learned::new(&a, Backward::none());
        let count = level.boxes().len();
        let at = (sq(11, 8), player);
        let dead = cluster_dead(&a, &occupied, at, count, None, None, None, &mut learned, &mut scratch, &mut || false);
        assert!(dead, "the four boxes cannot all reach goals");

        // Whatever box moved last (here one in the goal room), the pocket is found.
        let mut learned = Learned::new(&a, Backward::none());
        let at = (sq(1, 12), player);
        assert!(!cluster_dead(&a, &occupied, at, count, None, None, None, &mut learned, &mut scratch, &mut || false));
        let boxes: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
        let mut fences = Fences::default();
        let (tables, stop) = ((None, None), &mut || false);
        assert!(pockets_dead(&a, &occupied, &boxes, player, tables, &mut learned, &mut scratch, &mut fences, stop));
        assert_eq!(fences.ends.len(), 1, "one pocket: {:?}", fences.squares);
    }

    #[test]
    fn boxes_that_hold_each_other_in_are_proven_dead_on_their_own() {
        let (level, a, mut occupied, player) = board(JAM);
        let sq = |r: usize, c: usize| a.sq(level.square_at(r, c).unwrap()).index();
        let mut scratch = DeadScratch::new(a.squares(), DeadReach::WIDE);
        scratch.flood.player(&a, &occupied, Sq::new(player));
        let stuck_at = |r, c| stuck(&a, &occupied, &scratch.flood, sq(r, c));
        assert!(stuck_at(5, 7) && stuck_at(5, 8) && stuck_at(6, 8));
        assert!(!stuck_at(5, 9), "pushed down from (4,9)");

        let mut learned = Learned::new(&a, Backward::none());
        let at = (sq(5, 7), player);
        // The box against the top wall is dead on its own (no goal along that wall); without
        // it the jam is what the proof finds.
        occupied[sq(2, 8)] = 0;
        let count = level.boxes().len() - 1;
        let dead = cluster_dead(&a, &occupied, at, count, None, None, None, &mut learned, &mut scratch, &mut || false);
        assert!(dead);
        // The boxes that roam vanish from the proof once they leave the jam, so the whole
        // cluster is proven dead within the budget, and the pattern keeps the jam alone.
        assert_eq!(learned.patterns.len(), 1);
        let pattern: Vec<Sq> = learned.patterns.boxes(0).collect();
        let coords: Vec<_> = pattern.iter().map(|&b| level.coords(a.square(b))).collect();
        for (r, c) in [(5, 7), (5, 8), (6, 8)] {
            assert!(pattern.contains(&Sq::new(sq(r, c))), "{coords:?}");
        }
        // The pattern is matched wherever its boxes recur, whatever the other boxes do.
        occupied[sq(2, 9)] = 1;
        assert!(learned.patterns.matches_at(&occupied, player, sq(5, 8)));
    }

    #[test]
    fn a_learned_pattern_keeps_only_the_boxes_its_proof_needs() {
        for text in [JAM, CORRAL] {
            let (level, a, occupied, player) = board(text);
            let boxes: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
            let mut scratch = DeadScratch::new(a.squares(), DeadReach::WIDE);
            let mut learned = Learned::new(&a, Backward::none());
            let count = boxes.len();
            let dead = boxes.iter().any(|&b| {
                let at = (b as usize, player);
                cluster_dead(&a, &occupied, at, count, None, None, None, &mut learned, &mut scratch, &mut || false)
            });
            assert!(dead && learned.patterns.len() == 1);
            let pattern: Vec<Sq> = learned.patterns.boxes(0).collect();
            // Still dead as a whole, and alive without any one of its boxes.
            let mut check = Exhaust::new(&a);
            let reaches = |s, g| square_cost(&a, s, g) < FORBIDDEN;
            let proves = |check: &mut Exhaust, set: &[Sq]| {
                check.proves_dead(&a, set, Sq::new(player), DEAD_SEARCH_BUDGET, reaches, &mut || false)
            };
            assert!(proves(&mut check, &pattern));
            for i in 0..pattern.len() {
                let rest: Vec<Sq> = pattern.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &b)| b).collect();
                assert!(!proves(&mut check, &rest), "{pattern:?} without {:?}", pattern[i]);
            }
        }
    }
}
