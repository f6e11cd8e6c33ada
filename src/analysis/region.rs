//! Player regions: the one flood over a level's squares, and the marks, labels and side groups
//! built on it. Every engine and advisor that asks where the player can walk (or which part of
//! the floor a square is in) floods through here.
//!
//! - [`spread`] is the flood loop itself: breadth first over [`Analysis::neighbor_indices`] in
//!   [`Dir::ALL`] order from the squares already queued, the caller deciding per neighbour
//!   whether the flood enters it (and marking it), and before each square whether to go on.
//!   The order is fixed, so every search built on it is deterministic.
//! - [`Stamps`] are O(1)-clear marks (a round counter; the table is wiped only when it wraps).
//! - [`Flood`] is a stamped flood with its own queue: the player's region from one square over
//!   the squares a closure calls open, its lowest square (the normalised player of the state
//!   keys) and, on demand, the walk from the start ([`Flood::fill_with`]).
//! - [`Labels`] labels every region of the floor at once (the fast engine's connectivity).
//! - [`side_groups`] says which sides of a box's square the player can walk between.
//! - [`relaxed_pushes`] floods a box's squares instead, the player anywhere behind it (the
//!   relaxed push graph of the distance tables); [`relaxed_pulls`] the same graph backwards.
//!
//! Nothing here allocates per call once the buffers have grown; the loop and the closures are
//! inlined into each caller. It lives with the analysis (which owns [`Sq`] and the neighbour
//! table) rather than in the solver, below every engine and rule, so that all of them can use
//! it without an import circle; like the analysis, it never uses the solver.

use std::cell::Cell;

use super::{Analysis, NO_SQUARE, Sq};
use crate::level::Dir;

/// What [`spread`] does with a neighbour it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Leave it out (a wall of this flood, or marked already).
    Skip,
    /// Queue it (the caller has marked it).
    Enter,
    /// End the flood now.
    Stop,
}

/// The flood loop. Takes the squares of `queue` in order (the caller seeds and marks them) and
/// shows each one's neighbours, in [`Dir::ALL`] order, to `step(square, direction, neighbour)`;
/// those it enters are queued behind. Before taking a square, `go(square, queued)` may end the
/// flood (`queued`: the queue's length then). Returns how many squares were taken. `queue` ends
/// holding every square entered, in order.
#[inline(always)]
pub fn spread(
    a: &Analysis,
    queue: &mut Vec<Sq>,
    mut go: impl FnMut(Sq, usize) -> bool,
    mut step: impl FnMut(Sq, Dir, Sq) -> Step,
) -> usize {
    let mut head = 0;
    while head < queue.len() {
        let s = queue[head];
        if !go(s, queue.len()) {
            break;
        }
        head += 1;
        for (d, t) in Dir::ALL.into_iter().zip(a.neighbor_indices(s)) {
            if t == NO_SQUARE {
                continue;
            }
            let t = Sq::from_raw(t);
            match step(s, d, t) {
                Step::Skip => {}
                Step::Enter => queue.push(t),
                Step::Stop => return head,
            }
        }
    }
    head
}

/// The relaxed push flood: a box's squares, breadth first from those in `queue` (as
/// [`spread`]), where a box on `s` may go to its neighbour `t` when the square `behind` it
/// (where the player stands to push) is one the player can ever stand on beside it
/// ([`Analysis::stands_beside`]), whatever the player can reach now; it goes when
/// `enter(s, t, behind)` says so (the caller marks `t`). Returns how many squares were taken.
#[inline]
pub fn relaxed_pushes(
    a: &Analysis,
    queue: &mut Vec<Sq>,
    go: impl FnMut(Sq, usize) -> bool,
    mut enter: impl FnMut(Sq, Sq, Sq) -> bool,
) -> usize {
    spread(a, queue, go, |s, d, t| match a.neighbor(s, d.opposite()) {
        Some(behind) if a.stands_beside(s, d.opposite()) && enter(s, t, behind) => Step::Enter,
        _ => Step::Skip,
    })
}

