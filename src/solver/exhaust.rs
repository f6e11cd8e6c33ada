//! Deadlocks proven by a small exhaustive search, and learned as patterns.
//!
//! Many dead positions pass every local test (dead squares, freeze, 2×2, corrals, the
//! matching): the boxes can still move, but every way they can move ends in one of those
//! tests. [`Exhaust::proves_dead`] searches all push sequences of a set of boxes (the
//! positions nearest to the goals first, which only decides how soon a live set turns up a way
//! to the goals: the verdict is the same in any order) under the rules of the A* engine
//! ([`super::successors`]: dead squares, freeze, 2×2, PI-corral restriction), plus a check that the
//! boxes can still be matched to distinct goals they can reach, and says "dead" only when that
//! search runs out of positions, within its budget, without putting every box on a goal. Every rule
//! it prunes with is sound for "is there any solution" and the transposition table holds full keys,
//! so "dead" is a proof; a search that hits its budget proves nothing.
//!
//! A search also stops, proving nothing, at a position whose boxes shut no part of the floor
//! away from the player (*open floor*). The sets these searches prove dead are jams against
//! walls and shut-in corners, whose positions keep some floor from the player; a set that
//! reaches open floor has, in practice, a way on, and the searches that wander such floor
//! until their budget runs out were most of what the dead search cost (the counts are in
//! BENCHMARKS.md, "What each technique adds"). The stop only ever gives up a proof, never
//! makes one: a search that stops there proves nothing (it counts as stopped short, as one
//! out of budget, see [`Exhaust::stopped_short`]). [`Exhaust::complete`] searches without it,
//! for checks against another search.
//!
//! In a search of fewer boxes than goals, boxes *vanish* (unless [`Exhaust::set_vanishing`]
//! turns it off). The zone of a position is the floor its boxes shut away from the player and
//! every square beside it, diagonals too; after each
//! push, the boxes outside the zone of the new position are taken off the board. Taking boxes
//! away is a relaxation: the rest get more room and the player reaches more, so a solution of
//! the real position, its vanished boxes' pushes left out, is still a line of the search that
//! ends with every box left on a goal (or passes open floor first), and "dead" is still a
//! proof. The zone is a function of the position alone (its boxes and its player's region),
//! so two lines that reach the same boxes and region reach the same position. Vanishing keeps
//! the search small where a shut-in corner stays shut while some of its fence could wander
//! over the open floor: those boxes leave, and what is left is the corner (Festival's corral
//! deadlock search drops the boxes outside its deadlock zone in the same way).
//!
//! The set of boxes may be a subset of a position's: the other boxes only take squares and
//! moves away, so a subset that cannot reach goals on its own dooms every position that holds
//! it with the player in the same region. [`Patterns`] stores such subsets and matches them in
//! later positions: a deadlock proven once is recognised everywhere it recurs. The fewer boxes
//! a pattern holds the more positions it matches, so the fast engine first drops every box
//! without which the rest is still proven dead.
//!
//! The fast engine asks before it expands a state, about the boxes around the one just moved
//! (see `fast::search`), and checks every child against the patterns. Searches that proved
//! nothing are remembered by a hash and not run again, which makes the budget cheap: the levels
//! the dead search adds (BENCHMARKS.md, "What each technique adds") come at a small cost in time.
//!
//! The matching is kept per position as the box each goal is matched to, and repaired after a
//! push by one augmenting-path search from the moved box (Kuhn's algorithm), usually in O(1):
//! the moved box can mostly still reach its goal.

use hashbrown::HashTable;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::report::Stats;
use super::state::BoxAt;
use super::successors::{Rules, Start, Successor, Successors};
use crate::analysis::region::{Flood, next_round};
use crate::analysis::{Analysis, Sq};

/// No box: a goal's entry in a matching while it is unmatched.
const FREE: u16 = u16::MAX;