/// The relaxed pull flood, [`relaxed_pushes`] backwards: the squares a box may have come from
/// to reach those in `queue`, where a box on `t` may have come from its neighbour `s` when the
/// square `beyond` it (where the player stood to push it onto `t`) is one the player can stand
/// on beside it; it goes when `enter(t, s, beyond)` says so (the caller marks `s`). Returns how
/// many squares were taken.
#[inline]
pub fn relaxed_pulls(
    a: &Analysis,
    queue: &mut Vec<Sq>,
    go: impl FnMut(Sq, usize) -> bool,
    mut enter: impl FnMut(Sq, Sq, Sq) -> bool,
) -> usize {
    spread(a, queue, go, |t, d, s| match a.neighbor(s, d) {
        Some(beyond) if a.stands_beside(s, d) && enter(t, s, beyond) => Step::Enter,
        _ => Step::Skip,
    })
}

/// Moves the round counter behind O(1)-cleared marks (stamps that count while they equal the
/// round, as in [`Stamps`]) on to a fresh round and returns it; when the counter wraps round,
/// `clear` wipes the marks first and the rounds start over at 1 (0 is never a round, so
/// zeroed marks are never current).
#[inline]
pub fn next_round(round: &mut u32, clear: impl FnOnce()) -> u32 {
    *round = round.wrapping_add(1);
    if *round == 0 {
        clear();
        *round = 1;
    }
    *round
}

/// Marks on squares that [`Stamps::clear`] wipes in O(1): a square is marked while its stamp
/// is the current round's, and the stamps start over only when the round counter wraps.
#[derive(Debug, Clone)]
pub struct Stamps {
    stamp: Vec<u32>,
    round: u32,
}

impl Stamps {
    /// Marks for `n` squares, none marked.
    pub fn new(n: usize) -> Stamps {
        Stamps { stamp: vec![0; n], round: 1 }
    }

    /// Unmarks every square.
    #[inline]
    pub fn clear(&mut self) {
        next_round(&mut self.round, || self.stamp.fill(0));
    }

    /// Marks `s`.
    #[inline]
    pub fn mark(&mut self, s: Sq) {
        self.stamp[s.index()] = self.round;
    }

    /// Whether `s` is marked.
    #[inline]
    pub fn has(&self, s: Sq) -> bool {
        self.stamp[s.index()] == self.round
    }

    /// Marks `s` unless it is marked already; whether it was not.
    #[inline]
    pub fn insert(&mut self, s: Sq) -> bool {
        let fresh = !self.has(s);
        self.mark(s);
        fresh
    }
}

/// A player-region flood with its own marks and queue: after [`Flood::fill`], the region is
/// the marked squares, in the order of the walk's distance from the start.
#[derive(Debug, Clone)]
pub struct Flood {
    marks: Stamps,
    queue: Vec<Sq>,
}

impl Flood {
    /// A flood for `n` squares.
    pub fn new(n: usize) -> Flood {
        Flood { marks: Stamps::new(n), queue: Vec::with_capacity(n) }
    }

    /// Marks the squares the player reaches from `start` over the squares where `open` holds
    /// (`start` itself is entered whatever `open` says); returns the lowest of them.
    #[inline]
    pub fn fill(&mut self, a: &Analysis, start: Sq, open: impl Fn(Sq) -> bool) -> Sq {
        let mut lowest = start;
        self.fill_with(
            a,
            start,
            |_, _| true,
            |_, t| {
                if open(t) {
                    lowest = lowest.min(t);
                    true
                } else {
                    false
                }
            },
        );
        lowest
    }

    /// [`Flood::fill`] that ends as soon as it has entered every one of `targets` (squares other
    /// than `start`); whether it did. When it did not, the region is whole.
    #[inline]
    pub fn fill_until(&mut self, a: &Analysis, start: Sq, open: impl Fn(Sq) -> bool, targets: &[Sq]) -> bool {
        let left = Cell::new(targets.len());
        self.fill_with(
            a,
            start,
            |_, _| left.get() > 0,
            |_, t| {
                if !open(t) {
                    return false;
                }
                if targets.contains(&t) {
                    left.set(left.get() - 1);
                }
                true
            },
        );
        left.get() == 0
    }

    /// [`Flood::fill`] over the squares free of boxes (`occupied` is 0), the usual player's
    /// region.
    #[inline]
    pub fn player(&mut self, a: &Analysis, occupied: &[u8], start: Sq) -> Sq {
        self.fill(a, start, |t| occupied[t] == 0)
    }