/// Reusable scratch for proofs on one level (a search's `Cache`, in regex-automata's terms):
/// nothing is allocated per proof once the buffers have grown.
#[derive(Debug)]
pub struct Exhaust {
    /// Generators for all boxes (every goal must be filled, so corrals that hold an empty goal
    /// count) and for a subset of them (goals may stay empty).
    all: Successors,
    some: Successors,
    words: usize,
    /// Boxes in the position being searched.
    count: usize,
    /// The player's region in the start of the last search, over the searched boxes only: one
    /// bit per square.
    region: Vec<u64>,
    /// Hashes of the searches that proved nothing (boxes and the player's region), so the same
    /// search is not run twice: a collision can only skip a search, never prove anything.
    failed: hashbrown::HashMap<u64, bool>,
    /// Whether a search stops at open floor (see the module docs).
    open_stop: bool,
    /// Whether boxes vanish in searches of fewer boxes than goals (see the module docs).
    vanishing: bool,
    /// The squares of the boxes of the child being visited that vanish, and a flood for its
    /// region when some do.
    gone: Vec<usize>,
    flood: Flood,
    /// Whether the last search that proved nothing stopped short (its budget ran out, or it
    /// reached open floor) rather than finding a way to put every box on a goal.
    stopped_short: bool,
    /// Positions: box bitsets (`words` each), normalised player squares, the square of the
    /// box matched to each goal (`goals` each) and the player's region (`region.len()` words
    /// each, as the generators keep them: a position is expanded in its region, not flooded
    /// again).
    keys: Vec<u64>,
    players: Vec<Sq>,
    matched: Vec<u16>,
    regions: Vec<u64>,
    table: HashTable<u32>,
    boxes: Vec<BoxAt>,
    pushes: Vec<Successor>,
    child_key: Vec<u64>,
    child_matched: Vec<u16>,
    /// The positions not expanded yet, nearest to the goals first: (the sum of each box's
    /// pushes to its nearest goal, the newest first).
    open: BinaryHeap<Reverse<(u32, Reverse<u32>)>>,
    /// Each square's pushes to the nearest goal (a large number where none is reachable).
    nearest: Vec<u32>,
    /// Kuhn's algorithm's visited marks, one per goal.
    visited: Vec<u32>,
    visit: u32,
    stats: Stats,
}

/// A 64-bit mix (splitmix64's finaliser).
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn hash_of(words: &[u64], player: Sq) -> u64 {
    let mut h = (player.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &w in words {
        h = (h.rotate_left(29) ^ w).wrapping_mul(0x2545_F491_4F6C_DD1D);
    }
    h
}

/// The key of [`Exhaust::proves_dead`]'s search of `boxes` with the player on `player` (any
/// square of the region: the key of the region's lowest square stands for every one of them),
/// `budget` and whether boxes vanish, in the searches that failed: a search with vanishing
/// boxes proves more than one without, so the failure of one says nothing of the other.
fn search_key(boxes: &[Sq], player: Sq, budget: usize, vanishing: bool) -> u64 {
    let seed = player.index() as u64 ^ (budget as u64) << 33 ^ u64::from(vanishing) << 32;
    boxes.iter().fold(mix(seed), |h, b| h.wrapping_add(mix(b.index() as u64 + 1)))
}

/// Whether the player, in `region` (one bit per square), reaches every square of the floor
/// that `boxes` boxes leave free: they shut no part of it away (see the module docs).
fn open_floor(a: &Analysis, region: &[u64], boxes: usize) -> bool {
    let reached: u32 = region.iter().map(|w| w.count_ones()).sum();
    reached as usize + boxes >= a.squares()
}

/// Whether the box on `b` is in the zone of the position of `key` with the player's `region`
/// (see the module docs): whether a square round it, diagonals too, is floor that the boxes shut
/// away from the player (the squares round a square are those it is round of).
fn in_zone(a: &Analysis, region: &[u64], key: &[u64], b: Sq) -> bool {
    let bit = |v: &[u64], s: Sq| v.get(s.index() / 64).is_some_and(|w| w >> (s.index() % 64) & 1 == 1);
    a.around(b).any(|t| !bit(region, t) && !bit(key, t))
}

/// The hash of stored position `i`.
fn hash_at(keys: &[u64], players: &[Sq], words: usize, i: u32) -> u64 {
    let i = i as usize;
    hash_of(&keys[i * words..(i + 1) * words], players[i])
}

impl Exhaust {
    /// Scratch for `a`'s level. Proofs need the deadlock rules to be sound for the level
    /// (`a.pruning()`: every box must end on a goal); where they are not, nothing is proven.
    pub fn new(a: &Analysis) -> Exhaust {
        let rules = Rules {
            deadlocks: true,
            corrals: true,
            fill_goals: true,
            normalize: true,
            walks: false,
            frozen_goals: false,
        };
        Exhaust {
            all: Successors::new(a, rules).keeping_regions(a),
            some: Successors::new(a, Rules { fill_goals: false, ..rules }).keeping_regions(a),
            words: a.live().div_ceil(64).max(1),
            count: 0,
            region: vec![0; a.squares().div_ceil(64)],
            failed: hashbrown::HashMap::new(),
            open_stop: true,
            vanishing: true,
            gone: Vec::new(),
            flood: Flood::new(a.squares()),
            stopped_short: false,
            keys: Vec::new(),
            players: Vec::new(),
            matched: Vec::new(),
            regions: Vec::new(),
            table: HashTable::new(),
            boxes: Vec::new(),
            pushes: Vec::new(),
            child_key: Vec::new(),
            child_matched: Vec::new(),
            open: BinaryHeap::new(),
            nearest: (0..a.squares())
                .map(|s| (0..a.goals()).filter_map(|g| a.distance(g, Sq::new(s))).min().map_or(1 << 16, u32::from))
                .collect(),
            visited: vec![0; a.goals()],
            visit: 0,
            stats: Stats::default(),
        }
    }

    /// The same searches without the stop at open floor: every position within the budget is
    /// searched, so with a budget large enough "dead" is said of every dead set (for checking
    /// the search against another; slower).
    pub fn complete(self) -> Exhaust {
        Exhaust { open_stop: false, ..self }
    }

    /// Whether every push sequence from the position (`boxes` on live squares, at most one per
    /// goal, and no other box on the board; the player on `player`) runs into a deadlock
    /// before all of `boxes` stand on goals: true only when the search exhausts the positions
    /// without that and without storing more than `budget` of them (the start included). It
    /// gives up, proving nothing, at open floor (see the module docs) unless built
    /// [`Exhaust::complete`].
    ///
    /// With fewer boxes than goals this is a proof about every position that holds these
    /// boxes and others, with the player in [`Exhaust::region`]: the other boxes only take
    /// squares and moves away, so any solution of such a position, restricted to these boxes'
    /// pushes, would be a way to put them all on goals here.
    ///
    /// `reaches(s, g)` says whether a box on square `s` can still be pushed to goal `g` (the
    /// static distances; with all the boxes, a table that treats boxes frozen on goals as
    /// walls is sound too, since those boxes never move in any position the search reaches).
    /// `stop` is called every 64 boxes expanded; when it returns true the search gives up,
    /// proving nothing.
    pub fn proves_dead(
        &mut self,
        a: &Analysis,
        boxes: &[Sq],
        player: Sq,
        budget: usize,
        reaches: impl Fn(usize, usize) -> bool,
        stop: &mut impl FnMut() -> bool,
    ) -> bool {
        let goals = a.goals();
        if boxes.len() > goals || !a.pruning() {
            return false;
        }
        // A search that failed from this very square is not run again, and its region need not
        // be flooded to tell.
        let player_key = search_key(boxes, player, budget, self.vanishing);
        if let Some(&short) = self.failed.get(&player_key) {
            self.stopped_short = short;
            return false;
        }
        self.count = boxes.len();
        self.boxes.clear();
        self.boxes.extend(boxes.iter().map(|&sq| BoxAt { sq, class: 0 }));
        let successors = if boxes.len() == goals { &mut self.all } else { &mut self.some };
        successors.load(&self.boxes);
        let root_player = successors.normalized(a, player);
        successors.region_bits(&mut self.region);
        // The search depends on the boxes and the player's region only (and the budget, and
        // whether boxes vanish).
        let search_key = search_key(boxes, root_player, budget, self.vanishing);
        if let Some(&short) = self.failed.get(&search_key) {
            self.failed.insert(player_key, short);
            self.stopped_short = short;
            return false;
        }
        self.stopped_short = false;
        let dead = self.search(a, boxes, root_player, budget, reaches, stop);
        if !dead && !stop() {
            self.failed.insert(search_key, self.stopped_short);
            self.failed.insert(player_key, self.stopped_short);
        }
        dead
    }

    /// The search of [`Exhaust::proves_dead`], once its shortcuts are taken: `boxes` are loaded
    /// in `self.boxes` and the player's region (lowest square `root_player`) is flooded.
    fn search(
        &mut self,
        a: &Analysis,
        boxes: &[Sq],
        root_player: Sq,
        budget: usize,
        reaches: impl Fn(usize, usize) -> bool,
        stop: &mut impl FnMut() -> bool,
    ) -> bool {
        if boxes.iter().any(|&b| !a.is_live(b)) {
            return true; // a box that can reach no goal
        }
        if boxes.iter().all(|&b| a.is_goal(b)) {
            return false; // solved already
        }
        if !self.store_root(boxes, root_player, &reaches) {
            return true; // no matching at all: dead without a search
        }
        // The order decides only how soon a way to the goals turns up (the verdict is the same
        // in any order: "dead" needs every position seen): nearest to the goals first, so a
        // live set of boxes is usually told apart within a few positions.
        self.open.clear();
        let root_near = boxes.iter().map(|b| self.nearest[b.index()]).sum::<u32>();
        self.open.push(Reverse((root_near, Reverse(0))));
        // The stop check reads the clock: once per 64 boxes is often enough.
        let mut boxes_seen = 0u32;
        while let Some(Reverse((near, Reverse(at)))) = self.open.pop() {
            let at = at as usize;
            self.load(at);
            let mut check = || {
                boxes_seen += 1;
                boxes_seen.is_multiple_of(64) && stop()
            };
            let rw = self.region.len();
            let region = &self.regions[at * rw..(at + 1) * rw];
            if self.open_stop && open_floor(a, region, self.boxes.len()) {
                self.stopped_short = true;
                return false;
            }
            let successors = if self.count == a.goals() { &mut self.all } else { &mut self.some };
            let expanded = successors.expand_within(
                a,
                &self.boxes,
                Start::Region(region),
                &mut self.pushes,
                &mut self.stats,
                &mut check,
            );
            if expanded.is_err() {
                return false;
            }
            let pushes = std::mem::take(&mut self.pushes);
            let ended = pushes.iter().enumerate().find_map(|(i, p)| self.visit(a, (at, near), i, p, budget, &reaches));
            self.pushes = pushes;
            if let Some(dead) = ended {
                return dead;
            }
        }
        true
    }

    /// Stores the root position (`boxes`, the player's region's lowest square `root_player`,
    /// the region in `self.region`) with its matching, found one box at a time: false when
    /// there is none.
    fn store_root(&mut self, boxes: &[Sq], root_player: Sq, reaches: &impl Fn(usize, usize) -> bool) -> bool {
        let words = self.words;
        self.keys.clear();
        self.players.clear();
        self.matched.clear();
        self.table.clear();
        self.keys.resize(words, 0);
        self.child_matched.clear();
        self.child_matched.resize(self.visited.len(), FREE);
        for &b in boxes {
            self.keys[b.index() / 64] |= 1 << (b.index() % 64);
            self.new_visit();
            if !self.augment(b.index() as u16, reaches) {
                return false;
            }
        }
        self.matched.extend_from_slice(&self.child_matched);
        self.players.push(root_player);
        self.regions.clear();
        self.regions.extend_from_slice(&self.region);
        let h = hash_of(&self.keys[..words], root_player);
        let (keys, players) = (&self.keys, &self.players);
        self.table.insert_unique(h, 0, |&i| hash_at(keys, players, words, i));
        true
    }

    /// The child of push `p` (the `i`th of position `at`, whose boxes' distance to the goals
    /// is `near`): stored and queued when it is new and its boxes can still be matched to
    /// goals. `Some` ends the search: `Some(false)` when the child has every box on a goal, or
    /// when the budget is full (stopped short).
    fn visit(
        &mut self,
        a: &Analysis,
        (at, near): (usize, u32),
        i: usize,
        p: &Successor,
        budget: usize,
        reaches: &impl Fn(usize, usize) -> bool,
    ) -> Option<bool> {
        let (words, goals) = (self.words, a.goals());
        let (from, to) = (p.from.sq.index(), p.to.index());
        self.child_key.clear();
        self.child_key.extend_from_slice(&self.keys[at * words..(at + 1) * words]);
        self.child_key[from / 64] &= !(1 << (from % 64));
        self.child_key[to / 64] |= 1 << (to % 64);
        let player = self.vanish(a, i, p.player);
        let h = hash_of(&self.child_key, player);
        let known = self.table.find(h, |&i| {
            let i = i as usize;
            self.players[i] == player && self.keys[i * words..(i + 1) * words] == self.child_key[..]
        });
        if known.is_some() {
            return None;
        }
        self.child_matched.clear();
        self.child_matched.extend_from_slice(&self.matched[at * goals..(at + 1) * goals]);
        let mut child_near = near - self.nearest[from];
        let mut moved_stays = true;
        for k in 0..self.gone.len() {
            let v = self.gone[k];
            let was = if v == to { from } else { v };
            if v == to {
                moved_stays = false;
            } else {
                child_near -= self.nearest[v];
            }
            if let Some(g) = self.child_matched.iter().position(|&b| b == was as u16) {
                self.child_matched[g] = FREE;
            }
        }
        if moved_stays {
            child_near += self.nearest[to];
            if !self.repair(from as u16, to as u16, reaches) {
                return None; // no matching left: dead
            }
        }
        if self.solved_child() {
            return Some(false);
        }
        if self.players.len() >= budget {
            self.stopped_short = true;
            return Some(false);
        }
        let id = self.players.len() as u32;
        self.open.push(Reverse((child_near, Reverse(id))));
        self.keys.extend_from_slice(&self.child_key);
        self.players.push(player);
        self.matched.extend_from_slice(&self.child_matched);
        if !self.gone.is_empty() {
            let at = self.regions.len();
            self.regions.resize(at + self.region.len(), 0);
            self.flood.write_bits(&mut self.regions[at..]);
        } else {
            let successors = if self.count == goals { &self.all } else { &self.some };
            self.regions.extend_from_slice(successors.child_region(i));
        }
        let (keys, players) = (&self.keys, &self.players);
        self.table.insert_unique(h, id, |&i| hash_at(keys, players, words, i));
        None
    }

    /// Takes out of `child_key` (push `i`'s child) the boxes outside its zone, into `gone`,
    /// and returns the child's normalised player: `player` when none vanishes, else the lowest
    /// square of its region flooded again into `flood`. Only a search of fewer boxes than goals
    /// lets boxes vanish (with every box, each must reach a goal).
    fn vanish(&mut self, a: &Analysis, i: usize, player: Sq) -> Sq {
        self.gone.clear();
        if self.count == a.goals() || !self.vanishing {
            return player;
        }
        let region = self.some.child_region(i);
        for (w, &word) in self.child_key.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                if !in_zone(a, region, &self.child_key, Sq::new(b)) {
                    self.gone.push(b);
                }
                bits &= bits - 1;
            }
        }
        if self.gone.is_empty() {
            return player;
        }
        for &v in &self.gone {
            self.child_key[v / 64] &= !(1 << (v % 64));
        }
        let key = &self.child_key;
        let live = self.words * 64;
        self.flood.fill(a, player, |t| t.index() >= live || key[t.index() / 64] >> (t.index() % 64) & 1 == 0)
    }

    /// Whether boxes vanish in the searches from now on (the default; see the module docs).
    /// Without, a search of fewer boxes than goals keeps every box, as the searches of all of
    /// them do, and proves less: each box's moves stay in, however far it wanders.
    pub fn set_vanishing(&mut self, on: bool) {
        self.vanishing = on;
    }

    /// Whether the last [`Exhaust::proves_dead`] that proved nothing stopped short, out of
    /// its budget or on open floor: a smaller set of its boxes may still be proven dead (a set
    /// that has a way to the goals has none that is dead).
    pub fn stopped_short(&self) -> bool {
        self.stopped_short
    }

    /// Bytes held (the positions of the largest search so far and the failed searches).
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.players.capacity() * 2
            + (self.matched.capacity() + self.child_matched.capacity()) * 2
            + self.regions.capacity() * 8
            + self.table.capacity() * 5
            + self.failed.capacity() * 10
    }

    /// The player's region at the start of the last search, with only that search's boxes on
    /// the board: one bit per square (`region[s / 64] >> (s % 64) & 1`).
    pub fn region(&self) -> &[u64] {
        &self.region
    }

    /// Decodes position `at`'s boxes into `self.boxes`.
    fn load(&mut self, at: usize) {
        self.boxes.clear();
        for (w, &word) in self.keys[at * self.words..(at + 1) * self.words].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                self.boxes.push(BoxAt { sq: Sq::new(w * 64 + bits.trailing_zeros() as usize), class: 0 });
                bits &= bits - 1;
            }
        }
    }

    /// Whether the child in `child_key` has every box on a goal (goals are the lowest squares).
    fn solved_child(&self) -> bool {
        let goals = self.child_matched.len();
        let full = goals / 64;
        let on_goals: u32 = self.child_key[..full].iter().map(|w| w.count_ones()).sum::<u32>()
            + if goals.is_multiple_of(64) {
                0
            } else {
                (self.child_key[full] & ((1u64 << (goals % 64)) - 1)).count_ones()
            };
        on_goals == self.child_key.iter().map(|w| w.count_ones()).sum::<u32>()
    }

    /// Repairs `child_matched` after the box on `from` moved to `to`: true when the boxes still
    /// have a perfect matching.
    fn repair(&mut self, from: u16, to: u16, reaches: &impl Fn(usize, usize) -> bool) -> bool {
        let Some(g) = self.child_matched.iter().position(|&b| b == from) else { return false };
        if reaches(to as usize, g) {
            self.child_matched[g] = to;
            return true;
        }
        self.child_matched[g] = FREE;
        self.new_visit();
        self.augment(to, reaches)
    }

    /// Clears Kuhn's visited marks.
    fn new_visit(&mut self) {
        next_round(&mut self.visit, || self.visited.fill(0));
    }

    /// Kuhn's step: finds a goal for the box on `b`, moving other boxes to other goals.
    fn augment(&mut self, b: u16, reaches: &impl Fn(usize, usize) -> bool) -> bool {
        for g in 0..self.child_matched.len() {
            if self.visited[g] == self.visit || !reaches(b as usize, g) {
                continue;
            }
            self.visited[g] = self.visit;
            let holder = self.child_matched[g];
            if holder == FREE || self.augment(holder, reaches) {
                self.child_matched[g] = b;
                return true;
            }
        }
        false
    }
}