    /// The general form of [`Flood::fill`]: `go(square, queued)` may end the flood before it
    /// takes a square (see [`spread`]), and `enter(from, to)`, asked for each unmarked
    /// neighbour, says whether the flood enters it. Returns how many squares were taken.
    #[inline]
    pub fn fill_with(
        &mut self,
        a: &Analysis,
        start: Sq,
        go: impl FnMut(Sq, usize) -> bool,
        mut enter: impl FnMut(Sq, Sq) -> bool,
    ) -> usize {
        let Flood { marks, queue } = self;
        marks.clear();
        queue.clear();
        queue.push(start);
        marks.mark(start);
        spread(a, queue, go, |s, _, t| {
            if !marks.has(t) && enter(s, t) {
                marks.mark(t);
                Step::Enter
            } else {
                Step::Skip
            }
        })
    }

    /// Whether the last flood reached `s`.
    #[inline]
    pub fn contains(&self, s: Sq) -> bool {
        self.marks.has(s)
    }

    /// The squares the last flood reached, in the order it reached them.
    pub fn squares(&self) -> &[Sq] {
        &self.queue
    }

    /// Writes the last flood's region to `bits`, one bit per square
    /// (`bits[s / 64] >> (s % 64) & 1`).
    pub fn write_bits(&self, bits: &mut [u64]) {
        bits.fill(0);
        for s in &self.queue {
            bits[s.index() / 64] |= 1 << (s.index() % 64);
        }
    }
}

/// Every region of the floor at once: each square where `open` holds gets the label of its
/// region, regions numbered in the order of their lowest squares.
#[derive(Debug, Clone)]
pub struct Labels {
    /// A region's label is `base + 1 + its number`; labels at or below `base` are stale.
    label: Vec<u32>,
    base: u32,
    next: u32,
    queue: Vec<Sq>,
    /// The lowest square of each region.
    seeds: Vec<Sq>,
    /// The number of squares of each region.
    sizes: Vec<u32>,
}

impl Labels {
    /// Labels for `n` squares.
    pub fn new(n: usize) -> Labels {
        Labels { label: vec![0; n], base: 0, next: 0, queue: Vec::new(), seeds: Vec::new(), sizes: Vec::new() }
    }

    /// Labels the regions of the squares where `open` holds; returns how many there are.
    pub fn fill(&mut self, a: &Analysis, open: impl Fn(Sq) -> bool) -> usize {
        // Each region gets its own label; start fresh when they could overflow.
        if self.next > u32::MAX - a.squares() as u32 - 2 {
            self.label.fill(0);
            self.next = 0;
        }
        let base = self.next;
        self.base = base;
        self.seeds.clear();
        self.sizes.clear();
        for s in a.all() {
            if !open(s) || self.label[s] > base {
                continue;
            }
            self.seeds.push(s);
            self.next += 1;
            let id = self.next;
            let Labels { label, queue, .. } = self;
            label[s] = id;
            queue.clear();
            queue.push(s);
            let size = spread(
                a,
                queue,
                |_, _| true,
                |_, _, t| {
                    if open(t) && label[t] <= base {
                        label[t] = id;
                        Step::Enter
                    } else {
                        Step::Skip
                    }
                },
            );
            self.sizes.push(size as u32);
        }
        self.seeds.len()
    }

    /// The region (numbered from 0) of `s` in the last labelling, `None` where `open` did not
    /// hold.
    #[inline]
    pub fn region_of(&self, s: Sq) -> Option<usize> {
        (self.label[s] > self.base).then(|| (self.label[s] - self.base - 1) as usize)
    }

    /// The number of regions of the last labelling.
    pub fn count(&self) -> usize {
        self.seeds.len()
    }

    /// The lowest square of region `r`.
    pub fn seed(&self, r: usize) -> Sq {
        self.seeds[r]
    }

    /// The number of squares of region `r`.
    pub fn size(&self, r: usize) -> usize {
        self.sizes[r] as usize
    }

    /// How many distinct regions of the last labelling lie beside `s` (walls and squares
    /// where `open` did not hold have none): freeing `s` would merge them into one.
    pub fn regions_beside(&self, a: &Analysis, s: Sq) -> usize {
        let mut seen = [usize::MAX; 4];
        let mut k = 0;
        for d in Dir::ALL {
            let Some(r) = a.neighbor(s, d).and_then(|t| self.region_of(t)) else { continue };
            if !seen[..k].contains(&r) {
                seen[k] = r;
                k += 1;
            }
        }
        k
    }
}

/// No part of the floor: a wall or a blocked square beside the box.
pub const NO_GROUP: u8 = u8::MAX;