/// Dead patterns: sets of boxes that [`Exhaust::proves_dead`] proved dead on their own, each
/// with the player's region it was proved for. A position matches a pattern when a box stands
/// on each of the pattern's squares and its player is in the pattern's region; it is then dead
/// (see [`Exhaust::proves_dead`]). Patterns are listed under each of their squares, so a
/// position that differs from a checked one by one box is checked against the patterns
/// through that box's square only.
#[derive(Debug)]
pub struct Patterns {
    region_words: usize,
    /// Each pattern's squares, as (start, length) into `squares`.
    spans: Vec<(u32, u32)>,
    squares: Vec<u16>,
    /// Each pattern's player region, `region_words` per pattern.
    regions: Vec<u64>,
    /// The patterns holding each square, each with a probe: another of its squares (the
    /// square itself for a one-box pattern), tested first so most patterns that do not match
    /// are passed over without reading them. [`FIRST`] marks the pattern's first square.
    by_square: Vec<Vec<(u32, u16)>>,
}

/// Patterns passed between searches of one level that run at once (the lanes of the fast
/// engine's portfolio): each search [`PatternLog::publish`]es what it proves and takes in what
/// the others proved with [`PatternLog::take_in`]. A pattern is a fact about the level (its
/// boxes are dead with the player in its region, whatever else is on the board), so it holds
/// in every search of the level whatever that search's own choices.
#[derive(Debug, Default)]
pub struct PatternLog {
    /// Each pattern with the search that proved it.
    entries: std::sync::Mutex<Vec<Proven>>,
    /// `entries.len()`, read without the lock.
    len: std::sync::atomic::AtomicUsize,
}