/// The groups of the sides of `pos` with a box on it, the squares where `open` holds being the
/// floor (`open` must not hold on `pos`): a label per side (equal labels: the player can walk
/// from one side to the other round the box), [`NO_GROUP`] where the side is not floor. Labels
/// are numbered from 0 in [`Dir::ALL`] order. Each flood stops once every side is labelled.
pub fn side_groups(a: &Analysis, flood: &mut Flood, pos: Sq, open: impl Fn(Sq) -> bool) -> [u8; 4] {
    let sides = Dir::ALL.map(|d| a.neighbor(pos, d).filter(|&t| open(t)));
    let mut labels = [NO_GROUP; 4];
    let mut next = 0u8;
    for i in 0..4 {
        let Some(start) = sides[i] else { continue };
        if labels[i] != NO_GROUP {
            continue;
        }
        labels[i] = next;
        let missing = Cell::new((i + 1..4).filter(|&j| sides[j].is_some() && labels[j] == NO_GROUP).count());
        if missing.get() > 0 {
            flood.fill_with(
                a,
                start,
                |_, _| missing.get() > 0,
                |_, t| {
                    if !open(t) {
                        return false;
                    }
                    for j in i + 1..4 {
                        if sides[j] == Some(t) && labels[j] == NO_GROUP {
                            labels[j] = next;
                            missing.set(missing.get() - 1);
                        }
                    }
                    true
                },
            );
        }
        next += 1;
    }
    labels
}

/// For each square `s`, the sides of it (bit `d.index()` for the square in direction `d`) the
/// player can ever stand on while a box is on `s`, among the walls alone: the sides in the part
/// of the floor round `s` from which a box can be pushed onto `s` (a side whose square and the
/// square beyond it are floor), or that holds `start`, the player's square at the start. A box
/// that never left `s` has the player in the part of `start`; after its last push onto `s`, in
/// the part the push left it in; walking never crosses the box. A side in a pocket that only
/// `s` opens onto (a dead end one square deep, say) is never stood on with the box there, so a
/// push from it is no push at all. `None` when `stop` says so (called every few hundred squares).
pub fn player_sides(a: &Analysis, start: Sq, stop: &mut impl FnMut() -> bool) -> Option<Vec<u8>> {
    let mut flood = Flood::new(a.squares());
    let mut sides = vec![0u8; a.squares()];
    for s in a.all() {
        if s.index() % 256 == 0 && stop() {
            return None;
        }
        let groups = side_groups(a, &mut flood, s, |t| t != s);
        let pushed_from = |d: Dir| a.neighbor(s, d).and_then(|n| a.neighbor(n, d)).is_some();
        let mut entered = [false; 4];
        for d in Dir::ALL.into_iter().filter(|&d| groups[d.index()] != NO_GROUP && pushed_from(d)) {
            entered[groups[d.index()] as usize] = true;
        }
        let open = |d: Dir| groups[d.index()] != NO_GROUP;
        if start != s && Dir::ALL.into_iter().any(|d| open(d) && !entered[groups[d.index()] as usize]) {
            flood.fill(a, start, |t| t != s);
            for d in Dir::ALL.into_iter().filter(|&d| open(d) && a.neighbor(s, d).is_some_and(|n| flood.contains(n))) {
                entered[groups[d.index()] as usize] = true;
            }
        }
        sides[s.index()] = Dir::ALL
            .into_iter()
            .filter(|&d| open(d) && entered[groups[d.index()] as usize])
            .fold(0, |mask, d| mask | 1 << d.index());
    }
    Some(sides)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn a_clear_unmarks_everything_also_when_the_rounds_wrap() {
        let mut marks = Stamps::new(3);
        let s = |i| Sq::new(i);
        marks.mark(s(1));
        assert!(marks.has(s(1)) && !marks.has(s(0)) && !marks.has(s(2)));
        marks.clear();
        assert!(!marks.has(s(1)));
        marks.mark(s(2));
        marks.round = u32::MAX;
        marks.mark(s(0));
        marks.clear();
        assert!((0..3).all(|i| !marks.has(s(i))), "stamps from before the wrap do not count");
    }

    /// The squares the relaxed flood `backward` or not takes a box on `from` to, `blocked` as
    /// walls.
    fn relaxed(a: &Analysis, from: Sq, blocked: Sq, backward: bool) -> Vec<bool> {
        let mut seen = vec![false; a.squares()];
        seen[from.index()] = true;
        let mut enter = |here: Sq, next: Sq, player: Sq| {
            let onto = if backward { here } else { next };
            let fresh = onto != blocked && player != blocked && !seen[next.index()];
            seen[next.index()] |= fresh;
            fresh
        };
        let mut queue = vec![from];
        match backward {
            false => relaxed_pushes(a, &mut queue, |_, _| true, &mut enter),
            true => relaxed_pulls(a, &mut queue, |_, _| true, &mut enter),
        };
        seen
    }

    #[test]
    fn the_pull_flood_reaches_a_square_exactly_when_the_push_flood_reaches_back() {
        let level = parse_levels("#######\n#  #  #\n# $ . #\n#  @# #\n##    #\n #  # #\n #######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        for blocked in 0..a.squares() {
            let ahead: Vec<Vec<bool>> =
                (0..a.squares()).map(|s| relaxed(&a, Sq::new(s), Sq::new(blocked), false)).collect();
            for t in 0..a.squares() {
                let behind = relaxed(&a, Sq::new(t), Sq::new(blocked), true);
                let reaching: Vec<bool> = ahead.iter().map(|reach| reach[t]).collect();
                assert_eq!(behind, reaching, "to {t}, {blocked} blocked");
            }
        }
    }

    #[test]
    fn the_player_never_stands_in_a_pocket_beside_a_box_unless_it_started_there() {
        // The square under (1,3) and the goal right of it open onto (1,3) alone: with a box
        // there, the player is never in either, so the box is only ever pushed from the left.
        let sides = |text: &str, row, col| {
            let level = parse_levels(text).unwrap().remove(0);
            let a = Analysis::new(&level);
            let s = a.sq(level.square_at(row, col).unwrap());
            Dir::ALL.into_iter().filter(|&d| a.stands_beside(s, d)).fold(0u8, |mask, d| mask | 1 << d.index())
        };
        let bit = |d: Dir| 1u8 << d.index();
        let level = "######\n#@ $.#\n### ##\n  ###\n";
        assert_eq!(sides(level, 1, 3), bit(Dir::Left));
        // Beside the box on (1,2), the player's own dead end counts: it stands there at the start.
        assert_eq!(sides(level, 1, 2), bit(Dir::Left) | bit(Dir::Right));
        // Started in the pocket, the player stands there under the box on (1,3).
        let started_below = "######\n#  $.#\n###@##\n  ###\n";
        assert_eq!(sides(started_below, 1, 3), bit(Dir::Left) | bit(Dir::Down));
    }

    #[test]
    fn a_box_walls_off_the_squares_behind_it() {
        let level = parse_levels("#######\n#  @$ .#\n########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |x| a.sq(level.square_at(1, x).unwrap());
        let mut flood = Flood::new(a.squares());
        let lowest = flood.fill(&a, at(3), |t| t != at(4));
        assert!(flood.contains(at(1)) && flood.contains(at(3)));
        assert!(!flood.contains(at(4)) && !flood.contains(at(5)));
        assert_eq!(lowest, [at(1), at(2), at(3)].into_iter().min().unwrap());
        assert_eq!(flood.squares().len(), 3);
        let mut bits = vec![0; a.squares().div_ceil(64)];
        flood.write_bits(&mut bits);
        assert!(a.all().all(|s| (bits[s.index() / 64] >> (s.index() % 64) & 1 == 1) == flood.contains(s)));
    }

    #[test]
    fn labels_count_the_parts_of_the_floor_and_side_groups_agree() {
        let level = parse_levels("#######\n#  #  #\n# @$. #\n#  #  #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let b = a.sq(level.boxes()[0]);
        let mut labels = Labels::new(a.squares());
        assert_eq!(labels.fill(&a, |t| t != b), 2);
        assert_eq!(labels.region_of(b), None);
        let p = a.sq(level.player());
        let mut flood = Flood::new(a.squares());
        assert_eq!(labels.seed(labels.region_of(p).unwrap()), flood.fill(&a, p, |t| t != b));
        assert_eq!(labels.size(labels.region_of(p).unwrap()), flood.squares().len());
        assert_eq!(labels.fill(&a, |_| true), 1, "relabelled from scratch");
        assert_eq!(labels.size(0), a.squares());
        let mut flood = Flood::new(a.squares());
        assert_eq!(side_groups(&a, &mut flood, b, |t| t != b), [NO_GROUP, 0, NO_GROUP, 1]);
    }
}