/// A pattern in a [`PatternLog`]: (the search that proved it, its squares, its player region).
type Proven = (usize, Vec<Sq>, Vec<u64>);

impl PatternLog {
    /// Adds the pattern `boxes` (player region `region`) that search `from` proved.
    pub fn publish(&self, from: usize, boxes: &[Sq], region: &[u64]) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.push((from, boxes.to_vec(), region.to_vec()));
        self.len.store(entries.len(), std::sync::atomic::Ordering::Release);
    }

    /// Adds to `patterns` the entries from `*seen` on that other searches than `me` proved,
    /// and moves `*seen` to the end. Costs one atomic load when there is nothing new.
    pub fn take_in(&self, me: usize, seen: &mut usize, patterns: &mut Patterns) {
        if self.len.load(std::sync::atomic::Ordering::Acquire) == *seen {
            return;
        }
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        for (from, boxes, region) in &entries[*seen..] {
            if *from != me {
                patterns.add(boxes, region);
            }
        }
        *seen = entries.len();
    }
}

/// The flag of a [`Patterns`] entry listed under the pattern's first square.
const FIRST: u32 = 1 << 31;

impl Patterns {
    /// An empty store for `a`'s level.
    pub fn new(a: &Analysis) -> Patterns {
        Patterns {
            region_words: a.squares().div_ceil(64),
            spans: Vec::new(),
            squares: Vec::new(),
            regions: Vec::new(),
            by_square: vec![Vec::new(); a.squares()],
        }
    }

    /// Patterns stored.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether none is stored.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Bytes held (the per-square lists counted by their entries).
    pub fn bytes(&self) -> usize {
        self.spans.capacity() * 8
            + self.squares.capacity() * 2
            + self.regions.capacity() * 8
            + self.squares.len() * 8
            + self.by_square.len() * 24
    }

    /// The squares of pattern `i` (in the order it was stored), `i < len()`.
    pub fn boxes(&self, i: usize) -> impl Iterator<Item = Sq> + '_ {
        let (start, len) = self.spans[i];
        self.squares[start as usize..(start + len) as usize].iter().map(|&s| Sq::new(s as usize))
    }

    /// Stores the pattern `boxes` with the player anywhere in `region` (as
    /// [`Exhaust::region`] gives it after a proof).
    pub fn add(&mut self, boxes: &[Sq], region: &[u64]) {
        let id = self.spans.len() as u32;
        self.spans.push((self.squares.len() as u32, boxes.len() as u32));
        for (i, &b) in boxes.iter().enumerate() {
            self.squares.push(b.index() as u16);
            // The next square round, so every box but one probes another.
            let probe = boxes[(i + 1) % boxes.len()].index() as u16;
            let first = if i == 0 { FIRST } else { 0 };
            self.by_square[b.index()].push((id | first, probe));
        }
        self.regions.extend_from_slice(&region[..self.region_words]);
    }

    // Inlined: called once per entry of long lists, most of which the probe rules out.
    #[inline(always)]
    fn matches_pattern(&self, (id, probe): (u32, u16), occupied: &[u8], player: usize) -> bool {
        if occupied[probe as usize] == 0 {
            return false;
        }
        let id = id & !FIRST;
        let (start, len) = self.spans[id as usize];
        let region = &self.regions[id as usize * self.region_words..][..self.region_words];
        region[player / 64] >> (player % 64) & 1 == 1
            && self.squares[start as usize..(start + len) as usize].iter().all(|&s| occupied[s as usize] != 0)
    }

    /// Whether a pattern holding square `at` matches the position with boxes where `occupied`
    /// is non-zero and the player on `player` (any square of the player's region).
    pub fn matches_at(&self, occupied: &[u8], player: usize, at: usize) -> bool {
        self.by_square[at].iter().any(|&entry| self.matches_pattern(entry, occupied, player))
    }

    /// Whether any pattern matches the position (`boxes` are the squares `occupied` marks).
    pub fn matches(&self, occupied: &[u8], boxes: &[Sq], player: usize) -> bool {
        // Each pattern is listed under all its squares: checking it under its first is enough.
        boxes.iter().any(|b| {
            self.by_square[b.index()]
                .iter()
                .any(|&entry| entry.0 & FIRST != 0 && self.matches_pattern(entry, occupied, player))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn a_pattern_log_hands_each_search_the_others_patterns_once() {
        let level = parse_levels("#######\n#@ $ .#\n#. $  #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let words = a.squares().div_ceil(64);
        let log = PatternLog::default();
        let (mut mine, mut theirs) = (Patterns::new(&a), Patterns::new(&a));
        let (mut seen_mine, mut seen_theirs) = (0, 0);
        log.publish(0, &[Sq::new(1), Sq::new(2)], &vec![u64::MAX; words]);
        log.publish(1, &[Sq::new(3)], &vec![u64::MAX; words]);
        for _ in 0..2 {
            log.take_in(0, &mut seen_mine, &mut mine);
            log.take_in(1, &mut seen_theirs, &mut theirs);
        }
        // Each took in the other's one pattern, once, and not its own.
        assert_eq!((mine.len(), theirs.len()), (1, 1));
        assert_eq!(mine.boxes(0).collect::<Vec<_>>(), vec![Sq::new(3)]);
        assert_eq!(theirs.boxes(0).collect::<Vec<_>>(), vec![Sq::new(1), Sq::new(2)]);
        assert_eq!((seen_mine, seen_theirs), (2, 2));
    }

    fn check(text: &str, budget: usize) -> bool {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let boxes: Vec<Sq> = level.boxes().iter().map(|&b| a.sq(b)).collect();
        let reaches = |s: usize, g: usize| a.distance(g, Sq::new(s)).is_some();
        Exhaust::new(&a).proves_dead(&a, &boxes, a.sq(level.player()), budget, reaches, &mut || false)
    }

    #[test]
    fn a_solvable_position_is_never_proven_dead() {
        assert!(!check("#######\n#.$ $.#\n# $@$ #\n#.   .#\n#######\n", 10_000));
        assert!(!check("#######\n#@ $ .#\n#######\n", 10_000));
    }

    #[test]
    fn a_dead_position_that_passes_the_local_tests_is_proven_dead() {
        // Each box alone could reach a goal and the start has a matching, but the player can
        // only ever push the left box, into the right one.
        let text = "###########\n#@$   $ ..#\n###########\n";
        assert!(check(text, 1_000), "two boxes in a one-wide corridor, pushable right only");
    }

    #[test]
    fn boxes_that_wander_off_a_shut_in_corner_vanish_from_its_proof() {
        // A position of XSokoban 28: the eight boxes round the shut-in floor at the bottom
        // left can never let the player in without a deadlock, but two of them can wander over
        // the open floor, which without vanishing takes over a million positions to exhaust.
        let rows = [
            "         #####",
            "     #####   #",
            "    ## $@$ $ ####",
            "#####        ##*#",
            "#     $   $ ##.*#",
            "#  ###### ###.. #",
            "## #  #    #...$#",
            "#     # $$ #... #",
            "#  #$$## ####..*#",
            "####  $  $  ##..#",
            "   ##  $     ...#",
            "    # $$$   #  .#",
            "    #   $    ####",
            "    ######   #",
            "         #####",
        ];
        let text = &rows.join("\n");
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let fence = [(8, 4), (8, 5), (9, 6), (10, 7), (11, 6), (11, 7), (11, 8), (12, 8)];
        let boxes: Vec<Sq> = fence.iter().map(|&(r, c)| a.sq(level.square_at(r, c).unwrap())).collect();
        let reaches = |s: usize, g: usize| a.distance(g, Sq::new(s)).is_some();
        let mut exhaust = Exhaust::new(&a);
        // Without vanishing the same budget proves nothing (the wanderers' moves fill it), and
        // the failure is kept apart from the searches with vanishing.
        exhaust.set_vanishing(false);
        assert!(!exhaust.proves_dead(&a, &boxes, a.sq(level.player()), 100, reaches, &mut || false));
        assert!(exhaust.stopped_short());
        exhaust.set_vanishing(true);
        assert!(exhaust.proves_dead(&a, &boxes, a.sq(level.player()), 100, reaches, &mut || false));
        // Without the box on (10,7) the player gets in: nothing is proven.
        let open = &boxes[..3].iter().chain(&boxes[4..]).copied().collect::<Vec<_>>();
        assert!(!exhaust.proves_dead(&a, open, a.sq(level.player()), 10_000, reaches, &mut || false));
    }

    #[test]
    fn a_small_budget_proves_nothing() {
        // Dead, but only a search of three positions shows it.
        let text = "###########\n#@$   $ ..#\n###########\n";
        assert!(!check(text, 1));
        assert!(!check(text, 2));
        assert!(check(text, 3));
    }

    #[test]
    fn a_search_that_proves_nothing_says_whether_it_stopped_short() {
        let run = |text: &str, budget: usize| {
            let level = parse_levels(text).unwrap().remove(0);
            let a = Analysis::new(&level);
            let boxes: Vec<Sq> = level.boxes().iter().map(|&b| a.sq(b)).collect();
            let reaches = |s: usize, g: usize| a.distance(g, Sq::new(s)).is_some();
            let mut exhaust = Exhaust::new(&a);
            let player = a.sq(level.player());
            let dead = exhaust.proves_dead(&a, &boxes, player, budget, reaches, &mut || false);
            let first = exhaust.stopped_short();
            // The failed search is remembered, with its reason.
            assert!(!exhaust.proves_dead(&a, &boxes, player, budget, reaches, &mut || false) || dead);
            assert_eq!(exhaust.stopped_short(), first);
            (dead, first)
        };
        let dead_corridor = "###########\n#@$   $ ..#\n###########\n";
        assert_eq!(run(dead_corridor, 2), (false, true));
        assert_eq!(run("#######\n#@ $ .#\n#######\n", 10_000), (false, false));
        // Two boxes in an open room: the player reaches every free square, so the search
        // stops at once, short, however large its budget.
        let open_room = "#########\n#@      #\n#  $ $  #\n#       #\n#     ..#\n#########\n";
        assert_eq!(run(open_room, 10_000), (false, true));
    }

    #[test]
    fn a_dead_subset_becomes_a_pattern_that_matches_supersets_only_in_its_region() {
        // The corridor's two boxes are dead on their own (only the left one can be pushed, into
        // the right one); the third box in the room below has nothing to do with it.
        let text = "############\n#@$   $ ..##\n# ######## #\n#  $  .    #\n############\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let sq = |r: usize, c: usize| a.sq(level.square_at(r, c).unwrap());
        let pair = [sq(1, 2), sq(1, 6)];
        let reaches = |s: usize, g: usize| a.distance(g, Sq::new(s)).is_some();
        let mut exhaust = Exhaust::new(&a);
        assert!(exhaust.proves_dead(&a, &pair, sq(1, 1), 1_000, reaches, &mut || false));
        let mut patterns = Patterns::new(&a);
        patterns.add(&pair, exhaust.region());
        let mut occupied = vec![0u8; a.squares()];
        let mut boxes = pair.to_vec();
        boxes.push(sq(3, 3));
        for b in &boxes {
            occupied[b.index()] = 1;
        }
        let player = sq(3, 1).index();
        assert!(patterns.matches(&occupied, &boxes, player), "the player anywhere in the region");
        assert!(patterns.matches_at(&occupied, player, sq(1, 6).index()));
        assert!(!patterns.matches_at(&occupied, player, sq(3, 3).index()), "listed under its own squares only");
        // Between the two boxes the player is outside the pattern's region.
        assert!(!patterns.matches(&occupied, &boxes, sq(1, 4).index()));
        // Without the right box the pattern does not apply.
        occupied[sq(1, 6).index()] = 0;
        boxes[1] = sq(1, 7);
        occupied[sq(1, 7).index()] = 1;
        assert!(!patterns.matches(&occupied, &boxes, player));
        // And a subset already on goals is never dead.
        assert!(!exhaust.proves_dead(&a, &[sq(1, 8), sq(1, 9)], sq(1, 1), 1_000, reaches, &mut || false));
    }
}
